// Speed to lead, as 업체 대시보드 and 상담 통계 show it: SLA met, the median and p90 of the working
// minutes to first contact, the leads re-routed and why, the distribution of the time to first
// contact (a chart, loaded lazily), the per-group tables, and — when the shop has no SLA — a
// sentence and a link to DB 배분's 응답 SLA card instead of empty figures. The definitions are the
// server's (server/modules/leads/sla-figures.ts); this file only shows them.
import { lazy, Suspense, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Card, Col, Empty, Result, Row, Skeleton, Statistic, Table, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import type { EChartsCoreOption } from 'echarts/core';
import {
  SLA_BUCKET_LABELS, SLA_REROUTE_REASON_LABELS, type SlaBucket, type SlaFigures, type SlaGroup,
} from '@contracts/lead-sla.ts';
import { formatNumber } from '@/lib/format.ts';

const Chart = lazy(() => import('@/components/chart.tsx'));

const DAY_NAMES = ['', '월', '화', '수', '목', '금', '토', '일'];
/** Time buckets blue to orange; not contacted in red (past the deadline) and grey (not yet due). */
const BUCKET_COLORS: Record<SlaBucket, string> = {
  1: '#1677ff', 5: '#4096ff', 15: '#69b1ff', 30: '#13c2c2', 60: '#faad14', over: '#fa8c16', 'open-missed': '#ff4d4f', 'open-pending': '#bfbfbf',
};

/** 0.425 → "42.5%"; nothing decided → "-". */
export const formatSlaRate = (rate: number | null) => (rate === null ? '-' : `${(Math.round(rate * 1000) / 10).toLocaleString('ko-KR')}%`);
/** Working minutes, one decimal: "12.5분"; none → "-". */
export const formatWorkMinutes = (m: number | null) => (m === null ? '-' : `${m.toLocaleString('ko-KR', { maximumFractionDigits: 1 })}분`);
const count = (n: number) => `${formatNumber(n)}건`;

/** "월–금 09:00–18:00 · 휴일 3일" */
export function calendarText(sla: NonNullable<SlaFigures['sla']>): string {
  const d = sla.workDays;
  const run = d.length > 1 && d.every((x, i) => i === 0 || x === d[i - 1]! + 1);
  const days = d.length === 7 ? '매일' : run ? `${DAY_NAMES[d[0]!]}–${DAY_NAMES[d[d.length - 1]!]}` : d.map((x) => DAY_NAMES[x]).join('·');
  return `${days} ${sla.workStart}–${sla.workEnd}${sla.holidays ? ` · 휴일 ${sla.holidays}일` : ''}`;
}

/** The shop has no SLA: say so, and where it is set. */
export function SlaOff({ canSettings }: { canSettings: boolean }) {
  return (
    <Result
      status="info"
      title="이 업체는 응답 SLA를 사용하지 않습니다."
      subTitle="첫 연락 기한을 정하면 기한 준수율과 첫 연락까지 걸린 시간을 여기서 볼 수 있습니다."
      extra={canSettings ? <Link to="/data-allocation">DB 배분의 응답 SLA 설정 열기</Link> : <Typography.Text type="secondary">설정은 대행사 담당자에게 요청하세요.</Typography.Text>}
    />
  );
}

const help = (title: string, text: string) => (
  <Tooltip title={text}>
    <span>
      {title} <QuestionCircleOutlined style={{ fontSize: 12 }} />
    </span>
  </Tooltip>
);

/** The four headline figures: SLA met, median, p90, re-routed; with what each is of. */
export function SlaFigureCards({ f, span = { xs: 12, md: 6 } }: { f: SlaFigures; span?: { xs: number; md: number; xl?: number } }) {
  const t = f.totals;
  const cards = [
    {
      title: help('SLA 준수율', `첫 연락 기한(${f.sla?.minutes ?? '-'}분, 근무 시간 기준) 안에 연락한 DB ÷ (지킨 DB + 놓친 DB). 기한 전인 미연락 DB는 빠집니다.`),
      value: formatSlaRate(t.metRate), note: `지킴 ${count(t.met)} · 놓침 ${count(t.missed)}`, warn: t.metRate !== null && t.metRate < 0.8,
    },
    { title: help('첫 연락 중앙값', '접수부터 첫 연락까지 근무 시간으로 잰 분의 중앙값. 연락한 DB만 셉니다.'), value: formatWorkMinutes(t.medianMinutes), note: `연락한 ${count(t.contacted)} 기준` },
    { title: help('첫 연락 p90', '연락한 DB의 90%가 이 시간(근무 분) 안에 연락되었습니다.'), value: formatWorkMinutes(t.p90Minutes), note: '근무 시간 기준' },
    { title: help('재배분된 DB', '기한이 지나 다음 상담원에게 넘어간 적이 있는 DB'), value: count(t.rerouted), note: `대기 중 ${count(t.pending)} (기한 전)` },
  ];
  return (
    <Row gutter={[16, 16]}>
      {cards.map((c, i) => (
        <Col key={i} {...span}>
          <Statistic title={c.title} value={c.value} styles={{ content: c.warn ? { color: '#cf1322' } : undefined }} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {c.note}
          </Typography.Text>
        </Col>
      ))}
    </Row>
  );
}

/** The distribution of the time to first contact: a bar per bucket, the not-contacted ones last. */
export function useDistributionOption(f: SlaFigures | undefined): EChartsCoreOption | null {
  return useMemo(() => {
    if (!f || f.totals.leads === 0) return null;
    // Horizontal bars: the buckets' names stay readable on a phone.
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => count(Number(v ?? 0)) },
      grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
      yAxis: { type: 'category', inverse: true, data: f.distribution.map((d) => SLA_BUCKET_LABELS[d.bucket]), axisLabel: { fontSize: 12 } },
      // Each bar carries its count: the value axis only gives the scale.
      xAxis: { type: 'value', minInterval: 1, axisLabel: { show: false } },
      series: [{
        type: 'bar', name: 'DB', barMaxWidth: 20,
        data: f.distribution.map((d) => ({ value: d.count, itemStyle: { color: BUCKET_COLORS[d.bucket] } })),
        label: { show: true, position: 'right', fontSize: 11, formatter: (p: { value: number }) => formatNumber(p.value) },
      }],
    };
  }, [f]);
}

