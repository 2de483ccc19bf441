// Frozen: the pull feed's numbers are given in the transaction that writes the leads, from one
// counter row, instead of by an UPDATE of every lead after it committed — that UPDATE wrote each
// lead a second time, in every index of leads, and cost intake half its rate. The counter starts
// at the highest number given. The index of leads waiting for a number (restored leads, an
// import's, those written before this) is now partial: leads numbered at intake never enter it.
// Never edit; add a new dated migration instead.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('lead_feed_counter')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into lead_feed_counter (id, seq) select 1, coalesce(max(feed_seq), 0) from leads`.execute(db);
  await db.schema.dropIndex('leads_feed_pending_idx').execute();
  await db.schema.createIndex('leads_feed_waiting_idx').on('leads').column('id').where(sql<boolean>`feed_seq is null`).execute();
}
