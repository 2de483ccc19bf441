// How DB 전송 and DB 전송 이력 show a delivery's parts: the channel's kind, an attempt's outcome,
// a job's state, how long a receiver took, and the lead (masked phone; deleted or destroyed).
import type { ReactNode } from 'react';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { DELIVERY_KIND_LABELS, JOB_STATUS_LABELS, type DeliveryKind, type JobStatus } from '@contracts/delivery.ts';
import { ATTEMPT_STATUS_LABELS, type AttemptStatus } from '@contracts/delivery-history.ts';

const KIND_COLORS: Record<DeliveryKind, string> = { webhook: 'geekblue', email: 'cyan', sms: 'purple' };
const JOB_COLORS: Record<JobStatus, string> = { pending: 'gold', sending: 'processing', succeeded: 'green', failed: 'red', cancelled: 'default' };

export function KindTag({ kind }: { kind: DeliveryKind }) {
  return <Tag color={KIND_COLORS[kind]} style={{ marginInlineEnd: 0 }}>{DELIVERY_KIND_LABELS[kind]}</Tag>;
}

export function AttemptTag({ status }: { status: AttemptStatus }) {
  return <Tag color={status === 'succeeded' ? 'green' : 'red'}>{ATTEMPT_STATUS_LABELS[status]}</Tag>;
}

export function JobStatusTag({ status, retrying }: { status: JobStatus; retrying?: boolean }) {
  return <Tag color={JOB_COLORS[status]}>{status === 'pending' && retrying ? '재시도 대기' : JOB_STATUS_LABELS[status]}</Tag>;
}

/** 45 → "45ms", 5000 → "5.0초". */
export const formatDuration = (ms: number) => (ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}초`);

/** A channel: its name with its kind. */
export function ChannelCell({ name, kind }: { name: string; kind: DeliveryKind }) {
  return (
    <Space size={6} style={{ whiteSpace: 'nowrap' }}>
      <KindTag kind={kind} />
      <span>{name}</span>
    </Space>
  );
}

/** The lead of a delivery: its name (opening the lead's detail when `onOpen`), the masked phone beneath. */
export function LeadCell({ row, onOpen }: {
  row: { leadId: number; leadName: string; leadPhone: string; leadDeleted: boolean; leadPurged: boolean };
  onOpen?: (id: number) => void;
}) {
  const name: ReactNode = row.leadPurged ? (
    <Typography.Text type="secondary">파기됨</Typography.Text>
  ) : onOpen && !row.leadDeleted ? (
    <Typography.Link onClick={() => onOpen(row.leadId)}>{row.leadName}</Typography.Link>
  ) : (
    <span>{row.leadName}</span>
  );
  return (
    <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
      <Space size={4}>
        {name}
        {row.leadDeleted && !row.leadPurged && <Tag>삭제됨</Tag>}
      </Space>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{row.leadPhone || '-'} · #{row.leadId}</Typography.Text>
    </Space>
  );
}

/** A receiver's error, one line with the whole of it on hover. */
export function ErrorText({ error, width = 260 }: { error: string | null; width?: number }) {
  if (!error) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Tooltip title={error}>
      <Typography.Text type="danger" ellipsis style={{ maxWidth: width }}>{error}</Typography.Text>
    </Tooltip>
  );
}
