// The SQL of 광고 현황: ad spend entries, grouped per shop × day × medium (× landing), and the
// leads grouped the same way — one grouped query each, whatever the period and the number of
// shops, so a month over twenty shops reads one stretch of each table's (shop, day) index.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { adLead, createdDayKeys, scopedLeads, seoulDayOfKeys, validLead } from '../../db/valid-leads.ts';
import type { AdSource } from '../../../contracts/ad-spend.ts';

export interface FigureScope {
  shopIds: readonly number[];
  /** Seoul days, inclusive. */
  from: string;
  to: string;
  byLanding: boolean;
}

interface SpendGroup extends SpendEntry {
  shopId: number;
  source: AdSource;
  /** Per day × medium: some entries behind it are per landing. */
  split: boolean;
}

interface LeadGroup {
  shopId: number;
  day: string;
  mediaTypeId: number | null;
  /** 0: not per landing, or a lead without a landing. */
  landingId: number;
  leads: number;
  validLeads: number;
  /** From an ad (adLead): only these enter CTR, CVR, CPL and CPA. */
  ad: boolean;
}

/** An ad_spend entry as the grid and the import write it. */
export interface SpendEntry {
  day: string;
  mediaTypeId: number;
  /** 0 when not per landing. */
  landingId: number;
  impressions: number;
  clicks: number;
  spend: number;
}

