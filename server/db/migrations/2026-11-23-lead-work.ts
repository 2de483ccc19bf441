// Frozen: what working the leads needs. Leads gain the last four digits of the phone (the
// digits a caller searches by, indexed), the first contact (the first status change away
// from 미처리) and when they were assigned; the access record names the lead's shop, so a
// shop's history reads without a join. Per shop: the overdue threshold and the automatic
// allocation rule; per counselor in a shop: weight, daily cap, open-lead maximum and
// availability. Never edit; add a new dated migration instead.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('leads').addColumn('phone_last4', 'text').execute();
  await db.schema.alterTable('leads').addColumn('first_contact_at', 'text').execute();
  await db.schema.alterTable('leads').addColumn('assigned_at', 'text').execute();
  await sql`update leads set phone_last4 = substr(phone, length(phone) - 3)`.execute(db);
  await sql`update leads set first_contact_at = updated_at where cs_status not in ('미처리', '중복')`.execute(db);
  await sql`update leads set assigned_at = updated_at where assignee_id is not null`.execute(db);

  await db.schema.alterTable('lead_events').addColumn('shop_id', 'integer').execute();
  await sql`update lead_events set shop_id = (select l.shop_id from leads l where l.id = lead_events.lead_id)`.execute(db);

  await db.schema.createIndex('leads_shop_last4_idx').on('leads').columns(['shop_id', 'phone_last4']).execute();
  await db.schema.createIndex('leads_shop_status_created_idx').on('leads').columns(['shop_id', 'cs_status', 'created_at']).execute();
  await db.schema.createIndex('leads_shop_assignee_created_idx').on('leads').columns(['shop_id', 'assignee_id', 'created_at']).execute();
  await db.schema.createIndex('leads_shop_reserved_idx').on('leads').columns(['shop_id', 'reserved_at']).execute();
  // A counselor's leads today (daily cap) and open leads (open-lead maximum), counted at each allocation.
  await db.schema.createIndex('leads_assignee_assigned_idx').on('leads').columns(['assignee_id', 'assigned_at']).execute();
  await db.schema.createIndex('leads_assignee_status_idx').on('leads').columns(['assignee_id', 'cs_status']).execute();
  await db.schema.createIndex('lead_events_shop_action_at_idx').on('lead_events').columns(['shop_id', 'action', 'at']).execute();

  await db.schema
    .createTable('lead_settings')
    .addColumn('shop_id', 'integer', (c) => c.primaryKey().references('shops.id'))
    .addColumn('overdue_minutes', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('auto_mode', 'text', (c) => c.notNull().defaultTo('off'))
    .addColumn('rr_cursor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_by', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('counselor_settings')
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('daily_cap', 'integer')
    .addColumn('max_open', 'integer')
    .addColumn('available', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('counselor_settings_pk', ['shop_id', 'account_id'])
    .execute();
}
