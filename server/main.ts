// Starts the product: API, landing renderer, SPA and worker on one port.
import cluster from 'node:cluster';
import { build } from './app.ts';
import { loadConfig } from './config.ts';
import { openLandingUrls } from './modules/landings/public/views.ts';
import { listenWhileStarting } from './modules/operations/early-ready.ts';

const config = loadConfig();
const notes: string[] = [];
// The port answers 503 (/api/ready: starting) while the database is migrated and seeded — unless
// this is a child of `npm run start:cluster`: its primary hands connections only to children that
// listen, so a child listens once it can serve (a replaced child takes no requests before then).
const early = cluster.isWorker ? null : await listenWhileStarting(config.port, config.host);
const app = await build({ config, onSeed: (m) => notes.push(m) });

let closing = false;
/**
 * A stop in two steps: first draining — /api/ready answers 503 while every other request is
 * still served, for READY_DRAIN_MS, so a load balancer's health check takes this process out
 * before it goes — then closing: no new connections, requests under way finish, the worker
 * hands back its jobs, the database closes.
 */
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.readiness.drain();
  app.log.info({ signal, drainMs: config.readyDrainMs }, config.readyDrainMs ? 'draining before shutdown' : 'shutting down');
  const force = setTimeout(() => process.exit(1), config.readyDrainMs + 10_000);
  force.unref();
  try {
    if (config.readyDrainMs) {
      await new Promise((resolve) => setTimeout(resolve, config.readyDrainMs));
      app.log.info({ signal }, 'shutting down');
    }
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await early?.close();
await app.listen({ port: config.port, host: config.host });
// Under npm start's supervisor (scripts/supervise.mjs): it learns that this server got as far as
// serving (a crash from here on is restarted), and this server stops if the supervisor is gone.
if (process.send && !cluster.isWorker) {
  process.send('listening');
  process.once('disconnect', () => void shutdown('supervisor gone'));
}
const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
const landings = await openLandingUrls(app.db, config.publicOrigin ?? base);
// The banner comes last, after every start-up log line, so the one-time passwords stay in view.
const rule = '  ' + '─'.repeat(64);
const lines = [
  '',
  rule,
  `  Leadroom 실행 중 (${app.dialect === 'postgres' ? 'PostgreSQL' : `SQLite: ${config.databaseUrl}`})`,
  `  관리 화면:  ${base}/bclog`,
  ...(notes.length ? notes.map((n) => `  ${n}`) : ['  관리자: admin (처음 시작할 때 표시한 비밀번호)']),
  ...(landings.length ? ['  공개 랜딩:', ...landings.slice(0, 5).map((u) => `    ${u}`)] : []),
  ...(landings.length > 5 ? [`    … 외 ${landings.length - 5}개`] : []),
  '  비밀번호를 잊었다면:  npm run admin:reset-password  (다른 계정: -- 아이디)',
  rule,
  '',
];
process.stdout.write(lines.join('\n') + '\n');
