// The administrators' dashboard: the client shops with 응답 SLA on, ranked by SLA met over the last
// DASHBOARD_DAYS days — with how many leads each rate stands on, so a small sample shows as one.
// Agency staff only (the server refuses anyone else). A shop opens its 상담 통계's 응답 SLA tab.
import { Card, Col, Progress, Table, Tag, Tooltip, Typography } from 'antd';
import { DASHBOARD_DAYS, dashboardApi } from '@contracts/dashboard.ts';
import type { SlaRanking as Ranking } from '@contracts/lead-sla.ts';
import { useCall } from '@/lib/use-call.ts';
import { useBackgroundRefresh } from '@/lib/query-client.ts';
import { formatNumber } from '@/lib/format.ts';
import { formatSlaRate, formatWorkMinutes } from '@/components/sla-figures.tsx';
import { ShopLink } from './shop-link.tsx';

/** Below this many decided leads (met + missed) a rate is flagged as a small sample. */
const SMALL_SAMPLE = 20;

type Item = Ranking['items'][number];

export function SlaRanking() {
  const q = useCall(dashboardApi.slaRanking);
  useBackgroundRefresh(dashboardApi.slaRanking);
  const items = q.data?.items ?? [];
  return (
    <Col xs={24}>
      <Card variant="borderless" title={`응답 SLA 준수율 순위 (최근 ${DASHBOARD_DAYS}일)`}>
        <Typography.Paragraph type="secondary" style={{ fontSize: 13 }}>
          응답 SLA를 켠 업체 · 기한 안에 첫 연락한 DB ÷ 기한이 판가름 난 DB · 시간은 근무 시간으로 잰 분
        </Typography.Paragraph>
        {q.isError ? (
          <Typography.Text type="danger">응답 SLA 순위를 불러오지 못했습니다. {(q.error as Error).message}</Typography.Text>
        ) : (
          <Table<Item>
            rowKey="shopId"
            size="small"
            loading={q.isLoading}
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={items}
            locale={{ emptyText: '응답 SLA를 켠 업체가 없습니다. 업체의 DB 배분 화면에서 켤 수 있습니다.' }}
            columns={[
              { title: '순위', key: 'rank', width: 56, align: 'right', render: (_: unknown, r, i) => (r.metRate === null ? '-' : i + 1) },
              {
                title: '업체', dataIndex: 'shopName',
                render: (name: string, r) => (
                  <span>
                    <ShopLink shopId={r.shopId} to="/cs-stats?tab=sla">{name}</ShopLink>
                    {r.met + r.missed < SMALL_SAMPLE && (
                      <Tooltip title={`기한이 판가름 난 DB가 ${SMALL_SAMPLE}건 미만이라 준수율이 크게 흔들릴 수 있습니다.`}>
                        <Tag style={{ marginInlineStart: 8 }}>표본 적음</Tag>
                      </Tooltip>
                    )}
                  </span>
                ),
              },
              {
                title: 'SLA 준수율', dataIndex: 'metRate', width: 160,
                render: (rate: number | null, r) =>
                  rate === null ? '-' : (
                    <Progress percent={Math.round(rate * 1000) / 10} size="small" status="normal" strokeColor={rate >= 0.8 ? '#52c41a' : rate >= 0.5 ? '#faad14' : '#ff4d4f'}
                      format={() => formatSlaRate(rate)} aria-label={`${r.shopName} SLA 준수율`} />
                  ),
              },
              { title: '기한', dataIndex: 'minutes', align: 'right', width: 70, render: (m: number) => `${m}분` },
              { title: '지킴 / 놓침', key: 'decided', align: 'right', width: 110, render: (_: unknown, r) => `${formatNumber(r.met)} / ${formatNumber(r.missed)}` },
              { title: '기한 전', dataIndex: 'pending', align: 'right', width: 80, render: formatNumber },
              { title: '첫 연락 중앙값', dataIndex: 'medianMinutes', align: 'right', width: 110, render: formatWorkMinutes },
              { title: 'p90', dataIndex: 'p90Minutes', align: 'right', width: 90, render: formatWorkMinutes },
              { title: '재배분', dataIndex: 'rerouted', align: 'right', width: 80, render: formatNumber },
            ]}
          />
        )}
      </Card>
    </Col>
  );
}
