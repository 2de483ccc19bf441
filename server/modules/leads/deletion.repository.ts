// The SQL of deleting, restoring and destroying leads: marking them, the deleted list, the
// destruction log, the shop's grace period, what the automatic purge is waiting for, and the
// destruction itself — the lead's personal fields overwritten, its events' free text scrubbed.
// Statements over many ids go in chunks, well inside either engine's limit of parameters.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, DestructionsTable, LeadEventsTable } from '../../db/schema.ts';
import { paginate, textMatch } from '../../db/paging.ts';
import { seoulDay } from '../../db/dialect-sql.ts';
import { phoneDigits } from './leads.repository.ts';
import { PURGED_NAME, type DeletedLeadQuery, type DestructionQuery, type DestructionTrigger } from '../../../contracts/lead-deletion.ts';

/** Ids per statement (8 columns per event row: 8,000 parameters at most). */
const CHUNK = 1000;

export function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export interface DeletedListFilter extends Omit<DeletedLeadQuery, 'from' | 'to'> {
  fromIso?: string;
  toIso?: string;
}

export interface DestructionListFilter extends Omit<DestructionQuery, 'from' | 'to'> {
  fromIso?: string;
  toIso?: string;
}

/**
 * Which leads a destruction may take, checked again by the statement that destroys them (a
 * restore or another purge may have come first): never one already destroyed.
 */
export type DestroyGuard =
  /** By hand: deleted leads of the shop. */
  | { kind: 'manual'; shopId: number }
  /** The grace period: the shop's leads deleted before the instant. */
  | { kind: 'grace'; shopId: number; deletedBefore: string }
  /** The retention period: the policy's leads received before the instant. */
  | { kind: 'retention'; policyId: number; createdBefore: string };

/** The shop's deleted leads still waiting for their destruction (a partial index holds just these). */
const waitingIn = (db: Kysely<Database>, shopId: number) =>
  db.selectFrom('leads as l').where('l.shop_id', '=', shopId).where('l.deleted_at', 'is not', null).where('l.purged_at', 'is', null);

