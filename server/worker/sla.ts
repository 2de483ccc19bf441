// Speed to lead as a scheduled job: every five seconds, the leads of SLA-enabled shops whose
// reminder or deadline came are escalated (the leads module's escalateDue: reminders, re-routes,
// the manager's notice and queue). Several processes may run it at once: each step is taken under
// the shop's lock and conditioned on the state it read, so it happens once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { LeadChange } from '../../contracts/leads.ts';
import { escalateDue, type SlaStep } from '../modules/leads/leads.entry.ts';
import type { Job } from './scheduler.ts';

export const SLA_EVERY_MS = 5_000;

export interface SlaJob extends Job {
  /** Answers the steps it took. */
  run(): Promise<SlaStep[]>;
}

export function slaJob(db: Kysely<Database>, clock: Clock, o: { announce?: (change: LeadChange) => void; onRun?: (steps: SlaStep[]) => void } = {}): SlaJob {
  return {
    name: 'sla',
    everyMs: SLA_EVERY_MS,
    async run() {
      const steps = await escalateDue(db, clock(), { announce: o.announce });
      if (steps.length) o.onRun?.(steps);
      return steps;
    },
  };
}
