// The period at a glance (nine figures) and the figures per medium with their totals.
import type { ReactNode } from 'react';
import { Card, Col, Row, Statistic, Table, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { AD_METRIC_HELP, NO_MEDIUM_LABEL, type AdFigures, type AdMediumTotal } from '@contracts/ad-spend.ts';
import { TotalsRow } from '@/components/figures.tsx';
import { formatCount, formatPercent, formatWon } from './format.ts';

/** A title with its explanation on hover. */
export function Help({ title, help }: { title: ReactNode; help: string }) {
  return (
    <Tooltip title={help}>
      <span style={{ whiteSpace: 'nowrap' }}>
        {title} <QuestionCircleOutlined style={{ fontSize: 12, color: '#8c8c8c' }} />
      </span>
    </Tooltip>
  );
}

export function SummaryCards({ totals }: { totals: AdFigures }) {
  // `grow`: a card's share of one wide row, by how long its figure gets (a month's spend runs to eight digits).
  const cards: Array<{ title: ReactNode; key: string; value: string; grow: number }> = [
    { key: 'spend', title: '광고비', value: formatWon(totals.spend), grow: 1.5 },
    { key: 'impressions', title: '노출', value: formatCount(totals.impressions), grow: 1.2 },
    { key: 'clicks', title: '클릭', value: formatCount(totals.clicks), grow: 1 },
    { key: 'ctr', title: <Help title="CTR" help={AD_METRIC_HELP.ctr} />, value: formatPercent(totals.ctr), grow: 0.9 },
    { key: 'leads', title: <Help title="접수 DB" help="기간 중 접수된 DB입니다 (삭제 제외, 중복 포함)." />, value: `${formatCount(totals.leads)}건`, grow: 1 },
    { key: 'valid', title: <Help title="유효 DB" help="중복·무효·반품을 뺀, 계약에 세는 DB입니다." />, value: `${formatCount(totals.validLeads)}건`, grow: 1 },
    { key: 'cvr', title: <Help title="CVR" help={AD_METRIC_HELP.cvr} />, value: formatPercent(totals.cvr), grow: 0.9 },
    { key: 'cpl', title: <Help title="CPL" help={AD_METRIC_HELP.cpl} />, value: formatWon(totals.cpl), grow: 1.2 },
    { key: 'cpa', title: <Help title="CPA" help={AD_METRIC_HELP.cpa} />, value: formatWon(totals.cpa), grow: 1.2 },
  ];
  return (
    <Row gutter={[12, 12]}>
      {cards.map((c) => (
        <Col key={c.key} xs={12} sm={8} md={6} xl={{ flex: `${c.grow} 1 0` }}>
          <Card variant="borderless" size="small" style={{ height: '100%' }}>
            <Statistic title={c.title} value={c.value} styles={{ content: { fontSize: 18, whiteSpace: 'nowrap' } }} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** The ratio and figure columns after a name column (per medium, the totals row in the same order). */
function figureColumns<R extends AdFigures>(): ColumnsType<R> {
  const right = 'right' as const;
  return [
    { title: '광고비', dataIndex: 'spend', key: 'spend', align: right, render: (v: number) => formatWon(v), sorter: (a, b) => a.spend - b.spend },
    { title: '노출', dataIndex: 'impressions', key: 'impressions', align: right, render: formatCount, sorter: (a, b) => a.impressions - b.impressions },
    { title: '클릭', dataIndex: 'clicks', key: 'clicks', align: right, render: formatCount, sorter: (a, b) => a.clicks - b.clicks },
    { title: <Help title="CTR" help={AD_METRIC_HELP.ctr} />, dataIndex: 'ctr', key: 'ctr', align: right, render: formatPercent },
    { title: '접수', dataIndex: 'leads', key: 'leads', align: right, render: formatCount, sorter: (a, b) => a.leads - b.leads },
    { title: '유효', dataIndex: 'validLeads', key: 'validLeads', align: right, render: formatCount, sorter: (a, b) => a.validLeads - b.validLeads },
    { title: <Help title="CVR" help={AD_METRIC_HELP.cvr} />, dataIndex: 'cvr', key: 'cvr', align: right, render: formatPercent },
    { title: <Help title="CPL" help={AD_METRIC_HELP.cpl} />, dataIndex: 'cpl', key: 'cpl', align: right, render: formatWon },
    {
      title: <Help title="CPA" help={AD_METRIC_HELP.cpa} />, dataIndex: 'cpa', key: 'cpa', align: right, render: (v: number | null) => <strong>{formatWon(v)}</strong>,
      sorter: (a, b) => (a.cpa ?? Infinity) - (b.cpa ?? Infinity),
    },
  ];
}

const mediumColumns: ColumnsType<AdMediumTotal> = [
  {
    title: '매체', dataIndex: 'mediaTypeName', key: 'name',
    render: (v: string, r) => (r.mediaTypeId === null ? <Help title={<Typography.Text type="secondary">{v}</Typography.Text>} help={`${NO_MEDIUM_LABEL}: 매체 없이 접수된 DB입니다. 광고비가 없어 합계에만 셉니다.`} /> : v),
  },
  ...figureColumns<AdMediumTotal>(),
];

export function MediumTable({ media, totals }: { media: AdMediumTotal[]; totals: AdFigures }) {
  const cells: ReactNode[] = [
    <strong key="label">합계</strong>, formatWon(totals.spend), formatCount(totals.impressions), formatCount(totals.clicks), formatPercent(totals.ctr),
    formatCount(totals.leads), formatCount(totals.validLeads), formatPercent(totals.cvr), formatWon(totals.cpl), <strong key="cpa">{formatWon(totals.cpa)}</strong>,
  ];
  return (
    <Card variant="borderless" title="매체별 합계">
      <Table<AdMediumTotal>
        rowKey={(r) => r.mediaTypeId ?? 'none'}
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={media}
        columns={mediumColumns}
        locale={{ emptyText: '이 기간에 광고비도 접수된 DB도 없습니다.' }}
        summary={() =>
          media.length > 1 ? (
            <TotalsRow cells={cells} />
          ) : null
        }
      />
    </Card>
  );
}
