// npm start: builds once when there is no build yet (or it is older than the sources), then runs it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const marker = path.join(root, 'dist/app/server/main.js');

function newest(dir) {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const sources = ['contracts', 'server', 'admin-spa', 'pages'].map((d) => newest(path.join(root, d)));
const stale = !fs.existsSync(marker) || Math.max(...sources) > fs.statSync(marker).mtimeMs;
if (stale) {
  console.log('빌드 중… (처음 한 번, 약 1분)');
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const run = spawnSync(process.execPath, [marker], { cwd: root, stdio: 'inherit', env: { NODE_ENV: 'production', ...process.env } });
process.exit(run.status ?? 0);
