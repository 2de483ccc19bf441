// The options of 광고 현황's two charts (echarts itself loads with the Chart component):
// spend per day stacked by medium with the day's CPA as a line, and CPA and CVR per medium.
import type { EChartsCoreOption } from 'echarts/core';
import type { AdDayTotal, AdMediumTotal, AdRow } from '@contracts/ad-spend.ts';
import { formatPercent, formatWon, shortDay } from './format.ts';

const PALETTE = ['#1677ff', '#52c41a', '#faad14', '#722ed1', '#13c2c2', '#eb2f96', '#fa8c16', '#2f54eb', '#a0d911', '#8c8c8c'];
const CPA_COLOR = '#ff4d4f';
const CVR_COLOR = '#13c2c2';

/** 1,250,000 → "125만" on an axis. */
const axisWon = (v: number) => (v >= 10_000 ? `${(v / 10_000).toLocaleString('ko-KR', { maximumFractionDigits: 1 })}만` : v.toLocaleString('ko-KR'));

/** A medium's colour, the same in both charts. */
const mediumColor = (index: number) => PALETTE[index % PALETTE.length]!;

/** Spend per day stacked by medium, and CPA per day (null days leave a gap); null when nothing was spent. */
export function spendByDayOption(days: readonly AdDayTotal[], rows: readonly AdRow[], media: readonly AdMediumTotal[]): EChartsCoreOption | null {
  const spent = media.filter((m) => m.mediaTypeId !== null && m.spend > 0);
  if (!spent.length) return null;
  const perDay = new Map<string, number>();
  for (const r of rows) perDay.set(`${r.day}|${r.mediaTypeId}`, (perDay.get(`${r.day}|${r.mediaTypeId}`) ?? 0) + r.spend);
  return {
    tooltip: {
      trigger: 'axis', axisPointer: { type: 'shadow' },
      valueFormatter: (v: number | null) => formatWon(v ?? null),
    },
    legend: { bottom: 0, itemWidth: 12, itemHeight: 10, textStyle: { fontSize: 12 } },
    grid: { left: 8, right: 8, top: 32, bottom: 40, containLabel: true },
    xAxis: { type: 'category', data: days.map((d) => shortDay(d.day)) },
    yAxis: [
      { type: 'value', name: '광고비', axisLabel: { formatter: axisWon }, splitLine: { lineStyle: { type: 'dashed' } } },
      { type: 'value', name: 'CPA', axisLabel: { formatter: axisWon }, splitLine: { show: false } },
    ],
    series: [
      ...spent.map((m) => ({
        type: 'bar', name: m.mediaTypeName, stack: 'spend', barMaxWidth: 28,
        itemStyle: { color: mediumColor(media.indexOf(m)) },
        data: days.map((d) => perDay.get(`${d.day}|${m.mediaTypeId}`) ?? 0),
      })),
      {
        type: 'line', name: 'CPA', yAxisIndex: 1, symbolSize: 6, connectNulls: false,
        itemStyle: { color: CPA_COLOR }, lineStyle: { width: 2 },
        data: days.map((d) => d.cpa),
      },
    ],
  };
}

/** CPA (won) and CVR (%) per medium with spend or leads (매체 미지정 has no spend: left out); null when none. */
export function mediumRatiosOption(media: readonly AdMediumTotal[]): EChartsCoreOption | null {
  const shown = media.filter((m) => m.mediaTypeId !== null && (m.spend > 0 || m.leads > 0));
  if (!shown.length || shown.every((m) => m.cpa === null && m.cvr === null)) return null;
  return {
    tooltip: {
      trigger: 'axis', axisPointer: { type: 'shadow' },
      formatter: (items: Array<{ seriesName: string; value: number | null; axisValueLabel: string; marker: string }>) =>
        [items[0]?.axisValueLabel ?? '', ...items.map((i) => `${i.marker} ${i.seriesName} ${i.seriesName === 'CPA' ? formatWon(i.value) : formatPercent(i.value)}`)].join('<br/>'),
    },
    legend: { bottom: 0 },
    grid: { left: 8, right: 8, top: 32, bottom: 40, containLabel: true },
    xAxis: { type: 'category', data: shown.map((m) => m.mediaTypeName), axisLabel: { interval: 0, width: 80, overflow: 'truncate' } },
    yAxis: [
      { type: 'value', name: 'CPA', axisLabel: { formatter: axisWon }, splitLine: { lineStyle: { type: 'dashed' } } },
      { type: 'value', name: 'CVR', axisLabel: { formatter: '{value}%' }, splitLine: { show: false } },
    ],
    series: [
      {
        type: 'bar', name: 'CPA', barMaxWidth: 24, itemStyle: { color: CPA_COLOR }, data: shown.map((m) => m.cpa),
        label: { show: true, position: 'top', fontSize: 11, formatter: (p: { value: number | null }) => (p.value == null ? '' : axisWon(p.value)) },
      },
      {
        type: 'bar', name: 'CVR', yAxisIndex: 1, barMaxWidth: 24, itemStyle: { color: CVR_COLOR }, data: shown.map((m) => m.cvr),
        label: { show: true, position: 'top', fontSize: 11, formatter: (p: { value: number | null }) => (p.value == null ? '' : `${p.value}%`) },
      },
    ],
  };
}
