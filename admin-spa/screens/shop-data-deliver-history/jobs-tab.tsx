// 대기·실패 중: the deliveries not done — waiting for their (next) try, being sent, or failed for
// good — with the last error; failed and cancelled ones chosen and sent again now.
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { App, Button, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { RedoOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useQueryClient } from '@tanstack/react-query';
import { JOB_STATUSES, JOB_STATUS_LABELS, JOB_TRIGGERS, JOB_TRIGGER_LABELS, MAX_ATTEMPTS } from '@contracts/delivery.ts';
import { deliveryApi, type DeliveryJobItem } from '@contracts/delivery-history.ts';
import { call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime, formatNumber, formatTime } from '@/lib/format.ts';
import { ResourceTable, type FilterDef } from '@/components/resource-table.tsx';
import { ChannelCell, ErrorText, JobStatusTag, LeadCell } from '@/components/delivery/delivery-tags.tsx';
import { SendFilterNote, useChannelFilter } from './attempts-tab.tsx';

/** What a retry changes. */
const RETRY_VIEWS = [deliveryApi.jobs, deliveryApi.history, deliveryApi.summary, deliveryApi.progress];

/** Why a row cannot be sent again, or null when it can. */
function notRetryable(row: DeliveryJobItem): string | null {
  if (row.status !== 'failed' && row.status !== 'cancelled') return '실패했거나 취소된 전송만 다시 보낼 수 있습니다.';
  if (!row.channelEnabled) return '채널이 꺼져 있습니다. DB 전송 설정에서 켠 뒤 다시 보내세요.';
  if (row.leadDeleted) return '삭제된 DB는 보내지 않습니다.';
  return null;
}

export function JobsTab({ shopId, onOpen }: { shopId: number; onOpen?: (id: number) => void }) {
  const { can } = useAuth();
  const writable = can('shop-data-deliver-history', 'write');
  const [search] = useSearchParams();
  const jobIds = search.get('jobIds') ?? undefined;
  const [selected, setSelected] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const channelFilter = useChannelFilter(shopId);
  const filters: FilterDef[] = [
    { name: 'q', label: '이름 또는 전화번호', type: 'search', width: 200 },
    channelFilter,
    { name: 'status', label: '상태 (기본: 대기·전송 중·실패)', type: 'multi', width: 260, options: JOB_STATUSES.map((s) => ({ value: s, label: JOB_STATUS_LABELS[s] })) },
    { name: 'trigger', label: '구분', type: 'select', width: 120, options: JOB_TRIGGERS.map((s) => ({ value: s, label: JOB_TRIGGER_LABELS[s] })) },
  ];

  const columns: ColumnsType<DeliveryJobItem> = [
    { title: '등록', dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
    { title: 'DB', key: 'lead', render: (_: unknown, row) => <LeadCell row={row} onOpen={onOpen} /> },
    {
      title: '채널', key: 'channel',
      render: (_: unknown, row) => (
        <Space orientation="vertical" size={0}>
          <ChannelCell name={row.channelName} kind={row.channelKind} />
          {!row.channelEnabled && <Typography.Text type="secondary" style={{ fontSize: 12 }}>사용 중지된 채널</Typography.Text>}
        </Space>
      ),
    },
    {
      title: '구분', dataIndex: 'trigger', key: 'trigger',
      render: (v: DeliveryJobItem['trigger'], row) => (
        <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span>{JOB_TRIGGER_LABELS[v]}</span>
          {(row.createdByName || row.reason) && (
            <Tooltip title={row.reason}>
              <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, maxWidth: 140 }}>
                {[row.createdByName, row.reason].filter(Boolean).join(' · ')}
              </Typography.Text>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: '상태', dataIndex: 'status', key: 'status', render: (v: DeliveryJobItem['status'], row) => <JobStatusTag status={v} retrying={row.attempts > 0} /> },
    {
      title: '시도', dataIndex: 'attempts', key: 'attempts', align: 'right',
      render: (v: number, row) => (
        <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span>{v} / {MAX_ATTEMPTS}</span>
          {row.status === 'pending' && (
            <Tooltip title={`다음 시도 ${formatDateTime(row.nextAttemptAt)}`}>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>다음 {formatTime(row.nextAttemptAt)}</Typography.Text>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: '마지막 오류', key: 'lastError',
      render: (_: unknown, row) => (
        <Space size={6}>
          {row.responseCode !== null && <Typography.Text type="secondary">{row.responseCode}</Typography.Text>}
          <ErrorText error={row.lastError} width={240} />
        </Space>
      ),
    },
  ];

  const retry = async () => {
    setBusy(true);
    try {
      const { retried, skipped } = await call(deliveryApi.retry, { params: { shopId }, body: { jobIds: selected } });
      message.success(`${formatNumber(retried)}건을 다시 보내기 시작했습니다.${skipped ? ` (${formatNumber(skipped)}건은 다시 보낼 수 없어 뺐습니다.)` : ''}`);
      setSelected([]);
      await invalidate(queryClient, RETRY_VIEWS);
    } catch (err) {
      message.error(err instanceof Error ? err.message : '다시 보내지 못했습니다.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {jobIds && <SendFilterNote jobIds={jobIds} what="전송" />}
      <ResourceTable
        endpoint={deliveryApi.jobs}
        params={{ shopId }}
        extraQuery={jobIds ? { jobIds } : undefined}
        columns={columns}
        filters={filters}
        rowSelection={
          writable
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as number[]),
                preserveSelectedRowKeys: false,
                getCheckboxProps: (row) => ({ disabled: notRetryable(row) !== null, title: notRetryable(row) ?? undefined }),
              }
            : undefined
        }
        empty="대기 중이거나 실패한 전송이 없습니다. 모두 전달되었습니다."
        toolbar={
          writable && (
            <Popconfirm
              title={`선택한 ${formatNumber(selected.length)}건을 지금 다시 보낼까요?`}
              description="실패한 전송을 대기열에 다시 넣고 바로 보냅니다. 다시 보낸 기록은 감사 기록에 남습니다."
              okText="다시 보내기"
              cancelText="취소"
              disabled={!selected.length}
              onConfirm={retry}
            >
              <Button type="primary" icon={<RedoOutlined />} disabled={!selected.length} loading={busy}>
                선택 재시도 ({formatNumber(selected.length)}건)
              </Button>
            </Popconfirm>
          )
        }
      />
    </>
  );
}
