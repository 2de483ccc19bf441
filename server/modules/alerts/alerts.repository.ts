// Every SQL statement of counselors' alerts: an account's preferences and push subscriptions, the
// send log (claimed by its unique key), and what an alert reads of a lead, a shop and an account.
import type { Kysely } from 'kysely';
import type { AlertSendsTable, Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/dialect-sql.ts';

export function alertsRepository(db: Kysely<Database>) {
  return {
    preferences: (accountId: number) => db.selectFrom('alert_preferences').selectAll().where('account_id', '=', accountId).executeTakeFirst(),

    savePreferences(row: { account_id: number; enabled: number; browser: number; push: number; sms: number; quiet_start: string | null; quiet_end: string | null; updated_at: string }) {
      const { account_id: _id, ...set } = row;
      return db.insertInto('alert_preferences').values(row).onConflict((oc) => oc.column('account_id').doUpdateSet(set)).execute();
    },

    /** The account's phone (digits), null when none on file. */
    async accountPhone(accountId: number): Promise<string | null> {
      const r = await db.selectFrom('accounts').select('phone').where('id', '=', accountId).executeTakeFirst();
      return r?.phone?.replace(/\D/g, '') || null;
    },

    /** Whether the account may still be alerted (it exists and is not disabled). */
    async active(accountId: number): Promise<boolean> {
      const r = await db.selectFrom('accounts').select('status').where('id', '=', accountId).executeTakeFirst();
      return !!r && r.status !== 'disabled';
    },

    countSubscriptions: async (accountId: number) =>
      Number((await db.selectFrom('push_subscriptions').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow()).n),

    subscriptions: (accountId: number) => db.selectFrom('push_subscriptions').selectAll().where('account_id', '=', accountId).orderBy('id').execute(),

    /** Saves (or renews the keys of) the account's subscription of this endpoint; answers its id. */
    async saveSubscription(row: { account_id: number; endpoint: string; p256dh: string; auth: string; user_agent: string | null; created_at: string }): Promise<number> {
      const found = () => db.selectFrom('push_subscriptions').select('id').where('account_id', '=', row.account_id).where('endpoint', '=', row.endpoint).executeTakeFirst();
      const renew = (id: number) =>
        db.updateTable('push_subscriptions').set({ p256dh: row.p256dh, auth: row.auth, user_agent: row.user_agent, failures: 0, last_failed_at: null }).where('id', '=', id).execute();
      const existing = await found();
      if (existing) {
        await renew(existing.id);
        return existing.id;
      }
      try {
        const r = await db.insertInto('push_subscriptions').values(row).returning('id').executeTakeFirstOrThrow();
        return r.id;
      } catch (err) {
        // The same browser saved it at the same moment (two tabs).
        if (!isUniqueViolation(err)) throw err;
        const again = (await found())!;
        await renew(again.id);
        return again.id;
      }
    },

    /** Removes the account's own subscription of this endpoint (another account's stays); answers whether one went. */
    async removeSubscription(accountId: number, endpoint: string): Promise<boolean> {
      const r = await db.deleteFrom('push_subscriptions').where('account_id', '=', accountId).where('endpoint', '=', endpoint).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    removeSubscriptionById: (id: number) => db.deleteFrom('push_subscriptions').where('id', '=', id).execute(),

    markPush: (id: number, ok: boolean, at: string) =>
      db
        .updateTable('push_subscriptions')
        .set((eb) => (ok ? { last_ok_at: at, failures: 0 } : { last_failed_at: at, failures: eb('failures', '+', 1) }))
        .where('id', '=', id)
        .execute(),

    /** Claims one alert on one channel by its key: false when another process (or an earlier run) has it. */
    async claim(row: Omit<AlertSendsTable, 'id' | 'delivered' | 'attempted' | 'error'>): Promise<number | null> {
      const r = await db.insertInto('alert_sends').values(row).onConflict((oc) => oc.column('key').doNothing()).returning('id').executeTakeFirst();
      return r?.id ?? null;
    },

    finish: (id: number, set: { status: AlertSendsTable['status']; delivered: number; attempted: number; error: string | null }) =>
      db.updateTable('alert_sends').set(set).where('id', '=', id).execute(),

    /** What an alert says of a lead: never its name, its phone masked by the caller. */
    lead: (leadId: number) =>
      db
        .selectFrom('leads as l')
        .innerJoin('shops as s', 's.id', 'l.shop_id')
        .leftJoin('landings as g', 'g.id', 'l.landing_id')
        .select(['l.id', 'l.shop_id', 'l.phone', 'l.assignee_id', 'l.assigned_at', 'l.created_at', 's.name as shop_name', 'g.title as landing_title'])
        .where('l.id', '=', leadId)
        .where('l.deleted_at', 'is', null)
        .executeTakeFirst(),

    /**
     * The shop's managers, as the SLA's "notify the manager" means them: the shop-area accounts
     * permitted the shop that see all its leads (업체관리자, the agency's marketers), not disabled.
     */
    managers: (shopId: number) =>
      db
        .selectFrom('accounts as a')
        .innerJoin('account_types as t', 't.id', 'a.account_type_id')
        .innerJoin('shop_permissions as p', 'p.account_id', 'a.id')
        .select('a.id')
        .where('p.shop_id', '=', shopId)
        .where('t.area', '=', 'shop')
        .where('t.data_scope', '=', 'all')
        .where('a.status', '!=', 'disabled')
        .orderBy('a.id')
        .execute(),

    /** The shop's first enabled SMS channel (its gateway and sender number): null when it has none. */
    smsChannel: (shopId: number) =>
      db.selectFrom('delivery_channels').select('id').where('shop_id', '=', shopId).where('kind', '=', 'sms').where('enabled', '=', 1).orderBy('id').executeTakeFirst(),

    /** A test text's channel: the first enabled SMS channel of the shops the account is permitted. */
    smsChannelOfAccount: (accountId: number) =>
      db.selectFrom('delivery_channels as c').innerJoin('shop_permissions as p', 'p.shop_id', 'c.shop_id')
        .select('c.id').where('p.account_id', '=', accountId).where('c.kind', '=', 'sms').where('c.enabled', '=', 1).orderBy('c.id').executeTakeFirst(),

    /** The sends recorded for a lead (tests and the lead's history read them). */
    sendsOf: (leadId: number) => db.selectFrom('alert_sends').selectAll().where('lead_id', '=', leadId).orderBy('id').execute(),
  };
}
