// npm run bench:smoke — every benchmark in its smoke mode (--smoke: tiny data, a second or two of
// load, SQLite and PostgreSQL, goals not checked), one after the other, then a pass/fail line per
// bench. It proves each bench still runs to its end, not how fast anything is; CI runs it after
// npm test (.ci/run). Exit code 1 when a bench failed, or did not end within its time limit (its
// whole process group — servers, workers, wrk, nginx — is stopped then).
//
// The benches need PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test),
// Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379/12, flushed by bench:cluster), Debian's
// wrk and nginx (installed when missing) and Chromium (bench:landing's one Lighthouse run, bench:spa's screens).
import { spawn } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';
import { printTable, ROOT } from './bench-kit.ts';

/** Each bench's npm script, and how long its smoke run may take on a loaded 2-core machine before it counts as hung. */
const BENCHES = [
  { script: 'bench', limitS: 120 },
  { script: 'bench:landing', limitS: 480 },
  { script: 'bench:crash', limitS: 300 },
  { script: 'bench:leads', limitS: 480 },
  { script: 'bench:delivery', limitS: 480 },
  { script: 'bench:cluster', limitS: 480 },
  { script: 'bench:spa', limitS: 300 },
];

interface Outcome {
  script: string;
  passed: boolean;
  seconds: number;
  why: string;
}

let current: number | null = null;
const stopGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
};
// Ctrl+C reaches the bench's own process group only through us.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (current) stopGroup(current, 'SIGTERM');
    process.exit(130);
  });
}

function run(script: string, limitS: number): Promise<Outcome> {
  console.log(`\n════ npm run ${script} -- --smoke ════`);
  const t0 = performance.now();
  return new Promise((resolve) => {
    // A process group of its own, so that a bench past its limit is stopped with every process it started.
    const child = spawn('npm', ['run', '--silent', script, '--', '--smoke'], { cwd: ROOT, stdio: 'inherit', detached: true });
    current = child.pid!;
    let timedOut = false;
    const limit = setTimeout(() => {
      timedOut = true;
      console.error(`\n  ${script}: still running after ${limitS} s — stopping it`);
      stopGroup(child.pid!, 'SIGTERM');
      setTimeout(() => stopGroup(child.pid!, 'SIGKILL'), 10_000).unref();
    }, limitS * 1000);
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      current = null;
      // A bench that exited may have left a child behind (a server it did not stop): nothing of it outlives the run.
      stopGroup(child.pid!, 'SIGKILL');
      const seconds = (performance.now() - t0) / 1000;
      const why = timedOut ? `did not end within ${limitS} s` : code === 0 ? '' : signal ? `killed by ${signal}` : `exit code ${code}`;
      resolve({ script, passed: !why, seconds, why });
    });
  });
}

if (!buildIfStale('  (building: npm run build)')) process.exit(1);
const started = performance.now();
const outcomes: Outcome[] = [];
for (const b of BENCHES) outcomes.push(await run(b.script, b.limitS));

const failed = outcomes.filter((o) => !o.passed);
console.log(`\n════ bench smoke run: ${outcomes.length - failed.length} of ${outcomes.length} ran to their end, ${((performance.now() - started) / 1000).toFixed(0)} s ════\n`);
printTable([['bench', 'result', 'seconds', ''], ...outcomes.map((o) => [`npm run ${o.script}`, o.passed ? 'pass' : 'FAIL', o.seconds.toFixed(0), o.why])]);
console.log('');
if (failed.length) process.exitCode = 1;
