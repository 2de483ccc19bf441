// Prometheus metrics at /metrics (prom-client, text format), one registry per app:
// - leadroom_http_request_duration_seconds{method,route,status_class}: every request Fastify
//   routes, by route pattern (a histogram: its _count is the request rate);
// - leadroom_fast_path_requests_total{path}: the hot paths answered before Fastify (a cached
//   landing GET, a JSON lead) — an integer bumped per request, no timing: they run at tens of
//   thousands a second, where a histogram per request costs throughput;
// - leadroom_intake_accepted_total{duplicate}, leadroom_intake_refused_total{reason}: intake's
//   decisions (counted by intake.routes.ts);
// - leadroom_delivery_sent_total{kind}, leadroom_delivery_failures_total{kind,final}: the
//   delivery worker's sends by channel kind (final: no retry follows);
// - the outbox's backlog and lag, read from the database on each scrape (operations module);
// - prom-client's default process metrics (CPU, memory, event loop lag, GC).
// Not for the public: answered to loopback callers that came through no proxy, or with
// `Authorization: Bearer $METRICS_TOKEN`; anyone else gets the ordinary 404.
// In the cluster each process counts its own: the primary aggregates them (clusterMetrics()).
import cluster from 'node:cluster';
import crypto from 'node:crypto';
import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

interface Metrics {
  registry: Registry;
  /** Hot-path answers by kind (plain integers: read at scrape time). */
  fast: { landing: number; intake: number };
  intakeAccepted: Counter<'duplicate'>;
  intakeRefused: Counter<'reason'>;
  deliverySent: Counter<'kind'>;
  deliveryFailures: Counter<'kind' | 'final'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Loopback and not relayed by a proxy (a proxy on this machine would make everyone loopback). */
function fromLoopback(req: IncomingMessage): boolean {
  return LOOPBACK.has(req.socket.remoteAddress ?? '') && req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined;
}

function bearerMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  const given = crypto.createHash('sha256').update(header.slice(7).trim()).digest();
  return crypto.timingSafeEqual(given, crypto.createHash('sha256').update(token).digest());
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const fast = { landing: 0, intake: 0 };
  new Counter({
    name: 'leadroom_fast_path_requests_total',
    help: 'Requests answered before Fastify routing: cached landing pages and JSON leads',
    labelNames: ['path'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ path: 'landing' }, fast.landing);
      this.inc({ path: 'intake' }, fast.intake);
    },
  });
  return {
    registry,
    fast,
    intakeAccepted: new Counter({ name: 'leadroom_intake_accepted_total', help: 'Leads accepted by intake', labelNames: ['duplicate'], registers: [registry] }),
    intakeRefused: new Counter({ name: 'leadroom_intake_refused_total', help: 'Lead submissions refused, by error code', labelNames: ['reason'], registers: [registry] }),
    deliverySent: new Counter({ name: 'leadroom_delivery_sent_total', help: 'Deliveries a receiver accepted, by channel kind', labelNames: ['kind'], registers: [registry] }),
    deliveryFailures: new Counter({
      name: 'leadroom_delivery_failures_total',
      help: 'Delivery sends that failed, by channel kind; final="true" when no retry follows',
      labelNames: ['kind', 'final'],
      registers: [registry],
    }),
  };
}

export function metricsPlugin(app: FastifyInstance): void {
  const metrics = createMetrics();
  app.decorate('metrics', metrics);
  // In a cluster worker the primary asks each process for its registry (clusterMetrics below).
  if (cluster.isWorker) {
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
  }

  const duration = new Histogram({
    name: 'leadroom_http_request_duration_seconds',
    help: 'HTTP requests Fastify routed, by route pattern: latency (its _count is the request count)',
    labelNames: ['method', 'route', 'status_class'],
    buckets: LATENCY_BUCKETS,
    registers: [metrics.registry],
  });
  app.addHook('onResponse', (req, reply, done) => {
    // Unmatched URLs share one label: a scanner's random paths must not grow the series.
    const route = req.routeOptions.url ?? 'unmatched';
    duration.observe({ method: req.method, route, status_class: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
    done();
  });

  app.route({
    method: 'GET',
    url: '/metrics',
    config: { access: { public: true } },
    async handler(req, reply) {
      if (!fromLoopback(req.raw) && !bearerMatches(req.headers.authorization, app.config.metricsToken)) return reply.callNotFound();
      return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  });
}

/**
 * A METRICS_PORT server (`npm run worker`, the cluster's primary): /metrics for loopback callers
 * that came through no proxy, read-only — GET and HEAD; any other method 405 — and 404 for
 * anything else, so the port does nothing but answer a scraper.
 */
export function serveMetrics(port: number, collect: () => Promise<{ text: string; contentType: string }>, host = '127.0.0.1'): http.Server {
  const server = http.createServer((req, res) => {
    if (req.url !== '/metrics' || !fromLoopback(req)) {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    collect().then(
      ({ text, contentType }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`# ${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  return server.listen(port, host);
}

/**
 * For the cluster's primary (scripts/cluster.mjs): every worker process's metrics, aggregated
 * (counters and histograms summed; the outbox gauges, which every process reads from the same
 * database, take the maximum).
 */
export function serveClusterMetrics(port: number, host = '127.0.0.1'): http.Server {
  const aggregator = new AggregatorRegistry();
  return serveMetrics(port, async () => ({ text: await aggregator.clusterMetrics(), contentType: aggregator.contentType }), host);
}
