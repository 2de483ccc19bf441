// Speed to lead on a lead: the working minutes left of the shop's first-contact promise (red once
// it has passed), 연락함 once someone reached out, nothing when the shop has no SLA or the lead is
// not under it (a duplicate, or an arrival before the SLA was turned on). The server counts the
// minutes on the shop's working calendar; the list is read again each minute while it shows them.
import { Typography } from 'antd';
import { CheckCircleOutlined, ClockCircleOutlined, WarningOutlined } from '@ant-design/icons';
import type { LeadListItem } from '@contracts/leads.ts';
import { formatDateTime } from '@/lib/format.ts';
import { duration } from './lead-edits.tsx';

type Row = Pick<LeadListItem, 'firstContactAt' | 'slaDueAt' | 'slaLeftMinutes'>;

/** How often a list showing countdowns reads itself again. */
export const SLA_REFRESH_MS = 60_000;

export function SlaCountdown({ row, slaOn }: { row: Row; slaOn: boolean }) {
  if (!slaOn) return null;
  if (row.firstContactAt) {
    return (
      <Typography.Text type="success" style={{ whiteSpace: 'nowrap' }} title={`첫 연락 ${formatDateTime(row.firstContactAt)}`}>
        <CheckCircleOutlined /> 연락함
      </Typography.Text>
    );
  }
  if (!row.slaDueAt || row.slaLeftMinutes === null) return null;
  const title = `첫 연락 기한 ${formatDateTime(row.slaDueAt)} (근무 시간 기준)`;
  if (row.slaLeftMinutes <= 0) {
    return (
      <Typography.Text type="danger" strong style={{ whiteSpace: 'nowrap' }} title={title}>
        <WarningOutlined /> 기한 지남
      </Typography.Text>
    );
  }
  return (
    <Typography.Text type={row.slaLeftMinutes <= 5 ? 'danger' : undefined} style={{ whiteSpace: 'nowrap' }} title={title}>
      <ClockCircleOutlined /> {duration(row.slaLeftMinutes * 60_000)} 남음
    </Typography.Text>
  );
}
