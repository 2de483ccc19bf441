// Frozen: the agency's own details (the operator, one row), who collects under each privacy
// policy version (the agency or the shop itself), and a lead's separate consent to sensitive
// information. Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('operator_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('company_name', 'text', (c) => c.notNull())
    .addColumn('representative', 'text', (c) => c.notNull())
    .addColumn('business_number', 'text')
    .addColumn('phone', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('privacy_officer_name', 'text', (c) => c.notNull())
    .addColumn('privacy_officer_contact', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('privacy_policies').addColumn('collector', 'text', (c) => c.notNull().defaultTo('operator')).execute();
  await db.schema.alterTable('leads').addColumn('sensitive_consent', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
