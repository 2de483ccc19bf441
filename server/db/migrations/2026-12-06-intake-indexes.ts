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
// Kept, measured the same way: lead_events_shop_action_at_idx (without it the monthly review's
// count of views takes 0.04 → 204 ms on SQLite, 1.3 → 101 ms on PostgreSQL) and
// lead_events_account_at_idx (the record filtered by a person, and the accounts it offers:
// 0.09 → 291 ms on SQLite); leads_landing_created_idx (the list of a small landing's leads over a
// year, 9 → 26 ms on PostgreSQL without it); leads_shop_status_created_idx (a year of a rare
// status, 1.7% of a shop's leads: its count 5 → 12 ms on SQLite, 9 → 22 ms on PostgreSQL without
// it); leads_shop_assignee_created_idx (미배분 and a counselor's list, allocation's unassigned leads).
// Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('lead_events_at_idx').ifExists().execute();
}
