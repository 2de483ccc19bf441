// The SQL of CPA 관리: grouped figures per (Seoul month, medium) — ad spend, leads received and
// valid leads, targets — and, per contract, its valid leads per Seoul day (for billableDays)
// and its covered and billable valid leads per (month, medium). No lead rows leave the
// database: which of a capped day's leads are billable is decided in SQL by their rank within
// the day (earliest first), the same rule the contract figures use.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { seoulDay } from '../../db/dialect-sql.ts';
import { adLead, scopedLeads, validLead, validPerDay, type LeadScope } from '../../db/valid-leads.ts';

const n = (v: unknown) => Number(v ?? 0);

/** The YYYY-MM of a YYYY-MM-DD expression (the same text function on both engines). */
const monthOf = (day: RawBuilder<string> | ReturnType<typeof sql.ref<string>>) => sql<string>`substr(${day}, 1, 7)`;

/**
 * Which of a contract's valid leads are billable, as billableDays decided it for its days:
 * within each Seoul day the earliest first, at most `cap` a day; on `cutoffDay` (the day the
 * quantity ran out) only the first `cutoffCount`, and none after it.
 */
export interface BillableRule {
  cap: number | null;
  cutoffDay: string | null;
  cutoffCount: number;
}

interface MonthMediumCount {
  month: string;
  mediaTypeId: number | null;
  count: number;
}

