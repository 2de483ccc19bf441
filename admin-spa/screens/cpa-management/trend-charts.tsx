// The month-by-month trend: each medium's actual CPA as a line with its target dashed in the
// same colour, and the total margin per month as bars (red below zero) with revenue and
// spend in the tooltip.
import { lazy, Suspense, useMemo } from 'react';
import { Card, Col, Empty, Row, Skeleton } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import type { CpaOverview } from '@contracts/cpa.ts';
import { formatNumber } from '@/lib/format.ts';
import { ABOVE_COLOR, BELOW_COLOR, formatWon } from './figures.tsx';

const Chart = lazy(() => import('@/components/chart.tsx'));

const PALETTE = ['#1677ff', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#faad14', '#2f54eb', '#a0d911', '#8c8c8c'];
const TOTAL_COLOR = '#262626';

const monthTick = (m: string) => `${m.slice(2, 4)}.${m.slice(5)}`;
/** 1,250,000 → "125만"; small numbers as they are. */
const axisWon = (v: number) => (Math.abs(v) >= 10_000 ? `${formatNumber(Math.round(v / 1_000) / 10)}만` : formatNumber(v));
const LEGEND = { bottom: 0, itemWidth: 14, itemHeight: 8, itemGap: 10, textStyle: { fontSize: 11 } };

interface TooltipParam {
  seriesName: string;
  value: number | null;
  marker: string;
  axisValueLabel: string;
  dataIndex: number;
}

function cpaOption(trend: CpaOverview['trend']): EChartsCoreOption | null {
  const hasAny = trend.media.some((m) => m.points.some((p) => p.actualCpa !== null || p.targetCpa !== null));
  if (!hasAny) return null;
  const series: object[] = [];
  trend.media.forEach((m, i) => {
    const color = PALETTE[i % PALETTE.length];
    if (m.points.some((p) => p.actualCpa !== null)) {
      series.push({ type: 'line', name: m.name, data: m.points.map((p) => p.actualCpa), itemStyle: { color }, lineStyle: { color, width: 2 }, symbolSize: 6 });
    }
    if (m.points.some((p) => p.targetCpa !== null)) {
      series.push({
        type: 'line', name: `${m.name} 목표`, data: m.points.map((p) => p.targetCpa), itemStyle: { color }, lineStyle: { color, type: 'dashed', width: 1.5 },
        symbol: 'none',
      });
    }
  });
  series.push({
    type: 'line', name: '전체', data: trend.total.map((p) => p.actualCpa), itemStyle: { color: TOTAL_COLOR }, lineStyle: { color: TOTAL_COLOR, width: 3 }, symbolSize: 7,
  });
  return {
    tooltip: {
      trigger: 'axis',
      formatter: (params: TooltipParam[]) =>
        [params[0]?.axisValueLabel ?? '', ...params.map((p) => `${p.marker}${p.seriesName} <b>${formatWon(p.value)}</b>`)].join('<br/>'),
    },
    legend: LEGEND,
    grid: { left: 8, right: 16, top: 16, bottom: 64, containLabel: true },
    xAxis: { type: 'category', data: trend.months.map(monthTick) },
    yAxis: { type: 'value', axisLabel: { formatter: axisWon } },
    series,
  };
}

function marginOption(trend: CpaOverview['trend']): EChartsCoreOption | null {
  if (!trend.total.some((p) => p.spend || p.revenue)) return null;
  return {
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: TooltipParam[]) => {
        const p = trend.total[params[0]?.dataIndex ?? 0]!;
        return [params[0]?.axisValueLabel ?? '', `매출 ${formatWon(p.revenue)}`, `광고비 ${formatWon(p.spend)}`, `<b>마진 ${formatWon(p.margin)}</b>`].join('<br/>');
      },
    },
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: trend.months.map(monthTick) },
    yAxis: { type: 'value', axisLabel: { formatter: axisWon } },
    series: [{
      type: 'bar', name: '마진', barMaxWidth: 36,
      data: trend.total.map((p) => ({ value: p.margin, itemStyle: { color: p.margin < 0 ? ABOVE_COLOR : BELOW_COLOR } })),
    }],
  };
}

export function TrendCharts({ trend }: { trend: CpaOverview['trend'] }) {
  const cpa = useMemo(() => cpaOption(trend), [trend]);
  const margin = useMemo(() => marginOption(trend), [trend]);
  const span = `${trend.months.length}개월`;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <Card variant="borderless" title={`최근 ${span} CPA 추이`} style={{ height: '100%' }}>
          {cpa ? (
            <Suspense fallback={<Skeleton active />}>
              <Chart option={cpa} height={300} label={`최근 ${span} 매체별 실제 CPA 꺾은선 그래프와 점선으로 그린 목표 CPA`} />
            </Suspense>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="이 기간에 CPA를 계산할 광고비·유효 DB나 목표가 없습니다." />
          )}
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card variant="borderless" title={`최근 ${span} 마진`} style={{ height: '100%' }}>
          {margin ? (
            <Suspense fallback={<Skeleton active />}>
              <Chart option={margin} height={300} label={`최근 ${span} 월별 마진 막대 그래프 (손실은 빨간색)`} />
            </Suspense>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="이 기간에 광고비나 매출이 없습니다." />
          )}
        </Card>
      </Col>
    </Row>
  );
}
