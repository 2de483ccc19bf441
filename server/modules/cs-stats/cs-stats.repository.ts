// The SQL of the call statistics. Every query reads one period's live leads of given shops
// through the (shop_id, created_at) index — (shop_id, assignee_id, created_at) for a
// counselor's own — and answers grouped figures, never lead rows: on a table of millions
// the work stays in the database and the answer stays small.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { secondsBetween, seoulDay } from '../../db/dialect-sql.ts';

export interface CsStatsFilter {
  /** Not empty. */
  shopIds: number[];
  fromIso: string;
  toIso: string;
  /** Only the leads assigned to this account (a counselor sees their own). */
  assigneeId?: number;
}

/** What figures are grouped by: the counselor holding a lead, or its shop. */
type CsGroup = 'assignee' | 'shop';
const GROUP_COLUMN = { assignee: 'l.assignee_id', shop: 'l.shop_id' } as const;

const n = (v: unknown) => Number(v ?? 0);

export interface CsCountRow {
  group: number | null;
  status: string;
  /** Leads, duplicates included. */
  total: number;
  /** Non-duplicate leads. */
  unique: number;
  /** Non-duplicate leads with a first contact, and their seconds to it summed. */
  timed: number;
  seconds: number;
}

export function csStatsRepository(db: Kysely<Database>) {
  const live = (f: CsStatsFilter) => {
    let qb = db
      .selectFrom('leads as l')
      .where('l.shop_id', 'in', f.shopIds)
      .where('l.created_at', '>=', f.fromIso)
      .where('l.created_at', '<', f.toIso)
      .where('l.deleted_at', 'is', null);
    if (f.assigneeId !== undefined) qb = qb.where('l.assignee_id', '=', f.assigneeId);
    return qb;
  };
  const toFirstContact = secondsBetween(db, 'l.created_at', 'l.first_contact_at');
  const timed = sql<boolean>`l.duplicate_of is null and l.first_contact_at is not null`;

  return {
    /** Leads per group and status, with what the rates and the average first contact need. */
    async counts(f: CsStatsFilter, group: CsGroup): Promise<CsCountRow[]> {
      const g = sql.ref<number | null>(GROUP_COLUMN[group]);
      const rows = await live(f)
        .select([
          g.as('g'),
          'l.cs_status',
          sql<number>`count(*)`.as('total'),
          sql<number>`sum(case when l.duplicate_of is null then 1 else 0 end)`.as('uniq'),
          sql<number>`sum(case when ${timed} then 1 else 0 end)`.as('timed'),
          sql<number | null>`sum(case when ${timed} then ${toFirstContact} end)`.as('seconds'),
        ])
        .groupBy([g, 'l.cs_status'])
        .execute();
      return rows.map((r) => ({
        group: r.g === null ? null : n(r.g), status: r.cs_status, total: n(r.total), unique: n(r.uniq), timed: n(r.timed), seconds: n(r.seconds),
      }));
    },

    /** Leads per Seoul day of receipt and status. */
    async byDay(f: CsStatsFilter) {
      const day = seoulDay(db, 'l.created_at');
      const rows = await live(f).select([day.as('day'), 'l.cs_status', sql<number>`count(*)`.as('total')]).groupBy([day, 'l.cs_status']).execute();
      return rows.map((r) => ({ day: r.day, status: r.cs_status, total: n(r.total) }));
    },

    /**
     * The median seconds to first contact of non-duplicate contacted leads, per group (or of
     * all of them: group null, answered under the key null). Window functions rank each
     * group's times; the middle one, or the mean of the middle two, is the median — the same
     * SQL on both engines, and only one row per group leaves the database.
     */
    async medianSeconds(f: CsStatsFilter, group: CsGroup | null): Promise<Map<number | null, number>> {
      const g = group ? sql.ref<number | null>(GROUP_COLUMN[group]) : sql<number | null>`null`;
      const partition = group ? sql`partition by ${g}` : sql.raw('');
      const ranked = live(f)
        .where('l.duplicate_of', 'is', null)
        .where('l.first_contact_at', 'is not', null)
        .select([
          g.as('g'),
          toFirstContact.as('s'),
          sql<number>`row_number() over (${partition} order by ${toFirstContact})`.as('rn'),
          sql<number>`count(*) over (${partition})`.as('cnt'),
        ]);
      const rows = await db
        .selectFrom(ranked.as('t'))
        .select(['t.g', sql<number>`avg(t.s)`.as('median')])
        .where(sql<boolean>`t.rn in ((t.cnt + 1) / 2, (t.cnt + 2) / 2)`)
        .groupBy('t.g')
        .execute();
      return new Map(rows.map((r) => [r.g === null ? null : n(r.g), n(r.median)]));
    },

    /** The accounts leads of a shop are assigned to: permitted to it, of a shop-area type that sees only its own leads. */
    shopCounselors: (shopId: number) =>
      db
        .selectFrom('accounts as a')
        .innerJoin('account_types as t', 't.id', 'a.account_type_id')
        .innerJoin('shop_permissions as p', 'p.account_id', 'a.id')
        .select(['a.id', 'a.name'])
        .where('p.shop_id', '=', shopId)
        .where('t.area', '=', 'shop')
        .where('t.data_scope', '=', 'assigned')
        .where('a.status', '!=', 'disabled')
        .execute(),

    accountNames: (ids: number[]) => (ids.length ? db.selectFrom('accounts').select(['id', 'name']).where('id', 'in', ids).execute() : Promise.resolve([])),

    /** Every shop, or those `accountId` is permitted. */
    shops: (accountId?: number) => {
      let qb = db.selectFrom('shops as s').select(['s.id', 's.name', 's.status']);
      if (accountId !== undefined) qb = qb.innerJoin('shop_permissions as p', 'p.shop_id', 's.id').where('p.account_id', '=', accountId);
      return qb.orderBy('s.name').execute();
    },
  };
}
