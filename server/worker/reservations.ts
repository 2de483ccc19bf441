// 시스템 예약 as a scheduled job: every 15 seconds, starts the reservations whose time came
// (a landing opened or closed, or an experiment stopped, through the landings module's links, a maintenance window or an
// announcement marked under way) and ends the windows whose end came. Several processes may run
// it at once: each step is claimed by a conditional update, so each runs exactly once. The
// maintenance gate and the banner go by the clock, not by this job: a window starts and ends on
// time even when the job runs late.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { systemReservationsService, type ReservationDeps, type ReservationRun } from '../modules/system-reservations/system-reservations.entry.ts';
import type { Job } from './scheduler.ts';

export const RESERVATIONS_EVERY_MS = 15_000;

export interface ReservationsJob extends Job {
  /** Answers what it ran. */
  run(): Promise<ReservationRun[]>;
}

export function reservationsJob(
  db: Kysely<Database>,
  clock: Clock,
  o: ReservationDeps & { setLandingStatus: NonNullable<ReservationDeps['setLandingStatus']>; onRun?: (runs: ReservationRun[]) => void },
): ReservationsJob {
  const service = systemReservationsService(db, clock, o);
  return {
    name: 'reservations',
    everyMs: RESERVATIONS_EVERY_MS,
    async run() {
      const runs = await service.executeDue();
      if (runs.length) o.onRun?.(runs);
      return runs;
    },
  };
}
