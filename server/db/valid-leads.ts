// The one rule for a lead that counts — toward a contract's quantity and daily cap, on the
// settlement sheet, in CPA and the advertising figures: it is alive (not deleted), not a
// duplicate, and valid (neither 무효 nor returned). Every screen that shows such a count
// builds it from here, so the figures agree everywhere.
import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, LeadsTable } from './schema.ts';
import { addDays, seoulDay, seoulDayStart } from '../../contracts/kst.ts';

type WithLeads = Database & { l: LeadsTable };

/** `l` (leads) rows that count. */
export function validLead(eb: ExpressionBuilder<WithLeads, 'l'>) {
  return eb.and([eb('l.deleted_at', 'is', null), eb('l.duplicate_of', 'is', null), eb('l.validity', '=', 'valid')]);
}

/** What intake stores as `source` for a lead a visitor sent through a landing's form. */
export const LANDING_SOURCE = 'landing';

/**
 * `l` (leads) rows that came from an ad: sent through a landing's form and attributed to a
 * medium. Leads entered by hand (수기), imported (가져오기) or without a medium have no click or
 * spend behind them: CTR, CVR, CPL, CPA and margin leave them out, and every screen showing
 * those figures shows them apart ("광고 외 DB"). The one definition every such query uses.
 */
export function adLead(eb: ExpressionBuilder<WithLeads, 'l'>) {
  return eb.and([eb('l.source', '=', LANDING_SOURCE), eb('l.media_type_id', 'is not', null)]);
}

/** The leads a contract (or any figure) covers: a shop, a period of instants, optionally some landings and media. */
export interface LeadScope {
  shopIds: readonly number[];
  fromIso: string;
  toIso: string;
  /** Empty: every landing (and leads without one). */
  landingIds?: readonly number[];
  /** Empty: every medium. */
  mediaTypeIds?: readonly number[];
}

/** `leads as l` narrowed to a scope (the covering (shop, created_at, …) index answers it). */
export function scopedLeads(db: Kysely<Database>, s: LeadScope): SelectQueryBuilder<WithLeads, 'l', object> {
  let qb = db.selectFrom('leads as l').where('l.shop_id', 'in', [...s.shopIds]).where('l.created_at', '>=', s.fromIso).where('l.created_at', '<', s.toIso);
  if (s.landingIds?.length) qb = qb.where('l.landing_id', 'in', [...s.landingIds]);
  if (s.mediaTypeIds?.length) qb = qb.where('l.media_type_id', 'in', [...s.mediaTypeIds]);
  return qb as unknown as SelectQueryBuilder<WithLeads, 'l', object>;
}

/**
 * A lead's Seoul day as two group keys read straight off its stored UTC ISO text: the UTC day
 * (`utc_day`, its first ten characters) and whether the hour is 15 or later (`late`, 1 or 0) —
 * those nine hours belong to the next Seoul day, as Seoul is UTC+9 all year (no summer time).
 * Select both under these names, group by them, and name the day with seoulDayOfKeys. It costs
 * two substrings a row on either engine, where converting every row's time zone in SQL
 * (seoulDay in dialect-sql.ts: to_char(… at time zone 'Asia/Seoul') on PostgreSQL) costs a
 * month of twenty shops' leads about twice as much; and a day has two groups, not 24 hours.
 */
export function createdDayKeys(): { utcDay: RawBuilder<string>; late: RawBuilder<number> } {
  return {
    utcDay: sql<string>`substr(l.created_at, 1, 10)`,
    late: sql<number>`case when substr(l.created_at, 12, 2) >= '15' then 1 else 0 end`,
  };
}

/** The Seoul day of createdDayKeys' `utc_day` and `late` (numbers or numeric text, as the driver hands them). */
export function seoulDayOfKeys(utcDay: string, late: number | string): string {
  return Number(late) ? addDays(utcDay, 1) : utcDay;
}

