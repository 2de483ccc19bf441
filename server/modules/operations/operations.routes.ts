// /api/health and /api/ready (public, no secrets), this process's readiness, and the outbox
// gauges /metrics reads from the database on each scrape.
import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthApi, healthReport, readyReport } from '../../../contracts/health.ts';
import { operationsRepository } from './operations.repository.ts';
import { operationsService, readiness, type Readiness } from './operations.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's readiness: main.ts drains it on SIGTERM. */
    readiness: Readiness;
  }
}

const STARTED_AT = Date.now();

export async function operationsRoutes(app: FastifyInstance): Promise<void> {
  const ready = readiness();
  app.decorate('readiness', ready);

  // The app's Redis connection (REDIS_URL), the one the shared limits and messages use.
  const client = app.redis;
  const redis = client ? () => client : undefined;

  const service = operationsService(app.db, app.clock, { dialect: app.dialect, redis, workerInProcess: app.config.workerEnabled, startedAt: STARTED_AT });

  // Registered as defineRoute would, with a second status: both answers are 200 or 503 by state.
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.route({
    method: 'GET',
    url: healthApi.get.path,
    schema: { response: { 200: healthReport, 503: healthReport } },
    config: { access: { public: true }, endpoint: healthApi.get },
    async handler(_req, reply) {
      const report = await service.health();
      return reply.code(report.status === 'down' ? 503 : 200).send(report);
    },
  });
  typed.route({
    method: 'GET',
    url: healthApi.ready.path,
    schema: { response: { 200: readyReport, 503: readyReport } },
    config: { access: { public: true }, endpoint: healthApi.ready },
    async handler(_req, reply) {
      const state = ready.state;
      if (state !== 'ready') reply.code(503).header('retry-after', '5');
      return { ready: state === 'ready', state };
    },
  });

  if (app.hasDecorator('metrics')) {
    const repo = operationsRepository(app.db);
    // Every process reads the same figures: the cluster's aggregate takes the maximum, not the sum.
    let read: Promise<Awaited<ReturnType<typeof repo.outbox>> | null> | undefined;
    const outbox = () => (read ??= repo.outbox(app.clock().toISOString()).catch(() => null).finally(() => setTimeout(() => (read = undefined), 0)));
    new Gauge({
      name: 'leadroom_outbox_jobs',
      help: 'Delivery jobs in the outbox: pending (waiting for their time or a worker) and sending (claimed)',
      labelNames: ['status'],
      registers: [app.metrics.registry],
      aggregator: 'max',
      async collect() {
        const o = await outbox();
        if (!o) return;
        this.set({ status: 'pending' }, o.pending);
        this.set({ status: 'sending' }, o.sending);
      },
    });
    new Gauge({
      name: 'leadroom_outbox_oldest_due_seconds',
      help: 'How long the longest-waiting due delivery job has been due (0: none waiting)',
      registers: [app.metrics.registry],
      aggregator: 'max',
      async collect() {
        const o = await outbox();
        if (!o) return;
        this.set(o.oldestDueAt ? Math.max(0, (app.clock().getTime() - Date.parse(o.oldestDueAt)) / 1000) : 0);
      },
    });
  }
}
