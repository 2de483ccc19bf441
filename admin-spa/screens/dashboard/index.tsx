// Administrator dashboard: leads today / this month across shops, per shop and medium, the
// last 30 days with duplicates and blocked submissions, and the state of accounts and defences.
// With 계약 현황: contracts near completion or behind pace, the landings caps hold closed and
// the latest closings; with 광고 현황: this month's spend and CPA across shops. A contract or a
// shop opens that shop's screen (the shop area's current shop switches to it). With DB 전송 이력:
// the shops whose delivery failed, waits for a retry or lost a channel to a 410; with 시스템
// 예약: what is under way and next. For agency staff, the shops with 응답 SLA on ranked by SLA met.
// Live: a lead arriving in any shop refreshes the figures (the money too) within a second or two.
import { lazy, Suspense, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Card, Col, Empty, List, Row, Skeleton, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  DASHBOARD_DAYS, DASHBOARD_STREAM_EVENT, NEAR_COMPLETION_PERCENT, dashboardApi, type Dashboard, type DashboardStreamEvent,
} from '@contracts/dashboard.ts';
import { useCall } from '@/lib/use-call.ts';
import { refreshInBackground, useBackgroundRefresh } from '@/lib/query-client.ts';
import { urlOf } from '@/lib/api.ts';
import { coalesce, useServerEvents } from '@/lib/server-events.ts';
import { ServerError } from '@/layouts/results.tsx';
import { formatDateTime, formatNumber, sliceShare } from '@/lib/format.ts';
import { dailyLeadsOption } from '@/components/daily-leads-option.ts';
import { AdFiguresRow, CapEventList, ClosedTag, ProgressBar, Projected, TodayCount, contractStatusPath, won } from '@/components/dashboard/money.tsx';
import { Operations } from './operations.tsx';
import { ShopLink } from './shop-link.tsx';
import { SlaRanking } from './sla-ranking.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { UncoveredLandings } from '@/components/uncovered-landings.tsx';

const Chart = lazy(() => import('@/components/chart.tsx'));

/** Refetches the figures when leads arrive anywhere (at most once a second). */
function useLiveDashboard() {
  const client = useQueryClient();
  const refresh = useMemo(() => coalesce(() => refreshInBackground(client, [dashboardApi.get]), 1000), [client]);
  useServerEvents<DashboardStreamEvent>(urlOf(dashboardApi.stream), DASHBOARD_STREAM_EVENT, { onEvent: refresh, onReconnect: refresh });
}

