// Health and readiness. Health says whether each part this process depends on answers — the
// database (and how fast), Redis when configured, and whether any worker process beat lately —
// with `down` (HTTP 503) only when the database does not answer: without it nothing works,
// while without Redis or a worker the app still takes leads (they wait in the outbox).
// Readiness is this process's own state: starting (migrating; answered by early-ready.ts before
// the app exists), ready, or draining (SIGTERM: the load balancer stops sending, then we stop).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DialectName } from '../../db/dialect.ts';
import type { Clock } from '../../lib/clock.ts';
import { redisReady, type RedisClient } from '../../lib/redis.ts';
import { WORKER_STALE_MS, type HealthReport, type ReadyReport } from '../../../contracts/health.ts';
import { operationsRepository } from './operations.repository.ts';

/** How long health waits for the database or Redis before calling it unreachable. */
const PROBE_TIMEOUT_MS = 2_000;

type ReadyState = ReadyReport['state'];

export interface Readiness {
  readonly state: ReadyState;
  /** From now on /api/ready answers 503; everything else is still served. */
  drain(): void;
}

export function readiness(): Readiness {
  let state: ReadyState = 'ready';
  return {
    get state() {
      return state;
    },
    drain() {
      state = 'draining';
    },
  };
}

/** `p`'s time in ms, or null when it failed or took longer than `ms`. */
async function timed(p: () => Promise<unknown>, ms: number): Promise<number | null> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const ok = await Promise.race([
      p().then(() => true, () => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
    return ok ? Math.round((performance.now() - started) * 10) / 10 : null;
  } finally {
    clearTimeout(timer);
  }
}

/** A worker process's heartbeat row: written every few seconds, pruned when silent, removed at a clean stop. */
export function workerHeartbeats(db: Kysely<Database>) {
  const repo = operationsRepository(db);
  return {
    beat: (row: { id: string; host: string; pid: number; startedAt: string }, at: string) => repo.beat(row, at),
    prune: (before: string) => repo.prune(before),
    forget: (id: string) => repo.forget(id),
  };
}

interface OperationsDeps {
  dialect: DialectName;
  /** Redis, when REDIS_URL is set (opened on first use); undefined otherwise. */
  redis?: () => RedisClient;
  workerInProcess: boolean;
  startedAt: number;
}

export function operationsService(db: Kysely<Database>, clock: Clock, deps: OperationsDeps) {
  const repo = operationsRepository(db);
  return {
    async health(): Promise<HealthReport> {
      const dbLatency = await timed(() => repo.ping(), PROBE_TIMEOUT_MS);
      // A connection that is reconnecting would queue the ping: it counts as unreachable at once.
      const redisLatency = deps.redis ? await timed(async () => {
        const r = deps.redis!();
        if (!redisReady(r)) throw new Error('redis not connected');
        await r.ping();
      }, PROBE_TIMEOUT_MS) : null;
      const now = clock();
      const beats = dbLatency === null ? null : await repo.heartbeats(new Date(now.getTime() - WORKER_STALE_MS).toISOString()).catch(() => null);
      const last = beats?.lastSeenAt ?? null;
      const redisDown = !!deps.redis && redisLatency === null;
      const noWorker = !beats || beats.alive === 0;
      return {
        status: dbLatency === null ? 'down' : redisDown || noWorker ? 'degraded' : 'ok',
        database: { dialect: deps.dialect, reachable: dbLatency !== null, latencyMs: dbLatency },
        redis: { configured: !!deps.redis, reachable: deps.redis ? redisLatency !== null : null, latencyMs: redisLatency },
        worker: {
          inProcess: deps.workerInProcess,
          alive: beats?.alive ?? 0,
          lastHeartbeatAt: last,
          lastHeartbeatAgeSeconds: last ? Math.max(0, Math.round((now.getTime() - Date.parse(last)) / 1000)) : null,
        },
        uptimeSeconds: Math.round((Date.now() - deps.startedAt) / 1000),
      };
    },
  };
}
