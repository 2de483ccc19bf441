// A Seoul month (YYYY-MM) picked from a calendar of months.
import dayjs from 'dayjs';
import { DatePicker } from 'antd';

/** The month picker of the month screens: never empty, no month after `last` (YYYY-MM). */
export function MonthPicker({ label, month, last, onChange }: { label: string; month: string; last: string; onChange: (month: string) => void }) {
  return (
    <DatePicker
      picker="month"
      aria-label={label}
      allowClear={false}
      value={dayjs(`${month}-01`)}
      format="YYYY년 MM월"
      disabledDate={(v) => v.format('YYYY-MM') > last}
      onChange={(v) => v && onChange(v.format('YYYY-MM'))}
    />
  );
}
