// The chart both dashboards draw: leads per day, valid and duplicate stacked, and (when given)
// the blocked submissions as a line; and the frame of other charts of counts per day. An option
// object only: echarts itself loads with the Chart.
const BLUE = '#1677ff';
const GREY = '#bfbfbf';
const RED = '#ff4d4f';

/** Counts per Seoul day (MM/DD along the bottom) as the given series draw them, the legend under the chart. */
export function dailyCountsOption(days: ReadonlyArray<{ day: string }>, series: ReadonlyArray<Record<string, unknown>>) {
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 40, right: 16, top: 16, bottom: 56 },
    xAxis: { type: 'category', data: days.map((x) => x.day.slice(5).replace('-', '/')) },
    yAxis: { type: 'value', minInterval: 1 },
    series,
  };
}

export function dailyLeadsOption(daily: ReadonlyArray<{ day: string; count: number; duplicates: number; blocked?: number }>) {
  const blocked = daily.some((x) => x.blocked !== undefined);
  return dailyCountsOption(daily, [
    { type: 'bar', name: '유효 접수', stack: 'leads', data: daily.map((x) => x.count - x.duplicates), itemStyle: { color: BLUE } },
    { type: 'bar', name: '중복', stack: 'leads', data: daily.map((x) => x.duplicates), itemStyle: { color: GREY, borderRadius: [3, 3, 0, 0] } },
    ...(blocked ? [{ type: 'line', name: '차단', data: daily.map((x) => x.blocked ?? 0), itemStyle: { color: RED }, symbolSize: 5 }] : []),
  ]);
}
