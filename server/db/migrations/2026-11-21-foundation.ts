// Frozen: accounts, account types, sessions, code tables, shops, shop permissions,
// deny rules, audit events. Never edit; add a new dated migration instead.
import { sql, type Kysely } from 'kysely';
import { dialectOf, id } from '../migration-kit.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);

  await id(db.schema.createTable('account_types'), d)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('data_scope', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('can_unmask', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('can_export', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('builtin_key', 'text', (c) => c.unique())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('accounts'), d)
    .addColumn('login_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('account_type_id', 'integer', (c) => c.notNull().references('account_types.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('last_login_at', 'text')
    .addColumn('last_login_ip', 'text')
    .addColumn('password_changed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_type_idx').on('accounts').column('account_type_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_account_idx').on('sessions').column('account_id').execute();

  await id(db.schema.createTable('code_items'), d)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('code_items_kind_code_uq', ['kind', 'code'])
    .addUniqueConstraint('code_items_kind_name_uq', ['kind', 'name'])
    .execute();

  await id(db.schema.createTable('shops'), d)
    .addColumn('shop_code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('client_type_id', 'integer', (c) => c.references('code_items.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('company_name', 'text')
    .addColumn('representative', 'text')
    .addColumn('business_number', 'text')
    .addColumn('phone', 'text')
    .addColumn('address', 'text')
    .addColumn('privacy_officer_name', 'text')
    .addColumn('privacy_officer_contact', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shops_client_type_idx').on('shops').column('client_type_id').execute();

  await db.schema
    .createTable('shop_permissions')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('shop_permissions_pk', ['account_id', 'shop_id'])
    .execute();
  await db.schema.createIndex('shop_permissions_shop_idx').on('shop_permissions').column('shop_id').execute();

  await id(db.schema.createTable('deny_rules'), d)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_hit_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('deny_rules_uq', ['kind', 'value', 'scope'])
    .execute();

  await id(db.schema.createTable('audit_events'), d)
    .addColumn('account_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('detail', 'text')
    .addColumn('ip', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_at_idx').on('audit_events').column('at').execute();
  void sql;
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen; restore from backup instead.');
}
