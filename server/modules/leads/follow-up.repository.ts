// The SQL of intake's follow-ups (follow-up.ts): the cursor row, the committed end of the pull
// feed's order, the leads between, and which of them already have their `created` event.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { dialectOf } from '../../db/dialect-sql.ts';

/** A lead as its follow-ups read it. */
export interface FollowUpLead {
  id: number;
  shop_id: number;
  landing_id: number | null;
  source: string;
  cs_status: string;
  duplicate_of: number | null;
  consent_basis: string | null;
  import_id: number | null;
  ip: string | null;
  created_at: string;
}

export function followUpRepository(db: Kysely<Database>) {
  return {
    /** How far follow-ups are done; on PostgreSQL the row stays locked until the transaction ends (one runner at a time). */
    async cursor(): Promise<number> {
      const q = db.selectFrom('lead_follow_up').select('seq').where('id', '=', 1);
      const row = await (dialectOf(db) === 'postgres' ? q.forUpdate() : q).executeTakeFirstOrThrow();
      return Number(row.seq);
    },

    /**
     * The highest feed number committed: every lead numbered up to it is visible (a writer holds
     * the counter row, and its leads' numbers, until it commits).
     */
    async committedEnd(): Promise<number> {
      return Number((await db.selectFrom('lead_feed_counter').select('seq').where('id', '=', 1).executeTakeFirstOrThrow()).seq);
    },

    /** Whether leads wait for their follow-ups: a plain read, no lock (most runs of the backstop find none). */
    async anyWaiting(): Promise<boolean> {
      const [cursor, end] = await Promise.all([
        db.selectFrom('lead_follow_up').select('seq').where('id', '=', 1).executeTakeFirstOrThrow(),
        db.selectFrom('lead_feed_counter').select('seq').where('id', '=', 1).executeTakeFirstOrThrow(),
      ]);
      return Number(end.seq) > Number(cursor.seq);
    },

    moveCursor: (seq: number) => db.updateTable('lead_follow_up').set({ seq }).where('id', '=', 1).execute(),

    /**
     * Leads numbered in (after, upTo], by shop through leads_shop_feed_idx (shop_id, feed_seq):
     * one range seek per shop, no index of its own on the feed's order for intake to write.
     */
    async between(after: number, upTo: number): Promise<FollowUpLead[]> {
      // The shops as a list of values: both engines then seek each one (a subquery let PostgreSQL
      // walk the whole index instead).
      const shopIds = (await db.selectFrom('shops').select('id').execute()).map((r) => r.id);
      if (!shopIds.length) return [];
      return db.selectFrom('leads')
        .select(['id', 'shop_id', 'landing_id', 'source', 'cs_status', 'duplicate_of', 'consent_basis', 'import_id', 'ip', 'created_at'])
        .where('shop_id', 'in', shopIds)
        .where('feed_seq', '>', after).where('feed_seq', '<=', upTo)
        .orderBy('feed_seq')
        .execute();
    },

    /** Of `ids`, those that have their `created` event (written with them, or a restored lead's of old). */
    async withCreatedEvent(ids: readonly number[]): Promise<Set<number>> {
      const have = new Set<number>();
      for (let i = 0; i < ids.length; i += 1000) {
        const rows = await db.selectFrom('lead_events').select('lead_id').where('lead_id', 'in', ids.slice(i, i + 1000)).where('action', '=', 'created').execute();
        for (const r of rows) have.add(r.lead_id);
      }
      return have;
    },
  };
}

