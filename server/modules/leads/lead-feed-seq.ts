// The pull feed's order (GET /api/v1/leads). Lead ids are taken when a lead is written, not when
// it commits: on PostgreSQL with several writers, lead 12 may commit after a reader already saw
// lead 13, and a cursor on ids would skip it for good. So a lead is numbered only once it has
// committed, by one serial step: the leads still without a feed number, in id order, get the
// numbers after the highest one given. The step is serial across processes (PostgreSQL: a
// transaction-level advisory lock; SQLite: transactions run one at a time) and each batch
// commits before the next begins, so every number given is above every number any reader has
// seen: a reader that has seen N never later finds a new lead below N. No gaps, no repeats.
//
// It runs right before a pull is served (one index probe when nothing waits) and as a
// scheduled job every few seconds (server/worker/lead-feed-seq.ts), so the numbers stay close
// behind intake even when nobody pulls.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { serialTransaction } from '../../db/dialect-sql.ts';
import { leadFeedSeqRepository } from './lead-feed-seq.repository.ts';

/** Leads one UPDATE numbers (and one transaction holds locked on PostgreSQL). */
export const FEED_SEQ_BATCH = 1000;
/** Batches one call numbers at most: a backlog (a large import) is caught up over a few calls. */
const MAX_BATCHES = 100;

/** Numbers the committed leads that have no feed number yet; answers how many it numbered. */
export async function assignFeedSeq(db: Kysely<Database>, batch = FEED_SEQ_BATCH): Promise<number> {
  if (!(await leadFeedSeqRepository(db).anyPending())) return 0;
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    // The highest number is read under the lock: the previous batch (of any process) has committed.
    const numbered = await serialTransaction(db, 'lead-feed', async (trx) => {
      const repo = leadFeedSeqRepository(trx);
      return repo.numberNext(await repo.maxSeq(), batch);
    });
    total += numbered;
    if (numbered < batch) break;
  }
  return total;
}
