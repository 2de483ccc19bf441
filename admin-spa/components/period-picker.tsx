// A period of Seoul days kept in the URL (?from=&to=), with the quick ranges people use.
import { useSearchPatch } from '@/lib/search-state.ts';
import dayjs, { type Dayjs } from 'dayjs';
import { DatePicker } from 'antd';
import { addDays, seoulDay } from '@contracts/kst.ts';

const DAY = 'YYYY-MM-DD';

/** The period in the URL, defaulting to the last `defaultDays` days up to today (Seoul), or to this month so far. */
export function usePeriod(defaultDays: number | 'month') {
  const [search, patch] = useSearchPatch();
  const today = seoulDay(new Date());
  const to = search.get('to') ?? today;
  const from = search.get('from') ?? (defaultDays === 'month' ? `${to.slice(0, 8)}01` : addDays(to, -(defaultDays - 1)));
  const setPeriod = (range: [string, string] | null) => patch({ from: range?.[0] ?? null, to: range?.[1] ?? null, page: null });
  return { from, to, today, setPeriod };
}

/** A period in the URL with its setter (what usePeriod answers). */
export type Period = ReturnType<typeof usePeriod>;

export function PeriodPicker({ label, from, to, today, onChange }: {
  label: string;
  from: string;
  to: string;
  today: string;
  onChange: (range: [string, string] | null) => void;
}) {
  const d = dayjs(today);
  return (
    <DatePicker.RangePicker
      aria-label={label}
      value={[dayjs(from), dayjs(to)]}
      allowClear={false}
      format={DAY}
      disabledDate={(x) => x.format(DAY) > today}
      presets={[
        { label: '오늘', value: [d, d] },
        { label: '어제', value: [d.subtract(1, 'day'), d.subtract(1, 'day')] },
        { label: '최근 7일', value: [dayjs(addDays(today, -6)), d] },
        { label: '최근 30일', value: [dayjs(addDays(today, -29)), d] },
        { label: '이번 달', value: [d.startOf('month'), d] },
        { label: '지난 달', value: [d.subtract(1, 'month').startOf('month'), d.subtract(1, 'month').endOf('month')] },
      ]}
      onChange={(range) => {
        const [a, b] = (range ?? []) as [Dayjs | null, Dayjs | null];
        onChange(a && b ? [a.format(DAY), b.format(DAY)] : null);
      }}
    />
  );
}
