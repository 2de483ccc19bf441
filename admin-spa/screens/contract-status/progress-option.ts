// A contract's progress as the chart draws it: valid leads per day (billable and past a cap,
// stacked) on the left axis, the billable running total against the contract's quantity on the
// right. An option object only: echarts itself loads with the Chart.
import type { ContractDay } from '@contracts/shop-contracts.ts';
import { formatNumber } from '@/lib/format.ts';

const BLUE = '#1677ff';
const AMBER = '#faad14';
const GREEN = '#52c41a';
const RED = '#ff4d4f';

export function progressOption(days: readonly ContractDay[], quantity: number) {
  const top = Math.max(quantity, days.at(-1)?.cumulative ?? 0);
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${formatNumber(v)}건` },
    legend: { bottom: 0 },
    grid: { left: 8, right: 8, top: 28, bottom: 40, containLabel: true },
    xAxis: { type: 'category', data: days.map((d) => d.day.slice(5).replace('-', '/')) },
    yAxis: [
      { type: 'value', name: '일별', minInterval: 1 },
      // The quantity line always fits: the right axis reaches it even before the total does.
      { type: 'value', name: '누적', minInterval: 1, max: top, splitLine: { show: false } },
    ],
    series: [
      { type: 'bar', name: '정산 대상', stack: 'valid', data: days.map((d) => d.billable), barMaxWidth: 28, itemStyle: { color: BLUE } },
      { type: 'bar', name: '한도 초과', stack: 'valid', data: days.map((d) => d.over), barMaxWidth: 28, itemStyle: { color: AMBER, borderRadius: [3, 3, 0, 0] } },
      { type: 'line', name: '누적 정산 대상', yAxisIndex: 1, data: days.map((d) => d.cumulative), itemStyle: { color: GREEN }, symbolSize: days.length > 1 ? 4 : 8 },
      {
        type: 'line', name: '계약 수량', yAxisIndex: 1, data: days.map(() => quantity), symbol: 'none',
        lineStyle: { type: 'dashed', width: 1 }, itemStyle: { color: RED },
      },
    ],
  };
}
