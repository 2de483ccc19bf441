// Frozen: counselors' alerts (speed to lead, "alerted wherever they are"). alert_preferences holds
// an account's own choice of channels (the open back office's notification, Web Push to its
// browsers and phones, an SMS to its own number through the shop's SMS channel) and quiet hours in
// Seoul time. push_subscriptions holds each browser's Web Push subscription of an account (the push
// service's endpoint and the browser's keys; deleted when the push service answers 404/410).
// alert_sends records every alert sent, skipped or failed: `key` is unique, so a send claimed by one
// worker is not sent again by another (and "the second counselor was notified" can be read back).
// The VAPID key pair lives in shared_settings ('vapid-keys'): made once by the first process.
// Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';
import { dialectOf, id } from '../migration-kit.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  await db.schema
    .createTable('alert_preferences')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('browser', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('push', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sms', 'integer', (c) => c.notNull().defaultTo(0))
    // HH:mm, Seoul; both null: no quiet hours. Start after end wraps past midnight.
    .addColumn('quiet_start', 'text')
    .addColumn('quiet_end', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await id(db.schema.createTable('push_subscriptions'), d)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_ok_at', 'text')
    .addColumn('last_failed_at', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('push_subscriptions_account_endpoint_idx').on('push_subscriptions').columns(['account_id', 'endpoint']).unique().execute();
  await id(db.schema.createTable('alert_sends'), d)
    // reason:lead:account:channel[:instant] — one send per alert and channel, whichever worker claims it.
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('shop_id', 'integer')
    .addColumn('lead_id', 'integer')
    // assigned | sla-remind | sla-reroute | sla-notify | sla-manager | test
    .addColumn('reason', 'text', (c) => c.notNull())
    // push | sms
    .addColumn('channel', 'text', (c) => c.notNull())
    // sending | sent | failed | quiet | off
    .addColumn('status', 'text', (c) => c.notNull())
    // Pushes that reached the push service / were tried.
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_sends_lead_idx').on('alert_sends').columns(['lead_id']).execute();
  await db.schema.createIndex('alert_sends_account_idx').on('alert_sends').columns(['account_id', 'at']).execute();
}
