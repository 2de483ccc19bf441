// Shared by the benchmark scripts: start our server (or `serve`, a cluster, nginx, a webhook
// receiver) as a child process, wait for it, and drive lead intake with a fixed number of
// keep-alive connections or with wrk; and the run itself (startBench): the environment every
// process of a bench shares, the engines in turn, each figure printed as it is measured, the
// side-by-side table, smoke mode and the exit code; fresh PostgreSQL schemas and free ports.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { buildIfStale, serverEntry } from './build-if-stale.mjs';
import { SERVER_NODE_FLAGS } from './supervise.mjs';
import { openDatabase } from '../server/db/dialect.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');

export interface Child {
  process: ChildProcess;
  url: string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown hooks, no flushing. */
  kill(): Promise<void>;
}

function child(proc: ChildProcess, url: string): Child {
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    process: proc,
    url,
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
}

async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Our server as `npm start` runs it (the build in dist/app, rebuilt when stale), on its own data directory (and a free port unless given). */
export async function startServer(o: { dataDir: string; port?: number; env?: Record<string, string>; base?: { dir: string; entry: string } }): Promise<Child> {
  // `base`: another commit's build (bench-base.ts), run from its own directory as it is.
  if (!o.base && !buildIfStale('  (building: npm run build)')) throw new Error('npm run build failed');
  // As npm start runs it (a base commit: as that commit's did); BENCH_NODE_ARGS="--cpu-prof
  // --cpu-prof-dir=/tmp/prof" profiles the server under load.
  const nodeArgs = [...(o.base ? [] : SERVER_NODE_FLAGS), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const port = o.port ?? (await freePort());
  const proc = spawn(process.execPath, [...nodeArgs, o.base?.entry ?? serverEntry], {
    cwd: o.base?.dir ?? ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env, NODE_ENV: 'production', DATA_DIR: o.dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1',
      LOG_LEVEL: 'warn', INITIAL_ADMIN_PASSWORD: 'Bench-admin-2026!', ...o.env,
    },
  });
  proc.stdout!.resume();
  const c = child(proc, `http://127.0.0.1:${port}`);
  // A loaded machine may take a while to migrate and seed a fresh database.
  await waitForHttp(`${c.url}/api/health`, Number(process.env.BENCH_START_TIMEOUT_MS ?? 180_000));
  return c;
}

/** `serve` (the npm package) on a directory (on a free port unless given). */
export async function startServe(dir: string, port?: number): Promise<Child> {
  port ??= await freePort();
  const main = path.join(ROOT, 'node_modules/serve/build/main.js');
  const proc = spawn(process.execPath, [main, '-L', '-n', '-l', `tcp://127.0.0.1:${port}`, dir], { cwd: ROOT, stdio: 'ignore' });
  const c = child(proc, `http://127.0.0.1:${port}`);
  await waitForHttp(c.url);
  return c;
}


export interface LoadResult {
  /** Answers by status code. */
  statuses: Record<number, number>;
  ok: number;
  errors: number;
  /** Per-request latency in ms, sorted. */
  latencies: number[];
  /** The bodies of 2xx requests' `phone` field. */
  acked: string[];
  seconds: number;
}

/**
 * `connections` loops, each sending one request at a time on its own keep-alive socket
 * until the deadline; a request in flight at the deadline is waited for, so every
 * request sent has its answer counted.
 */
