// 시스템 예약: maintenance windows, landings opened or closed at a time, and announcements for
// chosen account types — scheduled here and run by the worker on time, once. The table is also
// the history: when each ran, when it finished, and what it did (or why it failed).
import { useMemo, useState } from 'react';
import { Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useQueryClient } from '@tanstack/react-query';
import {
  cancellable, RESERVATION_KINDS, RESERVATION_KIND_LABELS, RESERVATION_STATUSES, RESERVATION_STATUS_LABELS, reservationCancelInput, systemReservationsApi,
  type ReservationKind, type ReservationStatus, type SystemReservation,
} from '@contracts/system-reservations.ts';
import { call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime, formatDateTimeRange } from '@/lib/format.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { actionsColumn, CreateButton, RowButton } from '@/components/crud.tsx';
import { ReasonModal } from '@/components/reason-modal.tsx';
import { useFormModal } from '@/components/resource-form.tsx';
import { ReservationForm } from './reservation-form.tsx';

const api = systemReservationsApi;

const KIND_COLORS: Record<ReservationKind, string> = { maintenance: 'volcano', 'landing-open': 'green', 'landing-close': 'orange', announcement: 'blue', 'experiment-stop': 'purple' };
const STATUS_COLORS: Record<ReservationStatus, string> = { scheduled: 'blue', running: 'processing', done: 'success', ended: 'warning', cancelled: 'default', failed: 'error' };

const nowrap = { whiteSpace: 'nowrap' } as const;

/** What the reservation acts on, in a few words. */
function Target({ r }: { r: SystemReservation }) {
  if (r.kind === 'maintenance') return <Typography.Text type="secondary">최고관리자 외 관리 화면</Typography.Text>;
  if (r.kind === 'announcement') {
    if (!r.accountTypes.length) return <span>모든 계정</span>;
    return (
      <Space size={[0, 4]} wrap>
        {r.accountTypes.map((a) => <Tag key={a.id}>{a.name}</Tag>)}
      </Space>
    );
  }
  if (!r.landing) return <Typography.Text type="danger">삭제된 랜딩</Typography.Text>;
  return (
    <Space orientation="vertical" size={0}>
      <span>{r.landing.title}</span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {r.landing.shopName} · {r.landing.landingCode}
      </Typography.Text>
      {r.kind === 'experiment-stop' && <Typography.Text type="secondary" style={{ fontSize: 12 }}>A/B 실험: {r.experimentName ?? '삭제된 실험'}</Typography.Text>}
    </Space>
  );
}

