// The worker's heartbeat: every process that runs the worker (npm start with WORKER on, npm run
// worker) writes its row in worker_heartbeats every HEARTBEAT_EVERY_MS, so /api/health in any
// process can say whether some worker is alive and when one last was. A clean stop removes the
// row; a process killed leaves it, and it ages out of "alive" and is pruned after a day.
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { workerHeartbeats } from '../modules/operations/operations.entry.ts';
import type { Job } from './scheduler.ts';

export const HEARTBEAT_EVERY_MS = 5_000;
/** Rows silent this long go (a killed process's): a day keeps "last seen" meaningful for a while. */
export const HEARTBEAT_KEEP_MS = 24 * 3_600_000;

export interface HeartbeatJob extends Job {
  readonly id: string;
  /** Removes this process's row (a clean stop: no worker is left claiming to be alive). */
  forget(): Promise<void>;
}

export function heartbeatJob(db: Kysely<Database>, clock: Clock, o: { id?: string } = {}): HeartbeatJob {
  const repo = workerHeartbeats(db);
  const host = os.hostname();
  const id = o.id ?? `${host}:${process.pid}`;
  const startedAt = clock().toISOString();
  return {
    id,
    name: 'heartbeat',
    everyMs: HEARTBEAT_EVERY_MS,
    async run() {
      const now = clock();
      await repo.beat({ id, host, pid: process.pid, startedAt }, now.toISOString());
      await repo.prune(new Date(now.getTime() - HEARTBEAT_KEEP_MS).toISOString());
    },
    forget: () => repo.forget(id),
  };
}
