// DB 캘린더: a shop's leads by Seoul day — how many arrived and which appointments fall on
// each day of a month, and one day's appointments and arrivals in full. Phones leave masked;
// a counselor sees only the leads assigned to them.
import { z } from './zod.ts';
import { dayField } from './fields.ts';
import { shopParam } from './list.ts';
import { endpoint } from './endpoint.ts';
import { CS_STATUSES } from './leads.ts';
import { addDays } from './kst.ts';

/** Appointments a month's day cell lists by name (the rest are counted). */
export const CALENDAR_CELL_APPOINTMENTS = 3;
/** Arrivals a day lists at most (the day's total is given beside them). */
export const CALENDAR_DAY_RECEIVED = 200;
/** Appointments a day lists at most: far more than a shop books in a day, a bound all the same. */
export const CALENDAR_DAY_APPOINTMENTS = 500;

const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
const MONTH_FORMAT = '월은 YYYY-MM 형식입니다.';
const DAY_NOT_FOUND = '없는 날짜입니다.';

/** A day that is on the calendar (2026-02-30 matches the pattern but is not). */
const isCalendarDay = (day: string) => {
  const d = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day;
};

/** Weeks a month's calendar shows (antd's Calendar always draws six). */
const CALENDAR_GRID_WEEKS = 6;

/**
 * The days the calendar of `month` (YYYY-MM) shows: six weeks from the Sunday on or before the
 * 1st (Korean calendars, and antd's ko_KR, start the week on Sunday), the neighbouring months'
 * days included — they are on screen, so their appointments are too.
 */
export function calendarGrid(month: string): string[] {
  const first = `${month}-01`;
  const from = addDays(first, -new Date(`${first}T00:00:00.000Z`).getUTCDay());
  return Array.from({ length: CALENDAR_GRID_WEEKS * 7 }, (_, i) => addDays(from, i));
}

export const calendarMonthQuery = z.object({
  /** YYYY-MM; the current Seoul month when absent. */
  month: z.string(MONTH_FORMAT).regex(MONTH_RE, MONTH_FORMAT).optional(),
});

export const calendarDayParams = shopParam.extend({
  day: dayField.refine(isCalendarDay, DAY_NOT_FOUND),
});

const csStatus = z.enum(CS_STATUSES);

/** A lead with an appointment (reserved_at) on the day, whatever its status now. */
export const calendarAppointment = z.object({
  id: z.number(),
  reservedAt: z.string(),
  name: z.string(),
  /** Masked (010-****-5678). */
  phone: z.string(),
  assigneeName: z.string().nullable(),
  csStatus,
  /** The memo's first line, shortened. */
  memo: z.string().nullable(),
});
export type CalendarAppointment = z.infer<typeof calendarAppointment>;

/** A lead that arrived on the day. */
export const calendarReceived = z.object({
  id: z.number(),
  createdAt: z.string(),
  name: z.string(),
  /** Masked (010-****-5678). */
  phone: z.string(),
  csStatus,
  assigneeName: z.string().nullable(),
  landingTitle: z.string().nullable(),
  duplicate: z.boolean(),
});
export type CalendarReceived = z.infer<typeof calendarReceived>;

export const calendarMonth = z.object({
  month: z.string(),
  /** Every day the month's calendar shows (calendarGrid), in order. */
  days: z.array(z.object({ day: z.string(), received: z.number().int(), appointments: z.number().int() })),
  /** The first CALENDAR_CELL_APPOINTMENTS appointments of each day, by time. */
  appointments: z.array(calendarAppointment),
});
export type CalendarMonth = z.infer<typeof calendarMonth>;

export const calendarDay = z.object({
  day: z.string(),
  /** The day's appointments by time (at most CALENDAR_DAY_APPOINTMENTS). */
  appointments: z.array(calendarAppointment),
  /** The day's arrivals, latest first, at most CALENDAR_DAY_RECEIVED. */
  received: z.array(calendarReceived),
  receivedTotal: z.number().int(),
});
export type CalendarDay = z.infer<typeof calendarDay>;

export const leadCalendarApi = {
  month: endpoint({ method: 'GET', path: '/api/shops/:shopId/calendar', params: shopParam, query: calendarMonthQuery, response: calendarMonth }),
  day: endpoint({ method: 'GET', path: '/api/shops/:shopId/calendar/:day', params: calendarDayParams, response: calendarDay }),
};