/** A Seoul day of a scope with its bounds (clipped to the scope's instants). */
interface DayBound {
  day: string;
  from: string;
  to: string;
}

/** The Seoul days a scope touches, oldest first, each with its bounds. */
function dayBounds(s: LeadScope): DayBound[] {
  const out: DayBound[] = [];
  if (s.fromIso >= s.toIso) return out;
  const lastDay = seoulDay(new Date(Date.parse(s.toIso) - 1));
  for (let day = seoulDay(s.fromIso); day <= lastDay; day = addDays(day, 1)) {
    const from = seoulDayStart(day).toISOString();
    const to = seoulDayStart(addDays(day, 1)).toISOString();
    out.push({ day, from: from > s.fromIso ? from : s.fromIso, to: to < s.toIso ? to : s.toIso });
  }
  return out;
}

/** A condition on `l` (leads), such as validLead. */
type LeadCondition = (eb: ExpressionBuilder<WithLeads, 'l'>) => Expression<SqlBool>;

/**
 * The leads of a scope per Seoul day — all of them (`total`) and, for each named condition, how
 * many meet it — the days without a lead left out, oldest first. One statement, and no lead row
 * is grouped or sorted: the days' bounds are a VALUES list, and each day is one pass over its
 * own range of the covering (shop, created_at, …) index whose counts come back together, as one
 * text ("total n1 n2 …": both engines concatenate numbers, neither returns several columns from
 * a subquery in a select list). Grouping a year of a busy shop by day instead costs several
 * times as much: group keys computed for every row, then every row sorted or hashed.
 */
export async function countsPerDay<K extends string>(db: Kysely<Database>, s: LeadScope, conditions: Record<K, LeadCondition>):
  Promise<Array<{ day: string; total: number; counts: Record<K, number> }>> {
  const bounds = dayBounds(s);
  if (!bounds.length || !s.shopIds.length) return [];
  const keys = Object.keys(conditions) as K[];
  const eb = expressionBuilder<WithLeads, 'l'>();
  const packed = sql.join([sql`count(*)`, ...keys.map((k) => sql`count(*) filter (where ${conditions[k](eb)})`)], sql` || ' ' || `);
  // VALUES names its columns column1, column2 on both engines. The bounds are literals (our own
  // toISOString()s): a long scope's days would otherwise run into SQLite's limit on parameters.
  const days = sql<{ column1: string; column2: string }>`(values ${sql.join(bounds.map((b) => sql`(${sql.lit(b.from)}, ${sql.lit(b.to)})`))})`.as('d');
  const rows = await db
    .selectFrom(days)
    .select((x) => {
      let day = x.selectFrom('leads as l').select(sql<string | number>`${packed}`.as('n'))
        .where('l.shop_id', 'in', [...s.shopIds]).whereRef('l.created_at', '>=', 'd.column1').whereRef('l.created_at', '<', 'd.column2');
      if (s.landingIds?.length) day = day.where('l.landing_id', 'in', [...s.landingIds]);
      if (s.mediaTypeIds?.length) day = day.where('l.media_type_id', 'in', [...s.mediaTypeIds]);
      return [sql<string>`d.column1`.as('from'), day.$castTo<string | number>().as('packed')];
    })
    .execute();
  const byFrom = new Map(rows.map((r) => [r.from, String(r.packed ?? '0').split(' ').map(Number)]));
  return bounds.flatMap((b) => {
    const [total = 0, ...n] = byFrom.get(b.from) ?? [];
    return total ? [{ day: b.day, total, counts: Object.fromEntries(keys.map((k, i) => [k, n[i] ?? 0])) as Record<K, number> }] : [];
  });
}

/** Valid leads per Seoul day in a scope, oldest day first. */
export async function validPerDay(db: Kysely<Database>, s: LeadScope): Promise<Array<{ day: string; count: number }>> {
  return (await countsPerDay(db, s, { valid: validLead })).filter((d) => d.counts.valid > 0).map((d) => ({ day: d.day, count: d.counts.valid }));
}
