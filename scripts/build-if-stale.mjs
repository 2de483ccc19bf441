// The build `npm start` runs (dist/app/server/main.js), rebuilt when it is missing or older
// than the sources. Used by npm start and by the benchmarks, which measure what ships.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const serverEntry = path.join(root, 'dist/app/server/main.js');

function newest(dir) {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/**
 * Builds when stale; returns false when the build failed. The build's own listing (every
 * chunk) is shown only when it fails: a first start ends with the banner, not with it.
 */
export function buildIfStale(note = '빌드 중… (처음 한 번, 약 1분)') {
  const sources = ['contracts', 'server', 'admin-spa', 'pages'].map((d) => newest(path.join(root, d)));
  const stale = !fs.existsSync(serverEntry) || Math.max(...sources) > fs.statSync(serverEntry).mtimeMs;
  if (!stale) return true;
  console.log(note);
  const started = Date.now();
  const run = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    process.stdout.write(run.stdout ?? '');
    process.stderr.write(run.stderr ?? '');
    console.error('빌드에 실패했습니다 (위 내용 참고).');
    return false;
  }
  console.log(`빌드 완료 (${Math.round((Date.now() - started) / 1000)}초)`);
  return true;
}
