// Tracking tags per landing, from templates (Meta, Google, Kakao, Naver, TikTok: a kind and
// its ID — the product writes the script and the conversion event). Free-form scripts only
// when public pages have an origin of their own (PUBLIC_ORIGIN): the server says which.
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert, Badge, Button, Card, Col, Collapse, Dropdown, Empty, Form, Input, Menu, Row, Select, Skeleton, Space, Tag, Typography,
  type FormInstance,
} from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  FREE_SCRIPTS_DISABLED, FREE_SCRIPT_FIELDS, hasFreeScripts, landingScriptsApi, landingScriptsInput, type LandingScripts, type LandingScriptsInput,
} from '@contracts/landings.ts';
import { TAG_KINDS, TRACKING_TAG_KINDS, trackingTag, type TrackingTagKind } from '@contracts/tracking-tags.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useFormSave } from '@/components/resource-form.tsx';
import { useDraft } from '@/lib/use-draft.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useCurrentShop } from '@/lib/shop.tsx';
import { zodRule } from '@/lib/zod-rule.ts';

const MONO: React.CSSProperties = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "D2Coding", monospace', fontSize: 13 };

const FREE_FIELDS: Record<(typeof FREE_SCRIPT_FIELDS)[number], { label: string; extra: string }> = {
  headScript: { label: 'head 스크립트', extra: '<head> 안에 들어갑니다.' },
  bodyScript: { label: 'body 스크립트', extra: '페이지 본문 끝에 들어갑니다.' },
  conversionScript: { label: '전환 스크립트', extra: '신청이 접수된 직후 한 번 실행됩니다.' },
};

const valuesOf = (s: LandingScripts): LandingScriptsInput => ({
  trackingTags: s.trackingTags, headScript: s.headScript, bodyScript: s.bodyScript, conversionScript: s.conversionScript,
});

export default function LandingScriptManagement() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('landing-script-management', 'write');
  const list = useCall(landingScriptsApi.list, { params: { shopId: shop.id } });
  const [search, setSearch] = useSearchParams();

  if (list.isError) return <Alert type="error" showIcon title={(list.error as Error).message} />;
  if (!list.data) return <Skeleton active paragraph={{ rows: 8 }} />;
  const items = list.data.items;
  if (items.length === 0) {
    return (
      <Card variant="borderless">
        <Empty description="이 업체에는 아직 랜딩이 없습니다. 랜딩을 만들면 여기서 광고 추적 태그를 붙일 수 있습니다.">
          <Link to="/landing-status">랜딩 관리로 가기</Link>
        </Empty>
      </Card>
    );
  }
  const selected = items.find((s) => s.landingId === Number(search.get('landing'))) ?? items[0]!;

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={7} xl={6}>
        <Card variant="borderless" title="랜딩" styles={{ body: { padding: 8 } }}>
          <Menu
            mode="inline"
            selectedKeys={[String(selected.landingId)]}
            style={{ borderInlineEnd: 'none' }}
            onClick={({ key }) => setSearch({ landing: key })}
            items={items.map((s) => ({
              key: String(s.landingId),
              label: (
                <Space size={6}>
                  <Badge status={s.trackingTags.length ? 'processing' : 'default'} />
                  <span>{s.title}</span>
                  {s.trackingTags.length > 0 && <Typography.Text type="secondary">태그 {s.trackingTags.length}</Typography.Text>}
                </Space>
              ),
            }))}
          />
        </Card>
      </Col>
      <Col xs={24} lg={17} xl={18}>
        <ScriptForm key={selected.landingId} scripts={selected} writable={writable} params={{ shopId: shop.id, id: selected.landingId }} />
      </Col>
    </Row>
  );
}

/** What a submitted form sends for this tag (Google: GA4 or Ads by the ID). */
function conversionOf(kind: TrackingTagKind, id: string): string {
  const text = TAG_KINDS[kind].conversion;
  if (kind !== 'google-tag') return text;
  const [ga4, ads] = text.split(' · ');
  return id.startsWith('AW-') ? ads!.replace(/^Ads: /, '') : id.startsWith('G-') ? ga4!.replace(/^GA4: /, '') : text;
}

