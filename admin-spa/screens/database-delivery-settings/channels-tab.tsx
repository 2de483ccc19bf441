// 전송 채널: the current shop's channels as cards, the 채널 추가 button, the channel drawer and
// the one-time secret. Channels per shop are a handful: one page holds them all.
import { useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Dropdown, Empty, Row, Skeleton, Space, Typography } from 'antd';
import { ApiOutlined, DownOutlined, MailOutlined, MessageOutlined, PlusOutlined } from '@ant-design/icons';
import { DELIVERY_KIND_LABELS, DELIVERY_KINDS, type DeliveryKind } from '@contracts/delivery.ts';
import { deliveryChannelsApi, type DeliveryChannel } from '@contracts/delivery-channels.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { useCall } from '@/lib/use-call.ts';
import { ChannelCard } from './channel-card.tsx';
import { ChannelForm } from './channel-form.tsx';
import { SecretModal, type ShownSecret } from './secret-modal.tsx';

const api = deliveryChannelsApi;
const KIND_ICONS = { webhook: <ApiOutlined />, email: <MailOutlined />, sms: <MessageOutlined /> } as const;

export function ChannelsTab() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('database-delivery-settings', 'write');
  const canHistory = can('shop-data-deliver-history', 'read');
  const params = { shopId: shop.id };
  const list = useCall(api.list, { params, query: { pageSize: 100, sort: 'createdAt' } });
  const landings = useCall(api.landings, { params }, { staleTime: 60_000 });
  const smtp = useCall(api.smtpStatus, { params }, { staleTime: 60_000 });
  const [form, setForm] = useState<{ open: boolean; editing: DeliveryChannel | null; kind: DeliveryKind }>({ open: false, editing: null, kind: 'webhook' });
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const landingTitles = useMemo(() => new Map((landings.data ?? []).map((l) => [l.id, l.title])), [landings.data]);

  const add = (kind: DeliveryKind) => setForm({ open: true, editing: null, kind });
  const addButton = writable && (
    <Dropdown
      menu={{ items: DELIVERY_KINDS.map((k) => ({ key: k, icon: KIND_ICONS[k], label: DELIVERY_KIND_LABELS[k] })), onClick: ({ key }) => add(key as DeliveryKind) }}
    >
      <Button type="primary" icon={<PlusOutlined />}>
        채널 추가 <DownOutlined />
      </Button>
    </Dropdown>
  );

  const channels = list.data?.items ?? [];
  const mailWithoutSmtp = smtp.data && !smtp.data.configured && channels.some((c) => c.kind === 'email');

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Row justify="space-between" align="middle" gutter={[16, 8]}>
        <Col flex="auto">
          <Typography.Text type="secondary">
            접수된 DB를 업체의 시스템·메일·휴대폰으로 보냅니다. 보내지 못하면 간격을 늘려 가며 다시 보내고, 모든 시도는 DB 전송 이력에 남습니다.
          </Typography.Text>
        </Col>
        <Col>{addButton}</Col>
      </Row>
      {mailWithoutSmtp && (
        <Alert
          type="warning"
          showIcon
          title="메일 서버(SMTP_URL)가 설정되지 않음"
          description="이메일 채널은 저장되어 있지만 메일을 보낼 수 없습니다. 서버 관리자에게 SMTP_URL 설정을 요청하세요."
        />
      )}
      {list.isError && <Alert type="error" showIcon title="채널 목록을 불러오지 못했습니다." description={list.error.message} />}
      {list.isLoading ? (
        <Row gutter={[16, 16]}>
          {[0, 1].map((i) => (
            <Col key={i} xs={24} xl={12}>
              <Card size="small">
                <Skeleton active paragraph={{ rows: 5 }} />
              </Card>
            </Col>
          ))}
        </Row>
      ) : channels.length === 0 && !list.isError ? (
        <Card>
          <Empty
            description={
              <Space orientation="vertical" size={4}>
                <Typography.Text>아직 전송 채널이 없습니다.</Typography.Text>
                <Typography.Text type="secondary">웹훅(업체 CRM), 이메일, 문자·알림톡 중 받을 방법을 추가하세요. 추가한 뒤 테스트 전송으로 확인할 수 있습니다.</Typography.Text>
              </Space>
            }
          >
            {writable && (
              <Space wrap>
                {DELIVERY_KINDS.map((k) => (
                  <Button key={k} icon={KIND_ICONS[k]} onClick={() => add(k)}>
                    {DELIVERY_KIND_LABELS[k]} 추가
                  </Button>
                ))}
              </Space>
            )}
          </Empty>
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          {channels.map((c) => (
            <Col key={c.id} xs={24} xl={12}>
              <ChannelCard
                channel={c}
                shopId={shop.id}
                writable={writable}
                canHistory={canHistory}
                landingTitles={landingTitles}
                onEdit={() => setForm({ open: true, editing: c, kind: c.kind })}
                onSecret={setSecret}
              />
            </Col>
          ))}
        </Row>
      )}
      <ChannelForm
        shopId={shop.id}
        open={form.open}
        editing={form.editing}
        kind={form.kind}
        onClose={() => setForm((f) => ({ ...f, open: false }))}
        onSecret={setSecret}
      />
      <SecretModal shown={secret} onClose={() => setSecret(null)} />
    </Space>
  );
}
