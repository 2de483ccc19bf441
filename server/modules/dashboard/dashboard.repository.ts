import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { seoulDay } from '../../db/dialect-sql.ts';

const n = (v: unknown) => Number(v ?? 0);

/** The leads' figures: counts of today and the month, by shop, medium and day. */
function leadFigures(db: Kysely<Database>) {
  const live = () => db.selectFrom('leads').where('deleted_at', 'is', null);
  return {
    async leadCounts(todayStart: string, monthStart: string) {
      const row = await live()
        .select([
          sql<number>`sum(case when created_at >= ${todayStart} then 1 else 0 end)`.as('today'),
          sql<number>`count(*)`.as('month'),
          sql<number>`sum(case when created_at >= ${todayStart} and duplicate_of is not null then 1 else 0 end)`.as('dup'),
        ])
        .where('created_at', '>=', monthStart)
        .executeTakeFirst();
      return { today: n(row?.today), month: n(row?.month), duplicatesToday: n(row?.dup) };
    },
    async byShop(todayStart: string, monthStart: string) {
      const rows = await db
        .selectFrom('leads as l')
        .innerJoin('shops as s', 's.id', 'l.shop_id')
        .select([
          's.id', 's.name',
          sql<number>`sum(case when l.created_at >= ${todayStart} then 1 else 0 end)`.as('today'),
          sql<number>`count(*)`.as('month'),
          sql<number>`sum(case when l.duplicate_of is not null then 1 else 0 end)`.as('dup'),
        ])
        .where('l.deleted_at', 'is', null)
        .where('l.created_at', '>=', monthStart)
        .groupBy(['s.id', 's.name'])
        .orderBy(sql`count(*)`, 'desc')
        .limit(10)
        .execute();
      return rows.map((r) => ({ shopId: r.id, shopName: r.name, today: n(r.today), month: n(r.month), duplicates: n(r.dup) }));
    },
    async unassigned() {
      const row = await live()
        .select(sql<number>`count(*)`.as('n'))
        .where('assignee_id', 'is', null)
        .where('duplicate_of', 'is', null)
        .executeTakeFirst();
      return n(row?.n);
    },
    async byMedium(monthStart: string) {
      const rows = await db
        .selectFrom('leads as l')
        .leftJoin('code_items as c', 'c.id', 'l.media_type_id')
        .select([sql<string>`coalesce(c.name, '미지정')`.as('medium'), sql<number>`count(*)`.as('month')])
        .where('l.deleted_at', 'is', null)
        .where('l.created_at', '>=', monthStart)
        .groupBy(sql`coalesce(c.name, '미지정')`)
        .orderBy(sql`count(*)`, 'desc')
        .execute();
      return rows.map((r) => ({ medium: r.medium, month: n(r.month) }));
    },
    /** Leads (and duplicates among them) per Seoul day since an instant. */
    async daily(fromStart: string) {
      const day = seoulDay(db, 'created_at');
      const rows = await live()
        .select([day.as('day'), sql<number>`count(*)`.as('count'), sql<number>`sum(case when duplicate_of is not null then 1 else 0 end)`.as('dup')])
        .where('created_at', '>=', fromStart)
        .groupBy(day)
        .execute();
      return new Map(rows.map((r) => [r.day, { count: n(r.count), duplicates: n(r.dup) }]));
    },
    /** Refused submissions per Seoul day since an instant. */
    async blockedDaily(fromStart: string) {
      const day = seoulDay(db, 'at');
      const rows = await db.selectFrom('blocked_submissions').select([day.as('day'), sql<number>`count(*)`.as('n')]).where('at', '>=', fromStart).groupBy(day).execute();
      return new Map(rows.map((r) => [r.day, n(r.n)]));
    },
  };
}