const n = (v: unknown) => Number(v ?? 0);
/** Keys per statement: 200 rows × 10 values stay far below either engine's parameter limit. */
const CHUNK = 200;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function adSpendRepository(db: Kysely<Database>) {
  return {
    /** Spend per shop × day × medium (× landing) in the period. */
    async spend(s: FigureScope): Promise<SpendGroup[]> {
      const base = db
        .selectFrom('ad_spend as a')
        .where('a.shop_id', 'in', [...s.shopIds])
        .where('a.day', '>=', s.from)
        .where('a.day', '<=', s.to)
        .select([
          'a.shop_id', 'a.day', 'a.media_type_id',
          sql<number>`sum(a.impressions)`.as('impressions'),
          sql<number>`sum(a.clicks)`.as('clicks'),
          sql<number>`sum(a.spend)`.as('spend'),
          // 'manual' sorts after 'csv': the max is 'csv' only when every entry was imported.
          sql<string>`max(a.source)`.as('source'),
        ]);
      const rows = s.byLanding
        ? await base.select(['a.landing_id', sql<number>`0`.as('split')]).groupBy(['a.shop_id', 'a.day', 'a.media_type_id', 'a.landing_id']).execute()
        : await base
            .select([sql<number>`0`.as('landing_id'), sql<number>`sum(case when a.landing_id <> 0 then 1 else 0 end)`.as('split')])
            .groupBy(['a.shop_id', 'a.day', 'a.media_type_id'])
            .execute();
      return rows.map((r) => ({
        shopId: r.shop_id, day: r.day, mediaTypeId: r.media_type_id, landingId: n(r.landing_id),
        impressions: n(r.impressions), clicks: n(r.clicks), spend: n(r.spend), source: r.source === 'csv' ? 'csv' : 'manual', split: n(r.split) > 0,
      }));
    },

    /**
     * Leads received (not deleted) and valid leads per shop × Seoul day × medium (× landing) in
     * [fromIso, toIso). Grouped by the Seoul-day keys of the stored UTC text (createdDayKeys),
     * folded into days here: converting every row's time zone in SQL doubled the cost of a month
     * over twenty shops on PostgreSQL. Whether a lead counts is a group key too, so the only
     * aggregate is count(*) and PostgreSQL may hash the groups rather than sort the month's rows.
     */
    async leads(s: FigureScope & { fromIso: string; toIso: string }): Promise<LeadGroup[]> {
      const { utcDay, late } = createdDayKeys();
      const base = scopedLeads(db, { shopIds: s.shopIds, fromIso: s.fromIso, toIso: s.toIso })
        .where('l.deleted_at', 'is', null)
        .select((eb) => [
          'l.shop_id', utcDay.as('utc_day'), late.as('late'), 'l.media_type_id',
          eb.case().when(validLead(eb)).then(sql.lit(1)).else(sql.lit(0)).end().as('valid'),
          eb.case().when(adLead(eb)).then(sql.lit(1)).else(sql.lit(0)).end().as('ad'),
          eb.fn.countAll<number | string>().as('n'),
        ]);
      const rows = s.byLanding
        ? await base.select('l.landing_id').groupBy(['l.shop_id', 'utc_day', 'late', 'l.media_type_id', 'valid', 'ad', 'l.landing_id']).execute()
        : await base.select(sql<number | null>`null`.as('landing_id')).groupBy(['l.shop_id', 'utc_day', 'late', 'l.media_type_id', 'valid', 'ad']).execute();
      // A figure is up to eight groups: its Seoul day's two parts (the UTC day's last nine hours and the next one's first fifteen), valid or not, from an ad or not.
      const groups = new Map<string, LeadGroup>();
      for (const r of rows) {
        const day = seoulDayOfKeys(r.utc_day, r.late);
        const landingId = n(r.landing_id);
        const ad = n(r.ad) > 0;
        const key = `${r.shop_id}|${day}|${r.media_type_id}|${landingId}|${ad}`;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { shopId: r.shop_id, day, mediaTypeId: r.media_type_id, landingId, leads: 0, validLeads: 0, ad }));
        g.leads += n(r.n);
        if (n(r.valid)) g.validLeads += n(r.n);
      }
      return [...groups.values()];
    },

    /** Every media type (inactive ones too: old entries and leads name them), in their code order. */
    mediaTypes: () =>
      db
        .selectFrom('code_items')
        .select(['id', 'name', 'code', 'active'])
        .where('kind', '=', 'media-type')
        .orderBy('sort_order')
        .orderBy('name')
        .orderBy('id')
        .execute(),

    landings: (shopIds: readonly number[]) =>
      db.selectFrom('landings').select(['id', 'shop_id', 'title', 'landing_code']).where('shop_id', 'in', [...shopIds]).orderBy('title').orderBy('id').execute(),

    /** The shop's entries in a period, as stored (what an import would replace). */
    async entries(shopId: number, from: string, to: string): Promise<SpendEntry[]> {
      const rows = await db
        .selectFrom('ad_spend')
        .select(['day', 'media_type_id', 'landing_id', 'impressions', 'clicks', 'spend'])
        .where('shop_id', '=', shopId)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .execute();
      return rows.map((r) => ({
        day: r.day, mediaTypeId: r.media_type_id, landingId: r.landing_id, impressions: n(r.impressions), clicks: n(r.clicks), spend: n(r.spend),
      }));
    },

    /** Adds or replaces entries (the key: shop, day, medium, landing). */
    async upsert(shopId: number, entries: readonly SpendEntry[], source: AdSource, by: number, at: string): Promise<void> {
      for (const part of chunks(entries)) {
        await db
          .insertInto('ad_spend')
          .values(
            part.map((e) => ({
              shop_id: shopId, day: e.day, media_type_id: e.mediaTypeId, landing_id: e.landingId, impressions: e.impressions, clicks: e.clicks,
              spend: e.spend, source, updated_by: by, updated_at: at,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['shop_id', 'day', 'media_type_id', 'landing_id']).doUpdateSet((eb) => ({
              impressions: eb.ref('excluded.impressions'),
              clicks: eb.ref('excluded.clicks'),
              spend: eb.ref('excluded.spend'),
              source: eb.ref('excluded.source'),
              updated_by: eb.ref('excluded.updated_by'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
    },

    /** Removes entries by key; answers how many there were. */
    async remove(shopId: number, keys: ReadonlyArray<Pick<SpendEntry, 'day' | 'mediaTypeId' | 'landingId'>>): Promise<number> {
      let removed = 0;
      for (const part of chunks(keys)) {
        const res = await db
          .deleteFrom('ad_spend')
          .where('shop_id', '=', shopId)
          .where((eb) =>
            eb.or(part.map((k) => eb.and([eb('day', '=', k.day), eb('media_type_id', '=', k.mediaTypeId), eb('landing_id', '=', k.landingId)]))),
          )
          .executeTakeFirst();
        removed += Number(res.numDeletedRows);
      }
      return removed;
    },
  };
}
