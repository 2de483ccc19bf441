// What 상담 통계 (one shop) and 전체 상담 통계 (across shops) show alike: the summary cards,
// the chart cards and their options, the status columns of the figures table and its totals
// row, and the Korean formats of counts, rates and waiting times.
import { lazy, Suspense, type ReactNode } from 'react';
import { Card, Col, Empty, Row, Skeleton, Statistic, Table, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import type { EChartsCoreOption } from 'echarts/core';
import { CS_STATUSES, type CsStatus } from '@contracts/leads.ts';
import type { CsCounselorRow, CsDay, CsFigures } from '@contracts/cs-stats.ts';
import { formatNumber, sliceShare } from '@/lib/format.ts';
import { FigureCards, TotalsRow } from '@/components/figures.tsx';

const Chart = lazy(() => import('@/components/chart.tsx'));

/** The status tags' colours (status-tag.tsx) as chart colours; the closing statuses in greys. */
export const STATUS_CHART_COLORS: Record<CsStatus, string> = {
  미처리: '#ff4d4f', 부재: '#fa8c16', 통화완료: '#1677ff', 상담예약: '#722ed1', 계약: '#52c41a',
  보류: '#fadb14', 거절: '#595959', 결번: '#8c8c8c', 무효: '#bfbfbf', 중복: '#eb2f96',
};
const CONTACT_COLOR = '#1677ff';
const CONTRACT_COLOR = '#52c41a';

export const formatCount = (n: number) => `${formatNumber(n)}건`;
/** 0.425 → "42.5%"; no leads → "-". */
const formatRate = (rate: number | null) => (rate === null ? '-' : `${(Math.round(rate * 1000) / 10).toLocaleString('ko-KR')}%`);
const percent = (rate: number | null) => (rate === null ? 0 : Math.round(rate * 1000) / 10);

/** Minutes as people say them: "12분", "1시간 5분", "2일 3시간"; none → "-". */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '-';
  if (minutes < 1) return '1분 미만';
  const m = Math.round(minutes);
  if (m < 60) return `${m}분`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}시간 ${m % 60}분` : `${h}시간`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}일 ${h % 24}시간` : `${d}일`;
}

/** The six figures of a period at the top of both screens. */
export function CsSummaryCards({ totals }: { totals: CsFigures }) {
  // Notes stay one short line at six cards a row; what a rate divides goes in its title's tooltip.
  const cards: Array<{ title: string; help?: string; value: string | number; suffix?: string; note: string }> = [
    { title: '총 DB', value: totals.total, suffix: '건', note: `중복 ${formatCount(totals.total - totals.unique)} 포함` },
    { title: '유효 DB', help: '중복을 뺀 DB입니다. 연락률과 계약 전환율은 유효 DB로 나눈 값입니다.', value: totals.unique, suffix: '건', note: '중복 제외' },
    { title: '연락률', help: '통화완료·상담예약·계약인 유효 DB ÷ 유효 DB', value: formatRate(totals.contactRate), note: `연락 ${formatCount(totals.contacted)}` },
    { title: '계약 전환율', help: '계약인 유효 DB ÷ 유효 DB', value: formatRate(totals.conversionRate), note: `계약 ${formatCount(totals.contracted)}` },
    {
      title: '첫 연락 중앙값', help: '접수부터 처음 상태를 바꾼 때까지 걸린 시간입니다. 아직 연락하지 않은 DB는 빠집니다.',
      value: formatMinutes(totals.firstContactMedianMinutes), note: `연락한 ${formatCount(totals.firstContacts)} 기준`,
    },
    { title: '첫 연락 평균', value: formatMinutes(totals.firstContactAvgMinutes), note: '접수부터 첫 상태 변경까지' },
  ];
  return (
    <FigureCards
      cards={cards}
      figure={(c) => (
        <Statistic
          title={c.help ? <Tooltip title={c.help}><span>{c.title} <QuestionCircleOutlined style={{ fontSize: 12 }} /></span></Tooltip> : c.title}
          value={c.value} suffix={c.suffix} formatter={typeof c.value === 'number' ? (v) => formatNumber(Number(v)) : undefined} />
      )}
    />
  );
}

