// Numbering committed leads for the pull feed as a scheduled job: every two seconds, the leads
// without a feed number get theirs (the leads module's assignFeedSeq, serial across processes).
// A pull numbers what waits before it answers anyway; this keeps the numbers close behind
// intake when nobody pulls, so the first pull after a quiet hour is not the one that waits.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { assignFeedSeq } from '../modules/leads/leads.entry.ts';
import type { Job } from './scheduler.ts';

export const FEED_SEQ_EVERY_MS = 2_000;

export function feedSeqJob(db: Kysely<Database>): Job {
  return { name: 'lead-feed-seq', everyMs: FEED_SEQ_EVERY_MS, run: () => assignFeedSeq(db) };
}
