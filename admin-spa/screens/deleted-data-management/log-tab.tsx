// 파기 기록: every destruction of the shop's leads — when, why (by hand, the grace period, the
// retention period), by whom (none: the automatic purge), the reason and how many. Nothing
// personal: the destroyed leads are counted, not named.
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { DESTRUCTION_TRIGGERS, DESTRUCTION_TRIGGER_LABELS, leadDeletionApi, type DestructionItem, type DestructionTrigger } from '@contracts/lead-deletion.ts';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { ResourceTable } from '@/components/resource-table.tsx';

export const TRIGGER_COLORS: Record<DestructionTrigger, string> = { manual: 'volcano', grace: 'orange', retention: 'purple' };

const columns: ColumnsType<DestructionItem> = [
  { title: '파기 일시', dataIndex: 'at', key: 'at', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
  { title: '구분', dataIndex: 'trigger', key: 'trigger', render: (v: DestructionTrigger) => <Tag color={TRIGGER_COLORS[v]}>{DESTRUCTION_TRIGGER_LABELS[v]}</Tag> },
  { title: '처리자', dataIndex: 'accountName', key: 'accountName', render: (v: string | null) => v ?? <Typography.Text type="secondary">자동 파기</Typography.Text> },
  { title: '사유', dataIndex: 'reason', key: 'reason', render: (v: string | null, r) => v ?? <Typography.Text type="secondary">{r.trigger === 'grace' ? '삭제 후 유예 기간이 지남' : '처리방침의 보유 기간이 지남'}</Typography.Text> },
  { title: '건수', dataIndex: 'leadCount', key: 'leadCount', align: 'right', render: (v: number) => `${formatNumber(v)}건` },
];

export function LogTab() {
  const shop = useCurrentShop();
  return (
    <ResourceTable
      endpoint={leadDeletionApi.destructions}
      params={{ shopId: shop.id }}
      columns={columns}
      filters={[{ name: 'trigger', label: '구분', type: 'select', options: DESTRUCTION_TRIGGERS.map((t) => ({ value: t, label: DESTRUCTION_TRIGGER_LABELS[t] })) }]}
      empty="아직 파기한 DB가 없습니다. 삭제한 DB는 유예 기간이 지나면 자동으로 파기되고 여기에 기록됩니다."
    />
  );
}
