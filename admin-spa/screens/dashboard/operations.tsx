// The dashboard's operations: shops whose delivery is in trouble (DB 전송 이력 read) — failed jobs,
// retries waiting, channels a receiver's 410 turned off, each opening that shop's 대기·실패 중 or
// its DB 전송 설정 — and the system reservations under way or next (시스템 예약 read).
import { Link } from 'react-router-dom';
import { Card, Col, Empty, List, Space, Table, Tag, Typography } from 'antd';
import type { Dashboard } from '@contracts/dashboard.ts';
import { lastsAWhile, RESERVATION_KIND_LABELS, type ReservationKind } from '@contracts/system-reservations.ts';
import { formatDateTime, formatDateTimeRange, formatNumber } from '@/lib/format.ts';
import { deliveryHistoryPath } from '@/components/delivery/history-path.ts';
import { ShopLink } from './shop-link.tsx';

const RED = '#cf1322';
const KIND_COLORS: Record<ReservationKind, string> = { maintenance: 'volcano', 'landing-open': 'green', 'landing-close': 'orange', announcement: 'blue', 'experiment-stop': 'purple' };

type Delivery = NonNullable<Dashboard['delivery']>;
type DeliveryShop = Delivery['byShop'][number];
type Reservation = NonNullable<Dashboard['reservations']>[number];

const count = (n: number, unit = '건', warn = false) => (
  <span style={warn && n > 0 ? { color: RED, fontWeight: 600 } : n === 0 ? { color: 'rgba(0,0,0,0.6)' } : undefined}>
    {formatNumber(n)}
    {unit}
  </span>
);

/** 전송 실패 by shop, the most failed first; each figure opens the shop's list behind it. */
function DeliveryTroubleCard({ delivery }: { delivery: Delivery }) {
  const { totals } = delivery;
  return (
    <Card
      variant="borderless"
      title="전송 실패 (업체별)"
      style={{ height: '100%' }}
      extra={
        <Typography.Text type="secondary">
          실패 {formatNumber(totals.failed)}건 · 재시도 대기 {formatNumber(totals.retrying)}건 · 꺼진 채널 {formatNumber(totals.channelsOff)}개
        </Typography.Text>
      }
    >
      <Table<DeliveryShop>
        rowKey="shopId"
        size="small"
        pagination={false}
        dataSource={delivery.byShop}
        locale={{ emptyText: '실패했거나 재시도를 기다리는 전송이 없습니다.' }}
        columns={[
          { title: '업체', dataIndex: 'shopName', render: (v: string, r) => <ShopLink shopId={r.shopId} to={deliveryHistoryPath({ tab: 'jobs' })}>{v}</ShopLink> },
          {
            title: '실패', dataIndex: 'failed', align: 'right',
            render: (v: number, r) => (v > 0 ? <ShopLink shopId={r.shopId} to={deliveryHistoryPath({ tab: 'jobs', status: 'failed' })}>{count(v, '건', true)}</ShopLink> : count(v)),
          },
          { title: '재시도 대기', dataIndex: 'retrying', align: 'right', render: (v: number) => count(v) },
          {
            title: '410으로 꺼진 채널', dataIndex: 'channelsOff', align: 'right',
            render: (v: number, r) => (v > 0 ? <ShopLink shopId={r.shopId} to="/database-delivery-settings">{count(v, '개', true)}</ShopLink> : count(v, '개')),
          },
        ]}
      />
    </Card>
  );
}

/** When a reservation happens: a window's span, or an instant (Seoul). */
const when = (r: Reservation) => (lastsAWhile(r.kind) && r.endsAt ? formatDateTimeRange(r.startsAt, r.endsAt) : formatDateTime(r.startsAt));

/** What is under way and the next reservations. */
function ReservationsCard({ reservations }: { reservations: Reservation[] }) {
  return (
    <Card variant="borderless" title="시스템 예약" extra={<Link to="/system-reservation">전체 보기</Link>} style={{ height: '100%' }}>
      {reservations.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="진행 중이거나 예정된 예약이 없습니다." />
      ) : (
        <List<Reservation>
          size="small"
          dataSource={reservations}
          rowKey={(r) => r.id}
          renderItem={(r) => (
            <List.Item>
              <Space orientation="vertical" size={0} style={{ minWidth: 0 }}>
                <Space size={6}>
                  <Tag color={KIND_COLORS[r.kind]} style={{ marginInlineEnd: 0 }}>{RESERVATION_KIND_LABELS[r.kind]}</Tag>
                  <Typography.Text ellipsis style={{ maxWidth: 220 }}>{r.title}</Typography.Text>
                </Space>
                <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>{when(r)}</Typography.Text>
              </Space>
              {r.status === 'running' ? <Tag color="processing" style={{ marginInlineEnd: 0 }}>진행 중</Tag> : <Tag style={{ marginInlineEnd: 0 }}>예정</Tag>}
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

/** Both cards on one row (either may be absent for lack of permission). */
export function Operations({ delivery, reservations }: Pick<Dashboard, 'delivery' | 'reservations'>) {
  return (
    <>
      {delivery && (
        <Col xs={24} xl={16}>
          <DeliveryTroubleCard delivery={delivery} />
        </Col>
      )}
      {reservations && (
        <Col xs={24} xl={8}>
          <ReservationsCard reservations={reservations} />
        </Col>
      )}
    </>
  );
}
