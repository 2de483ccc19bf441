// The SQL of speed to lead: a shop's SLA settings, the leads whose clock may have run out (new
// arrivals on the leads' (shop_id, created_at, …) cover index, and the clocks escalation already
// restarted), their state rows, and the conditional writes that make each step happen once.
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, LeadSlaSettingsTable, LeadSlaStateTable } from '../../db/schema.ts';

/** The leads escalation watches: not deleted (nor purged), not a duplicate, never contacted. */
const waiting = { deleted: 'l.deleted_at', duplicate: 'l.duplicate_of', contact: 'l.first_contact_at' } as const;

export function slaRepository(db: Kysely<Database>) {
  return {
    settings: (shopId: number) => db.selectFrom('lead_sla_settings').selectAll().where('shop_id', '=', shopId).executeTakeFirst(),

    saveSettings: (row: Insertable<LeadSlaSettingsTable>) => {
      const { shop_id: _, ...set } = row;
      return db.insertInto('lead_sla_settings').values(row).onConflict((oc) => oc.column('shop_id').doUpdateSet(set)).execute();
    },

    enabledShops: () => db.selectFrom('lead_sla_settings').selectAll().where('enabled', '=', 1).orderBy('shop_id').execute(),

    /**
     * Leads that arrived in [fromIso, toIso] without a state row yet, oldest first: a range of
     * leads_sla_waiting_idx (shop_id, created_at, id — only leads still waiting), each probed
     * once in lead_sla_state.
     */
    arrivals: (shopId: number, fromIso: string, toIso: string, limit: number) =>
      db.selectFrom('leads as l')
        .select(['l.id', 'l.created_at as clock_from'])
        .where('l.shop_id', '=', shopId).where('l.created_at', '>=', fromIso).where('l.created_at', '<=', toIso)
        .where(waiting.deleted, 'is', null).where(waiting.duplicate, 'is', null).where(waiting.contact, 'is', null)
        // The shop named inside too: PostgreSQL hashes the shop's state rows for the anti-join, not every shop's.
        .where((eb) => eb.not(eb.exists(eb.selectFrom('lead_sla_state as s').select('s.lead_id').whereRef('s.lead_id', '=', 'l.id').where('s.shop_id', '=', shopId))))
        .orderBy('l.created_at').orderBy('l.id').limit(limit).execute(),

    /** Running clocks escalation restarted or reminded within [fromIso, toIso], of leads still waiting, oldest first. */
    running: (shopId: number, fromIso: string, toIso: string, limit: number) =>
      db.selectFrom('lead_sla_state as s')
        .innerJoin('leads as l', 'l.id', 's.lead_id')
        .select(['s.lead_id as id', 's.clock_from', 's.reminded_at'])
        .where('s.shop_id', '=', shopId).where('s.stage', '=', 'running').where('s.clock_from', '>=', fromIso).where('s.clock_from', '<=', toIso)
        .where(waiting.deleted, 'is', null).where(waiting.duplicate, 'is', null).where(waiting.contact, 'is', null)
        .orderBy('s.clock_from').orderBy('s.lead_id').limit(limit).execute(),

    /** The leads among `ids` still waiting, read again in the step's transaction, with their holder and state. */
    current: (shopId: number, ids: number[]) =>
      db.selectFrom('leads as l')
        .leftJoin('accounts as a', 'a.id', 'l.assignee_id')
        .leftJoin('lead_sla_state as s', 's.lead_id', 'l.id')
        .select([
          'l.id', 'l.created_at', 'l.assignee_id', 'a.name as assignee_name',
          's.clock_from', 's.reminded_at', 's.reroutes', 's.lapsed_by', 's.stage', 's.version',
        ])
        .where('l.shop_id', '=', shopId).where('l.id', 'in', ids)
        .where(waiting.deleted, 'is', null).where(waiting.duplicate, 'is', null).where(waiting.contact, 'is', null)
        .orderBy('l.id').execute(),

    /** The clocks of leads among `ids` (a list page's): where each runs from and its stage. */
    clocks: (ids: number[]) =>
      ids.length ? db.selectFrom('lead_sla_state').select(['lead_id', 'clock_from']).where('lead_id', 'in', ids).execute() : Promise.resolve([]),

    /** The first state of a lead; false when another step wrote one first. */
    insertState: async (row: Insertable<LeadSlaStateTable>) =>
      (await db.insertInto('lead_sla_state').values(row).onConflict((oc) => oc.column('lead_id').doNothing()).returning('lead_id').execute()).length === 1,

    /** The next state of a lead, only from the state it was read in (its version); false otherwise. */
    updateState: async (leadId: number, version: number, set: Updateable<LeadSlaStateTable>) =>
      Number((await db.updateTable('lead_sla_state').set({ ...set, version: version + 1 })
        .where('lead_id', '=', leadId).where('version', '=', version).executeTakeFirst()).numUpdatedRows) === 1,

    /** Moves a lead still waiting from `from` to `to` (null: the manager's queue, 미배분); false when it changed meanwhile. */
    move: async (leadId: number, from: number | null, to: number | null, at: string) => {
      let qb = db.updateTable('leads').set({ assignee_id: to, assigned_at: to === null ? null : at, updated_at: at })
        .where('id', '=', leadId).where('deleted_at', 'is', null).where('first_contact_at', 'is', null);
      qb = from === null ? qb.where('assignee_id', 'is', null) : qb.where('assignee_id', '=', from);
      return Number((await qb.executeTakeFirst()).numUpdatedRows) === 1;
    },

    /**
     * The figures' leads: a shop's arrivals in [fromIso, toIso) not deleted nor duplicates (a
     * counselor's own: `assigneeId`), with what they are grouped by — a range of the
     * (shop_id, created_at) cover index. Working minutes need the shop's calendar, so the rows
     * leave the database; the screens' periods bound them (a year at most).
     */
    figureLeads: (shopId: number, fromIso: string, toIso: string, assigneeId?: number) => {
      let qb = db.selectFrom('leads as l')
        .leftJoin('accounts as a', 'a.id', 'l.assignee_id')
        .leftJoin('landings as g', 'g.id', 'l.landing_id')
        .leftJoin('code_items as m', 'm.id', 'l.media_type_id')
        .select(['l.id', 'l.created_at', 'l.first_contact_at', 'l.assignee_id', 'a.name as assignee_name', 'l.landing_id', 'g.title as landing_title', 'l.media_type_id', 'm.name as medium'])
        .where('l.shop_id', '=', shopId).where('l.created_at', '>=', fromIso).where('l.created_at', '<', toIso)
        .where('l.deleted_at', 'is', null).where('l.duplicate_of', 'is', null);
      if (assigneeId !== undefined) qb = qb.where('l.assignee_id', '=', assigneeId);
      return qb.execute();
    },

    /** Escalation's moves and notices in a shop since `fromIso` (lead_events_shop_action_at_idx), with their reasons. */
    figureEvents: (shopId: number, fromIso: string) =>
      db.selectFrom('lead_events').select(['lead_id', 'action', 'after'])
        .where('shop_id', '=', shopId).where('action', 'in', ['sla-reroute', 'sla-manager', 'sla-notify']).where('at', '>=', fromIso)
        .execute(),

    /** The shops with the SLA on, with their names. */
    enabledShopNames: () =>
      db.selectFrom('lead_sla_settings as s').innerJoin('shops as h', 'h.id', 's.shop_id').selectAll('s').select('h.name as shop_name')
        .where('s.enabled', '=', 1).orderBy('s.shop_id').execute(),
  };
}
