// Shared by the benchmark scripts: start our server (or `serve`) as a child process, wait
// for it, and drive lead intake with a fixed number of keep-alive connections.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildIfStale, serverEntry } from './build-if-stale.mjs';

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

/** Our server as `npm start` runs it (the build in dist/app, rebuilt when stale), on its own data directory. */
export async function startServer(o: { dataDir: string; port: number; env?: Record<string, string> }): Promise<Child> {
  if (!buildIfStale('  (building: npm run build)')) throw new Error('npm run build failed');
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, serverEntry], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env, NODE_ENV: 'production', DATA_DIR: o.dataDir, DATABASE_URL: '', PORT: String(o.port), HOST: '127.0.0.1',
      LOG_LEVEL: 'warn', INITIAL_ADMIN_PASSWORD: 'Bench-admin-2026!', ...o.env,
    },
  });
  proc.stdout!.resume();
  const c = child(proc, `http://127.0.0.1:${o.port}`);
  await waitForHttp(`${c.url}/api/health`);
  return c;
}

/** `serve` (the npm package) on a directory. */
export async function startServe(dir: string, port: number): Promise<Child> {
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

/**
 * wrk (Debian's package) generates the HTTP load: a C program on its own thread takes a
 * fraction of the CPU a Node load generator would, and on a 2-core machine that CPU is the
 * server's. Installed with apt-get when missing (as .ci/run installs Chromium).
 */
export function ensureWrk(): void {
  const found = () => spawnSync('wrk', ['-v'], { stdio: 'ignore' }).error === undefined;
  if (found()) return;
  console.log('  (installing wrk: apt-get install -y wrk)');
  spawnSync('apt-get', ['install', '-y', '-q', 'wrk'], { stdio: 'ignore' });
  if (!found()) throw new Error('wrk is needed for the HTTP load: apt-get install wrk');
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
export async function wrkGetRate(url: string, o: { connections: number; seconds: number; headers: Record<string, string> }): Promise<number> {
  const headerArgs = Object.entries(o.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const out = await wrk([`-c${o.connections}`, `-d${o.seconds}s`, ...headerArgs, url]);
  if (/Non-2xx|Socket errors/.test(out)) throw new Error(`${url}: ${out}`);
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

export async function startCluster(o: { port: number; env: Record<string, string> }): Promise<ClusterChild> {
  if (!buildIfStale('  (building: npm run build)')) throw new Error('npm run build failed');
  const proc = spawn(process.execPath, [path.join(ROOT, 'scripts/cluster.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', PORT: String(o.port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', INITIAL_ADMIN_PASSWORD: 'Bench-admin-2026!', ...o.env },
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
  const c = child(proc, `http://127.0.0.1:${o.port}`);
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

export async function startReceiver(port: number): Promise<Receiver> {
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
    url: `http://127.0.0.1:${port}/leads`,
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

/** One row of a side-by-side table: per engine, what to print and whether the goal is met (undefined: no goal). */
export interface Figure {
  key: string;
  label: string;
  goal: string;
  values: Partial<Record<Engine, { text: string; ok?: boolean }>>;
}

/** The figures of a run, recorded engine by engine into rows keyed by `key`. */
export function engineFigures() {
  const figures: Figure[] = [];
  return {
    figures,
    record(key: string, label: string, goal: string, engine: Engine, text: string, ok?: boolean) {
      let f = figures.find((x) => x.key === key);
      if (!f) figures.push((f = { key, label, goal, values: {} }));
      f.values[engine] = { text, ok };
    },
  };
}

/** The p-th quantile (0…1) of ascending numbers, nearest rank. */
export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