interface ChartCardProps {
  title: string;
  option: EChartsCoreOption | null;
  /** What the chart shows, for screen readers. */
  label: string;
  height?: number;
  empty: string;
  extra?: ReactNode;
}

/** A card with a lazily loaded chart, or a sentence when there is nothing to draw. */
export function ChartCard({ title, option, label, height, empty, extra }: ChartCardProps) {
  return (
    <Card variant="borderless" title={title} extra={extra} style={{ height: '100%' }}>
      {option ? (
        <Suspense fallback={<Skeleton active />}>
          <Chart option={option} label={label} height={height} />
        </Suspense>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
      )}
    </Card>
  );
}

/** Chart cards side by side on a wide screen (each `xl` of 24 columns), one under another on a narrow one. */
export function ChartRow({ cards }: { cards: Array<ChartCardProps & { xl: number }> }) {
  return (
    <Row gutter={[16, 16]}>
      {cards.map(({ xl, ...c }) => (
        <Col key={c.title} xs={24} xl={xl}>
          <ChartCard {...c} />
        </Col>
      ))}
    </Row>
  );
}

/** A legend that wraps onto a second line rather than paging (ten statuses do not fit a narrow card). */
export const WRAPPING_LEGEND = { bottom: 0, itemWidth: 12, itemHeight: 10, itemGap: 8, textStyle: { fontSize: 11 } };

const used = (rows: Array<{ byStatus: Record<CsStatus, number> }>) => CS_STATUSES.filter((s) => rows.some((r) => r.byStatus[s] > 0));
const countTooltip = { valueFormatter: (v: number) => formatCount(Number(v ?? 0)) };

/** Leads per day stacked by status (only the statuses that occur); null without leads. */
export function dayStatusOption(days: CsDay[]): EChartsCoreOption | null {
  const statuses = used(days);
  if (!statuses.length) return null;
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, ...countTooltip },
    legend: WRAPPING_LEGEND,
    grid: { left: 40, right: 16, top: 16, bottom: 56 },
    xAxis: { type: 'category', data: days.map((d) => d.day.slice(5).replace('-', '/')) },
    yAxis: { type: 'value', minInterval: 1 },
    series: statuses.map((s) => ({
      type: 'bar', name: s, stack: 'status', barMaxWidth: 28, itemStyle: { color: STATUS_CHART_COLORS[s] }, data: days.map((d) => d.byStatus[s]),
    })),
  };
}

/** The share of each status; null without leads. */
export function statusPieOption(totals: CsFigures): EChartsCoreOption | null {
  const statuses = used([totals]);
  if (!statuses.length) return null;
  return {
    tooltip: { trigger: 'item', formatter: (p: { name: string; value: number; percent: number }) => `${p.name}: ${formatCount(p.value)} (${p.percent}%)` },
    legend: WRAPPING_LEGEND,
    series: [{
      type: 'pie', radius: ['40%', '64%'], center: ['50%', '42%'],
      // The legend names each status; the slices carry only their share (no name twice).
      label: { position: 'inside', formatter: sliceShare, color: '#fff', fontWeight: 600 },
      data: statuses.map((s) => ({ name: s, value: totals.byStatus[s], itemStyle: { color: STATUS_CHART_COLORS[s] } })),
    }],
  };
}

/** Contact rate and conversion per named row, as horizontal bars (first row on top); null when no row has leads. */
export function rateBarsOption(rows: Array<{ name: string; figures: CsFigures }>): EChartsCoreOption | null {
  const shown = rows.filter((r) => r.figures.unique > 0);
  if (!shown.length) return null;
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => `${v}%` },
    legend: { bottom: 0 },
    grid: { left: 8, right: 40, top: 8, bottom: 32, containLabel: true },
    xAxis: { type: 'value', max: 100, axisLabel: { formatter: '{value}%' } },
    yAxis: { type: 'category', inverse: true, data: shown.map((r) => r.name), axisLabel: { width: 140, overflow: 'truncate' } },
    series: [
      { type: 'bar', name: '연락률', data: shown.map((r) => percent(r.figures.contactRate)), itemStyle: { color: CONTACT_COLOR }, barMaxWidth: 14, label: { show: true, position: 'right', formatter: '{c}%', fontSize: 11 } },
      { type: 'bar', name: '계약 전환율', data: shown.map((r) => percent(r.figures.conversionRate)), itemStyle: { color: CONTRACT_COLOR }, barMaxWidth: 14, label: { show: true, position: 'right', formatter: '{c}%', fontSize: 11 } },
    ],
  };
}

