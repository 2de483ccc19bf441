// Starts the product: API, landing renderer, SPA and worker on one port.
import { build } from './app.ts';
import { loadConfig } from './config.ts';
import { openLandingUrls } from './modules/landings/landing-view.ts';

const config = loadConfig();
const notes: string[] = [];
const app = await build({ config, onSeed: (m) => notes.push(m) });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
const landings = await openLandingUrls(app.db, config.publicOrigin ?? base);
const lines = [
  '',
  `  Leadroom 실행 중 (${app.dialect === 'postgres' ? 'PostgreSQL' : `SQLite: ${config.databaseUrl}`})`,
  `  관리자 로그인:  ${base}/bclog`,
  ...notes.map((n) => `  ${n}`),
  ...(landings.length ? ['  공개 랜딩:', ...landings.slice(0, 5).map((u) => `    ${u}`)] : []),
  ...(landings.length > 5 ? [`    … 외 ${landings.length - 5}개`] : []),
  '',
];
process.stdout.write(lines.join('\n') + '\n');
