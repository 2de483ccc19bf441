// The SQL of the pull feed's order (lead-feed-seq.ts): the counter of numbers given, leads still
// without a number, and numbering the next batch of them in id order in one statement.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function leadFeedSeqRepository(db: Kysely<Database>) {
  return {
    /**
     * Moves the counter on by `n` (0: only holds it) and answers the first of those numbers; on
     * PostgreSQL the row stays locked until the transaction ends.
     */
    async take(n: number): Promise<number> {
      const row = await db
        .updateTable('lead_feed_counter')
        .set((eb) => ({ seq: eb('seq', '+', n) }))
        .where('id', '=', 1)
        .returning('seq')
        .executeTakeFirstOrThrow();
      return Number(row.seq) - n + 1;
    },

    /** Whether any lead waits for its number: one probe of leads_feed_waiting_idx (partial: feed_seq is null). */
    async anyPending(): Promise<boolean> {
      return !!(await db.selectFrom('leads').select('id').where('feed_seq', 'is', null).limit(1).executeTakeFirst());
    },

    /**
     * Numbers the next `batch` leads without a number, in id order, `base + 1` onwards, in one
     * UPDATE … FROM (both engines have it); answers how many it numbered.
     */
    async numberNext(base: number, batch: number): Promise<number> {
      const next = db
        .selectFrom('leads')
        .select('id')
        .where('feed_seq', 'is', null)
        .orderBy('id')
        .limit(batch)
        .as('n');
      const numbered = db
        .selectFrom(next)
        .select(['n.id', sql<number>`${base} + row_number() over (order by n.id)`.as('seq')])
        .as('p');
      const result = await db
        .updateTable('leads')
        .from(numbered)
        .set((eb) => ({ feed_seq: eb.ref('p.seq') }))
        .whereRef('leads.id', '=', 'p.id')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
