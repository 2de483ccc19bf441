// Frozen: speed to lead (SLA per shop). lead_sla_settings holds a shop's promise — first contact
// within `minutes` working minutes of its calendar (work days, hours and holidays, Seoul time) —
// and what happens when it is near (a reminder at `remind_percent`) and broken (`on_deadline`:
// re-route to the next counselor, notify the manager, or both; after `max_reroutes` the lead goes
// to the manager's queue). lead_sla_state holds, per lead escalation has touched, the clock of its
// current holder (`clock_from`: arrival or the last re-route), the reminder sent, the re-routes and
// who let it lapse. Intake writes neither table: a lead without a state row is on its arrival's
// clock, and only the escalation job writes rows, conditioned on `version`. Turning the SLA on
// (`enabled_at`) does not reach back: leads that arrived before wait as they did.
// lead_sla_state_running_idx (shop_id, stage, clock_from): the job's scan of a shop's running clocks.
// Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('lead_sla_settings')
    .addColumn('shop_id', 'integer', (c) => c.primaryKey().references('shops.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    // When it was last turned on: only leads arriving (and clocks restarted) since then are escalated.
    .addColumn('enabled_at', 'text')
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addColumn('remind_percent', 'integer')
    .addColumn('on_deadline', 'text', (c) => c.notNull())
    .addColumn('max_reroutes', 'integer', (c) => c.notNull())
    // JSON number[]: ISO weekdays (1 Monday … 7 Sunday).
    .addColumn('work_days', 'text', (c) => c.notNull())
    // HH:mm, Seoul; work_end may be 24:00.
    .addColumn('work_start', 'text', (c) => c.notNull())
    .addColumn('work_end', 'text', (c) => c.notNull())
    // JSON string[]: Seoul days (YYYY-MM-DD).
    .addColumn('holidays', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('accounts.id'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('lead_sla_state')
    .addColumn('lead_id', 'integer', (c) => c.primaryKey().references('leads.id'))
    .addColumn('shop_id', 'integer', (c) => c.notNull().references('shops.id'))
    .addColumn('clock_from', 'text', (c) => c.notNull())
    .addColumn('reminded_at', 'text')
    .addColumn('reroutes', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON number[]: the accounts that held the lead when a deadline passed.
    .addColumn('lapsed_by', 'text', (c) => c.notNull())
    // running | notified | manager
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('last_action', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lead_sla_state_running_idx').on('lead_sla_state').columns(['shop_id', 'stage', 'clock_from']).execute();
}
