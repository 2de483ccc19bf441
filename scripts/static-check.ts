// npm run test:static (part of npm test): a fresh database with the demo landings, `npm run
// prerender` into dist/client, then `npm run smoke:static` serving it with `serve`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/dialect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { ensureEssentials } from '../server/db/seed.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-static-'));
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
try {
  const config = loadConfig(env);
  const handle = await openDatabase({ url: config.databaseUrl });
  await migrateToLatest(handle.db);
  await ensureEssentials(handle.db, { ...config, seedDemo: true, initialAdminPassword: 'Static-check-1' }, () => {});
  await handle.close();
  for (const script of ['prerender', 'smoke:static']) {
    const r = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', env });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
