// 업체 대시보드: the current shop's leads at a glance — today and this month against the same
// stretch before, what waits (미배분, 미처리 past the shop's threshold, today's appointments),
// the last 30 days, this month's statuses, landings and media. Each figure opens the list
// behind it. A counselor sees the figures of their own leads. With 계약 현황, each contract's
// progress, the landings its cap holds closed and the latest closings; with 광고 현황, this
// month's spend and CPA; with DB 전송 이력, failed and retrying deliveries, channels a receiver
// turned off and the latest failures (the server sends each only to those). Speed to lead: SLA
// met, the median and p90 to first contact, re-routes and their distribution (sla.tsx). Live: the
// lead stream refreshes it.
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Card, Col, Empty, List, Progress, Row, Skeleton, Space, Statistic, Table, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { BACKLOG_DAYS, SHOP_DASHBOARD_DAYS, shopDashboardApi, type ShopDashboard } from '@contracts/shop-dashboard.ts';
import type { CsStatus } from '@contracts/leads.ts';
import { useCall } from '@/lib/use-call.ts';
import { useBackgroundRefresh } from '@/lib/query-client.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatNumber, sliceShare } from '@/lib/format.ts';
import { ServerError } from '@/layouts/results.tsx';
import { dailyLeadsOption } from '@/components/daily-leads-option.ts';
import { AdFiguresRow, CapEventList, ContractProgressItem, contractStatusPath, won } from '@/components/dashboard/money.tsx';
import { DeliveryRow } from './delivery.tsx';
import { SlaCard } from './sla.tsx';
import { UncoveredLandings } from '@/components/uncovered-landings.tsx';

const Chart = lazy(() => import('@/components/chart.tsx'));
const BLUE = '#1677ff';

/** The status tags' colours (components/status-tag.tsx) as the chart draws them. */
const STATUS_CHART_COLORS: Record<CsStatus, string> = {
  미처리: '#ff4d4f', 부재: '#fa8c16', 통화완료: '#1677ff', 상담예약: '#722ed1', 계약: '#52c41a', 보류: '#faad14', 거절: '#8c8c8c', 결번: '#bfbfbf',
  무효: '#d9d9d9', 중복: '#eb2f96',
};

const count = (n: number) => `${formatNumber(n)}건`;

