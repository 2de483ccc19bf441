// The backstop of intake's follow-ups: every two seconds, committed leads still without their
// `created` event and delivery jobs get them (the leads module's followUpLeads, exactly once
// across processes by its cursor row). Intake runs the step itself a moment after each batch;
// this covers a process that stopped in between, and a process whose intake runs without a worker.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { followUpLeads } from '../modules/leads/leads.entry.ts';
import type { Job } from './scheduler.ts';

export const FOLLOW_UP_EVERY_MS = 2_000;

export function followUpJob(db: Kysely<Database>, clock: Clock, o: { deliveriesQueued: () => void }): Job {
  return {
    name: 'lead-follow-up',
    everyMs: FOLLOW_UP_EVERY_MS,
    async run() {
      const { jobs } = await followUpLeads(db, clock());
      if (jobs > 0) o.deliveriesQueued();
    },
  };
}
