// npm run start:cluster — the same build as npm start, as several processes on one machine:
// WEB_PROCESSES web processes (default one per core) serving one port with WORKER=0, and
// WORKER_PROCESSES background workers (default 1: deliveries and scheduled jobs, no HTTP), all
// on PostgreSQL (DATABASE_URL) with Redis (REDIS_URL) for what they must share. A child that dies
// is started again (with a growing pause when it keeps dying); SIGTERM / SIGINT stops every
// child gracefully (each marks /api/ready 503 and drains) and exits when all are gone.
import cluster from 'node:cluster';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { buildIfStale, root, serverEntry } from './build-if-stale.mjs';
import { restartDelay, restartLine, SERVER_NODE_FLAGS, supervisorLog } from './supervise.mjs';

/** scripts/worker.ts as compiled by tsconfig.server.json. */
const workerEntry = path.join(root, 'dist/app/scripts/worker.js');

const env = process.env;
const fail = (lines) => {
  process.stderr.write(`\n${lines.map((l) => `  ${l}`).join('\n')}\n\n`);
  process.exit(1);
};

function count(name, fallback, min) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) fail([`${name}은(는) ${min} 이상의 정수여야 합니다: ${raw}`, `${name} must be an integer ≥ ${min}: ${raw}`]);
  return n;
}

// ── Settings, checked before anything starts ─────────────────────────────────────────────

if (!/^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? '')) {
  fail([
    'start:cluster는 PostgreSQL에서만 실행합니다 (DATABASE_URL=postgres://…).',
    'SQLite는 한 번에 한 프로세스만 쓸 수 있으니, 한 대에서는 npm start를 사용하세요.',
    'start:cluster needs PostgreSQL (DATABASE_URL=postgres://…): SQLite has one writer; use npm start.',
  ]);
}
if ((env.LANDING_SECRET?.trim().length ?? 0) < 16) {
  fail([
    'start:cluster에는 LANDING_SECRET이 필요합니다: 모든 프로세스가 같은 값으로 랜딩 폼 토큰을 서명하고 확인해야 합니다.',
    '16자 이상의 임의 문자열, 예: LANDING_SECRET=$(openssl rand -hex 32)  (모든 서버에 같은 값)',
    'LANDING_SECRET (16+ characters) is required: every process must sign and check landing form tokens with the same secret.',
  ]);
}
const WEB = count('WEB_PROCESSES', os.availableParallelism(), 1);
const WORKERS = count('WORKER_PROCESSES', 1, 0);
// CLUSTER_SCHED=none (default: the children accept on the shared socket themselves) or rr
// (Node's Linux default: the primary accepts every connection and hands it over). Measured with
// `npm run bench:cluster -- --compare-sched` on 2 cores: a cached landing GET through 2 web
// processes 73k req/s with none against 37k with rr (nginx serving the same bytes: 79k / 54k).
const SCHED = (env.CLUSTER_SCHED ?? 'none').toLowerCase();
if (SCHED !== 'rr' && SCHED !== 'none') fail([`CLUSTER_SCHED는 rr 또는 none입니다: ${env.CLUSTER_SCHED}`, `CLUSTER_SCHED must be rr or none`]);
cluster.schedulingPolicy = SCHED === 'rr' ? cluster.SCHED_RR : cluster.SCHED_NONE;

const PORT = env.PORT || '3000';
const HOST = env.HOST || '127.0.0.1';
const jsonLogs = env.LOG_FORMAT === 'json';
const redacted = (url) => url.replace(/\/\/[^@/]*@/, '//…@');

if (!buildIfStale()) process.exit(1);
if (!fs.existsSync(workerEntry)) {
  // A build from before the worker entry was compiled: build once more.
  const run = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0 || !fs.existsSync(workerEntry)) fail([`${workerEntry} 없음: npm run build를 확인하세요.`]);
}

// ── Children ─────────────────────────────────────────────────────────────────────────────

/** One slot per process the cluster keeps running: its role, its number, its failures in a row. */
const slots = [
  ...Array.from({ length: WEB }, (_, i) => ({ role: 'web', n: i + 1, fails: 0, child: null, startedAt: 0, timer: null })),
  ...Array.from({ length: WORKERS }, (_, i) => ({ role: 'worker', n: i + 1, fails: 0, child: null, startedAt: 0, timer: null })),
];
const label = (slot) => `${slot.role} ${slot.n}`;
let closing = false;
let bannerShown = false;
let lastOutputAt = 0;

const log = supervisorLog('cluster', jsonLogs);

/**
 * Children write to pipes read here: each line is passed on (prefixed with the child's role
 * unless the logs are JSON), except the start banner of every web process but the very first
 * one — that one carries the one-time passwords of a first start.
 */
function forward(stream, out, slot, showBanner) {
  let inBanner = false;
  readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    lastOutputAt = Date.now();
    if (!showBanner && /^\s+─{20,}\s*$/.test(line)) {
      inBanner = !inBanner;
      return;
    }
    if (inBanner) return;
    out.write(jsonLogs || line === '' ? `${line}\n` : `[${label(slot)}] ${line}\n`);
  });
}

function start(slot) {
  slot.timer = null;
  const showBanner = slot.role === 'web' && slot.n === 1 && !bannerShown;
  cluster.setupPrimary({ exec: slot.role === 'web' ? serverEntry : workerEntry, silent: true, execArgv: [...process.execArgv, ...SERVER_NODE_FLAGS] });
  const child = cluster.fork({
    NODE_ENV: 'production',
    ...env,
    LEADROOM_CLUSTER: '1',
    // Web processes serve HTTP only; the workers do the background work and listen on nothing.
    WORKER: slot.role === 'web' ? '0' : '1',
  });
  slot.child = child;
  slot.startedAt = Date.now();
  forward(child.process.stdout, process.stdout, slot, showBanner);
  forward(child.process.stderr, process.stderr, slot, showBanner);
  if (showBanner) bannerShown = true;
  log(`${label(slot)} 시작 (pid ${child.process.pid})`);
  child.once('exit', (code, signal) => exited(slot, child, code, signal));
  return child;
}