export async function intakeLoad(o: {
  url: string;
  connections: number;
  durationMs: number;
  body: (n: number) => { json: string; phone: string };
  /** Stop early (the crash test kills the server). */
  signal?: AbortSignal;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const target = new URL(o.url);
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  const acked: string[] = [];
  let errors = 0;
  let n = 0;
  const started = performance.now();
  const deadline = started + o.durationMs;

  const post = (json: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(json);
    });

  const loop = async () => {
    while (performance.now() < deadline && !o.signal?.aborted) {
      const { json, phone } = o.body(n++);
      const t0 = performance.now();
      try {
        const status = await post(json);
        latencies.push(performance.now() - t0);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status >= 200 && status < 300) acked.push(phone);
      } catch {
        errors++;
        if (o.signal?.aborted) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  await Promise.all(Array.from({ length: o.connections }, loop));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const ok = Object.entries(statuses).filter(([s]) => Number(s) >= 200 && Number(s) < 300).reduce((a, [, c]) => a + c, 0);
  return { statuses, ok, errors, latencies, acked, seconds: (performance.now() - started) / 1000 };
}

/** A form token from the landing's HTML. */
export async function tokenOf(pageUrl: string): Promise<string> {
  const html = await (await fetch(pageUrl)).text();
  const m = /name="_t" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no form token in ${pageUrl}`);
  return m[1]!;
}

/** The demo dental landing (SEED_DEMO) that the crash tests load. */
export const DEMO_LANDING_PATH = '/view/smile-dental/implant-event';
/** The name their leads carry: the demo's own leads, whose phones may share a prefix, never do. */
const CRASH_LEAD_NAME = '장애시험';

/** Its JSON submission number n, with the unique phone `${prefix}` + n in 7 digits (prefix: 4 digits, 010x). */
export const demoLead = (token: string, prefix: string) => (n: number) => {
  const phone = `${prefix}${String(n).padStart(7, '0')}`;
  const body = { shopCode: 'smile-dental', landingCode: 'implant-event', name: CRASH_LEAD_NAME, phone, privacyConsent: true, treatment: '임플란트', _t: token };
  return { phone, json: JSON.stringify(body) };
};

/**
 * The demoLead() leads of a database (a SQLite file, or a PostgreSQL schema) whose phone starts
 * with `prefix`: phone → whether its access-record event ('created', written a moment after its
 * batch committed, by intake or, after a crash, by the restarted worker) is there too.
 */
export async function storedLeads(database: { url: string; pgSchema?: string }, prefix: string): Promise<Map<string, boolean>> {
  const { db, close } = await openDatabase({ ...database, poolSize: 2 });
  try {
    const rows = await db
      .selectFrom('leads as l')
      .leftJoin('lead_events as e', (j) => j.onRef('e.lead_id', '=', 'l.id').on('e.action', '=', 'created'))
      .select(['l.phone', 'e.id as event'])
      .where('l.phone', 'like', `${prefix}%`)
      .where('l.name', '=', CRASH_LEAD_NAME)
      .execute();
    return new Map(rows.map((r) => [r.phone, r.event !== null]));
  } finally {
    await close();
  }
}

/**
 * The Debian programs the benches drive: wrk generates the HTTP load (a C program on its own
 * thread takes a fraction of the CPU a Node load generator would, and on a 2-core machine that
 * CPU is the server's); nginx is bench:cluster's yardstick and proxy. Installed with apt-get
 * when missing (.ci/run installs both before the smoke run, as it installs Chromium).
 */
export function ensureProgram(program: 'wrk' | 'nginx'): void {
  const found = () => spawnSync(program, ['-v'], { stdio: 'ignore' }).error === undefined;
  if (found()) return;
  console.log(`  (installing ${program}: apt-get install -y ${program})`);
  spawnSync('apt-get', ['install', '-y', '-q', program], { stdio: 'ignore' });
  if (!found()) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    spawnSync('apt-get', ['install', '-y', '-q', program], { stdio: 'ignore' });
  }
  if (!found()) throw new Error(`${program} is needed: apt-get install ${program}`);
}

/** Runs wrk with one thread (the other core is the server's) and returns what it printed. */
function wrk(args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn('wrk', ['-t1', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${out}`))));
  });
}

