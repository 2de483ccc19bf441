// 전송 이력: every attempt, newest first, for a period of Seoul days — or all attempts of one
// send's jobs (the link from DB 전송), whatever the period.
import { useSearchParams } from 'react-router-dom';
import { Alert, Button, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { JOB_STATUSES, JOB_STATUS_LABELS, JOB_TRIGGERS, JOB_TRIGGER_LABELS, MAX_ATTEMPTS } from '@contracts/delivery.ts';
import { ATTEMPT_STATUSES, ATTEMPT_STATUS_LABELS, deliveryApi, parseJobIds, type DeliveryAttemptItem } from '@contracts/delivery-history.ts';
import { useCall } from '@/lib/use-call.ts';
import { formatDateTimeSeconds, formatNumber } from '@/lib/format.ts';
import { useSearchPatch } from '@/lib/search-state.ts';
import { ResourceTable, type FilterDef } from '@/components/resource-table.tsx';
import { PeriodPicker, usePeriod } from '@/components/period-picker.tsx';
import { AttemptTag, ChannelCell, ErrorText, JobStatusTag, LeadCell, formatDuration } from '@/components/delivery/delivery-tags.tsx';


export function useChannelFilter(shopId: number): FilterDef {
  const channels = useCall(deliveryApi.channels, { params: { shopId } }, { staleTime: 60_000 });
  return {
    name: 'channelId', label: '채널', type: 'select', width: 180,
    options: (channels.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.enabled ? c.name : `${c.name} (사용 중지)` })),
  };
}

/** Says that the lists show one send's jobs (the link from DB 전송), with the way back to all. */
export function SendFilterNote({ jobIds, what }: { jobIds: string; what: string }) {
  const [, patchSearch] = useSearchPatch();
  const size = parseJobIds(jobIds)?.length ?? 0;
  const clear = () => patchSearch({ jobIds: null, page: null });
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      title={`DB 전송 한 번(${formatNumber(size)}건)의 ${what}만 보고 있습니다. 기간과 상관없이 모두 보여 줍니다.`}
      action={<Button size="small" onClick={clear}>전체 보기</Button>}
    />
  );
}

export function AttemptsTab({ shopId, onOpen }: { shopId: number; onOpen?: (id: number) => void }) {
  const [search] = useSearchParams();
  const { from, to, today, setPeriod } = usePeriod(7);
  const jobIds = search.get('jobIds') ?? undefined;
  const channelFilter = useChannelFilter(shopId);
  const filters: FilterDef[] = [
    { name: 'q', label: '이름 또는 전화번호', type: 'search', width: 200 },
    channelFilter,
    { name: 'status', label: '결과', type: 'select', width: 110, options: ATTEMPT_STATUSES.map((s) => ({ value: s, label: ATTEMPT_STATUS_LABELS[s] })) },
    { name: 'jobStatus', label: '현재 상태', type: 'select', width: 120, options: JOB_STATUSES.map((s) => ({ value: s, label: JOB_STATUS_LABELS[s] })) },
    { name: 'trigger', label: '구분', type: 'select', width: 120, options: JOB_TRIGGERS.map((s) => ({ value: s, label: JOB_TRIGGER_LABELS[s] })) },
  ];

  const columns: ColumnsType<DeliveryAttemptItem> = [
    { title: '시각', dataIndex: 'at', key: 'at', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTimeSeconds(v)}</span> },
    { title: 'DB', key: 'lead', render: (_: unknown, row) => <LeadCell row={row} onOpen={onOpen} /> },
    { title: '채널', key: 'channel', render: (_: unknown, row) => <ChannelCell name={row.channelName} kind={row.channelKind} /> },
    { title: '구분', dataIndex: 'trigger', key: 'trigger', render: (v: DeliveryAttemptItem['trigger']) => <span style={{ whiteSpace: 'nowrap' }}>{JOB_TRIGGER_LABELS[v]}</span> },
    { title: '결과', dataIndex: 'status', key: 'status', render: (v: DeliveryAttemptItem['status']) => <AttemptTag status={v} /> },
    {
      title: '응답', dataIndex: 'responseCode', key: 'responseCode', align: 'right',
      render: (v: number | null) => (v === null ? <Typography.Text type="secondary">없음</Typography.Text> : v),
    },
    { title: '오류', dataIndex: 'error', key: 'error', render: (v: string | null) => <ErrorText error={v} width={170} /> },
    { title: '소요', dataIndex: 'durationMs', key: 'durationMs', align: 'right', render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatDuration(v)}</span> },
    {
      title: '시도', dataIndex: 'attempt', key: 'attempt', align: 'right',
      render: (v: number) => <Tooltip title={`최대 ${MAX_ATTEMPTS}번까지 자동으로 다시 보냅니다.`}><span>{v}번째</span></Tooltip>,
    },
    {
      title: '현재 상태', dataIndex: 'jobStatus', key: 'jobStatus',
      // An attempt was made: a job pending again waits for its next try.
      render: (v: DeliveryAttemptItem['jobStatus']) => <JobStatusTag status={v} retrying />,
    },
  ];

  return (
    <>
      {jobIds && <SendFilterNote jobIds={jobIds} what="시도" />}
      <ResourceTable
        endpoint={deliveryApi.history}
        params={{ shopId }}
        extraQuery={jobIds ? { jobIds } : { from, to }}
        columns={columns}
        filters={filters}
        empty={jobIds ? '이 전송은 아직 시도되지 않았습니다.' : '이 기간에 전송한 기록이 없습니다.'}
        toolbar={!jobIds && <PeriodPicker label="전송 기간" from={from} to={to} today={today} onChange={setPeriod} />}
      />
    </>
  );
}
