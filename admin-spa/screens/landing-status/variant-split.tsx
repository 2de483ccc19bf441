// 실험안별: a landing's period figures split by the variants of the experiments that ran in it
// (the expanded row of 랜딩 관리). The variants' visits and leads are those their pages carried.
import { Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import type { VariantFigures } from '@contracts/landings.ts';
import { formatNumber } from '@/lib/format.ts';

const columns: ColumnsType<VariantFigures> = [
  { title: '실험', dataIndex: 'experimentName', key: 'experiment' },
  { title: '실험안', dataIndex: 'key', key: 'key', render: (v: string) => `실험안 ${v}${v === 'A' ? ' (원본)' : ''}` },
  { title: '방문', dataIndex: 'visits', key: 'visits', align: 'right', render: formatNumber },
  { title: '접수', dataIndex: 'submissions', key: 'submissions', align: 'right', render: formatNumber },
  { title: '전환율', dataIndex: 'conversionRate', key: 'conversionRate', align: 'right', render: (v: number | null) => (v === null ? '-' : `${v.toFixed(1)}%`) },
];

export function VariantSplit({ rows }: { rows: VariantFigures[] }) {
  return (
    <div style={{ maxWidth: 720 }}>
      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
        실험안별 · 통계 기간에 진행된 A/B 실험의 실험안마다 그 페이지를 본 방문과 신청입니다. 기간 중 방문도 신청도 없었던 실험은 보이지 않습니다.
      </Typography.Text>
      <Table<VariantFigures>
        size="small"
        pagination={false}
        rowKey={(r) => `${r.experimentId}:${r.key}`}
        columns={columns}
        dataSource={rows}
        aria-label="실험안별 방문·접수·전환율"
      />
    </div>
  );
}
