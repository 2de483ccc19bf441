// Frozen: intake writes every index of leads, lead_events and delivery_jobs in each batch it
// commits, so those tables keep only indexes a query reads. Each index dropped here, with why
// (EXPLAIN and timings on the bulk-seeded million-lead database, SQLite and PostgreSQL):
// - lead_events_at_idx (at): no query reads a time range of every shop's events — each one
//   (the access record, its monthly review, the allocation history) names its shop, and
//   lead_events_shop_at_id_idx (shop_id, at, id) or lead_events_shop_action_at_idx
//   (shop_id, action, at) answers it. SQLite never chose it; PostgreSQL did, for a month of a
//   shop's assignments and its night-time events, reading every shop's events of the month and
//   filtering by shop — without it those queries take the shop's own indexes and run 2–4 times
//   faster (the allocation history's count 155 → 56 ms, the review's nights 101 → 37 ms).
// Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('lead_events_at_idx').ifExists().execute();
}
