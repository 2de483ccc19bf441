// Administrator dashboard: leads today / this month across shops, per shop and medium, the
// last 30 days with duplicates and blocked submissions, and the state of accounts and defences.
// Live: a lead arriving in any shop refreshes the figures within a second or two.
import { lazy, Suspense, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Card, Col, Empty, List, Row, Skeleton, Statistic, Table, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { DASHBOARD_DAYS, DASHBOARD_STREAM_EVENT, dashboardApi, type DashboardStreamEvent } from '@contracts/dashboard.ts';
import { useCall } from '@/lib/use-call.ts';
import { refreshInBackground, useBackgroundRefresh } from '@/lib/query-client.ts';
import { urlOf } from '@/lib/api.ts';
import { coalesce, useServerEvents } from '@/lib/server-events.ts';
import { ServerError } from '@/layouts/results.tsx';
import { formatDateTime, formatNumber, sliceShare } from '@/lib/format.ts';
import { dailyLeadsOption } from '@/components/daily-leads-option.ts';

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
