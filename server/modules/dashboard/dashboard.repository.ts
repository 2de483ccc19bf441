import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { seoulDay } from '../../db/dialect-sql.ts';

const n = (v: unknown) => Number(v ?? 0);

export function dashboardRepository(db: Kysely<Database>) {
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
