// API 키: the shop's keys for the pull API (GET /api/v1/leads) — which are in use, when each was
// last used and from where, which get phone numbers in full — with 발급 (the key shown once,
// to copy), 폐기, and the way to the API's docs and a first request to try.
import { useMemo, useState } from 'react';
import { Alert, Button, Card, Empty, Form, Input, Space, Switch, Table, Tag, Typography } from 'antd';
import { KeyOutlined, PlusOutlined, ReadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { apiKeyInput, apiKeysApi, MAX_ACTIVE_API_KEYS, type ApiKeyItem, type CreatedApiKey } from '@contracts/api-keys.ts';
import { PULL_RATE_LIMIT, pullApi } from '@contracts/pull-api.ts';
import { call } from '@/lib/api.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { useCall } from '@/lib/use-call.ts';
import { formatDateTime } from '@/lib/format.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { ConfirmAction } from '@/components/confirm-action.tsx';
import { ResourceForm } from '@/components/resource-form.tsx';
import { OneTimeSecret } from '@/components/one-time-secret.tsx';

const api = apiKeysApi;
const KEY_PLACEHOLDER = 'lr_live_…';

/** The first request to try, against this server. */
const curlOf = (key: string) => `curl -H "Authorization: Bearer ${key}" ${window.location.origin}${pullApi.leads.path}`;

function Code({ text, copy = text, label }: { text: string; copy?: string; label: string }) {
  return (
    <Typography.Paragraph
      copyable={{ text: copy, tooltips: [`${label} 복사`, '복사했습니다'] }}
      style={{ fontFamily: 'monospace', fontSize: 13, background: '#fafafa', padding: '8px 12px', borderRadius: 6, marginBottom: 0, wordBreak: 'break-all' }}
    >
      {text}
    </Typography.Paragraph>
  );
}

/** The new key, the one time it exists in the clear. */
function ShownKeyModal({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  return (
    <OneTimeSecret
      shown={created}
      title={created ? `API 키 발급 · ${created.name}` : 'API 키 발급'}
      closeText="복사했습니다"
      warning="이 키는 지금 한 번만 보여 드립니다. 창을 닫으면 다시 볼 수 없습니다."
      warningNote="연동할 시스템의 설정(비밀 값 보관소)에 바로 저장하세요. 잃어버리면 이 키를 폐기하고 새로 발급하면 됩니다."
      onClose={onClose}
    >
      {(created) => (
        <>
          <Code text={created.key} label="API 키" />
          {created.fullPhone && (
            <Alert type="info" showIcon title="이 키는 연락처를 전체 번호로 받습니다." description="키를 가진 사람은 누구나 고객의 전화번호를 볼 수 있습니다. 메일·메신저로 보내지 마세요." />
          )}
          <div>
            <Typography.Title level={5}>바로 해 보기</Typography.Title>
            <Code text={curlOf(created.key)} label="명령" />
          </div>
        </>
      )}
    </OneTimeSecret>
  );
}

/** The keys table's columns; a writer gets 폐기 on each key still in use. */
function useKeyColumns(writable: boolean, shopId: number) {
  return useMemo<ColumnsType<ApiKeyItem>>(
    () => [
      {
        title: '키', key: 'prefix',
        render: (_: unknown, k) => (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong>{k.name}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontFamily: 'monospace', fontSize: 12, whiteSpace: 'nowrap' }}>{k.prefix}…</Typography.Text>
          </Space>
        ),
      },
      {
        title: '연락처', key: 'fullPhone',
        render: (_: unknown, k) => (k.fullPhone ? <Tag color="orange">전체 번호</Tag> : <Tag>가린 번호</Tag>),
      },
      {
        title: '발급', key: 'createdAt',
        render: (_: unknown, k) => (
          <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
            <span>{formatDateTime(k.createdAt)}</span>
            {k.createdByName && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{k.createdByName}</Typography.Text>}
          </Space>
        ),
      },
      {
        title: '마지막 사용', key: 'lastUsedAt',
        render: (_: unknown, k) =>
          k.lastUsedAt ? (
            <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
              <span>{formatDateTime(k.lastUsedAt)}</span>
              {k.lastUsedIp && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{k.lastUsedIp}</Typography.Text>}
            </Space>
          ) : (
            <Typography.Text type="secondary">사용 전</Typography.Text>
          ),
      },
      {
        title: '상태', key: 'revokedAt',
        render: (_: unknown, k) =>
          k.revokedAt ? (
            <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
              <Tag color="default">폐기</Tag>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>{formatDateTime(k.revokedAt)}</Typography.Text>
            </Space>
          ) : (
            <Tag color="green">사용 중</Tag>
          ),
      },
      ...(writable
        ? [{
            title: '관리', key: 'actions', fixed: 'right' as const,
            render: (_: unknown, k: ApiKeyItem) =>
              !k.revokedAt && (
                <ConfirmAction
                  label="폐기"
                  danger
                  confirm={`'${k.name}' 키를 폐기할까요?`}
                  description="폐기한 키로 오는 요청은 바로 거절됩니다(401). 되돌릴 수 없습니다: 다시 연동하려면 새 키를 발급하세요."
                  run={() => call(api.revoke, { params: { shopId, id: k.id } })}
                  invalidates={[api.list]}
                  success="키를 폐기했습니다."
                />
              ),
          }]
        : []),
    ],
    [writable, shopId],
  );
}

