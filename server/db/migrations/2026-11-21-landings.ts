// Frozen: landings, privacy policies, leads, lead events (PIPA access record),
// blocked submissions, visit counts, uploaded images. Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';
import { dialectOf, id } from '../migration-kit.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);

  await id(db.schema.createTable('privacy_policies'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('retention_days', 'integer', (c) => c.notNull())
    .addColumn('third_parties', 'text', (c) => c.notNull()) // JSON [{ recipient, purpose, items, period }]
    .addColumn('officer_name', 'text')
    .addColumn('officer_contact', 'text')
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('published_at', 'text')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('privacy_policies_shop_version_uq', ['shop_id', 'version'])
    .execute();

  await id(db.schema.createTable('landings'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id').onDelete('cascade'))
    .addColumn('landing_code', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('open_at', 'text')
    .addColumn('close_at', 'text')
    .addColumn('media_type_id', 'integer', (c) => c.references('code_items.id'))
    .addColumn('event_type_id', 'integer', (c) => c.references('code_items.id'))
    .addColumn('content', 'text', (c) => c.notNull()) // JSON LandingContent
    .addColumn('form_fields', 'text', (c) => c.notNull()) // JSON FormField[]
    .addColumn('privacy_consent_text', 'text', (c) => c.notNull())
    .addColumn('marketing_consent_text', 'text')
    .addColumn('thank_you_message', 'text', (c) => c.notNull())
    .addColumn('thank_you_url', 'text')
    .addColumn('duplicate_window_days', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('head_script', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body_script', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('conversion_script', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('privacy_policy_version_id', 'integer', (c) => c.references('privacy_policies.id'))
    .addColumn('published_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('landings_shop_code_uq', ['shop_id', 'landing_code'])
    .execute();
  await db.schema.createIndex('landings_status_idx').on('landings').column('status').execute();

  await id(db.schema.createTable('leads'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    .addColumn('landing_id', 'integer', (c) => c.references('landings.id'))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('landing'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('answers', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('privacy_consent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('marketing_consent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('privacy_policy_id', 'integer', (c) => c.references('privacy_policies.id'))
    .addColumn('utm_source', 'text')
    .addColumn('utm_medium', 'text')
    .addColumn('utm_campaign', 'text')
    .addColumn('utm_content', 'text')
    .addColumn('utm_term', 'text')
    .addColumn('media_type_id', 'integer', (c) => c.references('code_items.id'))
    .addColumn('referrer', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('cs_status', 'text', (c) => c.notNull().defaultTo('미처리'))
    .addColumn('assignee_id', 'integer', (c) => c.references('accounts.id'))
    .addColumn('reserved_at', 'text')
    .addColumn('memo', 'text')
    .addColumn('duplicate_of', 'integer')
    .addColumn('validity', 'text', (c) => c.notNull().defaultTo('valid'))
    .addColumn('invalid_reason', 'text')
    .addColumn('deleted_at', 'text')
    .addColumn('purged_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('leads_shop_phone_idx').on('leads').columns(['shop_id', 'phone', 'created_at']).execute();
  await db.schema.createIndex('leads_shop_created_idx').on('leads').columns(['shop_id', 'created_at']).execute();
  await db.schema.createIndex('leads_landing_created_idx').on('leads').columns(['landing_id', 'created_at']).execute();
  await db.schema.createIndex('leads_assignee_idx').on('leads').column('assignee_id').execute();

  await id(db.schema.createTable('lead_events'), d)
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id'))
    .addColumn('account_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('ip', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lead_events_lead_idx').on('lead_events').column('lead_id').execute();
  await db.schema.createIndex('lead_events_at_idx').on('lead_events').column('at').execute();

  await id(db.schema.createTable('blocked_submissions'), d)
    .addColumn('shop_id', 'integer')
    .addColumn('landing_id', 'integer')
    .addColumn('reason', 'text', (c) => c.notNull()) // deny-rule | honeypot | too-fast
    .addColumn('deny_rule_id', 'integer')
    .addColumn('ip', 'text')
    .addColumn('phone', 'text')
    .addColumn('name', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('detail', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blocked_submissions_shop_at_idx').on('blocked_submissions').columns(['shop_id', 'at']).execute();

  await db.schema
    .createTable('visits')
    .addColumn('landing_id', 'integer', (c) => c.notNull().references('landings.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull()) // YYYY-MM-DD in Asia/Seoul
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('visits_pk', ['landing_id', 'day', 'source'])
    .execute();

  await id(db.schema.createTable('uploads'), d)
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id').onDelete('cascade'))
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', d === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen; restore from backup instead.');
}