/** GET requests per second over `seconds`, failing on any non-2xx answer or socket error. */
export async function wrkGetRate(url: string, o: { connections: number; seconds: number; headers: Record<string, string>; allowTimeouts?: boolean }): Promise<number> {
  const headerArgs = Object.entries(o.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const out = await wrk([`-c${o.connections}`, `-d${o.seconds}s`, ...headerArgs, url]);
  // `allowTimeouts`: an answer slower than wrk's 2 s (a machine loaded by other work) is no failure.
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const hard = errors ? Number(errors[1]) + Number(errors[2]) + Number(errors[3]) + (o.allowTimeouts ? 0 : Number(errors[4])) : 0;
  if (/Non-2xx/.test(out) || hard > 0) throw new Error(`${url}: ${out}`);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!rate) throw new Error(`no rate in wrk output: ${out}`);
  return Number(rate[1]);
}

export interface WrkIntakeResult {
  /** Requests built by the script (wrk builds one again when a write must be retried), 2xx answers, other answers. */
  sent: number;
  ok: number;
  other: number;
  /** From the first request to the last answer. */
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  socketErrors: number;
  statuses: Record<string, number>;
}

/**
 * Lead intake load (scripts/wrk/intake.lua): unique phones `${prefix}…`, sent for `seconds`,
 * then every request in flight is waited for, so the answers can be compared with stored rows.
 */
export async function wrkIntake(baseUrl: string, o: { connections: number; seconds: number; token: string; prefix: string }): Promise<WrkIntakeResult> {
  const script = path.join(ROOT, 'scripts/wrk/intake.lua');
  const out = await wrk([`-c${o.connections}`, `-d${o.seconds + 4}s`, '-s', script, baseUrl], {
    TOKEN: o.token, PREFIX: o.prefix, RUN_SECONDS: String(o.seconds),
  });
  const line = /WRK_RESULT (\{.*\})/.exec(out);
  if (!line) throw new Error(`no result in wrk output: ${out}`);
  return JSON.parse(line[1]!) as WrkIntakeResult;
}

/** `npm run start:cluster` (scripts/cluster.mjs) as a child; the pids of its processes by role, as its log names them. */
export interface ClusterChild extends Child {
  pids: { web: Map<number, number>; worker: Map<number, number> };
  /** Waits until `role n` runs with a pid other than `oldPid` (the primary replaced it). */
  replaced(role: 'web' | 'worker', n: number, oldPid: number, timeoutMs?: number): Promise<number>;
}

export async function startCluster(o: { port?: number; env: Record<string, string> }): Promise<ClusterChild> {
  if (!buildIfStale('  (building: npm run build)')) throw new Error('npm run build failed');
  const port = o.port ?? (await freePort());
  const proc = spawn(process.execPath, [path.join(ROOT, 'scripts/cluster.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', INITIAL_ADMIN_PASSWORD: 'Bench-admin-2026!', ...o.env },
  });
  const pids = { web: new Map<number, number>(), worker: new Map<number, number>() };
  let log = '';
  let banner = false;
  const onLine = (d: Buffer) => {
    const text = d.toString();
    log = (log + text).slice(-20_000);
    for (const m of text.matchAll(/\[cluster\] (web|worker) (\d+) 시작 \(pid (\d+)\)/g)) pids[m[1] as 'web' | 'worker'].set(Number(m[2]), Number(m[3]));
    if (text.includes('클러스터 실행 중')) banner = true;
  };
  proc.stdout!.on('data', onLine);
  proc.stderr!.on('data', onLine);
  const c = child(proc, `http://127.0.0.1:${port}`);
  const until = Date.now() + 120_000;
  while (!banner) {
    if (proc.exitCode !== null) throw new Error(`start:cluster exited (${proc.exitCode}):\n${log}`);
    if (Date.now() > until) throw new Error(`start:cluster did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    ...c,
    pids,
    async replaced(role, n, oldPid, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (pids[role].get(n) === oldPid || pids[role].get(n) === undefined) {
        if (Date.now() > end) throw new Error(`${role} ${n} was not replaced:\n${log}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return pids[role].get(n)!;
    },
  };
}

