// A lead's CS status as a coloured tag, the same on every screen that shows leads.
import { Tag } from 'antd';
import type { CsStatus } from '@contracts/leads.ts';

export const STATUS_COLORS: Record<CsStatus, string> = {
  미처리: 'red', 부재: 'orange', 통화완료: 'blue', 상담예약: 'purple', 계약: 'green', 보류: 'gold', 거절: 'default', 결번: 'default', 무효: 'default', 중복: 'magenta',
};

export function StatusTag({ status }: { status: CsStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{status}</Tag>;
}
