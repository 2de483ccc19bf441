// The operations endpoints: public (a load balancer or a monitor calls them without a session)
// and revealing no secret — no address, password or key, only whether each part answers.
import { z } from './zod.ts';
import { endpoint } from './endpoint.ts';

/** A worker that has not beaten for this long counts as gone (it beats every 5 s). */
export const WORKER_STALE_MS = 30_000;

export const healthReport = z.object({
  /** ok: all parts answer; degraded: the database answers but Redis or the worker do not (HTTP 200); down: the database does not (HTTP 503). */
  status: z.enum(['ok', 'degraded', 'down']),
  database: z.object({ dialect: z.enum(['sqlite', 'postgres']), reachable: z.boolean(), latencyMs: z.number().nullable() }),
  redis: z.object({ configured: z.boolean(), reachable: z.boolean().nullable(), latencyMs: z.number().nullable() }),
  worker: z.object({
    /** This process runs the worker (WORKER is not 0). */
    inProcess: z.boolean(),
    /** Worker processes that beat within WORKER_STALE_MS. */
    alive: z.number(),
    lastHeartbeatAt: z.string().nullable(),
    lastHeartbeatAgeSeconds: z.number().nullable(),
  }),
  /** Seconds since this process started. */
  uptimeSeconds: z.number(),
});
export type HealthReport = z.infer<typeof healthReport>;

export const readyReport = z.object({ ready: z.boolean(), state: z.enum(['starting', 'ready', 'draining']) });
export type ReadyReport = z.infer<typeof readyReport>;

export const healthApi = {
  get: endpoint({ method: 'GET', path: '/api/health', response: healthReport }),
  /** 200 when this process takes traffic; 503 while it starts (migrating) or drains before a stop. */
  ready: endpoint({ method: 'GET', path: '/api/ready', response: readyReport }),
};
