// Head, body and conversion scripts per landing (pixels, analytics). They run on the public
// page, so only accounts with write permission on this screen can set them.
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Col, Empty, Form, Input, Menu, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { landingScriptsInput, type LandingScripts, type LandingScriptsInput } from '../../../contracts/landings.ts';
import { api } from '../../lib/api.ts';
import { useFormSave } from '../../components/resource-form.tsx';
import { useDraft } from '../../lib/use-draft.ts';
import { useAuth } from '../../lib/auth.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { shopApi, useCurrentShop } from '../../lib/shop.tsx';
import { zodRule } from '../../lib/zod-rule.ts';

const MONO: React.CSSProperties = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "D2Coding", monospace', fontSize: 13 };

const FIELDS: Array<{ name: keyof LandingScriptsInput; label: string; extra: string; placeholder: string }> = [
  {
    name: 'headScript',
    label: 'head 스크립트',
    extra: '<head> 안에 들어갑니다. 분석 도구와 픽셀의 기본 코드(GA, 메타 픽셀, 카카오 픽셀)를 넣으세요.',
    placeholder: '<script async src="https://www.googletagmanager.com/gtag/js?id=G-XXXXXXX"></script>',
  },
  {
    name: 'bodyScript',
    label: 'body 스크립트',
    extra: '페이지 본문 끝에 들어갑니다. <noscript> 픽셀 이미지 등을 넣으세요.',
    placeholder: '<noscript><img height="1" width="1" src="https://www.facebook.com/tr?id=…&ev=PageView&noscript=1"></noscript>',
  },
  {
    name: 'conversionScript',
    label: '전환 스크립트',
    extra: '신청이 접수된 직후 한 번 실행됩니다 (전환 이벤트 전송).',
    placeholder: "<script>fbq('track', 'Lead');</script>",
  },
];

const hasScripts = (s: LandingScripts) => !!(s.headScript.trim() || s.bodyScript.trim() || s.conversionScript.trim());

export default function LandingScriptManagement() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('landing-script-management', 'write');
  const endpoint = shopApi(shop.id, '/landing-scripts');
  const list = useQuery({ queryKey: ['landing-scripts', shop.id], queryFn: () => api.get<{ items: LandingScripts[] }>(endpoint) });
  const [search, setSearch] = useSearchParams();

  if (list.isError) return <Alert type="error" showIcon title={(list.error as Error).message} />;
  if (!list.data) return <Skeleton active paragraph={{ rows: 8 }} />;
  const items = list.data.items;
  if (items.length === 0) {
    return (
      <Card variant="borderless">
        <Empty description="이 업체에는 아직 랜딩이 없습니다.">
          <Link to="/landing-status">랜딩 관리에서 만들기</Link>
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
                  <Badge status={hasScripts(s) ? 'processing' : 'default'} />
                  <span>{s.title}</span>
                </Space>
              ),
            }))}
          />
        </Card>
      </Col>
      <Col xs={24} lg={17} xl={18}>
        <ScriptForm key={selected.landingId} scripts={selected} writable={writable} endpoint={shopApi(shop.id, `/landings/${selected.landingId}/scripts`)} />
      </Col>
    </Row>
  );
}

function ScriptForm({ scripts, writable, endpoint }: { scripts: LandingScripts; writable: boolean; endpoint: string }) {
  const [form] = Form.useForm<LandingScriptsInput>();
  const { saving, save: run } = useFormSave(form);
  const queryClient = useQueryClient();

  useEffect(() => {
    form.setFieldsValue({ headScript: scripts.headScript, bodyScript: scripts.bodyScript, conversionScript: scripts.conversionScript });
  }, [form, scripts]);
  useDraft(form, `landing-scripts|${endpoint}|${scripts.updatedAt}`);

  async function save(values: LandingScriptsInput) {
    await run(async () => {
      await api.put(endpoint, values);
      await queryClient.invalidateQueries({ queryKey: ['landing-scripts'] });
      return '스크립트를 저장했습니다. 게시 중인 페이지에 바로 반영됩니다.';
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
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title="스크립트는 공개 랜딩 페이지에서 방문자의 브라우저로 그대로 실행됩니다."
        description="광고·분석 도구가 발급한, 출처를 확인한 코드만 넣으세요. 잘못된 코드는 페이지를 깨뜨리거나 신청서에 입력한 개인정보를 외부로 보낼 수 있습니다. 관리 화면의 미리보기에서는 실행되지 않습니다."
      />
      {!writable && <Alert type="info" showIcon style={{ marginBottom: 16 }} title="편집 권한이 없어 스크립트를 볼 수만 있습니다." />}
      <Form form={form} name="landing-scripts" layout="vertical" onFinish={save}>
        {FIELDS.map((f) => (
          <Form.Item key={f.name} label={f.label} name={f.name} extra={f.extra} rules={[zodRule(landingScriptsInput, f.name)]}>
            <Input.TextArea
              readOnly={!writable}
              spellCheck={false}
              autoSize={{ minRows: 4, maxRows: 16 }}
              placeholder={writable ? f.placeholder : '(없음)'}
              style={{ ...MONO, ...(writable ? {} : { background: '#fafafa' }) }}
            />
          </Form.Item>
        ))}
        {writable && (
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              저장
            </Button>
            <Button onClick={() => form.setFieldsValue({ headScript: scripts.headScript, bodyScript: scripts.bodyScript, conversionScript: scripts.conversionScript })}>
              되돌리기
            </Button>
          </Space>
        )}
      </Form>
    </Card>
  );
}
