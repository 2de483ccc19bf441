// The SQL of automatic and manual allocation (배분): the shop's counselors with their settings and
// load, the shop's allocation mode and round-robin cursor, unassigned leads, assigning and
// moving leads, and the allocation history (their `assign` events).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import { OPEN_STATUSES } from '../../../contracts/leads.ts';
import { phoneDigits, shopCounselors } from './leads.repository.ts';
import type { AllocationHistoryQuery, CounselorSettingsInput } from '../../../contracts/allocation.ts';

export function allocationRepository(db: Kysely<Database>) {
  return {
    /** The shop's counselors with their settings, today's assignments and open leads. */
    counselorLoads: (shopId: number, todayStart: string) =>
      shopCounselors(db, shopId)
        .leftJoin('counselor_settings as cs', (j) => j.onRef('cs.account_id', '=', 'a.id').on('cs.shop_id', '=', shopId))
        .select(['a.id', 'a.name', 'a.login_id', 'cs.weight', 'cs.daily_cap', 'cs.max_open', 'cs.available'])
        .select((eb) => [
          eb.selectFrom('leads as l').select(eb.fn.countAll<number>().as('n'))
            .whereRef('l.assignee_id', '=', 'a.id').where('l.shop_id', '=', shopId).where('l.assigned_at', '>=', todayStart).where('l.deleted_at', 'is', null).as('today'),
          eb.selectFrom('leads as l').select(eb.fn.countAll<number>().as('n'))
            .whereRef('l.assignee_id', '=', 'a.id').where('l.shop_id', '=', shopId).where('l.cs_status', 'in', [...OPEN_STATUSES]).where('l.deleted_at', 'is', null).as('open'),
        ])
        .orderBy('a.id')
        .execute(),

    saveCounselor: (shopId: number, accountId: number, s: CounselorSettingsInput, at: string) => {
      const row = { weight: s.weight, daily_cap: s.dailyCap, max_open: s.maxOpen, available: s.available ? 1 : 0, updated_at: at };
      return db
        .insertInto('counselor_settings')
        .values({ shop_id: shopId, account_id: accountId, ...row })
        .onConflict((oc) => oc.columns(['shop_id', 'account_id']).doUpdateSet(row))
        .execute();
    },

    saveAutoMode: (shopId: number, autoMode: 'off' | 'round-robin' | 'weighted', by: number | null, at: string) =>
      db
        .insertInto('lead_settings')
        .values({ shop_id: shopId, auto_mode: autoMode, updated_by: by, updated_at: at })
        .onConflict((oc) => oc.column('shop_id').doUpdateSet({ auto_mode: autoMode, updated_by: by, updated_at: at }))
        .execute(),

    saveCursor: (shopId: number, cursor: number, at: string) =>
      db
        .insertInto('lead_settings')
        .values({ shop_id: shopId, rr_cursor: cursor, updated_at: at })
        .onConflict((oc) => oc.column('shop_id').doUpdateSet({ rr_cursor: cursor }))
        .execute(),

    countUnassigned: async (shopId: number) =>
      Number(
        (await db.selectFrom('leads').select((eb) => eb.fn.countAll<number>().as('n'))
          .where('shop_id', '=', shopId).where('assignee_id', 'is', null).where('duplicate_of', 'is', null).where('deleted_at', 'is', null)
          .executeTakeFirst())?.n ?? 0,
      ),

    /** Unassigned leads (not duplicates, not deleted) among `ids` or matching `filter`, oldest first. */
    unassigned(shopId: number, target: { leadIds?: number[]; filter?: { fromIso?: string; toIso?: string; landingId?: number; mediaTypeId?: number; q?: string } }, limit: number) {
      let qb = db.selectFrom('leads as l').select(['l.id', 'l.assignee_id'])
        .where('l.shop_id', '=', shopId).where('l.assignee_id', 'is', null).where('l.duplicate_of', 'is', null).where('l.deleted_at', 'is', null);
      if (target.leadIds?.length) qb = qb.where('l.id', 'in', target.leadIds);
      const f = target.filter;
      if (f) {
        if (f.fromIso) qb = qb.where('l.created_at', '>=', f.fromIso);
        if (f.toIso) qb = qb.where('l.created_at', '<', f.toIso);
        if (f.landingId) qb = qb.where('l.landing_id', '=', f.landingId);
        if (f.mediaTypeId) qb = qb.where('l.media_type_id', '=', f.mediaTypeId);
        if (f.q) {
          const digits = phoneDigits(f.q);
          qb = digits ? qb.where('l.phone', 'like', `%${digits}%`) : qb.where('l.name', 'like', `%${f.q}%`);
        }
      }
      return qb.orderBy('l.created_at').orderBy('l.id').limit(limit).execute();
    },

    /** Assigns leads still unassigned (another allocation may have taken some); answers those it took. */
    assign: async (ids: number[], assigneeId: number, at: string) =>
      (await db.updateTable('leads').set({ assignee_id: assigneeId, assigned_at: at, updated_at: at })
        .where('id', 'in', ids).where('assignee_id', 'is', null).returning('id').execute()).map((r) => r.id),

    /** Moves leads of the shop to `to` (null: back to unassigned), whoever holds them. */
    move: (ids: number[], to: number | null, at: string) =>
      db.updateTable('leads').set({ assignee_id: to, assigned_at: to === null ? null : at, updated_at: at }).where('id', 'in', ids).execute(),

    holders: (shopId: number, ids: number[]) =>
      db.selectFrom('leads as l').leftJoin('accounts as a', 'a.id', 'l.assignee_id').select(['l.id', 'l.assignee_id', 'a.name as assignee_name'])
        .where('l.shop_id', '=', shopId).where('l.deleted_at', 'is', null).where('l.id', 'in', ids).execute(),

    allocationHistory(shopId: number, q: AllocationHistoryQuery & { fromIso?: string; toIso?: string }) {
      let qb = db
        .selectFrom('lead_events as e')
        .innerJoin('leads as l', 'l.id', 'e.lead_id')
        .leftJoin('accounts as a', 'a.id', 'e.account_id')
        .select(['e.id', 'e.at', 'e.lead_id', 'l.name as lead_name', 'e.before', 'e.after', 'a.name as by_name'])
        .where('e.shop_id', '=', shopId)
        .where('e.action', '=', 'assign')
        .where('l.deleted_at', 'is', null);
      if (q.fromIso) qb = qb.where('e.at', '>=', q.fromIso);
      if (q.toIso) qb = qb.where('e.at', '<', q.toIso);
      return paginate(qb, q, { sortable: { at: 'e.at' }, defaultSort: { column: 'e.at', desc: true }, tieBreaker: 'e.id' });
    },
  };
}
