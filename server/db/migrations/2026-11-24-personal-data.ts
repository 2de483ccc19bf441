// Frozen: the life of personal data. A deleted lead keeps who deleted it and why; each shop
// has a grace period before deleted leads are destroyed for good. List-level access (exports,
// searches, imports, reading the access record itself) is recorded in access_events — it
// touches many leads or none, so it has no lead of its own. Every destruction, by hand or by
// the automatic purge, leaves a record without personal data. Imports keep their state, so
// progress can be shown and the error report downloaded. The privacy officer's monthly review
// is recorded per shop and month. Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';
import { dialectOf, id } from '../migration-kit.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  await db.schema.alterTable('leads').addColumn('deleted_by', 'integer').execute();
  await db.schema.alterTable('leads').addColumn('delete_reason', 'text').execute();
  await db.schema.alterTable('lead_settings').addColumn('purge_grace_days', 'integer', (c) => c.notNull().defaultTo(30)).execute();
  await db.schema.createIndex('lead_events_shop_at_idx').on('lead_events').columns(['shop_id', 'at']).execute();
  await db.schema.createIndex('lead_events_account_at_idx').on('lead_events').columns(['account_id', 'at']).execute();

  await id(db.schema.createTable('access_events'), d)
    .addColumn('shop_id', 'integer', (c) => c.references('shops.id'))
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id'))
    // export | search | import | history-export | review
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer')
    // JSON: the reason, the filter, the masked search term, the file name … never a phone or a name in clear.
    .addColumn('detail', 'text')
    .addColumn('ip', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_events_shop_at_idx').on('access_events').columns(['shop_id', 'at']).execute();
  await db.schema.createIndex('access_events_account_at_idx').on('access_events').columns(['account_id', 'at']).execute();

  await id(db.schema.createTable('destructions'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    // manual | grace (deleted, grace period over) | retention (the privacy policy's period over)
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id'))
    .addColumn('reason', 'text')
    .addColumn('lead_count', 'integer', (c) => c.notNull())
    // JSON array of lead ids (numbers only: the record itself holds nothing personal)
    .addColumn('lead_ids', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('destructions_shop_at_idx').on('destructions').columns(['shop_id', 'at']).execute();

  await id(db.schema.createTable('lead_imports'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    // uploaded | importing | done | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('mapping', 'text')
    .addColumn('consent_basis', 'text')
    .addColumn('total_rows', 'integer')
    .addColumn('processed_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imported', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('lead_imports_shop_idx').on('lead_imports').columns(['shop_id', 'created_at']).execute();

  await id(db.schema.createTable('access_reviews'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('reviewed_by', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('note', 'text')
    .addColumn('reviewed_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('access_reviews_shop_month_uq', ['shop_id', 'month'])
    .execute();
}