export default function ApiKeysTab() {
  const shop = useCurrentShop();
  const { can, account } = useAuth();
  const writable = can('database-delivery-settings', 'write');
  const canUnmask = !!account?.canUnmask;
  const params = { shopId: shop.id };
  const list = useCall(api.list, { params });
  const [issuing, setIssuing] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const keys = list.data?.items ?? [];
  const active = keys.filter((k) => !k.revokedAt).length;

  const columns = useKeyColumns(writable, shop.id);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Text type="secondary">
          업체의 시스템(CRM 등)이 DB를 직접 가져가는 API의 키입니다. 키 하나는 이 업체의 DB만 받고, 키마다 분당 {PULL_RATE_LIMIT.max}회까지 부를 수 있습니다.
        </Typography.Text>
        {writable && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setIssuing(true)} disabled={active >= MAX_ACTIVE_API_KEYS}>
            발급
          </Button>
        )}
      </Space>

      <Card size="small" title={<Space><ReadOutlined />연동 안내</Space>}>
        <Space orientation="vertical" size={8} style={{ width: '100%' }}>
          <Typography.Text>
            인증, 커서로 끝까지 받는 방법, 필드와 오류 코드는{' '}
            <Typography.Link href={pullApi.docs.path} target="_blank" rel="noopener">
              API 문서
            </Typography.Link>
            에 있습니다(새 탭). 개발 담당자에게 이 문서와 키를 전달하세요. 기계가 읽는 명세(OpenAPI):{' '}
            <Typography.Link href={pullApi.openapi.path} target="_blank" rel="noopener">
              openapi.json
            </Typography.Link>
          </Typography.Text>
          <Code text={curlOf(KEY_PLACEHOLDER)} label="예시 명령" />
        </Space>
      </Card>

      {list.isError && <Alert type="error" showIcon title="API 키 목록을 불러오지 못했습니다." description={list.error.message} />}
      {active >= MAX_ACTIVE_API_KEYS && writable && (
        <Alert type="info" showIcon title={`사용 중인 키가 ${MAX_ACTIVE_API_KEYS}개입니다.`} description="새 키를 발급하려면 쓰지 않는 키를 먼저 폐기하세요." />
      )}
      <Table<ApiKeyItem>
        rowKey="id"
        size="middle"
        loading={list.isLoading}
        columns={columns}
        dataSource={keys}
        pagination={false}
        scroll={{ x: 'max-content' }}
        onRow={(k) => (k.revokedAt ? { style: { opacity: 0.6 } } : {})}
        locale={{
          emptyText: (
            <Empty
              image={<KeyOutlined style={{ fontSize: 40, color: '#bfbfbf' }} />}
              description={
                <Space orientation="vertical" size={4}>
                  <Typography.Text>아직 발급한 API 키가 없습니다.</Typography.Text>
                  <Typography.Text type="secondary">업체의 시스템이 DB를 직접 가져가려면 키를 발급해 개발 담당자에게 전달하세요.</Typography.Text>
                </Space>
              }
            />
          ),
        }}
      />

      <ResourceForm<{ name: string; fullPhone: boolean }>
        open={issuing}
        title="API 키 발급"
        initialValues={{ fullPhone: false }}
        submit={async (body) => setCreated(await call(api.create, { params, body }))}
        onClose={() => setIssuing(false)}
        invalidates={[api.list]}
        successMessage="키를 발급했습니다."
      >
        {(form) => (
          <>
            <Form.Item label="키 이름" name="name" required rules={[zodRule(apiKeyInput, 'name')]} extra="어디에 쓰는 키인지 알아볼 이름 (예: 사내 CRM 연동)">
              <Input maxLength={60} autoFocus />
            </Form.Item>
            <Form.Item
              label="전체 연락처 제공"
              name="fullPhone"
              valuePropName="checked"
              extra={canUnmask ? '끄면 연락처를 가린 번호(010-****-5678)로 받습니다.' : '전화번호 전체를 볼 수 있는 계정만 켤 수 있습니다.'}
            >
              <Switch disabled={!canUnmask} />
            </Form.Item>
            <Form.Item noStyle shouldUpdate={(a, b) => a.fullPhone !== b.fullPhone}>
              {() =>
                form.getFieldValue('fullPhone') && (
                  <Alert
                    type="warning"
                    showIcon
                    title="이 키로 고객의 전화번호 전체를 받게 됩니다."
                    description="키를 가진 사람은 누구나 번호를 볼 수 있습니다. 업체가 직접 관리하는 시스템에만 쓰세요. 발급과 폐기는 감사 기록에, 조회는 개인정보 접근 기록에 남습니다."
                  />
                )
              }
            </Form.Item>
          </>
        )}
      </ResourceForm>
      <ShownKeyModal created={created} onClose={() => setCreated(null)} />
    </Space>
  );
}
