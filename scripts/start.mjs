// npm start: builds once when there is no build yet (or it is older than the sources), then runs it.
import { spawnSync } from 'node:child_process';
import { buildIfStale, root, serverEntry } from './build-if-stale.mjs';

if (!buildIfStale()) process.exit(1);
const run = spawnSync(process.execPath, [serverEntry], { cwd: root, stdio: 'inherit', env: { NODE_ENV: 'production', ...process.env } });
process.exit(run.status ?? 0);
