// The pickers show and take Seoul wall-clock time whatever the browser's zone: a picked
// "2026-11-25 02:00" means 02:00 in Seoul, sent with its +09:00 offset.
import dayjs, { type Dayjs } from 'dayjs';
import { formatSeoul, seoulDay } from '@contracts/kst.ts';

const OFFSET_MS = 9 * 3600_000;

/** A picked value → the instant it names in Seoul (ISO with +09:00). */
export const fromPicker = (d: Dayjs | null | undefined): string | null => (d ? `${d.format('YYYY-MM-DDTHH:mm')}:00+09:00` : null);

/** An instant → a picker value showing its Seoul wall-clock time. */
export const toPicker = (iso: string | null | undefined): Dayjs | null =>
  iso ? dayjs(new Date(Date.parse(iso) + OFFSET_MS).toISOString().slice(0, 19)) : null;

/** Days before today in Seoul cannot be picked. */
export const beforeToday = (d: Dayjs) => d.format('YYYY-MM-DD') < seoulDay(new Date());

/** "2026-11-25 02:00" in Seoul, or "-". */
export const seoulText = (iso: string | null | undefined) => (iso ? formatSeoul(iso) : '-');

/** "2026-11-25 02:00~04:00", or "2026-11-25 23:00~11-26 01:00" across days (Seoul). */
export function seoulRange(startsAt: string, endsAt: string): string {
  const s = formatSeoul(startsAt);
  const e = formatSeoul(endsAt);
  return `${s}~${e.slice(0, 10) === s.slice(0, 10) ? e.slice(11) : e.slice(5)}`;
}
