// One clock: every time the back office shows is Seoul's wall-clock time (contracts/kst.ts), whatever
// the browser's zone, so a staff member abroad reads the times the record and the shop's people read.
import { formatSeoul, formatSeoulSeconds, seoulDay } from '@contracts/kst.ts';

/** "2026-11-21 10:00" in Seoul, or "-". */
export const formatDateTime = (iso: string | null | undefined) => (iso ? formatSeoul(iso) : '-');
/** "2026-11-21 10:00:03" in Seoul, or "-": for what follows within seconds (attempts, a record's lines). */
export const formatDateTimeSeconds = (iso: string | null | undefined) => (iso ? formatSeoulSeconds(iso) : '-');
/** "10:00" in Seoul. */
export const formatTime = (iso: string) => formatSeoul(iso).slice(11);
/** "2026-11-21", the Seoul day, or "-". */
export const formatDate = (iso: string | null | undefined) => (iso ? seoulDay(iso) : '-');

/** "2026-11-25 02:00~04:00", or "2026-11-25 23:00~11-26 01:00" across days (Seoul). */
export function formatDateTimeRange(startsAt: string, endsAt: string): string {
  const s = formatSeoul(startsAt);
  const e = formatSeoul(endsAt);
  return `${s}~${e.slice(0, 10) === s.slice(0, 10) ? e.slice(11) : e.slice(5)}`;
}

export const formatNumber = (n: number | null | undefined) => (n == null ? '-' : n.toLocaleString('ko-KR'));

/** A ring slice's label: its share, rounded (no room for "38.08%"), and none on a sliver too thin to hold it. */
export const sliceShare = (p: { percent?: number }) => ((p.percent ?? 0) >= 5 ? `${Math.round(p.percent ?? 0)}%` : '');
