// How far off a deleted lead's automatic destruction is, counted in Seoul calendar days — the days
// "30일 동안 복구할 수 있습니다" counts: a lead deleted today with a 30-day grace shows D-30.
const DAY_MS = 86_400_000;
const SEOUL_MS = 9 * 3_600_000;

/** The Seoul calendar day of an instant, as days since the epoch. */
const seoulDayNumber = (ms: number) => Math.floor((ms + SEOUL_MS) / DAY_MS);

/** "D-30", "오늘" (destroyed later today), or "파기 대기" (due: the purge runs every ten minutes). */
export function destroyCountdown(at: string, now: number): string {
  const when = Date.parse(at);
  if (when <= now) return '파기 대기';
  const days = seoulDayNumber(when) - seoulDayNumber(now);
  return days > 0 ? `D-${days}` : '오늘';
}
