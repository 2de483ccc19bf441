// Frozen: the person indexes of the access record lead with the shop after the account —
// (account_id, shop_id, at) replaces (account_id, at) on lead_events and access_events. Every
// query that names an account also names the shop: the accounts the record's filter offers (does
// this account appear in this shop's record?), and the record filtered by a person (a shop's
// period of one account's events). With (account_id, at) each of those read every event of the
// account, in every shop, and filtered by shop: the accounts a client's record offers took 2.5 s
// on PostgreSQL on the bulk-seeded million-lead database (an index scan per account over all its
// events); now a seek per account (1 ms). A replacement, not an extra index: intake writes every
// index of lead_events in each commit. Measured the same way (EXPLAIN on SQLite and PostgreSQL):
// the record filtered by a person reads only the shop's entries (its count 10 → 0.4 ms on SQLite,
// 7 → 1.5 ms on PostgreSQL; its page unchanged), and the monthly review's nights, joined to
// accounts, seek each account's month in the shop (SQLite 111 → 7 ms, PostgreSQL 38 → 13 ms).
// access_events is not written by intake, but the same queries read it the same way.
// Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('lead_events_account_shop_at_idx').on('lead_events').columns(['account_id', 'shop_id', 'at']).execute();
  await db.schema.dropIndex('lead_events_account_at_idx').execute();
  await db.schema.createIndex('access_events_account_shop_at_idx').on('access_events').columns(['account_id', 'shop_id', 'at']).execute();
  await db.schema.dropIndex('access_events_account_at_idx').execute();
}
