// 삭제된 DB: the shop's deleted leads not destroyed yet — when and by whom each was deleted and
// why, and when the automatic purge will destroy it (the grace period, or the policy's retention
// when that ends first). Restored or destroyed now, one by one or the chosen rows, with a reason.
import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { Button, DatePicker, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, UndoOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useQueryClient } from '@tanstack/react-query';
import {
  DESTRUCTION_TRIGGER_LABELS, leadDeletionApi, leadPurgeInput, leadRestoreInput, type DeletedLeadItem,
} from '@contracts/lead-deletion.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { useSearchPatch } from '@/lib/search-state.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { actionsColumn, RowButton } from '@/components/crud.tsx';
import { ReasonModal } from '@/components/reason-modal.tsx';
import { TRIGGER_COLORS } from './log-tab.tsx';
import { DELETION_VIEWS } from './deletion-views.ts';
import { destroyCountdown } from './countdown.ts';

const DAY = 'YYYY-MM-DD';

type Pending = { action: 'restore' | 'purge'; ids: number[] } | null;

export function DeletedTab() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('deleted-data-management', 'write');
  const params = { shopId: shop.id };
  const [search, patchSearch] = useSearchPatch();
  const from = search.get('from') ?? undefined;
  const to = search.get('to') ?? undefined;
  const deleters = useCall(leadDeletionApi.deleters, { params });
  const [selected, setSelected] = useState<number[]>([]);
  const [pending, setPending] = useState<Pending>(null);
  const queryClient = useQueryClient();
  const [now] = useState(() => Date.now());

  const setPeriod = (range: [string, string] | null) => patchSearch({ page: null, from: range?.[0] ?? null, to: range?.[1] ?? null });

  const columns: ColumnsType<DeletedLeadItem> = [
    { title: '삭제 일시', dataIndex: 'deletedAt', key: 'deletedAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
    { title: '삭제한 사람', dataIndex: 'deletedByName', key: 'deletedByName', render: (v: string | null) => v ?? <Typography.Text type="secondary">-</Typography.Text> },
    {
      title: '사유', dataIndex: 'reason', key: 'reason',
      render: (v: string | null) => (v ? <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 220 }}>{v}</Typography.Text> : '-'),
    },
    { title: '이름', dataIndex: 'name', key: 'name' },
    { title: '연락처', dataIndex: 'phone', key: 'phone' },
    { title: '접수', dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
    {
      title: '자동 파기 예정', key: 'destroyAt',
      render: (_: unknown, r) => (
        <Space size={6} style={{ whiteSpace: 'nowrap' }}>
          <span>{formatDateTime(r.destroyAt)}</span>
          <Tooltip title={r.destroyTrigger === 'grace' ? '삭제 후 유예 기간이 끝나는 때' : '개인정보 처리방침의 보유 기간이 끝나는 때 (유예 기간보다 먼저)'}>
            <Tag color={TRIGGER_COLORS[r.destroyTrigger]}>{DESTRUCTION_TRIGGER_LABELS[r.destroyTrigger]}</Tag>
          </Tooltip>
          <Typography.Text type="secondary">{destroyCountdown(r.destroyAt, now)}</Typography.Text>
        </Space>
      ),
    },
    ...actionsColumn<DeletedLeadItem>(writable, (row) => (
      <>
        <RowButton onClick={() => setPending({ action: 'restore', ids: [row.id] })}>복구</RowButton>
        <Button type="link" size="small" danger style={{ paddingInline: 4 }} onClick={() => setPending({ action: 'purge', ids: [row.id] })}>
          즉시 파기
        </Button>
      </>
    )),
  ];

  const count = pending?.ids.length ?? 0;
  const purging = pending?.action === 'purge';

  return (
    <>
      <ResourceTable
        endpoint={leadDeletionApi.deleted}
        params={params}
        extraQuery={{ from, to }}
        columns={columns}
        filters={[
          { name: 'q', label: '이름 또는 전화번호', type: 'search', width: 200 },
          { name: 'deletedBy', label: '삭제한 사람', type: 'select', width: 160, options: (deleters.data?.items ?? []).map((d) => ({ value: d.id, label: d.name })) },
        ]}
        rowSelection={writable ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), preserveSelectedRowKeys: false } : undefined}
        empty="삭제된 DB가 없습니다. DB 삭제에서 삭제한 DB가 파기될 때까지 여기에 있습니다."
        toolbar={
          <>
            <DatePicker.RangePicker
              aria-label="삭제 기간"
              placeholder={['삭제일 시작', '삭제일 끝']}
              allowClear
              format={DAY}
              value={from && to ? [dayjs(from), dayjs(to)] : null}
              onChange={(range) => {
                const [a, b] = (range ?? []) as [Dayjs | null, Dayjs | null];
                setPeriod(a && b ? [a.format(DAY), b.format(DAY)] : null);
              }}
            />
            {writable && (
              <>
                <Button icon={<UndoOutlined />} disabled={!selected.length} onClick={() => setPending({ action: 'restore', ids: selected })}>
                  선택한 {selected.length}건 복구
                </Button>
                <Button danger icon={<DeleteOutlined />} disabled={!selected.length} onClick={() => setPending({ action: 'purge', ids: selected })}>
                  선택한 {selected.length}건 파기
                </Button>
              </>
            )}
          </>
        }
      />
      <ReasonModal
        open={!!pending}
        title={purging ? 'DB 즉시 파기' : 'DB 복구'}
        danger={purging}
        okText={purging ? `${formatNumber(count)}건 파기` : `${formatNumber(count)}건 복구`}
        schema={purging ? leadPurgeInput : leadRestoreInput}
        placeholder={purging ? '예: 고객이 즉시 파기를 요청함' : '예: 잘못 삭제함'}
        description={
          purging ? (
            <Typography.Paragraph style={{ margin: 0 }}>
              삭제된 DB <Typography.Text strong>{formatNumber(count)}건</Typography.Text>의 이름·연락처·신청 내용·메모를 지금 파기합니다.{' '}
              <Typography.Text type="danger">되돌릴 수 없습니다.</Typography.Text> 파기한 사실과 사유는 파기 기록에 남습니다.
            </Typography.Paragraph>
          ) : (
            <Typography.Paragraph style={{ margin: 0 }}>
              삭제된 DB <Typography.Text strong>{formatNumber(count)}건</Typography.Text>을 복구합니다. 복구한 DB는 DB 현황과 통계에 다시 나타납니다.
            </Typography.Paragraph>
          )
        }
        submit={async (reason) => {
          const ids = pending!.ids;
          const message = purging
            ? `${formatNumber((await call(leadDeletionApi.purge, { params, body: { ids, reason } })).purged)}건을 파기했습니다.`
            : `${formatNumber((await call(leadDeletionApi.restore, { params, body: { ids, reason } })).restored)}건을 복구했습니다.`;
          await invalidate(queryClient, DELETION_VIEWS);
          return message;
        }}
        onClose={(done) => {
          if (done) setSelected((s) => s.filter((id) => !pending?.ids.includes(id)));
          setPending(null);
        }}
      />
    </>
  );
}