/** nginx (Debian's) on a config written to `dir` (its pid and logs there too). */
export async function startNginx(dir: string, conf: string, url: string): Promise<Child> {
  ensureProgram('nginx');
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, conf);
  const test = spawnSync('nginx', ['-t', '-q', '-p', dir, '-c', file], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused ${file}: ${test.stderr}`);
  const proc = spawn('nginx', ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const c = child(proc, url);
  await waitForHttp(url);
  return c;
}

/** Receipts per Idempotency-Key of a webhook receiver (node:http on 127.0.0.1, answers 200 at once). */
export interface Receiver {
  url: string;
  perKey: Map<string, number>;
  total(): number;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const perKey = new Map<string, number>();
  let total = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = String(req.headers['idempotency-key']);
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
      total++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 11 }).end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/leads`,
    perKey,
    total: () => total,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Rows printed as a table: the first row is the header, columns padded to their widest cell (the first left-aligned). */
export function printTable(rows: string[][]): void {
  const width = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const [n, r] of rows.entries()) {
    console.log(`  ${r.map((cell, c) => (c === 0 || c === r.length - 1 ? cell.padEnd(width[c]!) : cell.padStart(width[c]!))).join('  ')}`.trimEnd());
    if (n === 0) console.log(`  ${'─'.repeat(width.reduce((a, w) => a + w + 2, -2))}`);
  }
}

/** The engines the side-by-side benches measure. */
export type Engine = 'sqlite' | 'postgres';
export const ENGINE_LABEL: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** One row of a side-by-side table: per column, what to print and whether the goal is met (undefined: no goal). */
export interface Figure<C extends string = Engine> {
  key: string;
  label: string;
  goal: string;
  values: Partial<Record<C, { text: string; ok?: boolean }>>;
}

// ── A bench run ────────────────────────────────────────────────────────────────────────

/** `--name=value` → 'value', `--name` → '', absent → undefined. */
export function argOf(name: string): string | undefined {
  const hit = process.argv.slice(2).find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : hit.includes('=') ? hit.slice(hit.indexOf('=') + 1) : '';
}

/**
 * `--smoke`: does the bench still run to its end? Tiny data, a second or two of load, every
 * engine (PostgreSQL out of reach is a failure, not a skip), no goals: a smoke run's figures
 * mean nothing on a loaded machine. `npm run bench:smoke` runs every bench so, in CI.
 */
export const SMOKE = argOf('smoke') !== undefined;

/** The full run's size, or the smoke run's. */
export const sized = <T>(full: T, smoke: T): T => (SMOKE ? smoke : full);

/**
 * One LANDING_SECRET for every process of a bench run. Without it each process signs forms with
 * the secret file of its own data directory, and a second process on the same PostgreSQL
 * database refuses to start (the database keeps the secret's fingerprint; render-stamp.ts). A
 * fixed value, not a random one: bench:leads reuses its databases from run to run, and each
 * keeps the fingerprint of the first secret it saw.
 */
export const BENCH_LANDING_SECRET = 'leadroom-bench-landing-secret, not for production';

/**
 * Set in this process's environment, so an app built here (build() reads process.env) and every
 * child a bench starts (each inherits it) agree: the landing secret, and — for a bench whose
 * apps or workers deliver to a webhook receiver on 127.0.0.1 — the loopback range the delivery's
 * outbound-address guard would otherwise refuse.
 */
function shareEnv(o: { loopbackReceivers?: boolean }): void {
  process.env.LANDING_SECRET ||= BENCH_LANDING_SECRET;
  if (o.loopbackReceivers) process.env.OUTBOUND_ALLOW_CIDRS = '127.0.0.0/8';
}