/** An antd rule checking one field of a tag row with the whole row's schema (IDs depend on the kind). */
function tagRule(form: FormInstance<LandingScriptsInput>, index: number, field: 'id' | 'conversionLabel') {
  return {
    validator: async () => {
      const row = form.getFieldValue(['trackingTags', index]);
      const r = trackingTag.safeParse(row);
      const issue = r.success ? undefined : r.error.issues.find((i) => i.path[0] === field);
      if (issue) throw new Error(issue.message);
    },
  };
}

/** One tracking tag of the list: its kind, its ID (and a Google Ads conversion label), the event it sends. */
function TagCard({ form, name, tag, onRemove }: {
  form: FormInstance<LandingScriptsInput>;
  name: number;
  tag: LandingScriptsInput['trackingTags'][number] | undefined;
  onRemove: () => void;
}) {
  const kind = tag?.kind as TrackingTagKind | undefined;
  const info = kind ? TAG_KINDS[kind] : undefined;
  const adsId = kind === 'google-tag' && String(tag?.id ?? '').startsWith('AW-');
  return (
    <Card size="small" style={{ marginBottom: 12 }} styles={{ body: { paddingBottom: 4 } }}>
      <Row gutter={12} align="top">
        <Col xs={24} md={8}>
          <Form.Item label="종류" name={[name, 'kind']} rules={[{ required: true, message: '태그 종류를 선택하세요.' }]}>
            <Select options={TRACKING_TAG_KINDS.map((k) => ({ value: k, label: TAG_KINDS[k].label }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={adsId ? 8 : 14}>
          <Form.Item
            label={info?.idLabel ?? 'ID'}
            name={[name, 'id']}
            required
            rules={[tagRule(form, name, 'id')]}
            extra={info?.idHelp}
            dependencies={[['trackingTags', name, 'kind']]}
          >
            <Input placeholder={info ? `예: ${info.idExample}` : undefined} maxLength={40} style={MONO} />
          </Form.Item>
        </Col>
        {adsId && (
          <Col xs={24} md={6}>
            <Form.Item label="전환 라벨" name={[name, 'conversionLabel']} rules={[tagRule(form, name, 'conversionLabel')]} extra="AW-…/ 뒤의 값">
              <Input maxLength={40} style={MONO} />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} md={2} style={{ textAlign: 'right', paddingTop: 30 }}>
          <Button aria-label="태그 삭제" type="text" danger icon={<DeleteOutlined />} onClick={onRemove} />
        </Col>
      </Row>
      {info && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: -8 }}>
          신청 접수 시 보내는 이벤트: <Typography.Text code>{conversionOf(kind!, String(tag?.id ?? ''))}</Typography.Text>
        </Typography.Paragraph>
      )}
    </Card>
  );
}

function ScriptForm({ scripts, writable, params }: { scripts: LandingScripts; writable: boolean; params: { shopId: number; id: number } }) {
  const [form] = Form.useForm<LandingScriptsInput>();
  const { saving, save: run } = useFormSave(form);
  const queryClient = useQueryClient();
  const tags = (Form.useWatch('trackingTags', form) ?? []) as LandingScriptsInput['trackingTags'];
  const free = scripts.freeScriptsEnabled;
  const storedFree = hasFreeScripts(scripts);

  useEffect(() => {
    form.setFieldsValue(valuesOf(scripts));
  }, [form, scripts]);
  useDraft(form, `landing-scripts|${params.shopId}|${params.id}|${scripts.updatedAt}`);

  async function save(values: LandingScriptsInput) {
    await run(async () => {
      await call(landingScriptsApi.update, { params, body: { ...valuesOf(scripts), ...values } });
      await invalidate(queryClient, [landingScriptsApi.list, landingScriptsApi.get]);
      return '저장했습니다. 게시 중인 페이지에 바로 반영됩니다.';
    });
  }

  async function clearFree() {
    await run(async () => {
      const body = { ...valuesOf(scripts), trackingTags: form.getFieldValue('trackingTags') ?? scripts.trackingTags, headScript: '', bodyScript: '', conversionScript: '' };
      await call(landingScriptsApi.update, { params, body });
      await invalidate(queryClient, [landingScriptsApi.list, landingScriptsApi.get]);
      return '저장해 둔 스크립트를 지웠습니다.';
    });
  }

  return (
    <Card
      variant="borderless"
      title={
        <Space>
          {scripts.title}
          <Tag>{scripts.landingCode}</Tag>
        </Space>
      }
      extra={<Typography.Text type="secondary">마지막 수정 {formatDateTime(scripts.updatedAt)}</Typography.Text>}
    >
      {!writable && <Alert type="info" showIcon style={{ marginBottom: 16 }} title="편집 권한이 없어 볼 수만 있습니다." />}
      <Form form={form} name="landing-scripts" layout="vertical" onFinish={save} disabled={!writable}>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          광고 추적 태그
        </Typography.Title>
        <Typography.Paragraph type="secondary">
          종류를 고르고 광고 플랫폼이 발급한 ID만 넣으세요. 페이지 방문과, 신청이 접수될 때의 전환 이벤트를 자동으로 보냅니다.
        </Typography.Paragraph>
        <Form.List name="trackingTags">
          {(fields, { add, remove }) => (
            <>
              {fields.length === 0 && (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="붙인 태그가 없습니다." style={{ margin: '8px 0 16px' }} />
              )}
              {fields.map(({ key, name }) => (
                <TagCard key={key} form={form} name={name} tag={tags[name]} onRemove={() => remove(name)} />
              ))}
              {writable && (
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: TRACKING_TAG_KINDS.map((k) => ({ key: k, label: TAG_KINDS[k].label })),
                    onClick: ({ key }) => add({ kind: key, id: '', conversionLabel: '' }),
                  }}
                  disabled={fields.length >= 10}
                >
                  <Button icon={<PlusOutlined />}>태그 추가</Button>
                </Dropdown>
              )}
            </>
          )}
        </Form.List>

        <Typography.Title level={5} style={{ marginTop: 28 }}>
          직접 작성한 스크립트
        </Typography.Title>
        {free ? (
          <>
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              title="공개 페이지 전용 주소에서 방문자의 브라우저로 그대로 실행됩니다."
              description="광고·분석 도구가 발급한, 출처를 확인한 코드만 넣으세요. 잘못된 코드는 페이지를 깨뜨리거나 신청서에 입력한 개인정보를 외부로 보낼 수 있습니다."
            />
            {FREE_SCRIPT_FIELDS.map((k) => (
              <Form.Item key={k} label={FREE_FIELDS[k].label} name={k} extra={FREE_FIELDS[k].extra} rules={[zodRule(landingScriptsInput, k)]}>
                <Input.TextArea spellCheck={false} autoSize={{ minRows: 3, maxRows: 14 }} style={MONO} />
              </Form.Item>
            ))}
          </>
        ) : (
          <>
            <Alert type="info" showIcon style={{ marginBottom: 16 }} title="지금은 쓸 수 없습니다" description={FREE_SCRIPTS_DISABLED} />
            {storedFree && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 16 }}
                title="이 랜딩에 예전에 저장한 스크립트가 있지만, 지금은 페이지에 넣지 않습니다."
                description={
                  <>
                    <Collapse
                      ghost
                      size="small"
                      items={[
                        {
                          key: 'stored',
                          label: '저장된 내용 보기',
                          children: FREE_SCRIPT_FIELDS.filter((k) => scripts[k].trim()).map((k) => (
                            <div key={k}>
                              <Typography.Text strong>{FREE_FIELDS[k].label}</Typography.Text>
                              <pre style={{ ...MONO, whiteSpace: 'pre-wrap', background: '#fafafa', padding: 8, borderRadius: 6 }}>{scripts[k]}</pre>
                            </div>
                          )),
                        },
                      ]}
                    />
                    {writable && (
                      <Button danger size="small" onClick={clearFree} loading={saving}>
                        저장된 스크립트 지우기
                      </Button>
                    )}
                  </>
                }
              />
            )}
          </>
        )}
        {writable && (
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              저장
            </Button>
            <Button onClick={() => form.setFieldsValue(valuesOf(scripts))}>되돌리기</Button>
          </Space>
        )}
      </Form>
    </Card>
  );
}