export function cpaRepository(db: Kysely<Database>) {
  return {
    /** Every media type with its order and whether it is in use. */
    mediaTypes: () =>
      db.selectFrom('code_items').select(['id', 'name', 'active', 'sort_order']).where('kind', '=', 'media-type').orderBy('sort_order').orderBy('name').orderBy('id').execute(),

    // ── Targets ───────────────────────────────────────────────────────────────────────

    /** Targets of months fromMonth..toMonth (YYYY-MM, inclusive). */
    targets: (shopId: number, fromMonth: string, toMonth: string) =>
      db
        .selectFrom('cpa_targets as t')
        .leftJoin('accounts as a', 'a.id', 't.updated_by')
        .select(['t.media_type_id', 't.month', 't.target_cpa', 't.updated_at', 'a.name as updated_by_name'])
        .where('t.shop_id', '=', shopId)
        .where('t.month', '>=', fromMonth)
        .where('t.month', '<=', toMonth)
        .execute(),

    upsertTarget: (row: { shop_id: number; media_type_id: number; month: string; target_cpa: number; updated_by: number; updated_at: string }) =>
      db
        .insertInto('cpa_targets')
        .values(row)
        .onConflict((oc) => oc.columns(['shop_id', 'media_type_id', 'month']).doUpdateSet({ target_cpa: row.target_cpa, updated_by: row.updated_by, updated_at: row.updated_at }))
        .execute(),

    deleteTarget: (shopId: number, mediaTypeId: number, month: string) =>
      db.deleteFrom('cpa_targets').where('shop_id', '=', shopId).where('media_type_id', '=', mediaTypeId).where('month', '=', month).execute(),

    // ── Spend and leads ───────────────────────────────────────────────────────────────

    /** Σ spend per month and medium over Seoul days from..to (every landing's rows and the medium's own). */
    async spend(shopId: number, fromDay: string, toDay: string): Promise<MonthMediumCount[]> {
      const month = monthOf(sql.ref<string>('s.day'));
      const rows = await db
        .selectFrom('ad_spend as s')
        .select(['s.media_type_id', month.as('month'), sql<number | string>`sum(s.spend)`.as('spend')])
        .where('s.shop_id', '=', shopId)
        .where('s.day', '>=', fromDay)
        .where('s.day', '<=', toDay)
        .groupBy(['s.media_type_id', month])
        .execute();
      return rows.map((r) => ({ month: r.month, mediaTypeId: r.media_type_id, count: n(r.spend) }));
    },

    /** Leads received (not deleted) and valid leads per Seoul month, medium and whether they came from an ad (adLead) in a period of instants. */
    async leads(shopId: number, fromIso: string, toIso: string) {
      const month = monthOf(seoulDay(db, 'l.created_at'));
      const rows = await scopedLeads(db, { shopIds: [shopId], fromIso, toIso })
        .where('l.deleted_at', 'is', null)
        .select((eb) => [
          'l.media_type_id',
          month.as('month'),
          eb.case().when(adLead(eb)).then(sql.lit(1)).else(sql.lit(0)).end().as('ad'),
          eb.fn.countAll<number | string>().as('leads'),
          eb.fn.sum<number | string>(eb.case().when(validLead(eb)).then(1).else(0).end()).as('valid'),
        ])
        .groupBy(['l.media_type_id', month, 'ad'])
        .execute();
      return rows.map((r) => ({ month: r.month, mediaTypeId: r.media_type_id, ad: n(r.ad) > 0, leads: n(r.leads), valid: n(r.valid) }));
    },

    // ── Contracts ─────────────────────────────────────────────────────────────────────

    /** The shop's contracts whose period meets Seoul days from..to (a stopped one may end earlier: the service narrows). */
    contracts: (shopId: number, fromDay: string, toDay: string) =>
      db
        .selectFrom('shop_contracts')
        .select(['id', 'starts_on', 'ends_on', 'quantity', 'unit_price', 'daily_cap', 'stopped_at'])
        .where('shop_id', '=', shopId)
        .where('starts_on', '<=', toDay)
        .where('ends_on', '>=', fromDay)
        .orderBy('starts_on')
        .orderBy('id')
        .execute(),

    /** The landings and media each contract counts (none listed: all). */
    async scopes(contractIds: number[]) {
      if (!contractIds.length) return { landings: [], media: [] };
      const [landings, media] = await Promise.all([
        db.selectFrom('shop_contract_landings').select(['contract_id', 'landing_id']).where('contract_id', 'in', contractIds).execute(),
        db.selectFrom('shop_contract_media').select(['contract_id', 'media_type_id']).where('contract_id', 'in', contractIds).execute(),
      ]);
      return { landings, media };
    },

    /** Valid leads per Seoul day of a contract's scope (what billableDays takes). */
    validPerDay: (scope: LeadScope) => validPerDay(db, scope),

    /**
     * A contract's valid leads per Seoul month and medium in a scope: all of them (covered) and
     * the billable ones under `rule`, ranked within their day by arrival (created_at, then id).
     */
    async billable(scope: LeadScope, rule: BillableRule) {
      const day = seoulDay(db, 'l.created_at');
      const ranked = scopedLeads(db, scope)
        .where(validLead)
        .select((eb) => [
          'l.media_type_id', day.as('day'), sql<number>`row_number() over (partition by ${day} order by l.created_at, l.id)`.as('rn'),
          eb.case().when(adLead(eb)).then(sql.lit(1)).else(sql.lit(0)).end().as('ad'),
        ]);
      const counted = sql<boolean>`(${rule.cap === null ? sql`1 = 1` : sql`v.rn <= ${rule.cap}`} and ${
        rule.cutoffDay === null ? sql`1 = 1` : sql`(v.day < ${rule.cutoffDay} or (v.day = ${rule.cutoffDay} and v.rn <= ${rule.cutoffCount}))`
      })`;
      const month = monthOf(sql.ref<string>('v.day'));
      const rows = await db
        .selectFrom(ranked.as('v'))
        .select([
          'v.media_type_id',
          'v.ad',
          month.as('month'),
          sql<number | string>`count(*)`.as('covered'),
          sql<number | string>`sum(case when ${counted} then 1 else 0 end)`.as('billable'),
        ])
        .groupBy(['v.media_type_id', 'v.ad', month])
        .execute();
      return rows.map((r) => ({ month: r.month, mediaTypeId: r.media_type_id, ad: n(r.ad) > 0, covered: n(r.covered), billable: n(r.billable) }));
    },
  };
}
