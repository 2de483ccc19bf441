// npm run worker: the background work alone — the delivery worker (the outbox's webhooks,
// e-mails and SMS) and the scheduled jobs (the automatic purge, reopening landings at
// midnight) — on DATABASE_URL, without serving HTTP. At scale: web processes with WORKER=0
// npm start, and as many of these as the deliveries need (PostgreSQL: they share the queue,
// each job claimed by one; SQLite: one process writes at a time, so run at most one, or keep
// the worker inside npm start). SIGTERM / SIGINT: stops taking jobs, lets the sends still out
// finish (or hands their jobs back), then exits. Its heartbeat shows in every web process's
// /api/health; with METRICS_PORT its own metrics (deliveries sent and failed by channel kind,
// the outbox) are served at http://127.0.0.1:METRICS_PORT/metrics for Prometheus.
import { build } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { serveMetrics } from '../server/plugins/metrics.ts';

// No intake here: no writer thread for it either.
const config = { ...loadConfig(), workerEnabled: true, intakeWriterThread: false };
// On an empty database the first start creates the administrator: its one-time password is shown as npm start shows it.
const notes: string[] = [];
const app = await build({ config, onSeed: (m) => notes.push(m) });
await app.ready();
// Nothing listens on a port: this keeps the process up until a signal.
const keepAlive = setInterval(() => {}, 1 << 30);
// Loopback only: the worker's metrics for a Prometheus on this machine (or its agent).
const metricsPort = Number(process.env.METRICS_PORT);
const metricsServer = metricsPort > 0
  ? serveMetrics(metricsPort, async () => ({ text: await app.metrics.registry.metrics(), contentType: app.metrics.registry.contentType }))
  : null;

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'worker shutting down');
  const force = setTimeout(() => process.exit(1), 15_000);
  force.unref();
  try {
    metricsServer?.close();
    await app.close();
    clearInterval(keepAlive);
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'worker shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

const where = app.dialect === 'postgres' ? 'PostgreSQL' : `SQLite: ${config.databaseUrl}`;
process.stdout.write(`Leadroom 워커 실행 중 (${where}; 동시 전송 ${config.deliveryConcurrency}건, HTTP 없음). 끝내려면 Ctrl+C\n${notes.map((n) => `  ${n}\n`).join('')}`);
