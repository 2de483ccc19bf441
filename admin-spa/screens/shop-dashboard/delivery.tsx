// 전송 on the shop dashboard (DB 전송 이력 read): what stays failed, what waits for a retry, what
// went out today, the channels a receiver turned off, and the latest failures — each opening
// DB 전송 이력 where it is listed (대기·실패 중 for the jobs). Names only; phones stay on the server.
import { Link } from 'react-router-dom';
import { Alert, Card, Col, Empty, List, Row, Space, Statistic, Typography } from 'antd';
import { formatJobIds } from '@contracts/delivery-history.ts';
import type { ShopDashboard } from '@contracts/shop-dashboard.ts';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { ErrorText, KindTag } from '@/components/delivery/delivery-tags.tsx';
import { deliveryHistoryPath } from '@/components/delivery/history-path.ts';

const RED = '#cf1322';

type Delivery = NonNullable<ShopDashboard['delivery']>;

export function DeliveryRow({ delivery, today, canSettings }: { delivery: Delivery; today: string; canSettings: boolean }) {
  const figures = [
    { title: '실패', value: delivery.failed, warn: delivery.failed > 0, note: '다시 보내기 필요', to: deliveryHistoryPath({ tab: 'jobs', status: 'failed' }) },
    { title: '재시도 대기', value: delivery.retrying, warn: false, note: '자동 재시도', to: deliveryHistoryPath({ tab: 'jobs', status: 'pending' }) },
    { title: '오늘 전송 완료', value: delivery.deliveredToday, warn: false, note: '받는 곳 도착', to: deliveryHistoryPath({ from: today, to: today, status: 'succeeded' }) },
  ];
  return (
    <Row gutter={[16, 16]}>
      {delivery.channelsOff.map((c) => (
        <Col key={c.id} xs={24}>
          <Alert
            type="error"
            showIcon
            title={`'${c.name}' 채널이 꺼졌습니다${c.at ? ` · ${formatDateTime(c.at)}` : ''}`}
            description={
              <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                {c.reason} 받는 쪽 주소를 확인한 뒤 DB 전송 설정에서 다시 켜세요. 꺼져 있는 동안 접수된 DB는 보내지 않습니다.
              </Typography.Text>
            }
            action={canSettings && <Link to="/database-delivery-settings">전송 설정</Link>}
          />
        </Col>
      ))}
      <Col xs={24} xl={8}>
        <Card variant="borderless" title="전송" extra={<Link to={deliveryHistoryPath({ tab: 'jobs' })}>대기·실패 중</Link>} style={{ height: '100%' }}>
          <Row gutter={8}>
            {figures.map((f) => (
              <Col key={f.title} span={8}>
                <Link to={f.to} style={{ display: 'block', color: 'inherit' }}>
                  <Statistic
                    title={f.title}
                    value={f.value}
                    suffix="건"
                    formatter={(v) => formatNumber(Number(v))}
                    styles={{ content: f.warn ? { color: RED } : undefined }}
                  />
                </Link>
                <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>{f.note}</Typography.Text>
              </Col>
            ))}
          </Row>
        </Card>
      </Col>
      <Col xs={24} xl={16}>
        <Card variant="borderless" title="최근 전송 실패" style={{ height: '100%' }}>
          {delivery.failures.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="실패한 채로 남은 전송이 없습니다." />
          ) : (
            <List
              size="small"
              dataSource={delivery.failures}
              rowKey={(f) => f.jobId}
              renderItem={(f) => (
                <List.Item
                  actions={[<Link key="open" to={deliveryHistoryPath({ tab: 'jobs', jobIds: formatJobIds([f.jobId]) })}>보기</Link>]}
                >
                  <Space orientation="vertical" size={0} style={{ minWidth: 0, flex: 1 }}>
                    <Space size={6} wrap>
                      <KindTag kind={f.channelKind} />
                      <Typography.Text strong>{f.channelName}</Typography.Text>
                      <Typography.Text>{f.leadName}</Typography.Text>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>#{f.leadId}</Typography.Text>
                    </Space>
                    <Space size={6} wrap style={{ fontSize: 13 }}>
                      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(f.at)} · {f.attempts}번 시도{f.responseCode !== null ? ` · 응답 ${f.responseCode}` : ''}
                      </Typography.Text>
                      <ErrorText error={f.error} width={360} />
                    </Space>
                  </Space>
                </List.Item>
              )}
            />
          )}
        </Card>
      </Col>
    </Row>
  );
}
