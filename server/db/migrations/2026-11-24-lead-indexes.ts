// Frozen: two lead indexes widened so the lead screens read a year of leads (a million rows)
// from the index alone, without visiting each row (measured with npm run bench:leads):
// - a shop's leads by receipt time, carrying what the statistics and the list's count read
//   (deleted, assignee, status, duplicate, first contact) — a month of 상담 통계 no longer
//   fetches some 20,000 rows one by one; the id keeps the list's order (created_at, id) in the
//   index. It replaces (shop_id, created_at), its prefix.
// - a counselor's leads in a shop by status, with deleted: the open-lead count allocation
//   checks for every counselor on each preview, apply and automatic allocation of new leads
//   (230 ms → 3 ms on PostgreSQL for a shop of 8 counselors). It replaces (assignee_id, cs_status).
// Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('leads_shop_created_cover_idx')
    .on('leads')
    .columns(['shop_id', 'created_at', 'id', 'deleted_at', 'assignee_id', 'cs_status', 'duplicate_of', 'first_contact_at'])
    .execute();
  await db.schema.dropIndex('leads_shop_created_idx').execute();
  await db.schema.createIndex('leads_assignee_shop_status_idx').on('leads').columns(['assignee_id', 'shop_id', 'cs_status', 'deleted_at']).execute();
  await db.schema.dropIndex('leads_assignee_status_idx').execute();
}
