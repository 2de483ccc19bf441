// 전체 상담 통계: how each shop's leads of a period were worked — per shop and status, the
// contact and contract rates, the time to first contact, and the days — for every shop the
// account may enter, or one chosen shop (kept in the URL) with its counselors. The figures
// refresh every minute.
import { useMemo } from 'react';
import { Card, Select, Skeleton, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { csStatsApi, type CsShopRow } from '@contracts/cs-stats.ts';
import { authApi } from '@contracts/auth.ts';
import { CS_STATUSES } from '@contracts/leads.ts';
import { useCall } from '@/lib/use-call.ts';
import { useBackgroundRefresh } from '@/lib/query-client.ts';
import { useSearchId } from '@/lib/search-state.ts';
import { ServerError } from '@/layouts/results.tsx';
import { PeriodPicker, usePeriod } from '@/components/period-picker.tsx';
import {
  ChartCard, ChartRow, CounselorTable, CsSummaryCards, FiguresSummary, STATUS_CHART_COLORS, WRAPPING_LEGEND, barsHeight, dayStatusOption, figureColumns, formatCount, rateBarsOption,
} from '@/components/cs-stats.tsx';

export default function AdminCsStats() {
  const { from, to, today, setPeriod } = usePeriod('month');
  const [shopParam, setShop] = useSearchId('shop');
  const shopId = shopParam ?? undefined;
  const input = { query: { from, to, ...(shopId ? { shopId } : {}) } };
  const q = useCall(csStatsApi.admin, input, { keepPrevious: true });
  useBackgroundRefresh(csStatsApi.admin, input);
  const shops = useCall(authApi.shops);
  const s = q.data;

  const columns = useMemo<ColumnsType<CsShopRow>>(
    () => [
      {
        title: '업체', dataIndex: 'shopName', key: 'shopName', fixed: 'left',
        render: (v: string, r) => (
          <Space size={4} style={{ whiteSpace: 'nowrap' }}>
            {/* A shop's name narrows the screen to it. */}
            {shopId ? v : <Typography.Link onClick={() => setShop(r.shopId)}>{v}</Typography.Link>}
            {!r.active && <Tag>사용 중지</Tag>}
          </Space>
        ),
      },
      ...figureColumns<CsShopRow>(),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setShop reads the URL at click time
    [shopId],
  );

  const charts = useMemo(() => {
    if (!s) return null;
    const withLeads = s.shops.filter((r) => r.total > 0);
    const statuses = CS_STATUSES.filter((st) => withLeads.some((r) => r.byStatus[st] > 0));
    return {
      byShop: withLeads.length
        ? {
            tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => formatCount(Number(v ?? 0)) },
            legend: WRAPPING_LEGEND,
            grid: { left: 8, right: 24, top: 8, bottom: 56, containLabel: true },
            xAxis: { type: 'value', minInterval: 1 },
            yAxis: { type: 'category', inverse: true, data: withLeads.map((r) => r.shopName), axisLabel: { width: 140, overflow: 'truncate' } },
            series: statuses.map((st) => ({
              type: 'bar', name: st, stack: 'status', barMaxWidth: 22, itemStyle: { color: STATUS_CHART_COLORS[st] }, data: withLeads.map((r) => r.byStatus[st]),
            })),
          }
        : null,
      byShopHeight: barsHeight(withLeads.length) + 24,
      rates: rateBarsOption(s.shops.map((r) => ({ name: r.shopName, figures: r }))),
      ratesHeight: barsHeight(s.shops.filter((r) => r.unique > 0).length, 40),
      days: dayStatusOption(s.byDay),
    };
  }, [s]);

  if (q.isError) return <ServerError message={(q.error as Error).message} onRetry={() => q.refetch()} />;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap size={12}>
        <PeriodPicker label="접수 기간" from={from} to={to} today={today} onChange={setPeriod} />
        <Select
          aria-label="업체"
          placeholder="전체 업체"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: 200 }}
          value={shopId}
          onChange={(v?: number) => setShop(v ?? null)}
          options={(shops.data?.items ?? []).map((x) => ({ value: x.id, label: x.name }))}
        />
        <Typography.Text type="secondary">접수일 기준 · 삭제된 DB 제외 · 연락률과 계약 전환율은 중복을 뺀 유효 DB 기준</Typography.Text>
      </Space>
      {!s || !charts ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <>
          <CsSummaryCards totals={s.totals} />
          <ChartRow
            cards={[
              { xl: 13, title: '업체별 상태', option: charts.byShop, height: charts.byShopHeight, label: '업체별 DB 수를 상담 상태별로 쌓은 가로 막대 그래프', empty: '이 기간에 접수된 DB가 없습니다.' },
              { xl: 11, title: '업체별 연락률 · 계약 전환율', option: charts.rates, height: charts.ratesHeight, label: '업체별 연락률과 계약 전환율 가로 막대 그래프', empty: '이 기간에 접수된 DB가 없습니다.' },
            ]}
          />
          <Card variant="borderless" title="업체 × 상태">
            <Table
              rowKey="shopId"
              size="small"
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={s.shops}
              columns={columns}
              locale={{ emptyText: '이 기간에 접수된 DB가 없습니다.' }}
              summary={() => (s.shops.length > 1 ? <FiguresSummary totals={s.totals} /> : null)}
            />
          </Card>
          {s.counselors && <CounselorTable title={`${s.shops[0]?.shopName ?? ''} 상담원 × 상태`} rows={s.counselors} totals={s.totals} />}
          <ChartCard title="일별 상태" option={charts.days} label="기간 중 일별 DB 접수 수를 상담 상태별로 쌓은 막대 그래프" empty="이 기간에 접수된 DB가 없습니다." />
        </>
      )}
    </Space>
  );
}
