// The SLA clock: working time on a shop's calendar, in Seoul time. Time runs only on the shop's
// work days, between its start and end of day, and not on its holidays; a lead that arrives
// outside those hours starts its clock at the next working minute. Pure: the escalation job and
// its tests hand it the instants.
import { addDays, seoulDay, seoulDayStart } from '../../../contracts/kst.ts';
import { minuteOfDay } from '../../../contracts/lead-sla.ts';

export interface WorkCalendar {
  /** ISO weekdays (1 Monday … 7 Sunday). */
  days: readonly number[];
  /** HH:mm Seoul; end may be 24:00. */
  start: string;
  end: string;
  /** Seoul days without work (YYYY-MM-DD). */
  holidays: readonly string[];
}

/** Settings allow at most 366 holidays and at least one work day: no answer lies further than this. */
const MAX_DAYS = 800;

const isoWeekday = (day: string) => new Date(`${day}T00:00:00.000Z`).getUTCDay() || 7;

/** The working hours of each Seoul day from `from`'s on, as [start, end) in epoch ms. */
function* windows(cal: WorkCalendar, from: number): Generator<[number, number]> {
  const days = new Set(cal.days);
  const holidays = new Set(cal.holidays);
  const start = minuteOfDay(cal.start) * 60_000;
  const end = minuteOfDay(cal.end) * 60_000;
  let day = seoulDay(from);
  for (let i = 0; i < MAX_DAYS; i++, day = addDays(day, 1)) {
    if (!days.has(isoWeekday(day)) || holidays.has(day)) continue;
    const midnight = seoulDayStart(day).getTime();
    yield [midnight + start, midnight + end];
  }
  throw new Error(`no working hours within ${MAX_DAYS} days of ${new Date(from).toISOString()}`);
}

/** The instant `minutes` working minutes after `from` (0: the next working minute, `from` itself when within hours). */
export function addWorkingMinutes(cal: WorkCalendar, from: Date, minutes: number): Date {
  let left = minutes * 60_000;
  for (const [ws, we] of windows(cal, from.getTime())) {
    const s = Math.max(ws, from.getTime());
    if (s >= we) continue;
    if (left <= we - s) return new Date(s + left);
    left -= we - s;
  }
  throw new Error('unreachable: windows() ends by throwing');
}

/** Working minutes between two instants (0 when `to` is not after `from`). */
export function workingMinutesBetween(cal: WorkCalendar, from: Date, to: Date): number {
  let ms = 0;
  if (to <= from) return 0;
  for (const [ws, we] of windows(cal, from.getTime())) {
    if (ws >= to.getTime()) break;
    ms += Math.max(0, Math.min(we, to.getTime()) - Math.max(ws, from.getTime()));
  }
  return ms / 60_000;
}

/**
 * Working time over a span of the calendar laid out once — its windows and the working
 * milliseconds before each — for judging many instants against one calendar (the SLA figures):
 * the working minutes between two instants within the span by binary search, the same answer as
 * workingMinutesBetween. `until` answers null past the span's end: the caller asks the
 * day-by-day functions instead.
 */
export function calendarSpan(cal: WorkCalendar, from: Date, to: Date) {
  const days = new Set(cal.days);
  const holidays = new Set(cal.holidays);
  const startMs = minuteOfDay(cal.start) * 60_000;
  const endMs = minuteOfDay(cal.end) * 60_000;
  const starts: number[] = [];
  const ends: number[] = [];
  const before: number[] = [];
  let total = 0;
  const last = seoulDay(to);
  for (let day = seoulDay(from); day <= last; day = addDays(day, 1)) {
    if (!days.has(isoWeekday(day)) || holidays.has(day)) continue;
    const midnight = seoulDayStart(day).getTime();
    starts.push(midnight + startMs);
    ends.push(midnight + endMs);
    before.push(total);
    total += endMs - startMs;
  }
  const spanStart = seoulDayStart(seoulDay(from)).getTime();
  const spanEnd = seoulDayStart(addDays(last, 1)).getTime();
  /** Working ms from the span's start to `t`. */
  const upTo = (t: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    let i = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= t) [i, lo] = [mid, mid + 1];
      else hi = mid - 1;
    }
    return i < 0 ? 0 : before[i]! + Math.min(t, ends[i]!) - starts[i]!;
  };
  return {
    /** Working minutes between two instants, or null when either lies outside the span. */
    between(a: Date, b: Date): number | null {
      const x = a.getTime();
      const y = b.getTime();
      if (x < spanStart || y >= spanEnd) return null;
      return y <= x ? 0 : (upTo(y) - upTo(x)) / 60_000;
    },
  };
}