export default function SystemReservation() {
  const { can } = useAuth();
  const writable = can('system-reservation', 'write');
  const modal = useFormModal<SystemReservation>();
  const [cancelling, setCancelling] = useState<SystemReservation | null>(null);
  const queryClient = useQueryClient();

  const columns = useMemo<ColumnsType<SystemReservation>>(
    () => [
      { title: '종류', dataIndex: 'kind', key: 'kind', render: (k: ReservationKind) => <Tag color={KIND_COLORS[k]}>{RESERVATION_KIND_LABELS[k]}</Tag> },
      {
        title: '제목', dataIndex: 'title', key: 'title',
        render: (v: string, r) => (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong>{v}</Typography.Text>
            {r.message && <Typography.Text type="secondary" ellipsis={{ tooltip: r.message }} style={{ maxWidth: 260, fontSize: 12 }}>{r.message}</Typography.Text>}
          </Space>
        ),
      },
      {
        title: '일시 (한국 시간)', dataIndex: 'startsAt', key: 'startsAt',
        render: (v: string, r) => <span style={nowrap}>{r.endsAt ? formatDateTimeRange(v, r.endsAt) : formatDateTime(v)}</span>,
      },
      { title: '대상', key: 'target', render: (_: unknown, r) => <Target r={r} /> },
      { title: '상태', dataIndex: 'status', key: 'status', render: (s: ReservationStatus) => <Tag color={STATUS_COLORS[s]}>{RESERVATION_STATUS_LABELS[s]}</Tag> },
      {
        title: '실행 · 결과', dataIndex: 'executedAt', key: 'executedAt',
        render: (v: string | null, r) => (
          <Space orientation="vertical" size={0}>
            {v && (
              <span style={nowrap}>{r.finishedAt && r.finishedAt !== v ? formatDateTimeRange(v, r.finishedAt) : formatDateTime(v)}</span>
            )}
            {r.result ? (
              <Typography.Text type={r.status === 'failed' ? 'danger' : 'secondary'} ellipsis={{ tooltip: r.result }} style={{ maxWidth: 240, fontSize: 12 }}>
                {r.result}
              </Typography.Text>
            ) : (
              !v && <Typography.Text type="secondary">-</Typography.Text>
            )}
          </Space>
        ),
      },
      {
        title: '등록', dataIndex: 'createdAt', key: 'createdAt',
        render: (v: string, r) => (
          <Tooltip title={`수정 ${formatDateTime(r.updatedAt)}`}>
            <Space orientation="vertical" size={0} style={nowrap}>
              <span>{r.createdBy ?? '-'}</span>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>{formatDateTime(v)}</Typography.Text>
            </Space>
          </Tooltip>
        ),
      },
      ...actionsColumn<SystemReservation>(writable, (r) => (
        <>
          {r.status === 'scheduled' && <RowButton onClick={() => modal.edit(r)}>수정</RowButton>}
          {cancellable(r) && <RowButton onClick={() => setCancelling(r)}>{r.status === 'running' ? '중단' : '취소'}</RowButton>}
        </>
      )),
    ],
    // modal.edit and setCancelling are stable in what they do.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [writable],
  );

  const register = writable && <CreateButton onClick={modal.create}>예약 등록</CreateButton>;
  const running = cancelling?.status === 'running';

  return (
    <>
      <ResourceTable
        endpoint={api.list}
        columns={columns}
        filters={[
          { name: 'q', label: '제목', type: 'search' },
          { name: 'kind', label: '종류', type: 'select', options: RESERVATION_KINDS.map((k) => ({ value: k, label: RESERVATION_KIND_LABELS[k] })) },
          { name: 'status', label: '상태', type: 'select', options: RESERVATION_STATUSES.map((s) => ({ value: s, label: RESERVATION_STATUS_LABELS[s] })) },
        ]}
        toolbar={register}
        empty={
          <Space orientation="vertical" align="center">
            <span>예약된 작업이 없습니다. 시스템 점검, 랜딩 게시·종료, 공지를 예약하면 정한 시각에 자동으로 실행되고 여기에 기록됩니다.</span>
            {register}
          </Space>
        }
      />
      <ReservationForm open={modal.open} editing={modal.editing} onClose={modal.close} />
      <ReasonModal
        open={cancelling !== null}
        title={cancelling ? `${running ? '중단' : '예약 취소'} · ${cancelling.title}` : '예약 취소'}
        description={
          running
            ? cancelling?.kind === 'maintenance'
              ? '점검을 지금 끝냅니다. 모든 계정이 바로 관리 화면을 다시 쓸 수 있습니다.'
              : '공지를 지금 내립니다.'
            : '이 예약은 실행되지 않습니다. 취소한 예약은 되돌릴 수 없으니 필요하면 다시 등록하세요.'
        }
        okText={running ? '중단' : '예약 취소'}
        danger
        schema={reservationCancelInput}
        placeholder="예: 일정이 바뀌었습니다"
        submit={async (reason) => {
          await call(api.cancel, { params: { id: cancelling!.id }, body: { reason } });
          await invalidate(queryClient, [api.list, api.notices]);
          return running ? '중단했습니다.' : '예약을 취소했습니다.';
        }}
        onClose={() => setCancelling(null)}
      />
    </>
  );
}
