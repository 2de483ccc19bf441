// 상담 통계: how the current shop's leads of a period were worked — per counselor and status,
// per day, the contact and contract rates and the time to first contact. A counselor sees
// the figures of their own leads only (the server narrows them). The lead stream refreshes
// the figures as leads arrive and change. The 응답 SLA tab: the period's speed to lead — SLA met,
// the median and p90 working minutes to first contact, their distribution, per counselor,
// landing, medium and hour of arrival, and the re-routes and why (sla-tab.tsx).
import { useMemo } from 'react';
import { Skeleton, Space, Tag, Typography } from 'antd';
import { csStatsApi } from '@contracts/cs-stats.ts';
import { UrlTabs } from '@/components/url-tabs.tsx';
import { SlaTab } from './sla-tab.tsx';
import { useCall } from '@/lib/use-call.ts';
import { useCurrentShop } from '@/lib/shop.tsx';
import { ServerError } from '@/layouts/results.tsx';
import { PeriodPicker, usePeriod } from '@/components/period-picker.tsx';
import {
  ChartRow, CounselorTable, CsSummaryCards, barsHeight, dayStatusOption, formatMinutes, rateBarsOption, statusPieOption,
} from '@/components/cs-stats.tsx';

const MEDIAN_COLOR = '#13c2c2';

export default function CsStats() {
  const shop = useCurrentShop();
  const { from, to, today, setPeriod } = usePeriod('month');
  const q = useCall(csStatsApi.shop, { params: { shopId: shop.id }, query: { from, to } }, { keepPrevious: true });
  const s = q.data;

  const charts = useMemo(() => {
    if (!s) return null;
    // 미배분 leads are nobody's work: the counselor comparisons leave them out.
    const counselors = s.counselors.filter((c) => c.counselorId !== null);
    const timed = counselors.filter((c) => c.firstContactMedianMinutes !== null);
    return {
      days: dayStatusOption(s.byDay),
      pie: statusPieOption(s.totals),
      rates: rateBarsOption(counselors.map((c) => ({ name: c.name, figures: c }))),
      ratesHeight: barsHeight(counselors.filter((c) => c.unique > 0).length, 40),
      median: timed.length
        ? {
            tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => formatMinutes(v) },
            grid: { left: 8, right: 72, top: 8, bottom: 8, containLabel: true },
            xAxis: { type: 'value', axisLabel: { formatter: '{value}분' } },
            yAxis: { type: 'category', inverse: true, data: timed.map((c) => c.name), axisLabel: { width: 110, overflow: 'truncate' } },
            series: [{
              type: 'bar', name: '첫 연락 중앙값', barMaxWidth: 18, itemStyle: { color: MEDIAN_COLOR },
              data: timed.map((c) => c.firstContactMedianMinutes),
              label: { show: true, position: 'right', formatter: (p: { value: number }) => formatMinutes(p.value), fontSize: 11 },
            }],
          }
        : null,
      medianHeight: barsHeight(timed.length, 32),
    };
  }, [s]);

  if (q.isError) return <ServerError message={(q.error as Error).message} onRetry={() => q.refetch()} />;

  const own = s?.scope === 'assigned';
  const work = !s || !charts ? (
    <Skeleton active paragraph={{ rows: 10 }} />
  ) : (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <CsSummaryCards totals={s.totals} />
      <ChartRow
        cards={[
          { xl: 16, title: '일별 상태', option: charts.days, label: '기간 중 일별 DB 접수 수를 상담 상태별로 쌓은 막대 그래프', empty: '이 기간에 접수된 DB가 없습니다.' },
          { xl: 8, title: '상태 비율', option: charts.pie, label: '기간 중 DB의 상담 상태별 비율 도넛 그래프', empty: '이 기간에 접수된 DB가 없습니다.' },
        ]}
      />
      <CounselorTable title={own ? '상태별 현황' : '상담원 × 상태'} rows={s.counselors} totals={s.totals} />
      {!own && (
        <ChartRow
          cards={[
            { xl: 12, title: '상담원별 연락률 · 계약 전환율', option: charts.rates, height: charts.ratesHeight, label: '상담원별 연락률과 계약 전환율 가로 막대 그래프', empty: '이 기간에 상담원에게 배분된 DB가 없습니다.' },
            { xl: 12, title: '상담원별 첫 연락 시간 (중앙값)', option: charts.median, height: charts.medianHeight, label: '상담원별 접수부터 첫 연락까지 걸린 시간의 중앙값 가로 막대 그래프', empty: '이 기간에 연락한 DB가 없습니다.' },
          ]}
        />
      )}
    </Space>
  );
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap size={12}>
        <PeriodPicker label="접수 기간" from={from} to={to} today={today} onChange={setPeriod} />
        <Typography.Text type="secondary">접수일 기준 · 삭제된 DB 제외 · 연락률과 계약 전환율은 중복을 뺀 유효 DB 기준</Typography.Text>
        {own && <Tag color="blue">내 담당 DB만</Tag>}
      </Space>
      <UrlTabs
        tabs={[
          { key: 'work', label: '상담 현황', render: () => work },
          { key: 'sla', label: '응답 SLA', render: () => <SlaTab shopId={shop.id} from={from} to={to} /> },
        ]}
      />
    </Space>
  );
}