export interface Bench<C extends string> {
  /** A figure of one column, printed at once (a later failure loses nothing); `ok` says whether it meets its goal. */
  record(key: string, label: string, goal: string, column: C, text: string, ok?: boolean): void;
  /** A figure no column changes (a page's bytes, its Lighthouse scores): printed at once, and in a table of its own. */
  recordOnce(key: string, label: string, goal: string, text: string, ok?: boolean): void;
  /** A check of correctness, not speed (stored rows = acknowledged leads): a failure even in smoke mode. */
  check(what: string, passed: boolean): void;
  /** Measures one column; a throw is that column's failure, reported, and the run goes on with the next. */
  column(column: C, measure: () => Promise<void>): Promise<boolean>;
  /** A part outside the columns (what no engine changes), with the same handling of a failure. */
  part(title: string, measure: () => Promise<void>): Promise<boolean>;
  /** A column not measured: `--only`, or its database out of reach (`unreachable`: a failure in smoke mode). */
  skip(column: C, why: string, unreachable?: boolean): void;
  /** The figures side by side, what failed, and the exit code: 1 on a failure, and outside smoke mode on a missed goal. */
  finish(): void;
}

/**
 * A bench run over `columns` (the engines, or setups such as a cluster): shares the environment
 * of its processes (shareEnv) and says whether this is a smoke run.
 */