function exited(slot, child, code, signal) {
  if (slot.child !== child) return;
  slot.child = null;
  if (closing) {
    log(`${label(slot)} 종료 (pid ${child.process.pid})`);
    if (slots.every((s) => !s.child)) {
      log('모든 프로세스가 종료되었습니다.');
      process.exit(0);
    }
    return;
  }
  const delay = restartDelay(slot);
  log(restartLine(`${label(slot)} (pid ${child.process.pid})이(가)`, code, signal, delay));
  slot.timer = setTimeout(() => start(slot), delay);
}

function shutdown(signal) {
  if (closing) {
    // A second signal: stop waiting for the drain.
    log(`${signal}: 남은 프로세스를 바로 끝냅니다.`);
    for (const s of slots) s.child?.process.kill('SIGKILL');
    return;
  }
  closing = true;
  log(`${signal}: 모든 프로세스를 정상 종료합니다 (준비 상태 503 → 처리 중인 요청 마무리).`);
  for (const s of slots) if (s.timer) clearTimeout(s.timer);
  const live = slots.filter((s) => s.child);
  if (!live.length) process.exit(0);
  for (const s of live) s.child.process.kill('SIGTERM');
  // Each child forces its own exit after its drain time; this is the last resort.
  setTimeout(() => {
    log('30초 안에 끝나지 않은 프로세스를 강제로 끝냅니다.');
    for (const s of slots) s.child?.process.kill('SIGKILL');
  }, 30_000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));

// The first web process starts alone: it migrates the database and seeds a first start
// (migrations also take a lock, but seeding the administrator twice is better avoided by
// not racing at all); the others start once it is ready. It listens while it migrates
// (/api/ready answers 503 then), so 'listening' alone is not enough: /api/ready must say 200.
const first = start(slots[0]);
const readyUrl = `http://${HOST === '0.0.0.0' || HOST === '::' ? '127.0.0.1' : HOST.includes(':') ? `[${HOST}]` : HOST}:${PORT}/api/ready`;
await new Promise((resolve) => {
  const onExit = (code) => {
    if (closing) return;
    process.stderr.write(`\n  첫 웹 프로세스가 시작하지 못했습니다 (코드 ${code}). 위 로그를 확인하세요.\n  The first web process failed to start.\n\n`);
    process.exit(1);
  };
  first.once('exit', onExit);
  first.once('listening', async () => {
    for (;;) {
      const status = await globalThis.fetch(readyUrl).then((r) => r.status, () => 0);
      // 404: a build without /api/ready, where listening comes after migrating.
      if (status === 200 || status === 404) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    first.off('exit', onExit);
    resolve();
  });
});
const up = slots.slice(1).map((slot) => {
  const child = start(slot);
  return new Promise((resolve) => child.once(slot.role === 'web' ? 'listening' : 'online', resolve));
});
// The banner comes last: after every child is up and has printed its own start-up lines
// (the first web process's carries the one-time passwords of a first start).
await Promise.race([Promise.all(up), new Promise((resolve) => setTimeout(resolve, 20_000))]);
for (const until = Date.now() + 10_000; Date.now() - lastOutputAt < 400 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
if (closing) await new Promise(() => {});

const dbUrl = new URL(env.DATABASE_URL);
const schema = /search_path=("?)([^"\s&]+)\1/.exec(decodeURIComponent(dbUrl.searchParams.get('options') ?? ''))?.[2];
const rule = '  ' + '─'.repeat(64);
process.stdout.write([
  '',
  rule,
  `  Leadroom 클러스터 실행 중: http://${HOST.includes(':') ? `[${HOST}]` : HOST}:${PORT}`,
  `  웹 프로세스 ${WEB}개 (스케줄링 ${SCHED === 'rr' ? 'SCHED_RR: 주 프로세스가 연결을 나눠 줌' : 'SCHED_NONE: 각 프로세스가 직접 연결을 받음'}) · 워커 프로세스 ${WORKERS}개`,
  `  데이터베이스: PostgreSQL ${dbUrl.host}${dbUrl.pathname}${schema ? ` (schema ${schema})` : ''}`,
  env.REDIS_URL
    ? `  Redis: ${redacted(env.REDIS_URL)}`
    : '  Redis: 없음 — 로그인·접수 속도 제한이 프로세스마다 따로 셉니다 (REDIS_URL 권장)',
  `  주 프로세스 pid ${process.pid}: 끝내려면 Ctrl+C (또는 kill -TERM ${process.pid})`,
  rule,
  '',
].join('\n') + '\n');
// METRICS_PORT: the primary answers /metrics on 127.0.0.1 with every child's metrics summed
// (prom-client's AggregatorRegistry asks each child over the cluster's channel).
if (env.METRICS_PORT) {
  const { serveClusterMetrics } = await import(path.join(root, 'dist/app/server/plugins/metrics.js'));
  serveClusterMetrics(Number(env.METRICS_PORT));
  log(`모든 프로세스의 지표: http://127.0.0.1:${env.METRICS_PORT}/metrics`);
}
if (!env.REDIS_URL) log('경고: REDIS_URL이 없습니다. 속도 제한이 프로세스마다 따로입니다. / warning: no REDIS_URL, rate limits are per process.');
if (WORKERS === 0) log('경고: WORKER_PROCESSES=0 — 전송과 예약 작업을 하는 프로세스가 없습니다 (다른 곳에서 npm run worker를 실행하세요).');
