// The SQL of the pull feed's order (lead-feed-seq.ts): leads still without a feed number, the
// highest number given, and numbering the next batch in id order in one statement.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function leadFeedSeqRepository(db: Kysely<Database>) {
  return {
    /** Whether any lead waits for its number: one probe of leads_feed_pending_idx (feed_seq, id). */
    async anyPending(): Promise<boolean> {
      return !!(await db.selectFrom('leads').select('id').where('feed_seq', 'is', null).limit(1).executeTakeFirst());
    },

    /** The highest number given so far (0 before the first): the end of the same index. */
    async maxSeq(): Promise<number> {
      const row = await db.selectFrom('leads').select((eb) => eb.fn.max('feed_seq').as('m')).executeTakeFirst();
      return Number(row?.m ?? 0);
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