export function startBench<C extends string = Engine>(title: string, columns: Record<C, string>, o: { loopbackReceivers?: boolean } = {}): Bench<C> {
  shareEnv(o);
  const figures: Figure<C>[] = [];
  const once: Array<{ key: string; label: string; goal: string; text: string; ok?: boolean }> = [];
  // A smoke run's figures are not held against their goals: no ✓ or ✗ beside them.
  const verdict = (ok?: boolean) => (ok === undefined || SMOKE ? '' : ok ? ' ✓' : ' ✗');
  const printed = (label: string, goal: string, text: string, ok?: boolean) =>
    console.log(`  ▸ ${label.trim()}: ${text}${goal ? `  (goal ${goal}${verdict(ok)})` : verdict(ok)}`);
  const mark = (v: { text: string; ok?: boolean }) => `${v.text}${verdict(v.ok)}`;
  const notMeasured: Partial<Record<C, string>> = {};
  const failures: string[] = [];
  const fail = (what: string, err?: unknown) => {
    failures.push(err === undefined ? what : `${what} (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`);
    console.error(`  ✗ ${what}${err === undefined ? '' : `: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`}`);
  };
  const guarded = async (name: string, measure: () => Promise<void>) => {
    const t0 = performance.now();
    try {
      await measure();
      console.log(`  (${name}: ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      return true;
    } catch (err) {
      fail(`${name} failed`, err);
      return false;
    }
  };
  console.log(`\n${title}${SMOKE ? ' — SMOKE RUN (tiny data, short load, goals not checked)' : ''}`);
  return {
    record(key, label, goal, column, text, ok) {
      let f = figures.find((x) => x.key === key);
      if (!f) figures.push((f = { key, label, goal, values: {} }));
      f.values[column] = { text, ok };
      printed(label, goal, text, ok);
    },
    recordOnce(key, label, goal, text, ok) {
      once.push({ key, label, goal, text, ok });
      printed(label, goal, text, ok);
    },
    check(what, passed) {
      if (!passed) fail(what);
    },
    async column(column, measure) {
      console.log(`\n━━ ${columns[column]} ━━`);
      const ok = await guarded(columns[column], measure);
      if (!ok) notMeasured[column] = 'FAILED';
      return ok;
    },
    async part(name, measure) {
      console.log(`\n━━ ${name} ━━`);
      return guarded(name, measure);
    },
    skip(column, why, unreachable = false) {
      notMeasured[column] = unreachable ? 'not reachable' : why;
      console.log(`\n━━ ${columns[column]} ━━\n  skipped: ${why}`);
      if (unreachable && SMOKE) fail(`${columns[column]}: a smoke run runs every engine`);
    },
    finish() {
      const keys = Object.keys(columns) as C[];
      if (once.length) {
        console.log('');
        printTable([['figure', 'value', 'goal'], ...once.map((f) => [f.label, mark(f), f.goal])]);
      }
      if (figures.length) {
        const rows: string[][] = [['figure', ...keys.map((k) => columns[k]), 'goal']];
        for (const f of figures) {
          const cell = (k: C) => {
            const v = f.values[k];
            return v ? mark(v) : (notMeasured[k] ?? '—');
          };
          rows.push([f.label, ...keys.map(cell), f.goal]);
        }
        console.log('');
        printTable(rows);
      }
      const missed = [...once.filter((f) => f.ok === false), ...figures.filter((f) => Object.values<{ ok?: boolean } | undefined>(f.values).some((v) => v?.ok === false))];
      console.log('');
      if (SMOKE) console.log('  goals not checked (smoke run)');
      else console.log(missed.length ? `  goals missed: ${missed.map((f) => f.key).join(', ')}` : '  every goal met');
      if (failures.length) console.log(`  FAILED: ${failures.join('; ')}`);
      console.log('');
      if (failures.length || (!SMOKE && missed.length)) process.exitCode = 1;
    },
  };
}

/**
 * SQLite, then PostgreSQL, each through `measure` as a column of `bench`: `--only=sqlite|postgres`
 * leaves the other out, and PostgreSQL out of reach is skipped (a failure in smoke mode).
 */
export async function eachEngine(bench: Bench<Engine>, measure: (engine: Engine) => Promise<void>): Promise<void> {
  const only = argOf('only');
  if (only !== undefined && only !== 'sqlite' && only !== 'postgres') throw new Error(`--only=${only}: sqlite or postgres`);
  for (const engine of Object.keys(ENGINE_LABEL) as Engine[]) {
    if (only && only !== engine) {
      bench.skip(engine, 'not run (--only)');
      continue;
    }
    const problem = engine === 'postgres' ? await pgReachable() : null;
    if (problem) bench.skip(engine, `${redact(PG_URL)} is not reachable (${problem})`, true);
    else await bench.column(engine, () => measure(engine));
  }
}

// ── Databases and ports ────────────────────────────────────────────────────────────────

/** The PostgreSQL server the benches use (a schema of their own in it). */
export const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** A database URL with its password left out, for the console. */
export const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//…@');

/** PG_URL on one schema (the server and the workers take the schema from the URL's options). */
export function pgUrlOf(schema: string): string {
  const u = new URL(PG_URL);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

async function pgQuery<T extends object = Record<string, unknown>>(text: string): Promise<T[]> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end().catch(() => {});
  }
}

/** Null when PG_URL answers, else why not. */
export async function pgReachable(): Promise<string | null> {
  try {
    await pgQuery('select 1');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

let schemaSeq = 0;

/**
 * A fresh schema of PG_URL for this run, `<prefix>_<pid>_<n>`: runs side by side on one server
 * never share one, and the schemas a killed run left (its pid gone) are dropped here first.
 */
export async function freshSchema(prefix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const left = await pgQuery<{ nspname: string }>(`select nspname from pg_namespace where nspname like '${prefix}\\_%'`);
  for (const { nspname } of left) {
    const pid = Number(new RegExp(`^${prefix}_(\\d+)_\\d+$`).exec(nspname)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) await pgQuery(`drop schema if exists "${nspname}" cascade`);
  }
  const name = `${prefix}_${process.pid}_${++schemaSeq}`;
  await pgQuery(`drop schema if exists "${name}" cascade; create schema "${name}"`);
  return { name, url: pgUrlOf(name), drop: async () => void (await pgQuery(`drop schema if exists "${name}" cascade`)) };
}

/** A port free now (the system's pick), so benches on a shared machine never collide on a fixed one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The p-th quantile (0…1) of ascending numbers, nearest rank. */
export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
