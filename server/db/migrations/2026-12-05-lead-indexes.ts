// Frozen: every index of leads is written by every lead intake stores, so leads keep only those a
// measured query reads, and those that only leads already worked on need are partial — a new
// lead (no appointment, no counselor yet) never enters them. Each index of leads after this, with
// the query that needs it (EXPLAIN on SQLite and PostgreSQL):
// - leads_shop_phone_idx (shop_id, phone, created_at): the duplicate rule's probe at intake.
// - leads_shop_created_cover_idx (shop_id, created_at, id, …): the lead list, its count, the
//   statistics and dashboards of a period, a contract's counts (the caps).
// - leads_shop_status_created_idx (shop_id, cs_status, created_at): the list filtered by status.
// - leads_shop_assignee_created_idx (shop_id, assignee_id, created_at): a counselor's own list, 미배분.
// - leads_shop_last4_idx (shop_id, phone_last4) and leads_shop_name_idx (shop_id, name): search.
// - leads_landing_created_idx (landing_id, created_at): a landing's leads (and its foreign key).
// - leads_shop_feed_idx (shop_id, feed_seq): the pull API; leads_feed_waiting_idx (partial): leads
//   waiting for a feed number.
// - leads_deleted_waiting_idx, leads_policy_waiting_idx (partial): the purge and 삭제 DB 관리.
// - leads_shop_reserved_idx (shop_id, reserved_at), now where reserved_at is not null: the calendar.
// - leads_assignee_assigned_idx (assignee_id, assigned_at) and leads_assignee_shop_status_idx
//   (assignee_id, shop_id, cs_status, deleted_at), now where assignee_id is not null: a
//   counselor's leads today and open leads, counted at every allocation.
// Dropped: leads_assignee_idx (assignee_id) — the first column of both assignee indexes, which
// answer every query it did (and the foreign key's check).
// Never edit; add a new dated migration instead.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('leads_assignee_idx').execute();
  await db.schema.dropIndex('leads_shop_reserved_idx').execute();
  await db.schema.createIndex('leads_shop_reserved_idx').on('leads').columns(['shop_id', 'reserved_at']).where(sql<boolean>`reserved_at is not null`).execute();
  await db.schema.dropIndex('leads_assignee_assigned_idx').execute();
  await db.schema.createIndex('leads_assignee_assigned_idx').on('leads').columns(['assignee_id', 'assigned_at']).where(sql<boolean>`assignee_id is not null`).execute();
  await db.schema.dropIndex('leads_assignee_shop_status_idx').execute();
  await db.schema
    .createIndex('leads_assignee_shop_status_idx')
    .on('leads')
    .columns(['assignee_id', 'shop_id', 'cs_status', 'deleted_at'])
    .where(sql<boolean>`assignee_id is not null`)
    .execute();
}
