// Frozen: intake's leads get their `created` event and their delivery jobs just after their
// batch commits, not in it (those two tables' nine b-trees were over a third of each intake
// commit's pages). One row keeps how far in the pull feed's order (feed_seq) that has been done;
// it starts at the highest number given, since every lead numbered so far had both written with it.
// Never edit; add a new dated migration instead.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('lead_follow_up')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into lead_follow_up (id, seq) select 1, seq from lead_feed_counter where id = 1`.execute(db);
}
