// The shop dashboard's SQL. Every query names the shop and a lower bound of created_at (or a
// range of reserved_at), so it reads one stretch of a (shop_id, …, created_at) index however
// many leads the shop has gathered over the years.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { seoulDay } from '../../db/dialect-sql.ts';

/** Who is asking: a counselor ('assigned') counts only the leads assigned to them. */
export interface DashboardViewer {
  accountId: number;
  scope: 'all' | 'assigned';
}

/** The instants the lead counts compare. */
export interface CountBounds {
  lastMonthStart: string;
  /** Last month up to the same point as this month now. */
  lastMonthCut: string;
  monthStart: string;
  yesterdayStart: string;
  /** Yesterday at this time. */
  yesterdayCut: string;
  todayStart: string;
}

/** Landings listed at most (most leads first). */
const TOP_LANDINGS = 10;

const n = (v: unknown) => Number(v ?? 0);
const dup = sql<number>`sum(case when l.duplicate_of is not null then 1 else 0 end)`;

export function shopDashboardRepository(db: Kysely<Database>) {
  const live = (shopId: number, who: DashboardViewer) => {
    let qb = db.selectFrom('leads as l').where('l.shop_id', '=', shopId).where('l.deleted_at', 'is', null);
    if (who.scope === 'assigned') qb = qb.where('l.assignee_id', '=', who.accountId);
    return qb;
  };
  const since = (shopId: number, who: DashboardViewer, fromIso: string) => live(shopId, who).where('l.created_at', '>=', fromIso);

  return {
    /** Today, yesterday to this time, this month and last month to the same point: one pass over two months. */
    async counts(shopId: number, who: DashboardViewer, b: CountBounds) {
      const row = await since(shopId, who, b.lastMonthStart)
        .select([
          sql<number>`sum(case when l.created_at >= ${b.todayStart} then 1 else 0 end)`.as('today'),
          sql<number>`sum(case when l.created_at >= ${b.yesterdayStart} and l.created_at < ${b.yesterdayCut} then 1 else 0 end)`.as('yesterday'),
          sql<number>`sum(case when l.created_at >= ${b.monthStart} then 1 else 0 end)`.as('month'),
          sql<number>`sum(case when l.created_at < ${b.lastMonthCut} then 1 else 0 end)`.as('last_month'),
          sql<number>`sum(case when l.created_at >= ${b.todayStart} and l.duplicate_of is not null then 1 else 0 end)`.as('dup_today'),
          sql<number>`sum(case when l.created_at >= ${b.monthStart} and l.duplicate_of is not null then 1 else 0 end)`.as('dup_month'),
        ])
        .executeTakeFirst();
      return {
        today: n(row?.today), yesterday: n(row?.yesterday), month: n(row?.month), lastMonth: n(row?.last_month),
        duplicatesToday: n(row?.dup_today), duplicatesMonth: n(row?.dup_month),
      };
    },

    async byMedium(shopId: number, who: DashboardViewer, fromIso: string) {
      const rows = await since(shopId, who, fromIso)
        .leftJoin('code_items as m', 'm.id', 'l.media_type_id')
        .select(['l.media_type_id', 'm.name', sql<number>`count(*)`.as('n'), dup.as('dup')])
        .groupBy(['l.media_type_id', 'm.name'])
        .orderBy(sql`count(*)`, 'desc')
        .orderBy('l.media_type_id')
        .execute();
      return rows.map((r) => ({ mediaTypeId: r.media_type_id, medium: r.name ?? '미지정', count: n(r.n), duplicates: n(r.dup) }));
    },

    async byLanding(shopId: number, who: DashboardViewer, fromIso: string) {
      const rows = await since(shopId, who, fromIso)
        .leftJoin('landings as g', 'g.id', 'l.landing_id')
        .select(['l.landing_id', 'g.title', sql<number>`count(*)`.as('n'), dup.as('dup')])
        .groupBy(['l.landing_id', 'g.title'])
        .orderBy(sql`count(*)`, 'desc')
        .orderBy('l.landing_id')
        .limit(TOP_LANDINGS)
        .execute();
      return rows.map((r) => ({ landingId: r.landing_id, title: r.title, count: n(r.n), duplicates: n(r.dup) }));
    },

    async byStatus(shopId: number, who: DashboardViewer, fromIso: string) {
      const rows = await since(shopId, who, fromIso).select(['l.cs_status', sql<number>`count(*)`.as('n')]).groupBy('l.cs_status').execute();
      return new Map(rows.map((r) => [r.cs_status, n(r.n)]));
    },

    /** Non-duplicate leads since `fromIso` that no counselor holds. */
    async unassigned(shopId: number, fromIso: string) {
      const row = await since(shopId, { accountId: 0, scope: 'all' }, fromIso)
        .select(sql<number>`count(*)`.as('n'))
        .where('l.assignee_id', 'is', null)
        .where('l.duplicate_of', 'is', null)
        .executeTakeFirst();
      return n(row?.n);
    },

    /** 미처리 leads received in [fromIso, beforeIso). */
    async untouched(shopId: number, who: DashboardViewer, fromIso: string, beforeIso: string) {
      const row = await since(shopId, who, fromIso)
        .select(sql<number>`count(*)`.as('n'))
        .where('l.cs_status', '=', '미처리')
        .where('l.created_at', '<', beforeIso)
        .executeTakeFirst();
      return n(row?.n);
    },

    /** Leads with an appointment in [fromIso, toIso). */
    async appointments(shopId: number, who: DashboardViewer, fromIso: string, toIso: string) {
      const row = await live(shopId, who)
        .select(sql<number>`count(*)`.as('n'))
        .where('l.reserved_at', '>=', fromIso)
        .where('l.reserved_at', '<', toIso)
        .executeTakeFirst();
      return n(row?.n);
    },

    /** Leads and duplicates among them per Seoul day since `fromIso`. */
    async daily(shopId: number, who: DashboardViewer, fromIso: string) {
      const day = seoulDay(db, 'l.created_at');
      const rows = await since(shopId, who, fromIso).select([day.as('day'), sql<number>`count(*)`.as('n'), dup.as('dup')]).groupBy(day).execute();
      return new Map(rows.map((r) => [r.day, { count: n(r.n), duplicates: n(r.dup) }]));
    },
  };
}
