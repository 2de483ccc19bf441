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

/** What each step of `npm run build` makes, as a person starting the product reads it. */
const STEP_LABELS = {
  'build:pages': '랜딩 페이지 (Vike)',
  'build:spa': '관리 화면 (antd) 묶기와 미리 압축',
  'build:server': '서버 (TypeScript → JavaScript)',
};

/** The steps of package.json's `build` script ("npm run a && npm run b …"), one source for both. */
export function buildSteps() {
  const scripts = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
  return scripts.build.split('&&').map((part) => {
    const name = /^npm run (\S+)$/.exec(part.trim())?.[1];
    if (!name || !scripts[name]) throw new Error(`build-if-stale: cannot read the build step "${part.trim()}"`);
    return { name, label: STEP_LABELS[name] ?? name };
  });
}

/** 75 → "1분 15초". */
export const duration = (seconds) => (seconds >= 60 ? `${Math.floor(seconds / 60)}분 ${seconds % 60}초` : `${seconds}초`);

/**
 * Builds when stale, one step of `npm run build` at a time, each named as it starts and timed
 * as it ends; returns false when a step failed. A step's own listing (every chunk) is shown
 * only when it fails: a first start ends with the banner, not with it.
 */
export function buildIfStale(note) {
  const sources = ['contracts', 'server', 'admin-spa', 'pages'].map((d) => newest(path.join(root, d)));
  const first = !fs.existsSync(serverEntry);
  if (!first && Math.max(...sources) <= fs.statSync(serverEntry).mtimeMs) return true;
  // Measured on 2 cores shared with other work: 1 min 53 s (pages 10 s, SPA 66 s, server 38 s).
  console.log(note ?? `${first ? '처음 한 번 빌드합니다' : '소스가 바뀌어 다시 빌드합니다'} (2코어에서 1–2분, 단계마다 표시)`);
  const started = Date.now();
  const steps = buildSteps();
  for (const [i, step] of steps.entries()) {
    process.stdout.write(`  [${i + 1}/${steps.length}] ${step.label} … `);
    const at = Date.now();
    const run = spawnSync('npm', ['run', step.name, '--silent'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) {
      console.log('실패');
      process.stdout.write(run.stdout ?? '');
      process.stderr.write(run.stderr ?? '');
      console.error(`빌드에 실패했습니다: npm run ${step.name} (위 내용 참고).`);
      return false;
    }
    console.log(duration(Math.round((Date.now() - at) / 1000)));
  }
  console.log(`빌드 완료 (${duration(Math.round((Date.now() - started) / 1000))})`);
  return true;
}