/** A horizontal bar chart's height for `n` categories, so names never crowd. */
export const barsHeight = (n: number, perRow = 34) => Math.max(240, 72 + n * perRow);

const zero = (n: number) => (n ? formatNumber(n) : <Typography.Text type="secondary">0</Typography.Text>);

/** The figures' columns after a row's name: each status, the total, the rates and the first contact. */
export function figureColumns<R extends CsFigures>(): ColumnsType<R> {
  return [
    ...CS_STATUSES.map((s) => ({
      // No sorter on the ten status columns: their sort buttons would push the table past the screen.
      title: s, key: s, align: 'right' as const, render: (_: unknown, r: R) => zero(r.byStatus[s]),
    })),
    { title: '합계', dataIndex: 'total', key: 'total', align: 'right', render: (v: number) => <strong>{formatNumber(v)}</strong>, sorter: (a, b) => a.total - b.total },
    {
      title: '연락률', key: 'contactRate', align: 'right', render: (_, r) => formatRate(r.contactRate),
      sorter: (a, b) => (a.contactRate ?? -1) - (b.contactRate ?? -1),
    },
    {
      title: '계약 전환율', key: 'conversionRate', align: 'right', render: (_, r) => formatRate(r.conversionRate),
      sorter: (a, b) => (a.conversionRate ?? -1) - (b.conversionRate ?? -1),
    },
    {
      title: '첫 연락 (중앙값)', key: 'firstContact', align: 'right',
      render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{formatMinutes(r.firstContactMedianMinutes)}</span>,
      sorter: (a, b) => (a.firstContactMedianMinutes ?? Infinity) - (b.firstContactMedianMinutes ?? Infinity),
    },
  ];
}

/** The totals row under a figures table, cell for cell with figureColumns() after one name column. */
export function FiguresSummary({ totals }: { totals: CsFigures }) {
  const cells: ReactNode[] = [
    <strong key="label">합계</strong>,
    ...CS_STATUSES.map((s) => formatNumber(totals.byStatus[s])),
    <strong key="total">{formatNumber(totals.total)}</strong>,
    formatRate(totals.contactRate),
    formatRate(totals.conversionRate),
    <span key="first" style={{ whiteSpace: 'nowrap' }}>{formatMinutes(totals.firstContactMedianMinutes)}</span>,
  ];
  return <TotalsRow cells={cells} />;
}

const counselorColumns: ColumnsType<CsCounselorRow> = [
  {
    title: '상담원', dataIndex: 'name', key: 'name', fixed: 'left',
    render: (v: string, r) => (r.counselorId === null ? <Typography.Text type="secondary">{v}</Typography.Text> : <span style={{ whiteSpace: 'nowrap' }}>{v}</span>),
  },
  ...figureColumns<CsCounselorRow>(),
];

/** A shop's counselors × status (미배분 last), with the shop's totals under them. */
export function CounselorTable({ title, rows, totals }: { title: string; rows: CsCounselorRow[]; totals: CsFigures }) {
  return (
    <Card variant="borderless" title={title}>
      <Table
        rowKey={(r) => r.counselorId ?? 'none'}
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={rows}
        columns={counselorColumns}
        locale={{ emptyText: '이 업체에 상담원이 없고, 이 기간에 접수된 DB도 없습니다.' }}
        summary={() => (rows.length > 1 ? <FiguresSummary totals={totals} /> : null)}
      />
    </Card>
  );
}
