// A contract's and a return's status as coloured tags, the same wherever they show (계약 관리,
// 계약 현황, the lead drawer of DB 현황), and the figures' formats those screens share.
import { Tag } from 'antd';
import { CONTRACT_STATUS_LABELS, RETURN_STATUS_LABELS, type ContractStatus, type ReturnStatus } from '@contracts/money.ts';
import { formatNumber } from '@/lib/format.ts';

const CONTRACT_STATUS_COLORS: Record<ContractStatus, string> = { scheduled: 'cyan', active: 'blue', completed: 'green', stopped: 'default' };
const RETURN_STATUS_COLORS: Record<ReturnStatus, string> = { requested: 'orange', approved: 'volcano', rejected: 'default' };

export function ContractStatusTag({ status }: { status: ContractStatus }) {
  return <Tag color={CONTRACT_STATUS_COLORS[status]}>{CONTRACT_STATUS_LABELS[status]}</Tag>;
}

export function ReturnStatusTag({ status }: { status: ReturnStatus }) {
  return <Tag color={RETURN_STATUS_COLORS[status]}>{RETURN_STATUS_LABELS[status]}</Tag>;
}

/** A lead's return as the lead lists and the drawer name it. */
export const RETURN_STATE_TAGS: Record<ReturnStatus, { label: string; color: string }> = {
  requested: { label: '반품 요청중', color: 'orange' },
  approved: { label: '반품 승인', color: 'volcano' },
  rejected: { label: '반품 반려', color: 'default' },
};

export const count = (n: number) => `${formatNumber(n)}건`;
/** A percent with one decimal at most ("3.5%", "10%"), "-" when there is nothing to divide by. */
export const percent = (n: number | null) => (n === null ? '-' : `${Math.round(n * 10) / 10}%`);

/** "2026-11-01 ~ 2026-11-30" */
export const period = (c: { startsOn: string; endsOn: string }) => `${c.startsOn} ~ ${c.endsOn}`;
