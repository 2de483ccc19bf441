// Frozen: the money side. Contracts per shop (a period in Seoul days, a quantity of valid
// leads at a unit price before VAT, an optional daily cap, the landings and media that count,
// the return window and maximum return rate, automatic closing at a cap), the landings and
// media each covers, lead returns (무효 교체) with their decision, the record of landings a cap
// closed and reopened, ad spend per Seoul day × medium (× landing), and target CPA per medium
// and month. Landings remember the contract that closed them and when they reopen by
// themselves. Leads get one covering index for the money figures (shop, period, landing,
// medium, validity), replacing the lead screens' covering index it extends. Never edit; add a
// new dated migration instead.
import type { Kysely } from 'kysely';
import { dialectOf, id } from '../migration-kit.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);

  await id(db.schema.createTable('shop_contracts'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Seoul days, both included: YYYY-MM-DD
    .addColumn('starts_on', 'text', (c) => c.notNull())
    .addColumn('ends_on', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    // KRW per valid lead, VAT excluded (VAT is 10% on top, shown separately)
    .addColumn('unit_price', 'integer', (c) => c.notNull())
    .addColumn('daily_cap', 'integer')
    .addColumn('return_window_days', 'integer', (c) => c.notNull().defaultTo(7))
    // percent of the leads delivered under the contract
    .addColumn('max_return_rate', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('auto_close', 'integer', (c) => c.notNull().defaultTo(0))
    // null while it runs; set when someone stops it (중지)
    .addColumn('stopped_at', 'text')
    .addColumn('memo', 'text')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shop_contracts_shop_period_idx').on('shop_contracts').columns(['shop_id', 'starts_on', 'ends_on']).execute();

  // No rows: every landing of the shop counts. Same for media.
  await db.schema
    .createTable('shop_contract_landings')
    .addColumn('contract_id', 'integer', (c) => c.notNull().references('shop_contracts.id').onDelete('cascade'))
    .addColumn('landing_id', 'integer', (c) => c.notNull().references('landings.id'))
    .addPrimaryKeyConstraint('shop_contract_landings_pk', ['contract_id', 'landing_id'])
    .execute();
  await db.schema
    .createTable('shop_contract_media')
    .addColumn('contract_id', 'integer', (c) => c.notNull().references('shop_contracts.id').onDelete('cascade'))
    .addColumn('media_type_id', 'integer', (c) => c.notNull().references('code_items.id'))
    .addPrimaryKeyConstraint('shop_contract_media_pk', ['contract_id', 'media_type_id'])
    .execute();

  await id(db.schema.createTable('lead_returns'), d)
    .addColumn('contract_id', 'integer', (c) => c.notNull().references('shop_contracts.id'))
    .addColumn('shop_id', 'integer', (c) => c.notNull())
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id'))
    // 결번 | 중복 | 허위 | 연락두절 | 타지역 | 기타
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    // requested | approved | rejected
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('requested'))
    .addColumn('requested_by', 'integer')
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'integer')
    .addColumn('decided_at', 'text')
    .addColumn('decision_note', 'text')
    .execute();
  await db.schema.createIndex('lead_returns_contract_idx').on('lead_returns').columns(['contract_id', 'status']).execute();
  await db.schema.createIndex('lead_returns_shop_idx').on('lead_returns').columns(['shop_id', 'requested_at']).execute();
  await db.schema.createIndex('lead_returns_lead_idx').on('lead_returns').columns(['lead_id']).execute();

  await id(db.schema.createTable('contract_cap_events'), d)
    .addColumn('contract_id', 'integer', (c) => c.notNull().references('shop_contracts.id'))
    .addColumn('shop_id', 'integer', (c) => c.notNull())
    .addColumn('landing_id', 'integer', (c) => c.notNull())
    // closed-daily | closed-quantity | reopened
    .addColumn('kind', 'text', (c) => c.notNull())
    // the contract's count at the time (today's for a daily cap)
    .addColumn('count', 'integer')
    .addColumn('account_id', 'integer')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contract_cap_events_shop_at_idx').on('contract_cap_events').columns(['shop_id', 'at']).execute();
  await db.schema.createIndex('contract_cap_events_at_idx').on('contract_cap_events').columns(['at']).execute();

  await db.schema.alterTable('landings').addColumn('closed_by_contract_id', 'integer').execute();
  await db.schema.alterTable('landings').addColumn('reopen_at', 'text').execute();

  await id(db.schema.createTable('ad_spend'), d)
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    // Seoul day YYYY-MM-DD
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('media_type_id', 'integer', (c) => c.notNull().references('code_items.id'))
    // 0 when the row is for the medium as a whole
    .addColumn('landing_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('impressions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    // KRW
    .addColumn('spend', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('manual'))
    .addColumn('updated_by', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ad_spend_key_idx').unique().on('ad_spend').columns(['shop_id', 'day', 'media_type_id', 'landing_id']).execute();
  await db.schema.createIndex('ad_spend_day_idx').on('ad_spend').columns(['day', 'shop_id']).execute();

  await db.schema
    .createTable('cpa_targets')
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    .addColumn('media_type_id', 'integer', (c) => c.notNull().references('code_items.id'))
    // YYYY-MM
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('target_cpa', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cpa_targets_pk', ['shop_id', 'media_type_id', 'month'])
    .execute();

  await db.schema.dropIndex('leads_shop_created_cover_idx').execute();
  await db.schema
    .createIndex('leads_shop_created_cover_idx')
    .on('leads')
    .columns(['shop_id', 'created_at', 'id', 'deleted_at', 'assignee_id', 'cs_status', 'duplicate_of', 'first_contact_at', 'validity', 'landing_id', 'media_type_id'])
    .execute();
}
