// The automatic purge as a scheduled job: at start and every ten minutes, deleted leads past
// their shop's grace period and leads past their privacy policy's retention period are
// destroyed (the leads module's purgeDue, under its lock: safe with several processes).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { LeadChange } from '../../contracts/leads.ts';
import { purgeDue, type PurgeRun } from '../modules/leads/leads.entry.ts';
import type { Job } from './scheduler.ts';

export const PURGE_EVERY_MS = 10 * 60_000;

export function purgeJob(db: Kysely<Database>, clock: Clock, o: { announce?: (change: LeadChange) => void; onRun?: (run: PurgeRun) => void } = {}): Job {
  return {
    name: 'purge',
    everyMs: PURGE_EVERY_MS,
    async run() {
      const run = await purgeDue(db, clock(), { announce: o.announce });
      if (run.grace || run.retention) o.onRun?.(run);
    },
  };
}
