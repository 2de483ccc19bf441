// The landing's content (hero, copy, highlights, button, colours with their contrast), the
// policy-coverage warning and the wide drawer they are edited in: the landing editor and the
// experiment's variant editor both use them.
import type { ReactNode } from 'react';
import { Button, Col, Drawer, Form, Input, Row, Space, Typography, type FormInstance } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { DEFAULT_COLORS, landingColors, landingContent } from '@contracts/landings.ts';
import { josa } from '@contracts/korean.ts';
import { uncoveredFields } from '@contracts/privacy.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { HeroImageInput } from './hero-image-input.tsx';
import { ColorContrast } from './color-contrast.tsx';
import { ColorInput } from './color-input.tsx';
import { landingRule, type EditorField, type EditorValues } from './landing-form.ts';

/**
 * The editor's drawer: wide beside its live preview, full screen on a phone, closed only through
 * the close guard (`onClose` asks before unsaved work goes; the mask does not close it).
 */
export function EditorDrawer({ title, onClose, children }: { title: ReactNode; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer open size="min(1320px, 100vw)" destroyOnHidden mask={{ closable: false }} onClose={onClose} title={title} styles={{ body: { paddingTop: 12 } }}>
      {children}
    </Drawer>
  );
}

/** What the chosen (or latest) policy names as collected, against the form's fields: a warning before publishing. */
export function usePolicyCoverage(form: FormInstance<EditorValues>, policies: ReadonlyArray<{ id: number; current: boolean; items: string }> | undefined): ReactNode {
  const formFields = (Form.useWatch('formFields', form) ?? []) as EditorField[];
  const pinned = Form.useWatch('privacyPolicyVersionId', form) as number | null | undefined;
  const policyInForce = (policies ?? []).find((p) => (pinned ? p.id === pinned : p.current));
  const uncovered = policyInForce ? uncoveredFields(policyInForce.items, formFields.filter((f) => f.label?.trim())) : [];
  return uncovered.length > 0 && (
    <>
      {uncovered.map((l) => `'${l}'`).join(', ')}
      {josa(uncovered.at(-1)!, '이/가')} 개인정보 처리방침의 수집 항목에 없습니다. 동의 문구와 처리방침 페이지에는 이 랜딩이 받는 항목을 그대로 표시하니, 처리방침의 수집 항목에도 넣어 주세요.
    </>
  );
}

const colorField = (key: 'primary' | 'background' | 'text', label: string) => (
  <Col xs={24} sm={8} key={key}>
    <Form.Item
      label={label}
      name={['content', 'colors', key]}
      required
      rules={[zodRule(landingColors, key)]}
      getValueFromEvent={(color: { toHexString(): string }) => color.toHexString().slice(0, 7)}
    >
      <ColorInput label={label} />
    </Form.Item>
  </Col>
);

export function ContentTab({ form, shopId, disabled }: { form: FormInstance<EditorValues>; shopId: number; disabled: boolean }) {
  const colors = Form.useWatch(['content', 'colors'], form) as Partial<typeof DEFAULT_COLORS> | undefined;
  return (
    <>
      <Form.Item label="대표 이미지" name={['content', 'hero']} extra="PNG·JPEG·WebP·GIF, 3MB 이하. 가로 1200px 정도를 권장합니다.">
        <HeroImageInput shopId={shopId} disabled={disabled} />
      </Form.Item>
      <Form.Item label="대표 문구" name={['content', 'headline']} required rules={[zodRule(landingContent, 'headline')]}>
        <Input maxLength={80} placeholder="예: 임플란트 1개 월 3만원대부터" />
      </Form.Item>
      <Form.Item label="보조 문구" name={['content', 'subheadline']} rules={[zodRule(landingContent, 'subheadline')]}>
        <Input maxLength={160} placeholder="대표 문구 아래 한 줄 설명" />
      </Form.Item>
      <Form.Item label="본문" name={['content', 'body']} rules={[zodRule(landingContent, 'body')]} extra="빈 줄로 문단을 나눕니다.">
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} maxLength={3000} showCount />
      </Form.Item>
      <Form.Item label="강조 항목" required={false}>
        <Form.List name={['content', 'bullets']}>
          {(fields, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {fields.map(({ key, name }, i) => (
                <div key={key} style={{ display: 'flex', gap: 8 }}>
                  <Form.Item name={name} rules={[landingRule(form, ['content', 'bullets', name])]} style={{ flex: 1, marginBottom: 0 }}>
                    <Input maxLength={100} placeholder="예: 상담 후 당일 시술 가능" aria-label={`강조 항목 ${i + 1}`} />
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} aria-label={`강조 항목 ${i + 1} 삭제`} onClick={() => remove(name)} />
                </div>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= 10} onClick={() => add('')}>
                강조 항목 추가
              </Button>
            </Space>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item label="신청 버튼 문구" name={['content', 'ctaLabel']} required rules={[zodRule(landingContent, 'ctaLabel')]}>
        <Input maxLength={20} style={{ maxWidth: 320 }} />
      </Form.Item>
      <Typography.Text strong>색상</Typography.Text>
      <Row gutter={16} style={{ marginTop: 8 }}>
        {colorField('primary', '강조색 (버튼)')}
        {colorField('background', '배경색')}
        {colorField('text', '글자색')}
      </Row>
      <ColorContrast colors={{ ...DEFAULT_COLORS, ...colors }} />
    </>
  );
}

