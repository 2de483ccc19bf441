// Frozen: speed to lead's escalation scan (sla.repository.ts arrivals) reads, every 5 s and per
// shop with the SLA on, its arrivals of the last 14 days still waiting — not contacted, not
// deleted, not a duplicate — without a lead_sla_state row yet. Measured by npm run bench:leads --
// --only-figures=sla on the million-lead bulk seed (20 shops, steady state: ~15,000 leads waiting
// in the window, most of them already escalated).
// - leads_sla_waiting_idx (shop_id, created_at, id) on waiting leads only: the arrivals query's
//   range (SQLite: SEARCH … USING INDEX leads_sla_waiting_idx; PostgreSQL: Index Only Scan). On
//   leads_shop_created_cover_idx it walked every lead of the window to keep the waiting quarter.
//   An entry is made at intake (a new lead waits) and dropped at its first contact.
// - lead_sla_state_shop_lead_idx (shop_id, lead_id): the same query's anti-join on PostgreSQL
//   hashes the shop's state rows from it (Index Only Scan) instead of reading every shop's.
// The pass over the 20 shops, p50 / p95 of 50: SQLite 88 / 216 ms → 13–17 / 26–34 ms;
// PostgreSQL 206 / 291 ms → 33–39 / 55–99 ms (several runs on a machine of 2 CPUs shared at a
// load average of 6–11).
// Never edit; add a new dated migration instead.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('leads_sla_waiting_idx')
    .on('leads')
    .columns(['shop_id', 'created_at', 'id'])
    .where(sql<boolean>`first_contact_at is null and deleted_at is null and duplicate_of is null`)
    .execute();
  await db.schema.createIndex('lead_sla_state_shop_lead_idx').on('lead_sla_state').columns(['shop_id', 'lead_id']).execute();
}
