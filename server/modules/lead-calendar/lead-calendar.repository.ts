// The calendar's SQL. Every query names the shop and a range of created_at or reserved_at, so
// it reads one stretch of the (shop_id, created_at) or (shop_id, reserved_at) index however
// many leads the shop has.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { seoulDay } from '../../db/dialect-sql.ts';

/** Who is asking: a counselor ('assigned') sees only the leads assigned to them. */
export interface CalendarViewer {
  accountId: number;
  scope: 'all' | 'assigned';
}

/** An instant range [fromIso, toIso). */
interface Range {
  fromIso: string;
  toIso: string;
}

const n = (v: unknown) => Number(v ?? 0);

export function leadCalendarRepository(db: Kysely<Database>) {
  const live = (shopId: number, who: CalendarViewer) => {
    let qb = db.selectFrom('leads as l').where('l.shop_id', '=', shopId).where('l.deleted_at', 'is', null);
    if (who.scope === 'assigned') qb = qb.where('l.assignee_id', '=', who.accountId);
    return qb;
  };
  const APPOINTMENT_COLUMNS = ['l.id', 'l.reserved_at', 'l.name', 'l.phone', 'a.name as assignee_name', 'l.cs_status', 'l.memo'] as const;

  return {
    /** Leads received per Seoul day of the range. */
    async receivedByDay(shopId: number, who: CalendarViewer, r: Range) {
      const day = seoulDay(db, 'l.created_at');
      const rows = await live(shopId, who)
        .select([day.as('day'), sql<number>`count(*)`.as('n')])
        .where('l.created_at', '>=', r.fromIso)
        .where('l.created_at', '<', r.toIso)
        .groupBy(day)
        .execute();
      return new Map(rows.map((x) => [x.day, n(x.n)]));
    },

    /** Appointments per Seoul day of the range. */
    async appointmentsByDay(shopId: number, who: CalendarViewer, r: Range) {
      const day = seoulDay(db, 'l.reserved_at');
      const rows = await live(shopId, who)
        .select([day.as('day'), sql<number>`count(*)`.as('n')])
        .where('l.reserved_at', '>=', r.fromIso)
        .where('l.reserved_at', '<', r.toIso)
        .groupBy(day)
        .execute();
      return new Map(rows.map((x) => [x.day, n(x.n)]));
    },

    /** The first `perDay` appointments of each Seoul day of the range, by time: a month's cells without the whole month's rows. */
    firstAppointments(shopId: number, who: CalendarViewer, r: Range, perDay: number) {
      const day = seoulDay(db, 'l.reserved_at');
      const ranked = live(shopId, who)
        .leftJoin('accounts as a', 'a.id', 'l.assignee_id')
        .select(APPOINTMENT_COLUMNS)
        .select(sql<number>`row_number() over (partition by ${day} order by l.reserved_at, l.id)`.as('rn'))
        .where('l.reserved_at', '>=', r.fromIso)
        .where('l.reserved_at', '<', r.toIso);
      return db
        .selectFrom(ranked.as('x'))
        .select(['x.id', 'x.reserved_at', 'x.name', 'x.phone', 'x.assignee_name', 'x.cs_status', 'x.memo'])
        .where('x.rn', '<=', perDay)
        .orderBy('x.reserved_at')
        .orderBy('x.id')
        .execute();
    },

    appointments: (shopId: number, who: CalendarViewer, r: Range, limit: number) =>
      live(shopId, who)
        .leftJoin('accounts as a', 'a.id', 'l.assignee_id')
        .select(APPOINTMENT_COLUMNS)
        .where('l.reserved_at', '>=', r.fromIso)
        .where('l.reserved_at', '<', r.toIso)
        .orderBy('l.reserved_at')
        .orderBy('l.id')
        .limit(limit)
        .execute(),

    received: (shopId: number, who: CalendarViewer, r: Range, limit: number) =>
      live(shopId, who)
        .leftJoin('accounts as a', 'a.id', 'l.assignee_id')
        .leftJoin('landings as g', 'g.id', 'l.landing_id')
        .select(['l.id', 'l.created_at', 'l.name', 'l.phone', 'l.cs_status', 'a.name as assignee_name', 'g.title as landing_title', 'l.duplicate_of'])
        .where('l.created_at', '>=', r.fromIso)
        .where('l.created_at', '<', r.toIso)
        .orderBy('l.created_at', 'desc')
        .orderBy('l.id', 'desc')
        .limit(limit)
        .execute(),

    async countReceived(shopId: number, who: CalendarViewer, r: Range) {
      const row = await live(shopId, who)
        .select(sql<number>`count(*)`.as('n'))
        .where('l.created_at', '>=', r.fromIso)
        .where('l.created_at', '<', r.toIso)
        .executeTakeFirst();
      return n(row?.n);
    },
  };
}
