// Reopening at midnight as a scheduled job: every 15 seconds, the landings a contract's daily
// cap closed whose Seoul midnight has come open again (the leads module's reopenDue, under its
// own lock: safe with several processes). Visitors do not wait for it — a landing counts as
// open from its reopen_at on — but the row, the admin screens and the record follow here.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { reopenDue } from '../modules/leads/leads.entry.ts';
import type { Job } from './scheduler.ts';

export const REOPEN_EVERY_MS = 15_000;

export function reopenJob(db: Kysely<Database>, clock: Clock, o: { changed?: (landingIds: number[]) => Promise<void> } = {}): Job {
  return {
    name: 'reopen',
    everyMs: REOPEN_EVERY_MS,
    async run() {
      const ids = await reopenDue(db, clock());
      if (ids.length) await o.changed?.(ids);
      return ids;
    },
  };
}