export default function DashboardScreen() {
  const q = useCall(dashboardApi.get);
  useBackgroundRefresh(dashboardApi.get);
  const { account } = useAuth();
  useLiveDashboard();
  const d = q.data;

  const dailyOption = useMemo(() => d && dailyLeadsOption(d.leads.daily), [d]);
  const mediumOption = useMemo(
    () =>
      d && {
        tooltip: { trigger: 'item', formatter: '{b}: {c}건 ({d}%)' },
        legend: { bottom: 0 },
        // The legend names each medium; the slices carry only their share (no name twice).
        series: [{
          type: 'pie', radius: ['45%', '70%'], center: ['50%', '45%'], label: { position: 'inside', formatter: sliceShare, color: '#fff', fontWeight: 600 },
          data: d.leads.byMedium.map((m) => ({ name: m.medium, value: m.month })),
        }],
      },
    [d],
  );

  if (q.isError) return <ServerError message={(q.error as Error).message} onRetry={() => q.refetch()} />;
  if (!d) return <Skeleton active paragraph={{ rows: 8 }} />;

  return (
    <Row gutter={[16, 16]}>
      {[
        { title: '오늘 접수 DB', value: d.leads.today, suffix: '건', note: `중복 ${formatNumber(d.leads.duplicatesToday)}건 포함` },
        { title: '이번 달 접수 DB', value: d.leads.month, suffix: '건', note: `${d.today.slice(0, 7)} 기준` },
        { title: '미배분 DB', value: d.leads.unassigned, suffix: '건', note: `운영 중인 업체 ${formatNumber(d.shops.active)}곳 전체` },
        { title: '오늘 차단된 접수', value: d.security.blockedToday, suffix: '건', note: `차단 규칙 ${d.security.activeDenyRules}개 적용 중` },
      ].map((s) => (
        <Col key={s.title} xs={24} sm={12} xl={6}>
          <Card variant="borderless">
            <Statistic title={s.title} value={s.value} suffix={s.suffix} formatter={(v) => formatNumber(Number(v))} />
            <Typography.Text type="secondary">{s.note}</Typography.Text>
          </Card>
        </Col>
      ))}
      <Col xs={24} xl={16}>
        <Card variant="borderless" title={`최근 ${DASHBOARD_DAYS}일 접수 추이`}>
          <Suspense fallback={<Skeleton active />}>
            {dailyOption && <Chart option={dailyOption} height={280} label={`최근 ${DASHBOARD_DAYS}일 일별 DB 접수(유효·중복)와 차단 건수 그래프`} />}
          </Suspense>
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card variant="borderless" title="이번 달 매체별">
          {d.leads.byMedium.length === 0 ? (
            <Empty description="이번 달 접수된 DB가 없습니다." />
          ) : (
            <Suspense fallback={<Skeleton active />}>{mediumOption && <Chart option={mediumOption} label="이번 달 매체별 DB 비율 도넛 그래프" />}</Suspense>
          )}
        </Card>
      </Col>
      {d.contracts && <Contracts contracts={d.contracts} />}
      {d.ad && <Advertising ad={d.ad} />}
      <Operations delivery={d.delivery} reservations={d.reservations} />
      {account?.side === 'agency' && <SlaRanking />}
      <Col xs={24} xl={16}>
        <Card variant="borderless" title="업체별 접수 (이번 달 상위 10곳)">
          <Table
            rowKey="shopId"
            size="small"
            pagination={false}
            dataSource={d.leads.byShop}
            locale={{ emptyText: '이번 달 접수된 DB가 없습니다.' }}
            columns={[
              { title: '업체', dataIndex: 'shopName' },
              { title: '오늘', dataIndex: 'today', align: 'right', render: formatNumber },
              { title: '이번 달', dataIndex: 'month', align: 'right', render: formatNumber },
              { title: '중복', dataIndex: 'duplicates', align: 'right', render: formatNumber },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card variant="borderless" title="계정과 보안" extra={<Link to="/account-setting">계정 관리</Link>}>
          <Row gutter={8} style={{ marginBottom: 12 }}>
            <Col span={8}>
              <Statistic title="사용 중" value={d.accounts.active} />
            </Col>
            <Col span={8}>
              <Statistic title="잠김" value={d.accounts.locked} styles={{ content: d.accounts.locked ? { color: '#fa541c' } : undefined }} />
            </Col>
            <Col span={8}>
              <Statistic title="오늘 로그인 실패" value={d.security.failedLoginsToday} />
            </Col>
          </Row>
          <Typography.Text strong>최근 로그인</Typography.Text>
          <List
            size="small"
            dataSource={d.recentLogins}
            renderItem={(l) => (
              <List.Item>
                <span>
                  {l.name} <Tag>{l.loginId}</Tag>
                </span>
                <Typography.Text type="secondary">
                  {formatDateTime(l.at)} {l.ip ?? ''}
                </Typography.Text>
              </List.Item>
            )}
          />
        </Card>
      </Col>
    </Row>
  );
}

type Money = NonNullable<Dashboard['contracts']>;
type Watched = Money['watch'][number];
type Closed = Money['closedLandings'][number];

const REASON_TAGS = {
  near: { label: `완료 임박`, color: 'blue', help: `계약 수량의 ${NEAR_COMPLETION_PERCENT}% 이상을 채웠습니다.` },
  behind: { label: '속도 부족', color: 'gold', help: '지금 속도로는 종료일까지 수량을 채우지 못합니다.' },
} as const;

/** 완료 임박 계약, 지금 마감된 랜딩, 최근 마감·재개. */
function Contracts({ contracts }: { contracts: Money }) {
  return (
    <>
      {contracts.uncoveredLandings.length > 0 && (
        <Col xs={24}>
          <UncoveredLandings
            items={contracts.uncoveredLandings}
            prefix={(u) => `${u.shopName} · `}
            link={(u) => <ShopLink shopId={u.shopId} to={`/landing-status?edit=${u.landingId}`}>{u.title}</ShopLink>}
          />
        </Col>
      )}
      <Col xs={24} xl={16}>
        <Card variant="borderless" title="완료 임박 계약" style={{ height: '100%' }}>
          <Table<Watched>
            rowKey={(r) => r.contract.id}
            size="small"
            pagination={false}
            dataSource={contracts.watch}
            locale={{ emptyText: `수량의 ${NEAR_COMPLETION_PERCENT}%를 넘었거나 종료일까지 채우지 못할 진행 중 계약이 없습니다.` }}
            scroll={{ x: 'max-content' }}
            // Three columns that fit the card at 1440 px: why a contract is watched sits under its
            // name, never in a last column a horizontal scrollbar hides.
            columns={[
              {
                title: '업체 · 계약', key: 'name',
                render: (_: unknown, r) => (
                  <Space orientation="vertical" size={2}>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.shopName}</Typography.Text>
                    <ShopLink shopId={r.contract.shopId} to={contractStatusPath(r.contract.id)}>
                      {r.contract.name}
                    </ShopLink>
                    <Space size={4} wrap>
                      {r.reasons.map((k) => (
                        <Tooltip key={k} title={REASON_TAGS[k].help}>
                          <Tag color={REASON_TAGS[k].color} style={{ marginInlineEnd: 0 }}>{REASON_TAGS[k].label}</Tag>
                        </Tooltip>
                      ))}
                      {r.closedLandings.length > 0 && <ClosedTag reopenAt={r.closedLandings[0]!.reopenAt} />}
                    </Space>
                  </Space>
                ),
              },
              { title: '진행', key: 'progress', width: 240, render: (_: unknown, r) => <ProgressBar p={r} compact /> },
              {
                title: '오늘 · 예상 완료', key: 'pace',
                render: (_: unknown, r) => (
                  <Space orientation="vertical" size={0}>
                    <TodayCount p={r} />
                    <Projected p={r} />
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Card variant="borderless" title="지금 마감된 랜딩">
            {contracts.closedLandings.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="계약 한도로 마감된 랜딩이 없습니다." />
            ) : (
              <List<Closed>
                size="small"
                dataSource={contracts.closedLandings}
                rowKey={(l) => l.landingId}
                renderItem={(l) => (
                  <List.Item>
                    <Space orientation="vertical" size={0} style={{ minWidth: 0 }}>
                      <Typography.Text ellipsis style={{ maxWidth: 240 }}>{l.title}</Typography.Text>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {l.shopName} ·{' '}
                        <ShopLink shopId={l.shopId} to={contractStatusPath(l.contractId)}>
                          {l.contractName}
                        </ShopLink>
                      </Typography.Text>
                    </Space>
                    <Space orientation="vertical" size={0} style={{ alignItems: 'flex-end' }}>
                      <ClosedTag reopenAt={l.reopenAt} />
                      <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                        {l.reopenAt ? `${formatDateTime(l.reopenAt)} 재개` : `${formatDateTime(l.closedAt)} 마감`}
                      </Typography.Text>
                    </Space>
                  </List.Item>
                )}
              />
            )}
          </Card>
          <Card variant="borderless" title="최근 마감·재개">
            <CapEventList events={contracts.capEvents} shopName />
          </Card>
        </Space>
      </Col>
    </>
  );
}

type AdShop = NonNullable<Dashboard['ad']>['byShop'][number];

/** This month's advertising across shops, and the shops that spent most. */
function Advertising({ ad }: { ad: NonNullable<Dashboard['ad']> }) {
  return (
    <Col xs={24}>
      <Card variant="borderless" title="이번 달 광고 (전체 업체)" extra={<Typography.Text type="secondary">{ad.from} ~ {ad.to}</Typography.Text>}>
        <Row gutter={[24, 16]}>
          <Col xs={24} xl={8}>
            <AdFiguresRow totals={ad.totals} />
            <Typography.Text type="secondary" style={{ fontSize: 13 }}>
              접수 {formatNumber(ad.totals.leads)}건 · CPL {won(ad.totals.cpl)}
            </Typography.Text>
          </Col>
          <Col xs={24} xl={16}>
            <Table<AdShop>
              rowKey="shopId"
              size="small"
              pagination={false}
              dataSource={ad.byShop}
              locale={{ emptyText: '이번 달 입력된 광고비가 없습니다.' }}
              columns={[
                {
                  title: '업체 (광고비 상위)', dataIndex: 'shopName',
                  render: (v: string, r) => <ShopLink shopId={r.shopId} to="/advertising-status">{v}</ShopLink>,
                },
                { title: '광고비', dataIndex: 'spend', align: 'right', render: won },
                { title: '유효 DB', dataIndex: 'validLeads', align: 'right', render: formatNumber },
                { title: 'CPA', dataIndex: 'cpa', align: 'right', render: (v: number | null) => <strong>{won(v)}</strong> },
              ]}
            />
          </Col>
        </Row>
      </Card>
    </Col>
  );
}
