// One variant's content in full, while its experiment is a draft: the landing editor's content tab
// (copy, hero, highlights, button, colours with their contrast) and form builder (fields and their
// order) on the variant, beside a live preview of the variant as its visitors will get it. The
// consent texts, thank-you and privacy policy stay the landing's: the form is checked whole with
// the landing schema, exactly as a landing's.
import { useState } from 'react';
import { Alert, App, Button, Col, Form, Row, Space, Tabs } from 'antd';
import type { Landing } from '@contracts/landings.ts';
import type { VariantContent } from '@contracts/experiments.ts';
import { privacyPoliciesApi } from '@contracts/privacy.ts';
import type { ApiError } from '@/lib/api.ts';
import { useCall } from '@/lib/use-call.ts';
import { useCloseGuard, useTrackChanges, type CloseGuard } from '@/lib/close-guard.ts';
import { FormBuilder } from './form-builder.tsx';
import { ContentTab, EditorDrawer, usePolicyCoverage } from './landing-content.tsx';
import { LandingPreview } from './landing-preview.tsx';
import { parseInput, variantFieldErrors, variantValues, type EditorValues } from './landing-form.ts';

type TabKey = 'content' | 'form';

interface VariantEditorProps {
  shopId: number;
  landing: Landing;
  variantKey: string;
  /** The variant's place in the experiment (its server errors' `variants.<index>`). */
  index: number;
  content: VariantContent;
  writable: boolean;
  /** Saves the experiment with this as the variant's content; answers the server's refusal, or null. */
  onSave: (content: VariantContent) => Promise<ApiError | null>;
  onClose: () => void;
}

export function VariantEditor(props: VariantEditorProps) {
  const guard = useCloseGuard(props.onClose);
  return (
    <EditorDrawer title={`${props.variantKey}안 내용 편집`} onClose={guard.requestClose}>
      <VariantEditorBody {...props} guard={guard} />
    </EditorDrawer>
  );
}

function VariantEditorBody({ shopId, landing, variantKey, index, content, writable, onSave, onClose, guard }: VariantEditorProps & { guard: CloseGuard }) {
  const [form] = Form.useForm<EditorValues>();
  const [initial] = useState(() => variantValues(landing, content));
  const [previewValues, setPreviewValues] = useState<EditorValues>(initial);
  const [tab, setTab] = useState<TabKey>('content');
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const tracked = useTrackChanges(guard, form);
  const policies = useCall(privacyPoliciesApi.options, { params: { shopId } }, { staleTime: 30_000 });
  const coverage = usePolicyCoverage(form, policies.data?.items);

  async function save() {
    try {
      await form.validateFields();
    } catch (err) {
      const first = (err as { errorFields?: Array<{ name: (string | number)[] }> }).errorFields?.[0];
      if (first) setTab(first.name[0] === 'formFields' ? 'form' : 'content');
      message.error('입력값을 확인하세요.');
      return;
    }
    const parsed = parseInput(form.getFieldsValue(true) as EditorValues);
    if (!parsed.success) {
      message.error(parsed.error.issues[0]?.message ?? '입력값을 확인하세요.');
      return;
    }
    setBusy(true);
    try {
      const refused = await onSave({ ...parsed.data.content, formFields: parsed.data.formFields });
      if (refused) {
        const fields = variantFieldErrors(refused.fields, index);
        form.setFields(fields as never);
        if (fields[0]) setTab(fields[0].name[0] === 'formFields' ? 'form' : 'content');
        message.error(refused.message);
        return;
      }
      tracked.saved();
      message.success(`${variantKey}안의 내용을 저장했습니다.`);
      onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Row gutter={[24, 16]}>
      <Col xs={24} xl={14}>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`${variantKey}안을 보는 방문자에게만 이 내용과 신청 양식이 보입니다. 동의 문구, 신청 완료 안내, 개인정보 처리방침은 랜딩의 것을 그대로 씁니다.`}
        />
        {coverage && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={coverage} />}
        <Form<EditorValues>
          form={form}
          name={`variant-editor-${variantKey}`}
          layout="vertical"
          requiredMark="optional"
          initialValues={initial}
          disabled={!writable}
          onValuesChange={() => setPreviewValues(form.getFieldsValue(true) as EditorValues)}
        >
          <Tabs
            activeKey={tab}
            onChange={(k) => setTab(k as TabKey)}
            items={[
              { key: 'content', label: '콘텐츠', forceRender: true, children: <ContentTab form={form} shopId={shopId} disabled={!writable} /> },
              { key: 'form', label: '신청 양식', forceRender: true, children: <FormBuilder form={form} disabled={!writable} /> },
            ]}
          />
        </Form>
        <div style={{ display: 'flex', justifyContent: 'flex-end', borderTop: '1px solid #f0f0f0', paddingTop: 16, marginTop: 8 }}>
          <Space>
            <Button onClick={guard.requestClose}>닫기</Button>
            {writable && (
              <Button type="primary" loading={busy} onClick={() => void save()}>
                저장
              </Button>
            )}
          </Space>
        </div>
      </Col>
      <Col xs={24} xl={10}>
        <div style={{ position: 'sticky', top: 0 }}>
          <LandingPreview shopId={shopId} values={previewValues} />
        </div>
      </Col>
    </Row>
  );
}
