// Asia/Seoul calendar helpers (UTC+9 all year, no daylight saving).
const OFFSET_MS = 9 * 3600_000;

/** The Seoul calendar day (YYYY-MM-DD) of an instant. */
export function seoulDay(at: Date | string | number): string {
  return new Date(new Date(at).getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** The UTC instant at which a Seoul day (YYYY-MM-DD) begins. */
export function seoulDayStart(day: string): Date {
  return new Date(new Date(`${day}T00:00:00.000Z`).getTime() - OFFSET_MS);
}

/** A Seoul day plus n days. */
export function addDays(day: string, n: number): string {
  return new Date(new Date(`${day}T00:00:00.000Z`).getTime() + n * 86400_000).toISOString().slice(0, 10);
}

/** 2026-11-21T01:00:00Z → "2026-11-21 10:00" (Seoul). */
export function formatSeoul(at: Date | string): string {
  return formatSeoulSeconds(at).slice(0, 16);
}

/** 2026-11-21T01:02:03Z → "2026-11-21 10:02:03" (Seoul). */
export function formatSeoulSeconds(at: Date | string | number): string {
  return new Date(new Date(at).getTime() + OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The instants a period of Seoul days (inclusive) covers: [fromIso, toIso). */
export function periodInstants(from: string, to: string): { fromIso: string; toIso: string } {
  return { fromIso: seoulDayStart(from).toISOString(), toIso: seoulDayStart(addDays(to, 1)).toISOString() };
}

export const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