/** DB 현황 with a period and filters. */
const listLink = (query: Record<string, string | number>) =>
  `/database-status?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;

export default function ShopDashboardScreen() {
  const shop = useCurrentShop();
  const { account, can } = useAuth();
  const mine = account!.dataScope === 'assigned';
  const input = { params: { shopId: shop.id } };
  const q = useCall(shopDashboardApi.get, input);
  useBackgroundRefresh(shopDashboardApi.get, input);
  const d = q.data;
  const canList = can('database-status', 'read');
  const canCalendar = can('database-calendar', 'read');

  const dailyOption = useMemo(() => d && dailyLeadsOption(d.daily), [d]);
  const statusOption = useMemo(() => {
    if (!d) return undefined;
    const counts = new Map(d.byStatus.map((s) => [s.status, s.count]));
    return {
      tooltip: { trigger: 'item', formatter: '{b}: {c}건 ({d}%)' },
      // The legend names each status with its count; the slices carry only their share, and only
      // where it fits (a sliver's label would sit on its neighbour's).
      legend: { orient: 'vertical', right: 0, top: 'middle', itemWidth: 12, itemHeight: 12, formatter: (name: CsStatus) => `${name} ${formatNumber(counts.get(name) ?? 0)}` },
      series: [{
        type: 'pie', radius: ['42%', '72%'], center: ['34%', '50%'],
        label: { position: 'inside', formatter: sliceShare, color: '#fff', fontWeight: 600 },
        data: d.byStatus.map((s) => ({ name: s.status, value: s.count, itemStyle: { color: STATUS_CHART_COLORS[s.status] } })),
      }],
    };
  }, [d]);

  if (q.isError) return <ServerError message={(q.error as Error).message} onRetry={() => q.refetch()} />;
  if (!d) return <Skeleton active paragraph={{ rows: 8 }} />;

  const period = { from: d.monthStart, to: d.today };
  const backlog = { from: d.backlogStart, to: d.today };
  const cards: Array<{ title: string; value: number; note: ReactNode; to?: string; warn?: boolean }> = [
    { title: '오늘 접수 DB', value: d.leads.today, note: <Compare label="어제 이 시각" now={d.leads.today} before={d.leads.yesterday} />, to: canList ? '/database-status' : undefined },
    {
      title: '이번 달 접수 DB', value: d.leads.month, note: <Compare label="지난달 같은 기간" now={d.leads.month} before={d.leads.lastMonth} />,
      to: canList ? listLink(period) : undefined,
    },
    ...(d.unassigned === null
      ? []
      : [{
          title: '미배분 DB', value: d.unassigned, note: `최근 ${BACKLOG_DAYS}일 · 중복 제외`, warn: d.unassigned > 0,
          to: canList ? listLink({ ...backlog, assignee: 'none', duplicate: 'unique' }) : undefined,
        }]),
    {
      title: `${d.overdueMinutes}분 넘은 미처리`, value: d.overdue, note: `접수 후 연락 없음 · 최근 ${BACKLOG_DAYS}일`, warn: d.overdue > 0,
      to: canList ? listLink({ ...backlog, status: '미처리' }) : undefined,
    },
    { title: '오늘 상담 예약', value: d.appointmentsToday, note: '예약 시간이 오늘인 DB', to: canCalendar ? `/database-calendar?day=${d.today}` : undefined },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {mine && <Typography.Text type="secondary">나에게 배분된 DB만 집계합니다.</Typography.Text>}
      {/* The figures share one row, as many as there are (a counselor has no 미배분). */}
      <Row gutter={[16, 16]}>
        {cards.map((c) => {
          const body = (
            <Card variant="borderless" hoverable={!!c.to} style={{ height: '100%' }}>
              <Statistic
                title={c.title}
                value={c.value}
                suffix="건"
                formatter={(v) => formatNumber(Number(v))}
                styles={{ content: c.warn ? { color: '#cf1322' } : undefined }}
              />
              <Typography.Text type="secondary" style={{ fontSize: 13, whiteSpace: 'nowrap' }}>{c.note}</Typography.Text>
            </Card>
          );
          return (
            <Col key={c.title} xs={24} sm={12} lg={8} xl={{ flex: '1 1 0' }}>
              {c.to ? (
                <Link to={c.to} style={{ display: 'block', height: '100%' }}>
                  {body}
                </Link>
              ) : (
                body
              )}
            </Col>
          );
        })}
      </Row>
      <SlaCard shopId={shop.id} />
      {(d.contracts || d.ad) && <Money contracts={d.contracts} ad={d.ad} />}
      {d.delivery && <DeliveryRow delivery={d.delivery} today={d.today} canSettings={can('database-delivery-settings', 'read')} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card variant="borderless" title={`최근 ${SHOP_DASHBOARD_DAYS}일 접수 추이`}>
            <Suspense fallback={<Skeleton active />}>
              {dailyOption && <Chart option={dailyOption} label={`최근 ${SHOP_DASHBOARD_DAYS}일 일별 DB 접수 막대 그래프 (유효 접수와 중복)`} />}
            </Suspense>
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card variant="borderless" title="이번 달 상담 상태" style={{ height: '100%' }}>
            {d.byStatus.length === 0 ? (
              <Empty description="이번 달 접수된 DB가 없습니다." />
            ) : (
              <Suspense fallback={<Skeleton active />}>{statusOption && <Chart option={statusOption} label="이번 달 상담 상태별 DB 비율 도넛 그래프" />}</Suspense>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Breakdown
            title="이번 달 랜딩별"
            rows={d.byLanding.map((l) => ({
              key: String(l.landingId), name: l.title, count: l.count, duplicates: l.duplicates,
              to: l.landingId && canList ? listLink({ ...period, landingId: l.landingId }) : undefined,
              ...(l.variants.length ? { children: l.variants.map((v) => ({ key: `${l.landingId}:${v.key}`, name: `실험안 ${v.key}`, count: v.count, duplicates: v.duplicates })) } : {}),
            }))}
            total={d.leads.month}
            nameTitle="랜딩"
          />
        </Col>
        <Col xs={24} xl={12}>
          <Breakdown
            title="이번 달 매체별"
            rows={d.byMedium.map((m) => ({ key: String(m.mediaTypeId), name: m.medium, count: m.count, duplicates: m.duplicates, to: m.mediaTypeId && canList ? listLink({ ...period, mediaTypeId: m.mediaTypeId }) : undefined }))}
            total={d.leads.month}
            nameTitle="매체"
          />
        </Col>
      </Row>
    </Space>
  );
}

/** 계약 진행 and 최근 마감·재개 (계약 현황 read), 이번 달 광고 (광고 현황 read). */
function Money({ contracts, ad }: Pick<ShopDashboard, 'contracts' | 'ad'>) {
  const adCard = ad && (
    <Card variant="borderless" title="이번 달 광고" extra={<Link to="/advertising-status">광고 현황</Link>}>
      <AdFiguresRow totals={ad.totals} />
      <Typography.Text type="secondary" style={{ fontSize: 13 }}>
        {ad.from} ~ {ad.to} · 접수 {count(ad.totals.leads)} · CPL {won(ad.totals.cpl)}
      </Typography.Text>
    </Card>
  );
  if (!contracts) return <Row gutter={[16, 16]}><Col xs={24} xl={8}>{adCard}</Col></Row>;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={16}>
        <Card variant="borderless" title="계약 진행" extra={<Link to="/contract-status">계약 현황</Link>} style={{ height: '100%' }}>
          <div style={contracts.uncoveredLandings.length ? { marginBottom: 12 } : undefined}>
            <UncoveredLandings items={contracts.uncoveredLandings} link={(u) => <Link to={`/landing-status?edit=${u.landingId}`}>{u.title}</Link>} />
          </div>
          {contracts.items.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="진행 중인 계약이 없습니다." />
          ) : (
            <List
              dataSource={contracts.items}
              rowKey={(p) => p.contract.id}
              renderItem={(p) => (
                <List.Item>
                  <ContractProgressItem p={p} link={(name) => <Link to={contractStatusPath(p.contract.id)}>{name}</Link>} />
                </List.Item>
              )}
            />
          )}
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          {adCard}
          <Card variant="borderless" title="최근 마감·재개">
            <CapEventList events={contracts.capEvents} />
          </Card>
        </Space>
      </Col>
    </Row>
  );
}

/** "어제 이 시각 12건 ▲3": the same stretch before and the change since. */
function Compare({ label, now, before }: { label: string; now: number; before: number }) {
  const diff = now - before;
  return (
    <span>
      {label} {count(before)}
      {diff !== 0 && (
        <Typography.Text type={diff > 0 ? 'success' : 'danger'} style={{ marginLeft: 6 }}>
          {diff > 0 ? <ArrowUpOutlined /> : <ArrowDownOutlined />} {formatNumber(Math.abs(diff))}
        </Typography.Text>
      )}
    </span>
  );
}

interface BreakdownRow {
  key: string;
  name: string;
  count: number;
  duplicates: number;
  to?: string;
  /** 실험안별: the row's split (a landing's A/B variants), shown as expandable child rows. */
  children?: BreakdownRow[];
}

/** This month's leads by one dimension, with each one's share. */
function Breakdown({ title, rows, total, nameTitle }: { title: string; rows: BreakdownRow[]; total: number; nameTitle: string }) {
  return (
    <Card variant="borderless" title={title} style={{ height: '100%' }}>
      <Table<BreakdownRow>
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: '이번 달 접수된 DB가 없습니다.' }}
        columns={[
          {
            title: nameTitle, dataIndex: 'name', ellipsis: true,
            render: (v: string, r) => (r.to ? <Link to={r.to}>{v}</Link> : v),
          },
          { title: '접수', dataIndex: 'count', align: 'right', width: 90, render: count },
          { title: '중복', dataIndex: 'duplicates', align: 'right', width: 80, render: count },
          {
            title: '비중', key: 'share', width: 160,
            render: (_: unknown, r) => (
              // 'normal': a share of 100% is not a task finished (no tick).
              <Progress percent={total ? Math.round((r.count / total) * 100) : 0} size="small" status="normal" strokeColor={BLUE} aria-label={`${r.name} 비중`} />
            ),
          },
        ]}
      />
    </Card>
  );
}