/** The rest of the dashboard: shops, accounts, deny rules, cap closings, delivery trouble, reservations, logins. */
function operationFigures(db: Kysely<Database>) {
  return {
    async shopCounts() {
      const rows = await db.selectFrom('shops').select(['status', sql<number>`count(*)`.as('n')]).groupBy('status').execute();
      return Object.fromEntries(rows.map((r) => [r.status, n(r.n)]));
    },
    async accountCounts() {
      const rows = await db.selectFrom('accounts').select(['status', sql<number>`count(*)`.as('n')]).groupBy('status').execute();
      return Object.fromEntries(rows.map((r) => [r.status, n(r.n)]));
    },
    async activeDenyRules(now: string) {
      const row = await db
        .selectFrom('deny_rules')
        .select(sql<number>`count(*)`.as('n'))
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirst();
      return n(row?.n);
    },
    async blockedSince(since: string) {
      const row = await db.selectFrom('blocked_submissions').select(sql<number>`count(*)`.as('n')).where('at', '>=', since).executeTakeFirst();
      return n(row?.n);
    },
    async auditCount(action: string, since: string) {
      const row = await db.selectFrom('audit_events').select(sql<number>`count(*)`.as('n')).where('action', 'in', [action, 'login-locked']).where('at', '>=', since).executeTakeFirst();
      return n(row?.n);
    },
    shops: () => db.selectFrom('shops').select(['id', 'name']).orderBy('id').execute(),
    /** Landings a contract's cap holds closed at `nowIso` (a daily closing whose midnight has come is open), with their latest closing's time; unordered. */
    closedLandings: (nowIso: string) =>
      db
        .selectFrom('landings as g')
        .innerJoin('shop_contracts as c', 'c.id', 'g.closed_by_contract_id')
        .innerJoin('shops as s', 's.id', 'g.shop_id')
        .select((eb) => [
          'g.id', 'g.title', 'g.shop_id', 's.name as shop_name', 'g.reopen_at', 'c.id as contract_id', 'c.name as contract_name',
          eb.selectFrom('contract_cap_events as e').select((e) => e.fn.max('e.at').as('at')).whereRef('e.landing_id', '=', 'g.id').where('e.kind', '!=', 'reopened').as('closed_at'),
        ])
        .where('g.status', '=', 'closed')
        .where((eb) => eb.or([eb('g.reopen_at', 'is', null), eb('g.reopen_at', '>', nowIso)]))
        .execute(),
    /** The latest closings and reopenings by contracts' caps in every shop, newest first. */
    capEvents: (limit: number) =>
      db
        .selectFrom('contract_cap_events as e')
        .innerJoin('shop_contracts as c', 'c.id', 'e.contract_id')
        .innerJoin('shops as s', 's.id', 'e.shop_id')
        .leftJoin('landings as g', 'g.id', 'e.landing_id')
        .select(['e.id', 'e.kind', 'e.landing_id', 'g.title as landing_title', 'e.count', 'e.at', 'e.contract_id', 'c.name as contract_name', 'e.shop_id', 's.name as shop_name'])
        .orderBy('e.at', 'desc')
        .orderBy('e.id', 'desc')
        .limit(limit)
        .execute(),
    /**
     * Per shop, in one grouped statement: jobs that stay failed, jobs tried and waiting for their
     * next attempt (both through the status index: short lists), and channels a receiver's 410
     * turned off. Only shops with any of them; unordered.
     */
    async deliveryTrouble() {
      const one = sql<number>`1`;
      const none = sql<number>`0`;
      const jobs = db
        .selectFrom('delivery_jobs')
        .select([
          'shop_id',
          sql<number>`case when status = 'failed' then 1 else 0 end`.as('failed'),
          sql<number>`case when status = 'pending' then 1 else 0 end`.as('retrying'),
          none.as('off'),
        ])
        .where((eb) => eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)])]));
      const channels = db
        .selectFrom('delivery_channels')
        .select(['shop_id', none.as('failed'), none.as('retrying'), one.as('off')])
        .where('enabled', '=', 0)
        .where('disabled_reason', 'is not', null);
      const rows = await db
        .selectFrom(jobs.unionAll(channels).as('x'))
        .innerJoin('shops as s', 's.id', 'x.shop_id')
        .select(['s.id', 's.name', sql<number>`sum(x.failed)`.as('failed'), sql<number>`sum(x.retrying)`.as('retrying'), sql<number>`sum(x.off)`.as('off')])
        .groupBy(['s.id', 's.name'])
        .execute();
      return rows.map((r) => ({ shopId: r.id, shopName: r.name, failed: n(r.failed), retrying: n(r.retrying), channelsOff: n(r.off) }));
    },
    /** System reservations under way or still to come, the earliest first. */
    upcomingReservations: (limit: number) =>
      db
        .selectFrom('system_reservations')
        .select(['id', 'kind', 'title', 'starts_at', 'ends_at', 'status'])
        .where('status', 'in', ['scheduled', 'running'])
        .orderBy('starts_at')
        .orderBy('id')
        .limit(limit)
        .execute(),
    recentLogins: () =>
      db
        .selectFrom('audit_events as e')
        .innerJoin('accounts as a', 'a.id', 'e.account_id')
        .select(['a.login_id', 'a.name', 'e.ip', 'e.at'])
        .where('e.action', '=', 'login')
        .orderBy('e.id', 'desc')
        .limit(8)
        .execute(),
  };
}

export function dashboardRepository(db: Kysely<Database>) {
  return { ...leadFigures(db), ...operationFigures(db) };
}
