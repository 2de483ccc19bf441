// Scheduled stops of landing experiments as a job: every 30 seconds, running experiments whose
// stop_at has come stop without promoting a variant (their results archived, the decision
// audited as the system's). Stopping is conditioned on the status read, so two processes
// running the job stop each experiment once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { experimentsService } from '../modules/landings/landings.entry.ts';
import type { Job } from './scheduler.ts';

export const EXPERIMENT_STOP_EVERY_MS = 30_000;

export function experimentStopJob(db: Kysely<Database>, clock: Clock, hooks: { changed(ids: number[]): Promise<void>; flushVisits(): Promise<void> }): Job & { run(): Promise<number[]> } {
  const service = experimentsService(db, clock, hooks);
  return { name: 'experiment-stop', everyMs: EXPERIMENT_STOP_EVERY_MS, run: () => service.stopDue() };
}