export function deletionRepository(db: Kysely<Database>) {
  const waiting = (shopId: number) => waitingIn(db, shopId);

  return {
    /** Marks live leads of the shop deleted; answers those it marked (another may have deleted some first). */
    async markDeleted(shopId: number, ids: number[], by: number, reason: string, at: string) {
      const out: Array<{ id: number; assignee_id: number | null }> = [];
      for (const part of chunks(ids)) {
        out.push(
          ...(await db.updateTable('leads').set({ deleted_at: at, deleted_by: by, delete_reason: reason, updated_at: at })
            .where('shop_id', '=', shopId).where('id', 'in', part).where('deleted_at', 'is', null)
            .returning(['id', 'assignee_id']).execute()),
        );
      }
      return out;
    },

    /**
     * Brings deleted leads of the shop back, if not destroyed yet; answers those it restored. They
     * leave the pull feed's order (feed_seq null) to be numbered anew at its end: a reader already
     * past their old place still gets them (lead-feed-seq.ts).
     */
    async unmarkDeleted(shopId: number, ids: number[], at: string) {
      return db.updateTable('leads').set({ deleted_at: null, deleted_by: null, delete_reason: null, updated_at: at, feed_seq: null })
        .where('shop_id', '=', shopId).where('id', 'in', ids).where('deleted_at', 'is not', null).where('purged_at', 'is', null)
        .returning(['id', 'assignee_id']).execute();
    },

    async insertEvents(rows: Array<Insertable<LeadEventsTable>>) {
      for (const part of chunks(rows)) await db.insertInto('lead_events').values(part).execute();
    },

    deletedList(shopId: number, f: DeletedListFilter) {
      let qb = waiting(shopId)
        .leftJoin('accounts as a', 'a.id', 'l.deleted_by')
        .leftJoin('landings as g', 'g.id', 'l.landing_id')
        .leftJoin('privacy_policies as p', 'p.id', 'l.privacy_policy_id')
        .select([
          'l.id', 'l.created_at', 'l.name', 'l.phone', 'l.cs_status', 'l.deleted_at', 'l.delete_reason', 'a.name as deleted_by_name',
          'g.title as landing_title', 'p.retention_days',
        ]);
      if (f.fromIso) qb = qb.where('l.deleted_at', '>=', f.fromIso);
      if (f.toIso) qb = qb.where('l.deleted_at', '<', f.toIso);
      if (f.deletedBy !== undefined) qb = qb.where('l.deleted_by', '=', f.deletedBy);
      const digits = f.q ? phoneDigits(f.q) : null;
      if (digits) qb = qb.where('l.phone', 'like', `%${digits}%`);
      else if (f.q) qb = qb.where(textMatch(['l.name'], f.q));
      return paginate(qb, { ...f, q: undefined }, {
        sortable: { deletedAt: 'l.deleted_at', createdAt: 'l.created_at', name: 'l.name', deletedByName: 'a.name' },
        defaultSort: { column: 'l.deleted_at', desc: true },
        tieBreaker: 'l.id',
      });
    },

    deleters: (shopId: number) =>
      waiting(shopId).innerJoin('accounts as a', 'a.id', 'l.deleted_by').select(['a.id', 'a.name']).distinct().orderBy('a.name').execute(),

    /** Every deleted lead of the shop still waiting, with what decides its destruction. */
    waitingTimes: (shopId: number) =>
      waiting(shopId)
        .leftJoin('privacy_policies as p', 'p.id', 'l.privacy_policy_id')
        .select(['l.id', 'l.created_at', 'l.deleted_at', 'p.retention_days'])
        .execute(),

    /** Leads of a policy not yet destroyed, per Seoul day of receipt, received before `before`. */
    async receivedByDay(policyId: number, before: string) {
      const day = seoulDay(db, 'l.created_at');
      const rows = await db.selectFrom('leads as l')
        .select([day.as('day'), sql<number>`count(*)`.as('n')])
        .where('l.privacy_policy_id', '=', policyId).where('l.purged_at', 'is', null).where('l.created_at', '<', before)
        .groupBy(day)
        .execute();
      return rows.map((r) => ({ day: r.day, n: Number(r.n) }));
    },

    /** The privacy policies with a retention period (of one shop, or of all). */
    policies: (shopId?: number) => {
      let qb = db.selectFrom('privacy_policies').select(['id', 'shop_id', 'retention_days']).where('retention_days', '>', 0);
      if (shopId !== undefined) qb = qb.where('shop_id', '=', shopId);
      return qb.orderBy('id').execute();
    },

    graceDays: async (shopId: number) =>
      (await db.selectFrom('lead_settings').select(['purge_grace_days', 'updated_at']).where('shop_id', '=', shopId).executeTakeFirst()) ?? null,

    /**
     * When the grace period itself last changed: its own audit event. The lead_settings row it lives in
     * is shared with other lead settings (the overdue threshold, allocation), whose changes touch its
     * updated_at too.
     */
    graceChangedAt: async (shopId: number) =>
      (await db.selectFrom('audit_events').select((eb) => eb.fn.max('at').as('at'))
        .where('action', '=', 'purge-settings-update').where('target', '=', 'shop').where('target_id', '=', String(shopId))
        .executeTakeFirst())?.at ?? null,

    /** Every shop with its grace period (null: the default). */
    shopGraceDays: () =>
      db.selectFrom('shops as s').leftJoin('lead_settings as ls', 'ls.shop_id', 's.id').select(['s.id', 'ls.purge_grace_days']).orderBy('s.id').execute(),

    saveGraceDays: (shopId: number, days: number, by: number, at: string) =>
      db
        .insertInto('lead_settings')
        .values({ shop_id: shopId, purge_grace_days: days, updated_by: by, updated_at: at })
        .onConflict((oc) => oc.column('shop_id').doUpdateSet({ purge_grace_days: days, updated_by: by, updated_at: at }))
        .execute(),

    // ── Destruction ──────────────────────────────────────────────────────────────────

    /** Up to `limit` leads the guard allows, oldest first (the purge takes them a batch at a time). */
    async due(g: DestroyGuard, limit: number): Promise<number[]> {
      let qb = db.selectFrom('leads').select('id').where('purged_at', 'is', null);
      if (g.kind === 'retention') {
        qb = qb.where('privacy_policy_id', '=', g.policyId).where('created_at', '<', g.createdBefore).orderBy('created_at');
      } else {
        qb = qb.where('shop_id', '=', g.shopId).where('deleted_at', 'is not', null);
        if (g.kind === 'grace') qb = qb.where('deleted_at', '<', g.deletedBefore);
        qb = qb.orderBy('deleted_at');
      }
      return (await qb.orderBy('id').limit(limit).execute()).map((r) => r.id);
    },

    /**
     * Overwrites the personal fields of the leads among `ids` the guard still allows and marks
     * them destroyed (and deleted, if they were not: a destroyed lead is in no list); answers those.
     */
    async destroy(ids: number[], g: DestroyGuard, at: string) {
      const out: Array<{ id: number; shop_id: number; assignee_id: number | null }> = [];
      for (const part of chunks(ids)) {
        let qb = db
          .updateTable('leads')
          .set({
            name: PURGED_NAME, phone: '', phone_last4: null, answers: '{}', ip: null, user_agent: null, referrer: null, memo: null,
            invalid_reason: null, delete_reason: null, consent_note: null, purged_at: at, updated_at: at,
            deleted_at: sql<string>`coalesce(deleted_at, ${at})`,
          })
          .where('id', 'in', part)
          .where('purged_at', 'is', null);
        if (g.kind === 'retention') qb = qb.where('privacy_policy_id', '=', g.policyId).where('created_at', '<', g.createdBefore);
        else {
          qb = qb.where('shop_id', '=', g.shopId).where('deleted_at', 'is not', null);
          if (g.kind === 'grace') qb = qb.where('deleted_at', '<', g.deletedBefore);
        }
        out.push(...(await qb.returning(['id', 'shop_id', 'assignee_id']).execute()));
      }
      return out;
    },

    /** The events of leads, with what a scrub reads. */
    async events(leadIds: number[]) {
      const out: Array<{ id: number; before: string | null; after: string | null }> = [];
      for (const part of chunks(leadIds)) {
        out.push(...(await db.selectFrom('lead_events').select(['id', 'before', 'after']).where('lead_id', 'in', part).execute()));
      }
      return out;
    },

    /** Sets the same before and after on events (a scrub groups the events it rewrites alike). */
    async rewriteEvents(eventIds: number[], before: string | null, after: string | null) {
      for (const part of chunks(eventIds)) await db.updateTable('lead_events').set({ before, after }).where('id', 'in', part).execute();
    },

    /**
     * Forgets the visitor's address on the leads' events nobody on staff made (the submission),
     * and what receivers answered to their deliveries (an answer may repeat what was sent).
     */
    async forgetVisitorAddresses(leadIds: number[]) {
      for (const part of chunks(leadIds)) {
        await db.updateTable('lead_events').set({ ip: null }).where('lead_id', 'in', part).where('account_id', 'is', null).execute();
        await db.updateTable('delivery_attempts').set({ response_excerpt: null }).where('lead_id', 'in', part).where('response_excerpt', 'is not', null).execute();
      }
    },

    insertDestruction: async (row: Insertable<DestructionsTable>) =>
      (await db.insertInto('destructions').values(row).returning('id').executeTakeFirstOrThrow()).id,

    /** Adds leads destroyed by a later batch of the same run to its destruction record. */
    async extendDestruction(id: number, leadIds: number[]) {
      const row = await db.selectFrom('destructions').select(['lead_ids', 'lead_count']).where('id', '=', id).executeTakeFirstOrThrow();
      const ids = [...(JSON.parse(row.lead_ids) as number[]), ...leadIds];
      await db.updateTable('destructions').set({ lead_ids: JSON.stringify(ids), lead_count: row.lead_count + leadIds.length }).where('id', '=', id).execute();
    },

    destructions(shopId: number, f: DestructionListFilter) {
      let qb = db
        .selectFrom('destructions as d')
        .leftJoin('accounts as a', 'a.id', 'd.account_id')
        .select(['d.id', 'd.at', 'd.trigger', 'a.name as account_name', 'd.reason', 'd.lead_count'])
        .where('d.shop_id', '=', shopId);
      if (f.trigger) qb = qb.where('d.trigger', '=', f.trigger as DestructionTrigger);
      if (f.fromIso) qb = qb.where('d.at', '>=', f.fromIso);
      if (f.toIso) qb = qb.where('d.at', '<', f.toIso);
      return paginate(qb, { ...f, q: undefined }, {
        sortable: { at: 'd.at', leadCount: 'd.lead_count' },
        defaultSort: { column: 'd.at', desc: true },
        tieBreaker: 'd.id',
      });
    },
  };
}
