// The calendar's rules: a month is the Seoul days its grid shows (its own and its neighbours'),
// an appointment belongs to the Seoul day of its time (23:30 KST is that day, though UTC has
// moved on), phones leave masked and a counselor sees only their own leads.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor } from '../audit/audit.service.ts';
import { leadCalendarRepository, type CalendarViewer } from './lead-calendar.repository.ts';
import { periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import type { CsStatus } from '../../../contracts/leads.ts';
import {
  CALENDAR_CELL_APPOINTMENTS, CALENDAR_DAY_APPOINTMENTS, CALENDAR_DAY_RECEIVED, calendarGrid, type CalendarAppointment, type CalendarDay, type CalendarMonth,
} from '../../../contracts/lead-calendar.ts';

const MEMO_EXCERPT = 60;

type AppointmentRow = Awaited<ReturnType<ReturnType<typeof leadCalendarRepository>['appointments']>>[number];

const viewerOf = (actor: Actor): CalendarViewer => ({ accountId: actor.id, scope: actor.scope });

const excerpt = (memo: string | null) => {
  const line = memo?.split('\n')[0]?.trim();
  return line ? (line.length > MEMO_EXCERPT ? `${line.slice(0, MEMO_EXCERPT)}…` : line) : null;
};

const toAppointment = (r: AppointmentRow): CalendarAppointment => ({
  id: r.id, reservedAt: r.reserved_at!, name: r.name, phone: maskPhone(r.phone), assigneeName: r.assignee_name, csStatus: r.cs_status as CsStatus,
  memo: excerpt(r.memo),
});

export function leadCalendarService(db: Kysely<Database>, clock: Clock) {
  const repo = leadCalendarRepository(db);
  return {
    async month(shopId: number, month: string | undefined, actor: Actor): Promise<CalendarMonth> {
      const m = month ?? seoulDay(clock()).slice(0, 7);
      const days = calendarGrid(m);
      const range = periodInstants(days[0]!, days.at(-1)!);
      const who = viewerOf(actor);
      const [received, appointments, first] = await Promise.all([
        repo.receivedByDay(shopId, who, range),
        repo.appointmentsByDay(shopId, who, range),
        repo.firstAppointments(shopId, who, range, CALENDAR_CELL_APPOINTMENTS),
      ]);
      return {
        month: m,
        days: days.map((day) => ({ day, received: received.get(day) ?? 0, appointments: appointments.get(day) ?? 0 })),
        appointments: first.map(toAppointment),
      };
    },

    async day(shopId: number, day: string, actor: Actor): Promise<CalendarDay> {
      const range = periodInstants(day, day);
      const who = viewerOf(actor);
      const [appointments, received, receivedTotal] = await Promise.all([
        repo.appointments(shopId, who, range, CALENDAR_DAY_APPOINTMENTS),
        repo.received(shopId, who, range, CALENDAR_DAY_RECEIVED),
        repo.countReceived(shopId, who, range),
      ]);
      return {
        day,
        appointments: appointments.map(toAppointment),
        received: received.map((r) => ({
          id: r.id, createdAt: r.created_at, name: r.name, phone: maskPhone(r.phone), csStatus: r.cs_status as CsStatus,
          assigneeName: r.assignee_name, landingTitle: r.landing_title, duplicate: r.duplicate_of !== null,
        })),
        receivedTotal,
      };
    },
  };
}
