// The pull feed's order (GET /api/v1/leads). Lead ids are taken when a lead is written, not when
// it commits: on PostgreSQL with several writers, lead 12 may commit after a reader already saw
// lead 13, and a cursor on ids would skip it for good. So the feed has numbers of its own, given
// in commit order from one counter row (lead_feed_counter):
// - a transaction writing leads takes the next numbers from the counter (numberInTransaction),
//   as late as it can; on PostgreSQL its update holds the row until it commits, so the next
//   writer's numbers wait for that commit and are higher; SQLite runs write transactions one at a time;
// - leads left without a number (an import's long transaction leaves them, so as not to hold the
//   counter for minutes; a restored lead loses its own) are numbered after they committed, by one
//   serial step (assignFeedSeq) under the same counter: the leads still without one, in id order,
//   get the next numbers.
// Every number given is so above every number any reader has seen: a reader that has seen N
// never later finds a new lead below N. No repeats; a rolled-back writer gives its numbers back.
//
// The step runs right before a pull is served (one probe of a partial index when nothing waits)
// and as a scheduled job every few seconds (server/worker/lead-feed-seq.ts).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { serialTransaction } from '../../db/dialect-sql.ts';
import { leadFeedSeqRepository } from './lead-feed-seq.repository.ts';

/** Leads one UPDATE numbers (and one transaction holds locked on PostgreSQL). */
export const FEED_SEQ_BATCH = 1000;
/** Batches one call numbers at most: a backlog (a large import) is caught up over a few calls. */
const MAX_BATCHES = 100;

/**
 * The next `n` feed numbers, for leads `trx` writes: answers the first of them. Call it right
 * before writing the leads: on PostgreSQL the counter stays locked until `trx` ends.
 */
export function numberInTransaction(trx: Transaction<Database>, n: number): Promise<number> {
  return leadFeedSeqRepository(trx).take(n);
}

/** Numbers the committed leads that have no feed number yet; answers how many it numbered. */
export async function assignFeedSeq(db: Kysely<Database>, batch = FEED_SEQ_BATCH): Promise<number> {
  if (!(await leadFeedSeqRepository(db).anyPending())) return 0;
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const numbered = await serialTransaction(db, 'lead-feed', async (trx) => {
      const repo = leadFeedSeqRepository(trx);
      // The counter, held until the commit: the numbers after it are this batch's.
      const last = (await repo.take(0)) - 1;
      const n = await repo.numberNext(last, batch);
      if (n) await repo.take(n);
      return n;
    });
    total += numbered;
    if (numbered < batch) break;
  }
  return total;
}
