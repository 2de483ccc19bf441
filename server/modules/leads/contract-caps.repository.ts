// The SQL of contract caps (contract-caps.ts): the contracts that close their landings at a
// cap, the valid leads they have had, the landings they cover, and the record of closings.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { ContractCapEventsTable, Database, LandingsTable } from '../../db/schema.ts';
import { scopedLeads, validLead, type LeadScope } from '../../db/valid-leads.ts';

/** A contract as the caps read it, with the landings and media it covers (empty: all). */
export interface CapContract {
  id: number;
  shop_id: number;
  starts_on: string;
  ends_on: string;
  quantity: number;
  daily_cap: number | null;
  auto_close: number;
  stopped_at: string | null;
  landingIds: number[];
  mediaTypeIds: number[];
}

/** A landing as a closing or reopening reads it. */
export interface CapLanding {
  id: number;
  shop_id: number;
  status: LandingsTable['status'];
  open_at: string | null;
  close_at: string | null;
  reopen_at: string | null;
  closed_by_contract_id: number | null;
}

const CONTRACT_COLUMNS = ['c.id', 'c.shop_id', 'c.starts_on', 'c.ends_on', 'c.quantity', 'c.daily_cap', 'c.auto_close', 'c.stopped_at'] as const;
const LANDING_COLUMNS = ['g.id', 'g.shop_id', 'g.status', 'g.open_at', 'g.close_at', 'g.reopen_at', 'g.closed_by_contract_id'] as const;

interface LandingChange {
  status: 'open' | 'closed';
  closed_by_contract_id: number | null;
  reopen_at: string | null;
  updated_at: string;
}

export function contractCapsRepository(db: Kysely<Database>) {
  async function withScopes(rows: Array<Omit<CapContract, 'landingIds' | 'mediaTypeIds'>>): Promise<CapContract[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const [landings, media] = await Promise.all([
      db.selectFrom('shop_contract_landings').select(['contract_id', 'landing_id']).where('contract_id', 'in', ids).execute(),
      db.selectFrom('shop_contract_media').select(['contract_id', 'media_type_id']).where('contract_id', 'in', ids).execute(),
    ]);
    return rows.map((r) => ({
      ...r,
      landingIds: landings.filter((l) => l.contract_id === r.id).map((l) => l.landing_id),
      mediaTypeIds: media.filter((m) => m.contract_id === r.id).map((m) => m.media_type_id),
    }));
  }

  return {
    /** Contracts of these shops that close their landings at a cap and run on `day` (a Seoul day). */
    running: async (shopIds: readonly number[], day: string) =>
      withScopes(
        await db
          .selectFrom('shop_contracts as c')
          .select(CONTRACT_COLUMNS)
          .where('c.shop_id', 'in', [...shopIds])
          .where('c.starts_on', '<=', day)
          .where('c.ends_on', '>=', day)
          .where('c.auto_close', '=', 1)
          .where('c.stopped_at', 'is', null)
          .orderBy('c.id')
          .execute(),
      ),

    contract: async (id: number): Promise<CapContract | undefined> =>
      (await withScopes(await db.selectFrom('shop_contracts as c').select(CONTRACT_COLUMNS).where('c.id', '=', id).execute()))[0],

    /** Valid leads in a scope: all of them, and those created in [dayFromIso, dayToIso). */
    async counts(scope: LeadScope, dayFromIso: string, dayToIso: string): Promise<{ total: number; today: number }> {
      const row = await scopedLeads(db, scope)
        .where(validLead)
        .select((eb) => [
          eb.fn.countAll<number | string>().as('total'),
          eb.fn
            .sum<number | string | null>(eb.case().when(eb.and([eb('l.created_at', '>=', dayFromIso), eb('l.created_at', '<', dayToIso)])).then(1).else(0).end())
            .as('today'),
        ])
        .executeTakeFirst();
      return { total: Number(row?.total ?? 0), today: Number(row?.today ?? 0) };
    },

    landings: (ids: readonly number[]): Promise<CapLanding[]> =>
      ids.length ? db.selectFrom('landings as g').select(LANDING_COLUMNS).where('g.id', 'in', [...ids]).execute() : Promise.resolve([]),

    /** The published landings a contract covers: its own list (or all of its shop's), narrowed to its media. */
    covered(c: CapContract): Promise<CapLanding[]> {
      let qb = db.selectFrom('landings as g').select(LANDING_COLUMNS).where('g.shop_id', '=', c.shop_id).where('g.status', '!=', 'draft');
      if (c.landingIds.length) qb = qb.where('g.id', 'in', c.landingIds);
      if (c.mediaTypeIds.length) qb = qb.where('g.media_type_id', 'in', c.mediaTypeIds);
      return qb.orderBy('g.id').execute();
    },

    /** Landings this contract's cap holds closed. */
    closedBy: (contractId: number): Promise<CapLanding[]> =>
      db.selectFrom('landings as g').select(LANDING_COLUMNS).where('g.closed_by_contract_id', '=', contractId).where('g.status', '=', 'closed').orderBy('g.id').execute(),

    /** Closed landings whose reopening time has come. */
    due: (atIso: string, limit = 1000): Promise<CapLanding[]> =>
      db
        .selectFrom('landings as g')
        .select(LANDING_COLUMNS)
        .where('g.status', '=', 'closed')
        .where('g.reopen_at', 'is not', null)
        .where('g.reopen_at', '<=', atIso)
        .orderBy('g.id')
        .limit(limit)
        .execute(),

    /** Changes landings' state; their version moves, so every process's page cache sees it. */
    async updateLandings(ids: readonly number[], set: LandingChange): Promise<void> {
      if (!ids.length) return;
      await db.updateTable('landings').set({ ...set, version: sql<number>`version + 1` }).where('id', 'in', [...ids]).execute();
    },

    async insertEvents(rows: Array<Insertable<ContractCapEventsTable>>): Promise<void> {
      if (rows.length) await db.insertInto('contract_cap_events').values(rows).execute();
    },
  };
}
