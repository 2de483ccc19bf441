// Frozen: two partial indexes of the leads not yet destroyed, so the automatic purge (every
// ten minutes, in every process) and 삭제 DB 관리 read only what is still waiting, never the
// years of destroyed leads before it:
// - a shop's deleted leads by deletion time (the grace period; the deleted list);
// - a privacy policy's leads by receipt time (its retention period).
// Never edit; add a new dated migration instead.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('leads_deleted_waiting_idx')
    .on('leads')
    .columns(['shop_id', 'deleted_at'])
    .where(sql<boolean>`deleted_at is not null and purged_at is null`)
    .execute();
  await db.schema
    .createIndex('leads_policy_waiting_idx')
    .on('leads')
    .columns(['privacy_policy_id', 'created_at'])
    .where(sql<boolean>`purged_at is null`)
    .execute();
}