export function DistributionChart({ option, height = 260 }: { option: EChartsCoreOption | null; height?: number }) {
  if (!option) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="이 기간에 응답 SLA로 잰 DB가 없습니다." />;
  return (
    <Suspense fallback={<Skeleton active />}>
      <Chart option={option} height={height} label="접수부터 첫 연락까지 걸린 근무 시간(분)의 분포 막대 그래프: 1분, 5분, 15분, 30분, 60분 이내, 60분 초과, 미연락" />
    </Suspense>
  );
}

/** Escalation's moves and notices of the period's leads, per reason. */
export function RerouteReasons({ f }: { f: SlaFigures }) {
  return (
    <Table
      rowKey="reason"
      size="small"
      pagination={false}
      dataSource={f.reroutes}
      locale={{ emptyText: '이 기간에 기한이 지나 넘어가거나 알린 DB가 없습니다.' }}
      columns={[
        { title: '사유와 처리', dataIndex: 'reason', render: (r: keyof typeof SLA_REROUTE_REASON_LABELS) => SLA_REROUTE_REASON_LABELS[r] },
        { title: 'DB', dataIndex: 'leads', align: 'right', width: 90, render: count },
        { title: '횟수', dataIndex: 'events', align: 'right', width: 90, render: (n: number) => `${formatNumber(n)}회` },
      ]}
    />
  );
}

/** The figure columns of a per-group table (the server sorted the rows). */
export function slaColumns<R extends SlaGroup>(): ColumnsType<R> {
  return [
    { title: 'DB', dataIndex: 'leads', align: 'right', width: 80, render: formatNumber },
    { title: 'SLA 준수율', dataIndex: 'metRate', align: 'right', width: 100, render: formatSlaRate },
    { title: '지킴', dataIndex: 'met', align: 'right', width: 70, render: formatNumber },
    { title: '놓침', dataIndex: 'missed', align: 'right', width: 70, render: formatNumber },
    { title: '기한 전', dataIndex: 'pending', align: 'right', width: 80, render: formatNumber },
    { title: '중앙값', dataIndex: 'medianMinutes', align: 'right', width: 90, render: formatWorkMinutes },
    { title: 'p90', dataIndex: 'p90Minutes', align: 'right', width: 90, render: formatWorkMinutes },
    { title: '재배분', dataIndex: 'rerouted', align: 'right', width: 80, render: formatNumber },
  ];
}

/** One grouping of the figures as a card with its table. */
export function SlaGroupTable<R extends SlaGroup>({ title, rows, first, rowKey, empty }: {
  title: string; rows: R[]; first: ColumnsType<R>[number]; rowKey: (r: R) => string; empty: string;
}) {
  return (
    <Card variant="borderless" title={title} style={{ height: '100%' }}>
      <Table<R> rowKey={rowKey} size="small" pagination={false} scroll={{ x: 'max-content' }} dataSource={rows} locale={{ emptyText: empty }} columns={[first, ...slaColumns<R>()]} />
    </Card>
  );
}
