// Frozen: delivery and system reservations. Delivery channels per shop (webhook, e-mail, SMS /
// 알림톡 gateway) with what they send and when; the outbox of delivery jobs, one per lead and
// channel, written in the transaction that accepts the lead and claimed by workers with a lease;
// every attempt; per-shop API keys for the pull API (hashed) and the pull feed's order (a
// sequence number given to committed leads, so a cursor never skips a lead that committed
// late); and administrators' system reservations (maintenance windows, landing open/close,
// announcements) with when they ran. The built-in shop owner may work its own delivery. Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';
import { dialectOf, id } from '../migration-kit.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);

  await id(db.schema.createTable('delivery_channels'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // webhook | email | sms
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // instant | digest
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('instant'))
    // HH:mm, Seoul (digest mode)
    .addColumn('digest_at', 'text')
    // JSON: statuses delivered (empty: all), landing ids (empty: all), the lead fields sent
    .addColumn('statuses', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('landing_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('fields', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('include_duplicates', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: the kind's own settings (url, timeout, recipients, gateway, template …)
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    // webhook HMAC secret (and the previous one during its grace period); gateway key
    .addColumn('secret', 'text')
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'text')
    // why it was turned off by the system (a receiver answered 410), null otherwise
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('delivery_channels_shop_idx').on('delivery_channels').columns(['shop_id']).execute();

  await id(db.schema.createTable('delivery_jobs'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('delivery_channels.id'))
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id'))
    // pending | sending | succeeded | failed | cancelled
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    // intake | manual | test
    .addColumn('trigger', 'text', (c) => c.notNull().defaultTo('intake'))
    .addColumn('reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    // a claimed job belongs to its worker until then; past it, any worker takes it again
    .addColumn('lease_until', 'text')
    .addColumn('claimed_by', 'text')
    // sent with every attempt: the receiver drops a repeat
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('response_code', 'integer')
    .addColumn('delivered_at', 'text')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('delivery_jobs_due_idx').on('delivery_jobs').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('delivery_jobs_shop_idx').on('delivery_jobs').columns(['shop_id', 'created_at']).execute();
  await db.schema.createIndex('delivery_jobs_lead_idx').on('delivery_jobs').columns(['lead_id']).execute();
  await db.schema.createIndex('delivery_jobs_key_idx').unique().on('delivery_jobs').columns(['idempotency_key']).execute();

  await id(db.schema.createTable('delivery_attempts'), d)
    .addColumn('job_id', 'integer', (c) => c.notNull().references('delivery_jobs.id'))
    .addColumn('shop_id', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull())
    .addColumn('lead_id', 'integer', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    // succeeded | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('response_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('worker', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('delivery_attempts_shop_at_idx').on('delivery_attempts').columns(['shop_id', 'at', 'id']).execute();
  await db.schema.createIndex('delivery_attempts_job_idx').on('delivery_attempts').columns(['job_id']).execute();
  // The purge forgets what receivers answered about a destroyed lead.
  await db.schema.createIndex('delivery_attempts_lead_idx').on('delivery_attempts').columns(['lead_id']).execute();

  await id(db.schema.createTable('api_keys'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // the first characters, shown to tell keys apart; the key itself only as its sha256
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    // whether the key receives phone numbers in full
    .addColumn('full_phone', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('last_used_ip', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_hash_idx').unique().on('api_keys').columns(['key_hash']).execute();

  // The pull feed's order: a number given to leads after they committed, in one serial step.
  await db.schema.alterTable('leads').addColumn('feed_seq', 'integer').execute();
  await db.schema.createIndex('leads_shop_feed_idx').on('leads').columns(['shop_id', 'feed_seq']).execute();
  await db.schema.createIndex('leads_feed_pending_idx').on('leads').columns(['feed_seq', 'id']).execute();

  await id(db.schema.createTable('system_reservations'), d)
    // maintenance | landing-open | landing-close | announcement
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text')
    // JSON: landingId, message, accountTypeIds …
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    // scheduled | running | done | cancelled | failed
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('scheduled'))
    .addColumn('executed_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('result', 'text')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('cancelled_at', 'text')
    .execute();
  await db.schema.createIndex('system_reservations_due_idx').on('system_reservations').columns(['status', 'starts_at']).execute();

  // A shop owner configures and works its own delivery: the built-in type gets write on the
  // three delivery screens (an administrator who turned one off keeps it off).
  const owners = await db.selectFrom('account_types').select(['id', 'permissions']).where('builtin_key', '=', 'shop-owner').execute();
  for (const o of owners as Array<{ id: number; permissions: string }>) {
    const matrix = JSON.parse(o.permissions) as Record<string, string>;
    for (const key of ['database-delivery-settings', 'shop-data-delivery', 'shop-data-deliver-history']) if (matrix[key] !== 'none') matrix[key] = 'write';
    await db.updateTable('account_types').set({ permissions: JSON.stringify(matrix) }).where('id', '=', o.id).execute();
  }
}
