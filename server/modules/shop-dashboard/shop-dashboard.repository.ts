// The shop dashboard's SQL. Every query names the shop and a lower bound of created_at (or a
// range of reserved_at), so it reads one stretch of a (shop_id, …, created_at) index however
// many leads the shop has gathered over the years.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { seoulDay } from '../../db/dialect-sql.ts';

/** Who is asking: a counselor ('assigned') counts only the leads assigned to them. */
export interface DashboardViewer {
  accountId: number;
  scope: 'all' | 'assigned';
}

/** The instants the lead counts compare. */
interface CountBounds {
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
/** A delivery row whose lead (by the row's lead column) is assigned to the account. */
const ownLead = (leadColumn: string, accountId: number) =>
  sql<SqlBool>`exists (select 1 from leads ol where ol.id = ${sql.ref(leadColumn)} and ol.assignee_id = ${accountId})`;
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
      // 실험안별: the listed landings' leads that came from an experiment's variant.
      const ids = rows.flatMap((r) => (r.landing_id === null ? [] : [r.landing_id]));
      const split = ids.length
        ? await since(shopId, who, fromIso)
            .select(['l.landing_id', 'l.variant', sql<number>`count(*)`.as('n'), dup.as('dup')])
            .where('l.landing_id', 'in', ids)
            .where('l.experiment_id', 'is not', null)
            .groupBy(['l.landing_id', 'l.variant'])
            .orderBy('l.variant')
            .execute()
        : [];
      return rows.map((r) => ({
        landingId: r.landing_id, title: r.title, count: n(r.n), duplicates: n(r.dup),
        variants: split.filter((v) => v.landing_id === r.landing_id).map((v) => ({ key: v.variant ?? '', count: n(v.n), duplicates: n(v.dup) })),
      }));
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

    /** 미처리 leads received in [fromIso, beforeIso), never called. */
    async untouched(shopId: number, who: DashboardViewer, fromIso: string, beforeIso: string) {
      const row = await since(shopId, who, fromIso)
        .select(sql<number>`count(*)`.as('n'))
        .where('l.cs_status', '=', '미처리')
        // A lead called (통화 시도) and not yet given an outcome is not waiting for a call (DB 현황's red rows alike).
        .where('l.first_contact_at', 'is', null)
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

    /** The shop's latest closings and reopenings by its contracts' caps, newest first. */
    capEvents: (shopId: number, limit: number) =>
      db
        .selectFrom('contract_cap_events as e')
        .innerJoin('shop_contracts as c', 'c.id', 'e.contract_id')
        .leftJoin('landings as g', 'g.id', 'e.landing_id')
        .select(['e.id', 'e.kind', 'e.landing_id', 'g.title as landing_title', 'e.count', 'e.at', 'e.contract_id', 'c.name as contract_name'])
        .where('e.shop_id', '=', shopId)
        .orderBy('e.at', 'desc')
        .orderBy('e.id', 'desc')
        .limit(limit)
        .execute(),

    /**
     * How the shop's delivery stands, in one statement: jobs that stay failed, jobs tried and
     * waiting for their next attempt (both found through the status index, a short list), and
     * leads delivered since `todayStart` — counted by their successful attempt, through the
     * attempts' (shop, at) index, as each delivered job has exactly one. An 'assigned' viewer
     * counts the jobs of its own leads, as DB 전송 이력 lists them.
     */
    async deliveryCounts(shopId: number, who: DashboardViewer, todayStart: string) {
      const mine = who.scope === 'assigned';
      const row = await db
        .selectNoFrom((eb) => {
          const jobs = () => eb.selectFrom('delivery_jobs as j').select(sql<number>`count(*)`.as('n')).where('j.shop_id', '=', shopId).$if(mine, (qb) => qb.where(ownLead('j.lead_id', who.accountId)));
          return [
            jobs().where('j.status', '=', 'failed').as('failed'),
            jobs().where('j.status', '=', 'pending').where('j.attempts', '>', 0).as('retrying'),
            eb
              .selectFrom('delivery_attempts as a')
              .select(sql<number>`count(*)`.as('n'))
              .where('a.shop_id', '=', shopId)
              .where('a.at', '>=', todayStart)
              .where('a.status', '=', 'succeeded')
              .$if(mine, (qb) => qb.where(ownLead('a.lead_id', who.accountId)))
              .as('delivered'),
          ];
        })
        .executeTakeFirst();
      return { failed: n(row?.failed), retrying: n(row?.retrying), deliveredToday: n(row?.delivered) };
    },

    /** The latest jobs that stay failed, with their lead's name and channel, newest first. */
    deliveryFailures(shopId: number, who: DashboardViewer, limit: number) {
      let qb = db
        .selectFrom('delivery_jobs as j')
        .innerJoin('leads as l', 'l.id', 'j.lead_id')
        .innerJoin('delivery_channels as c', 'c.id', 'j.channel_id')
        .select([
          'j.id', 'j.lead_id', 'l.name as lead_name', 'l.purged_at as lead_purged_at', 'j.channel_id', 'c.name as channel_name', 'c.kind as channel_kind',
          'j.updated_at', 'j.attempts', 'j.response_code', 'j.last_error',
        ])
        .where('j.shop_id', '=', shopId)
        .where('j.status', '=', 'failed');
      if (who.scope === 'assigned') qb = qb.where('l.assignee_id', '=', who.accountId);
      return qb.orderBy('j.updated_at', 'desc').orderBy('j.id', 'desc').limit(limit).execute();
    },

    /** The shop's channels a receiver's 410 turned off (not those staff paused), the latest first. */
    channelsOff: (shopId: number) =>
      db
        .selectFrom('delivery_channels')
        .select(['id', 'name', 'kind', 'disabled_reason', 'disabled_at'])
        .where('shop_id', '=', shopId)
        .where('enabled', '=', 0)
        .where('disabled_reason', 'is not', null)
        .orderBy('disabled_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),

    /** Leads and duplicates among them per Seoul day since `fromIso`. */
    async daily(shopId: number, who: DashboardViewer, fromIso: string) {
      const day = seoulDay(db, 'l.created_at');
      const rows = await since(shopId, who, fromIso).select([day.as('day'), sql<number>`count(*)`.as('n'), dup.as('dup')]).groupBy(day).execute();
      return new Map(rows.map((r) => [r.day, { count: n(r.n), duplicates: n(r.dup) }]));
    },
  };
}
