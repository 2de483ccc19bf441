// npm run drill — faults across hosts. On this one machine, network namespaces stand in for
// machines on one network (10.77.0.0/24, a bridge in a namespace of its own): nginx
// (deploy/nginx.conf with its listen, upstreams, pid and log paths changed), two web hosts
// (`WORKER=0`, the build `npm start` runs), one worker host (`npm run worker`'s build),
// PostgreSQL (a throwaway cluster, initdb into a temporary directory) and Redis (no
// persistence), each in its own namespace; this process (10.77.0.1) drives lead intake through
// nginx and receives the webhook deliveries (HTTPS, its certificate trusted by the worker alone).
// While intake and delivery run, one fault after another:
//   1. PostgreSQL restarts (pg_ctl restart -m fast);
//   2. Redis stops and comes back 5 s later;
//   3. web host 1 loses its route to PostgreSQL for 10 s (a blackhole route in its namespace);
//   4. the worker is SIGKILLed and started again.
// Per fault: acknowledged (2xx) leads, stored leads, delivered leads, repeats under one
// Idempotency-Key, intake's refusals and slowest answer, and the seconds until intake answers
// 201 again. It fails (exit code 1) when an acknowledged lead is missing, a stored lead is not
// delivered or is delivered under two keys, intake answers anything but 201 or a 503 with a
// Korean message (a 500, a 502 from nginx, no answer within HANG_MS), intake is not back within
// 60 s, a landing GET through nginx answers anything but 200 during a fault, or a process dies
// that was not killed on purpose. Needs root, `ip netns` and the servers' binaries; without them
// it says why and exits 0.
// Everything it made (namespaces, processes, the temporary directory) goes at the end, also on
// failure or Ctrl+C; a run killed outright is cleaned up by the next. DRILL_KEEP=1 keeps the
// temporary directory: every host's log, nginx's access log, PostgreSQL's log.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildIfStale, root as ROOT, serverEntry } from './build-if-stale.mjs';
import { printTable } from './bench-kit.ts';
import { openDatabase, type DbHandle } from '../server/db/dialect.ts';

const NET = '10.77.0';
const NS = 'lrdrill-';
/** The driver's own address: nginx's client and the webhook receiver. */
const DRIVER = `${NET}.1`;
const HOSTS = { nginx: 10, web1: 11, web2: 12, worker: 20, pg: 30, redis: 31 } as const;
type Host = keyof typeof HOSTS;
const addr = (h: Host) => `${NET}.${HOSTS[h]}`;
const WEB_PORT = 3000;
const RECEIVER_PORT = 8443;
const PAGE = '/view/smile-dental/implant-event';
const NGINX = `http://${addr('nginx')}`;
const DATABASE_URL = `postgres://postgres@${addr('pg')}:5432/leadroom`;
const REDIS_URL = `redis://${addr('redis')}:6379`;
const SECRET = crypto.randomBytes(32).toString('hex');
const WORKER_ENTRY = path.join(ROOT, 'dist/app/scripts/worker.js');
/** Intake connections through nginx, each sending one lead at a time, a short pause between. */
const CONNECTIONS = 4;
const PAUSE_MS = 20;
/**
 * An intake answer slower than this is a hang. Shorter than the route cut plus TCP's backoff (13 s
 * for the 10 s cut): the app must give up a dead connection itself, not wait for the network to
 * come back (nginx would wait 120 s).
 */
const HANG_MS = 12_000;
/** A landing GET slower than this fails the drill. */
const PAGE_MS = 5_000;
/** Intake must answer 201 again within this after a fault ended. */
const BACK_WITHIN_MS = 60_000;
/** After a fault: intake answers nothing but 201 for this long before the phase ends. */
const STEADY_MS = 3_000;
/** Stored leads must all be delivered within this after the load stops. */
const DRAIN_MS = 90_000;
/** A claimed delivery goes back to the queue after this when its worker died (the default is 60 s). */
const LEASE_MS = 5_000;
const KOREAN = /[가-힣]/;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const secs = (ms: number) => (ms / 1000).toFixed(1);

// ── Can it run here? ────────────────────────────────────────────────────────────────────────

interface RunOptions {
  /** Inside this network namespace. */
  ns?: string;
  /** As this user. */
  user?: string;
  allowFail?: boolean;
}

function argvOf(cmd: string, args: string[], o: RunOptions): string[] {
  let argv = [cmd, ...args];
  if (o.user) argv = ['runuser', '-u', o.user, '--', ...argv];
  if (o.ns) argv = ['ip', 'netns', 'exec', o.ns, ...argv];
  return argv;
}

const failure = (argv: string[], code: number | string | null, output: string) => new Error(`${argv.join(' ')} failed (${code}): ${output.trim()}`);

/** A command to its end (set-up and clean-up: nothing else runs meanwhile). */
function run(cmd: string, args: string[], o: RunOptions = {}): string {
  const argv = argvOf(cmd, args, o);
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 90_000 });
  if (r.status !== 0 && !o.allowFail) throw failure(argv, r.status ?? r.signal, r.stderr || r.stdout || String(r.error ?? ''));
  return r.stdout ?? '';
}

/** A command while the load goes on (the faults): the event loop keeps sending and counting. */
function runAsync(cmd: string, args: string[], o: RunOptions = {}): Promise<string> {
  const argv = argvOf(cmd, args, o);
  return new Promise((resolve, reject) => {
    const p = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 || o.allowFail ? resolve(out) : reject(failure(argv, code, out))));
  });
}

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

function pgBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin/initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0]!, 'bin') : null;
}

/** Why the drill cannot run on this machine, or null. */
function cannotRun(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'network namespaces need root (run it as root, e.g. in CI)';
  for (const cmd of ['ip', 'nginx', 'redis-server', 'runuser', 'openssl']) if (!has(cmd)) return `${cmd} is not installed`;
  if (!pgBin()) return 'PostgreSQL server binaries (/usr/lib/postgresql/<version>/bin) are not installed';
  if (spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status !== 0) return 'there is no postgres user to run PostgreSQL as';
  const probe = `${NS}probe`;
  const made = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (made.status !== 0) return `ip netns add failed: ${made.stderr.trim()}`;
  const bridge = spawnSync('ip', ['netns', 'exec', probe, 'ip', 'link', 'add', 'br0', 'type', 'bridge'], { encoding: 'utf8' });
  spawnSync('ip', ['netns', 'del', probe]);
  if (bridge.status !== 0) return `no bridge device: ${bridge.stderr.trim()}`;
  const taken = run('ip', ['-o', '-4', 'addr', 'show'], { allowFail: true }).split('\n').find((l) => l.includes(` ${NET}.`) && !l.includes('lrd-'));
  if (taken) return `${NET}.0/24 is already in use on this machine: ${taken.trim()}`;
  return null;
}

// ── Cleaning up: synchronous, so it runs from any exit path ────────────────────────────────

const state = { work: '', pgData: '', owner: false, cleaned: false, children: new Set<ChildProcess>() };

/** One drill at a time on a machine: the lock names the running drill's pid and temporary directory. */
const LOCK = path.join(os.tmpdir(), 'leadroom-drill.lock');

/** Takes the lock, tidying up after a drill killed outright; answers the pid of a drill still running instead. */
function takeLock(): number | null {
  try {
    const held = JSON.parse(fs.readFileSync(LOCK, 'utf8')) as { pid: number; work: string };
    try {
      process.kill(held.pid, 0);
      if (held.pid !== process.pid) return held.pid;
    } catch {
      // its drill is gone: its directory goes too (its namespaces go in teardownNetwork)
      if (path.basename(held.work).startsWith('leadroom-drill-')) fs.rmSync(held.work, { recursive: true, force: true });
    }
  } catch {
    // no lock
  }
  fs.writeFileSync(LOCK, JSON.stringify({ pid: process.pid, work: state.work }));
  state.owner = true;
  return null;
}

function ourNamespaces(): string[] {
  return run('ip', ['netns', 'list'], { allowFail: true }).split('\n').map((l) => l.split(' ')[0]!).filter((n) => n.startsWith(NS));
}

const pidsIn = (ns: string) => run('ip', ['netns', 'pids', ns], { allowFail: true }).split('\n').map(Number).filter((n) => n > 0);

function signal(pids: number[], sig: NodeJS.Signals) {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

/** Waits (blocking: it runs from exit handlers too) until `done`, at most `ms`. */
function waitSync(done: () => boolean, ms: number) {
  for (let i = 0; i < ms / 100 && !done(); i++) spawnSync('sleep', ['0.1']);
}

/**
 * Stops every process in the drill's namespaces (by their ids), deletes the namespaces and the
 * driver's link. PostgreSQL first, with SIGQUIT (its immediate shutdown): killed outright, it
 * would leave its shared memory segment behind.
 */
function teardownNetwork() {
  const pg = NS + 'pg';
  if (ourNamespaces().includes(pg)) {
    signal(pidsIn(pg), 'SIGQUIT');
    waitSync(() => !pidsIn(pg).length, 10_000);
  }
  for (const ns of ourNamespaces()) signal(pidsIn(ns), 'SIGKILL');
  // A namespace with a process still in it lives on unseen: give the kills a moment.
  waitSync(() => ourNamespaces().every((ns) => !pidsIn(ns).length), 5_000);
  for (const ns of ourNamespaces()) run('ip', ['netns', 'del', ns], { allowFail: true });
  run('ip', ['link', 'del', 'lrd-root'], { allowFail: true });
}

function cleanup() {
  if (state.cleaned || !state.owner) return;
  state.cleaned = true;
  for (const c of state.children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  teardownNetwork();
  if (state.work && process.env.DRILL_KEEP === '1') console.log(`  DRILL_KEEP=1: the logs of every host are kept in ${state.work}`);
  else if (state.work) fs.rmSync(state.work, { recursive: true, force: true });
  fs.rmSync(LOCK, { force: true });
}

// ── The network ─────────────────────────────────────────────────────────────────────────────

function buildNetwork() {
  const sw = `${NS}switch`;
  run('ip', ['netns', 'add', sw]);
  run('ip', ['link', 'set', 'lo', 'up'], { ns: sw });
  run('ip', ['link', 'add', 'br0', 'type', 'bridge'], { ns: sw });
  run('ip', ['link', 'set', 'br0', 'up'], { ns: sw });
  const plug = (port: string) => {
    run('ip', ['link', 'set', port, 'master', 'br0'], { ns: sw });
    run('ip', ['link', 'set', port, 'up'], { ns: sw });
  };
  for (const h of Object.keys(HOSTS) as Host[]) {
    const ns = NS + h;
    run('ip', ['netns', 'add', ns]);
    run('ip', ['link', 'add', `lrd-${h}`, 'netns', sw, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
    plug(`lrd-${h}`);
    run('ip', ['link', 'set', 'lo', 'up'], { ns });
    run('ip', ['addr', 'add', `${addr(h)}/24`, 'dev', 'eth0'], { ns });
    run('ip', ['link', 'set', 'eth0', 'up'], { ns });
  }
  // The driver, in the root namespace: one more port on the switch.
  run('ip', ['link', 'add', 'lrd-root', 'type', 'veth', 'peer', 'name', 'lrd-drv', 'netns', sw]);
  plug('lrd-drv');
  run('ip', ['addr', 'add', `${DRIVER}/24`, 'dev', 'lrd-root']);
  run('ip', ['link', 'set', 'lrd-root', 'up']);
}

// ── Processes on the hosts ──────────────────────────────────────────────────────────────────

interface Proc {
  name: string;
  child: ChildProcess;
  log: string;
  /** Killed on purpose: its exit is not a failure. */
  expected: boolean;
  exited: Promise<void>;
}

/** Processes that exited without being told to, with how. */
const unexpectedExits: string[] = [];

function startIn(host: Host, name: string, cmd: string, args: string[], env: Record<string, string> = {}): Proc {
  const log = path.join(state.work, `${name}.log`);
  const fd = fs.openSync(log, 'a');
  // Only what the drill sets: a DATABASE_URL, PUBLIC_ORIGIN or SMTP_URL of the caller's shell must not reach the hosts.
  const child = spawn('ip', ['netns', 'exec', NS + host, cmd, ...args], {
    cwd: ROOT, stdio: ['ignore', fd, fd], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
  });
  fs.closeSync(fd);
  state.children.add(child);
  const proc: Proc = {
    name, child, log, expected: false,
    exited: new Promise((resolve) => child.once('exit', (code, signal) => {
      state.children.delete(child);
      if (!proc.expected) unexpectedExits.push(`${name} exited (${signal ?? `code ${code}`})\n${logTail(proc, 12)}`);
      resolve();
    })),
  };
  return proc;
}

async function stopProc(p: Proc, signal: NodeJS.Signals = 'SIGTERM') {
  p.expected = true;
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  await p.exited;
}

function logTail(p: { name: string; log: string }, lines = 15): string {
  const text = fs.existsSync(p.log) ? fs.readFileSync(p.log, 'utf8').trimEnd().split('\n').slice(-lines) : [];
  return `  ── ${p.name} (${p.log}) ──\n${text.map((l) => `    ${l.slice(0, 400)}`).join('\n')}`;
}

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 200): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await Promise.resolve().then(ok).catch(() => false)) return;
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(everyMs);
  }
}

/** One HTTP request with a deadline; never rejects (status 0 and the error instead). */
function request(url: string, o: { method?: string; body?: string; headers?: Record<string, string>; timeoutMs: number; agent?: http.Agent }) {
  return new Promise<{ status: number; body: string; error?: string; upstream?: string }>((resolve) => {
    const req = http.request(url, { method: o.method ?? 'GET', agent: o.agent, headers: { ...o.headers, ...(o.body ? { 'content-length': Buffer.byteLength(o.body) } : {}) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += body.length < 256 * 1024 ? c : ''));
      const upstream = res.headers['x-drill-upstream'] as string | undefined;
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ...(upstream ? { upstream } : {}) }));
      res.on('error', (err) => resolve({ status: 0, body, error: err.message }));
    });
    req.setTimeout(o.timeoutMs, () => req.destroy(new Error(`no answer within ${o.timeoutMs / 1000} s`)));
    req.on('error', (err) => resolve({ status: 0, body: '', error: err.message }));
    req.end(o.body);
  });
}

const answers = async (url: string, status = 200) => (await request(url, { timeoutMs: 3000 })).status === status;

// ── PostgreSQL and Redis ────────────────────────────────────────────────────────────────────

function pgCtl(...args: string[]): Promise<string> {
  return runAsync(path.join(pgBin()!, 'pg_ctl'), ['-D', state.pgData, '-l', path.join(state.pgData, 'server.log'), '-w', '-t', '60', ...args], { ns: NS + 'pg', user: 'postgres' });
}

async function startPostgres(): Promise<void> {
  state.pgData = path.join(state.work, 'pg');
  fs.mkdirSync(state.pgData);
  run('chown', ['postgres:postgres', state.pgData]);
  run(path.join(pgBin()!, 'initdb'), ['-D', state.pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], { user: 'postgres' });
  // A throwaway cluster: no fsync (every fault here is a clean stop or a network cut, never a
  // power loss); its socket in its own directory (the machine's PostgreSQL may use the default).
  fs.appendFileSync(path.join(state.pgData, 'postgresql.conf'), [
    '', `listen_addresses = '${addr('pg')}'`, 'port = 5432', `unix_socket_directories = '${state.pgData}'`,
    'fsync = off', 'full_page_writes = off', 'shared_buffers = 32MB', 'max_connections = 100',
    // For a failure's diagnosis: who waited on whose lock, and which host each backend served.
    'log_lock_waits = on', `log_line_prefix = '%m [%p] %r '`, '',
  ].join('\n'));
  fs.appendFileSync(path.join(state.pgData, 'pg_hba.conf'), `\nhost all all ${NET}.0/24 trust\n`);
  await pgCtl('start');
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: DATABASE_URL.replace(/\/leadroom$/, '/postgres'), connectionTimeoutMillis: 5000 });
  await c.connect();
  await c.query('create database leadroom');
  await c.end();
}

let redis: Proc | null = null;

async function startRedis(): Promise<void> {
  const dir = path.join(state.work, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  redis = startIn('redis', 'redis', 'redis-server', [
    '--bind', addr('redis'), '--port', '6379', '--save', '', '--appendonly', 'no', '--protected-mode', 'no', '--daemonize', 'no', '--dir', dir,
  ]);
  await waitFor('redis', () => redisPing(), 20_000);
}

/** PING over a plain socket: `+PONG`. */
function redisPing(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new net.Socket();
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('error', () => done(false));
    s.once('data', (d) => done(d.toString().startsWith('+PONG')));
    s.connect(6379, addr('redis'), () => s.write('PING\r\n'));
  });
}

// ── The product's processes, nginx and the receiver ─────────────────────────────────────────

/** What every process of the product gets: one database, one Redis, one secret, nginx trusted for the client address. */
function appEnv(host: Host, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production', DATABASE_URL, REDIS_URL, LANDING_SECRET: SECRET, TRUST_PROXY: '1',
    DATA_DIR: path.join(state.work, host), HOST: addr(host), PORT: String(WEB_PORT),
    INTAKE_RATE_LIMIT: '0', SEED_DEMO: '1', INITIAL_ADMIN_PASSWORD: 'Drill-admin-2026!',
    // The webhook receiver is on the drill's own network (the outbound-address guard refuses private addresses otherwise).
    OUTBOUND_ALLOW_CIDRS: `${NET}.0/24`,
    DELIVERY_LEASE_MS: String(LEASE_MS), LOG_FORMAT: 'json', LOG_LEVEL: 'warn', ...extra,
  };
}

const web: Partial<Record<'web1' | 'web2', Proc>> = {};
let worker: Proc | null = null;

async function startWeb(h: 'web1' | 'web2'): Promise<void> {
  const p = startIn(h, h, process.execPath, [serverEntry], appEnv(h, { WORKER: '0' }));
  web[h] = p;
  // The first start migrates and seeds the demo (60 days of leads) under a lock: allow for a slow machine.
  await waitFor(`${h} ready`, async () => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`${h} exited while starting\n${logTail(p)}`);
    return answers(`http://${addr(h)}:${WEB_PORT}/api/ready`);
  }, 180_000, 300).catch((err: unknown) => {
    throw p.child.exitCode !== null ? err : new Error(`${(err as Error).message}\n${logTail(p)}`);
  });
}

async function startWorker(): Promise<void> {
  const p = startIn('worker', 'worker', process.execPath, [WORKER_ENTRY], appEnv('worker', { NODE_EXTRA_CA_CERTS: path.join(state.work, 'receiver.pem') }));
  worker = p;
  await waitFor('worker ready', () => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`worker exited while starting\n${logTail(p)}`);
    return fs.readFileSync(p.log, 'utf8').includes('워커 실행 중');
  }, 120_000, 300);
}

/** deploy/nginx.conf with its listen, upstream servers (the two web hosts), pid and log paths changed, one worker process. */
function nginxConf(dir: string): string {
  const conf = fs.readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
  const upstreams = [addr('web1'), addr('web2')];
  let servers = 0;
  const out = conf
    .replace(/^worker_processes .*;$/m, 'worker_processes 1;')
    .replace(/^pid .*;$/m, `pid ${dir}/nginx.pid;`)
    .replace(/\/var\/log\/nginx\//g, `${dir}/`)
    .replace(/^(\s*)listen 80;$/m, `$1listen ${addr('nginx')}:80;`)
    // The drill's own addition: which web host answered (slow answers are told apart by host).
    .replace(/^(\s*)proxy_http_version 1\.1;$/m, `$&\n$1add_header X-Drill-Upstream $upstream_addr always;`)
    .replace(/^(\s*)server \d+\.\d+\.\d+\.\d+:\d+( .*)?;$/gm, (_, indent: string, rest: string | undefined) => {
      const a = upstreams[servers++];
      return a ? `${indent}server ${a}:${WEB_PORT}${rest ?? ''};` : '';
    });
  if (servers < 2 || !out.includes(`listen ${addr('nginx')}:80;`) || !out.includes('X-Drill-Upstream')) throw new Error('deploy/nginx.conf: no listen line or fewer than two upstream servers to point at the web hosts');
  return out;
}

let nginx: Proc | null = null;

async function startNginx(): Promise<void> {
  const dir = path.join(state.work, 'nginx');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, nginxConf(dir));
  run('nginx', ['-t', '-q', '-p', dir, '-c', file], { ns: NS + 'nginx' });
  nginx = startIn('nginx', 'nginx', 'nginx', ['-p', dir, '-c', file, '-g', 'daemon off;']);
  await waitFor('nginx', () => answers(NGINX + PAGE), 60_000);
}

/** Receipts per Idempotency-Key: an HTTPS receiver on the driver's address, answering 200 at once. */
interface Receiver {
  url: string;
  perKey: Map<string, number>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const key = path.join(state.work, 'receiver.key');
  const cert = path.join(state.work, 'receiver.pem');
  run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert,
    '-days', '1', '-subj', '/CN=leadroom-drill-receiver', '-addext', `subjectAltName=IP:${DRIVER}`]);
  const perKey = new Map<string, number>();
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const k = String(req.headers['idempotency-key']);
      perKey.set(k, (perKey.get(k) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 11 }).end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(RECEIVER_PORT, DRIVER, resolve));
  return {
    url: `https://${DRIVER}:${RECEIVER_PORT}/leads`,
    perKey,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// ── Load: intake through nginx, and a landing GET now and then ──────────────────────────────

interface Answer {
  phone: string;
  sentAt: number;
  at: number;
  status: number;
  body: string;
  error?: string;
  /** The web host that answered (nginx's upstream address). */
  upstream?: string;
}

/** Intake on CONNECTIONS keep-alive connections until stop(); every answer kept. */
function intakeLoad(token: string, prefix: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const out: Answer[] = [];
  let n = 0;
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      const phone = `${prefix}${String(n++).padStart(11 - prefix.length, '0')}`;
      const body = JSON.stringify({ shopCode: 'smile-dental', landingCode: 'implant-event', name: '장애훈련', phone, privacyConsent: true, treatment: '임플란트', _t: token });
      const sentAt = Date.now();
      const r = await request(`${NGINX}/api/public/leads`, { method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'application/json' }, timeoutMs: HANG_MS, agent });
      out.push({ phone, sentAt, at: Date.now(), status: r.status, body: r.body, ...(r.error ? { error: r.error } : {}), ...(r.upstream ? { upstream: r.upstream } : {}) });
      await sleep(r.status === 201 ? PAUSE_MS : 200);
    }
  };
  const loops = Array.from({ length: CONNECTIONS }, loop);
  return {
    answers: out,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** GETs of the landing through nginx every 300 ms until stop(). */
function pageProbe() {
  const out: Array<{ status: number; error?: string }> = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const r = await request(NGINX + PAGE, { headers: { 'accept-encoding': 'br' }, timeoutMs: PAGE_MS });
      out.push({ status: r.status, ...(r.error ? { error: r.error } : {}) });
      await sleep(300);
    }
  })();
  return {
    answers: out,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

// ── One fault ───────────────────────────────────────────────────────────────────────────────

interface Fault {
  name: string;
  /** Brings the fault about and ends it; answers when it began and ended. */
  act(): Promise<{ began: number; ended: number }>;
}

interface Outcome {
  name: string;
  acked: number;
  stored: number;
  delivered: number;
  twoKeys: number;
  repeats: number;
  refused: number;
  /** Answers that are neither 201 nor a proper refusal (500, 502, no answer within HANG_MS …), with an example. */
  bad: number;
  badExample: string | null;
  /** The slowest intake answer through each web host (ms). */
  slowest: { web1: number; web2: number };
  /** ms from the fault's beginning to the first 201 after the last refusal; null when intake never refused. */
  backAfterBegin: number | null;
  backAfterEnd: number | null;
  pages: { ok: number; all: number };
  problems: string[];
}

/** A refusal the drill accepts: 503 with the house's error body and a Korean message. */
function properRefusal(a: Answer): boolean {
  if (a.status !== 503) return false;
  try {
    const m = (JSON.parse(a.body) as { error?: { code?: unknown; message?: unknown } }).error;
    return typeof m?.code === 'string' && typeof m.message === 'string' && KOREAN.test(m.message);
  } catch {
    return false;
  }
}

async function withDb<T>(fn: (h: DbHandle) => Promise<T>): Promise<T> {
  const h = await openDatabase({ url: DATABASE_URL, poolSize: 2 });
  try {
    return await fn(h);
  } finally {
    await h.close();
  }
}

async function drill(fault: Fault, n: number, ctx: { token: string; channelId: number; receiver: Receiver }): Promise<Outcome> {
  const prefix = `0101${n}`;
  const before = await withDb(async (h) => Number((await sql<{ n: number }>`select coalesce(max(id), 0) as n from leads`.execute(h.db)).rows[0]!.n));
  const exitsBefore = unexpectedExits.length;
  const load = intakeLoad(ctx.token, prefix);
  const probe = pageProbe();
  const problems: string[] = [];
  let times: { began: number; ended: number };
  try {
    await sleep(STEADY_MS);
    times = await fault.act();
    // Back: a 201 after the fault ended, and nothing but 201 for STEADY_MS.
    const back = await waitFor('intake back', () => {
      const after = load.answers.filter((a) => a.at >= times.ended);
      const last = after.at(-1);
      const lastBad = after.findLast((a) => a.status !== 201);
      return !!last && last.status === 201 && Date.now() - (lastBad?.at ?? times.ended) >= STEADY_MS;
    }, BACK_WITHIN_MS, 100).then(() => true, () => false);
    if (!back) problems.push(`intake did not answer 201 steadily within ${BACK_WITHIN_MS / 1000} s after the fault ended`);
  } finally {
    await Promise.all([load.stop(), probe.stop()]);
  }
  const answersOf = load.answers;
  const acked = new Set(answersOf.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.phone));
  const refused = answersOf.filter(properRefusal);
  const bad = answersOf.filter((a) => a.status !== 201 && !properRefusal(a));
  const lastRefusal = answersOf.filter((a) => a.status !== 201).reduce((m, a) => Math.max(m, a.at), 0);
  const firstBack = lastRefusal ? answersOf.filter((a) => a.status === 201 && a.at > lastRefusal).reduce((m, a) => Math.min(m, a.at), Infinity) : null;

  // The outbox drains: every job of this fault's leads sent (a killed worker's claims come back after the lease).
  const { stored, jobs } = await withDb(async (h) => {
    const open = async () => Number((await sql<{ n: number }>`select count(*) as n from delivery_jobs j join leads l on l.id = j.lead_id
      where j.channel_id = ${ctx.channelId} and l.id > ${before} and l.phone like ${prefix + '%'} and j.status <> 'succeeded'`.execute(h.db)).rows[0]!.n);
    await waitFor('deliveries drained', async () => (await open()) === 0, DRAIN_MS, 250).catch(() => {});
    await sleep(500); // a repeat of a send already recorded would arrive now
    const storedRows = await h.db.selectFrom('leads').select(['id', 'phone']).where('id', '>', before).where('phone', 'like', `${prefix}%`).execute();
    const jobRows = await h.db.selectFrom('delivery_jobs').select(['lead_id', 'idempotency_key', 'status'])
      .where('channel_id', '=', ctx.channelId).where('lead_id', '>', before).execute();
    return { stored: storedRows, jobs: jobRows };
  });
  const storedPhones = new Set(stored.map((r) => r.phone));
  const keysByLead = new Map<number, string[]>();
  for (const j of jobs) keysByLead.set(j.lead_id, [...(keysByLead.get(j.lead_id) ?? []), j.idempotency_key]);
  let delivered = 0;
  let twoKeys = 0;
  let repeats = 0;
  for (const l of stored) {
    const received = (keysByLead.get(l.id) ?? []).filter((k) => ctx.receiver.perKey.has(k));
    if (received.length) delivered++;
    if (received.length > 1) twoKeys++;
    for (const k of received) repeats += ctx.receiver.perKey.get(k)! - 1;
  }
  const missing = [...acked].filter((p) => !storedPhones.has(p));
  if (missing.length) problems.push(`${missing.length} acknowledged leads not stored (e.g. ${missing[0]})`);
  if (delivered < stored.length) problems.push(`${stored.length - delivered} stored leads not delivered within ${DRAIN_MS / 1000} s`);
  if (twoKeys) problems.push(`${twoKeys} leads delivered under more than one Idempotency-Key`);
  if (bad.length) problems.push(`${bad.length} intake answers neither 201 nor a 503 with a Korean message`);
  const pages = probe.answers;
  const pageBad = pages.filter((p) => p.status !== 200);
  if (pageBad.length) problems.push(`${pageBad.length} of ${pages.length} landing GETs through nginx did not answer 200 (e.g. ${pageBad[0]!.status || pageBad[0]!.error})`);
  for (const e of unexpectedExits.slice(exitsBefore)) problems.push(e);
  // When it was sent, relative to the fault: a hang's cause is told apart by that (and by the host logs, PostgreSQL's lock waits).
  const example = (a: Answer | undefined) => (a
    ? `${a.status || a.error} ${a.body.slice(0, 160)}`.trim() + ` (sent ${secs(a.sentAt - times!.began)} s after the fault began${a.upstream ? `, through ${a.upstream}` : ''})`
    : null);
  return {
    name: fault.name, acked: acked.size, stored: stored.length, delivered, twoKeys, repeats,
    refused: refused.length, bad: bad.length, badExample: example(bad[0]),
    slowest: {
      web1: answersOf.filter((a) => a.upstream?.startsWith(addr('web1'))).reduce((m, a) => Math.max(m, a.at - a.sentAt), 0),
      web2: answersOf.filter((a) => !a.upstream?.startsWith(addr('web1'))).reduce((m, a) => Math.max(m, a.at - a.sentAt), 0),
    },
    backAfterBegin: firstBack !== null && Number.isFinite(firstBack) ? firstBack - times!.began : null,
    backAfterEnd: firstBack !== null && Number.isFinite(firstBack) ? Math.max(0, firstBack - times!.ended) : null,
    pages: { ok: pages.length - pageBad.length, all: pages.length },
    problems,
  };
}

const HEADER = ['fault', 'acked', 'stored', 'delivered', '2 keys', 'repeats', '503', 'other', 'slowest web1 / web2', '201 again', 'landing 200'];

function row(o: Outcome): string[] {
  const back = o.backAfterBegin === null ? 'never refused' : `${secs(o.backAfterBegin)} s after begin / ${secs(o.backAfterEnd!)} s after end`;
  return [o.name, fmt(o.acked), fmt(o.stored), fmt(o.delivered), fmt(o.twoKeys), fmt(o.repeats), fmt(o.refused), fmt(o.bad), `${secs(o.slowest.web1)} / ${secs(o.slowest.web2)} s`, back, `${o.pages.ok}/${o.pages.all}`];
}

// ── The faults ──────────────────────────────────────────────────────────────────────────────

const FAULTS: Fault[] = [
  {
    name: 'PostgreSQL restarts',
    async act() {
      const began = Date.now();
      await pgCtl('restart', '-m', 'fast');
      return { began, ended: Date.now() };
    },
  },
  {
    name: 'Redis stops 5 s',
    async act() {
      const began = Date.now();
      await stopProc(redis!);
      await sleep(5000);
      await startRedis();
      return { began, ended: Date.now() };
    },
  },
  {
    name: 'web1 cut from PostgreSQL 10 s',
    async act() {
      const began = Date.now();
      await runAsync('ip', ['route', 'add', 'blackhole', `${addr('pg')}/32`], { ns: NS + 'web1' });
      try {
        await sleep(10_000);
      } finally {
        await runAsync('ip', ['route', 'del', 'blackhole', `${addr('pg')}/32`], { ns: NS + 'web1' });
      }
      return { began, ended: Date.now() };
    },
  },
  {
    name: 'worker SIGKILLed',
    async act() {
      const began = Date.now();
      await stopProc(worker!, 'SIGKILL');
      await startWorker();
      return { began, ended: Date.now() };
    },
  },
];

// ── Main ────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<number> {
  const why = cannotRun();
  if (why) {
    console.log(`npm run drill: skipped — ${why}.`);
    return 0;
  }
  if (!buildIfStale('  (building: npm run build)') || !fs.existsSync(WORKER_ENTRY)) throw new Error('npm run build failed');
  const started = Date.now();
  state.work = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-drill-'));
  const other = takeLock();
  if (other) {
    fs.rmSync(state.work, { recursive: true, force: true });
    console.error(`npm run drill: another drill is running (pid ${other}); one at a time.`);
    return 1;
  }
  // A run killed outright (SIGKILL) left its namespaces: they go first.
  teardownNetwork();
  // PostgreSQL runs as postgres and nginx's workers as nobody: the directory must be traversable.
  fs.chmodSync(state.work, 0o755);
  console.log(`\nLeadroom fault drill — ${os.cpus().length} CPU, Node ${process.version}; hosts on ${NET}.0/24 (network namespaces ${NS}*)`);
  console.log(`  nginx ${addr('nginx')} → web1 ${addr('web1')}, web2 ${addr('web2')} (WORKER=0) · worker ${addr('worker')} · PostgreSQL ${addr('pg')} · Redis ${addr('redis')} · driver and webhook receiver ${DRIVER}`);
  console.log(`  intake: ${CONNECTIONS} connections through nginx; a landing GET every 300 ms; an intake answer slower than ${HANG_MS / 1000} s is a hang\n`);

  buildNetwork();
  const receiver = await startReceiver();
  try {
    await Promise.all([startPostgres(), startRedis()]);
    console.log(`  PostgreSQL and Redis up (${secs(Date.now() - started)} s)`);
    await startWeb('web1'); // alone: it migrates and seeds the demo
    await Promise.all([startWeb('web2'), startWorker()]);
    await startNginx();
    console.log(`  web1, web2, worker and nginx up (${secs(Date.now() - started)} s)\n`);

    const channelId = await withDb(async (h) => {
      const shop = await h.db.selectFrom('shops').select('id').where('shop_code', '=', 'smile-dental').executeTakeFirstOrThrow();
      const at = new Date().toISOString();
      const { id } = await h.db.insertInto('delivery_channels').values({
        shop_id: shop.id, name: '장애 훈련 수신기', kind: 'webhook', enabled: 1, mode: 'instant', config: JSON.stringify({ url: receiver.url, timeoutMs: 5000 }),
        secret: `whsec_${crypto.randomBytes(24).toString('base64url')}`, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      return id;
    });
    const page = await request(NGINX + PAGE, { timeoutMs: 10_000 });
    const token = /name="_t" value="([^"]+)"/.exec(page.body)?.[1];
    if (!token) throw new Error(`no form token in ${PAGE} (${page.status})`);
    await sleep(2100); // the form's minimum fill time

    const outcomes: Outcome[] = [];
    for (const [i, fault] of FAULTS.entries()) {
      const o = await drill(fault, i + 1, { token, channelId, receiver });
      outcomes.push(o);
      printTable([HEADER, row(o)]);
      for (const p of o.problems) console.log(`  ✗ ${p}`);
      if (o.badExample) console.log(`    e.g. ${o.badExample}`);
      console.log('');
      // A process that died is started again (as a supervisor would), so the next fault finds every host.
      for (const h of ['web1', 'web2'] as const) if (web[h]!.child.exitCode !== null || web[h]!.child.signalCode !== null) await startWeb(h);
      if (worker!.child.exitCode !== null || worker!.child.signalCode !== null) await startWorker();
    }

    console.log(`Faults across hosts (${secs(Date.now() - started)} s; '201 again': from the fault's beginning / its end to the first 201 after the last refusal)\n`);
    printTable([HEADER, ...outcomes.map(row)]);
    const failed = outcomes.filter((o) => o.problems.length);
    if (failed.length) {
      console.log('\n  FAIL:');
      for (const o of failed) for (const p of o.problems) console.log(`  ✗ ${o.name}: ${p}`);
      for (const p of [web.web1, web.web2, worker, nginx].filter((x): x is Proc => !!x)) console.log(logTail(p, 8));
      console.log(logTail({ name: 'PostgreSQL', log: path.join(state.pgData, 'server.log') }, 20));
      console.log('');
      return 1;
    }
    console.log('\n  nothing acknowledged lost, nothing delivered under two keys, refusals all 503 in Korean, landings served throughout\n');
    return 0;
  } finally {
    await receiver.close();
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n  ${signal}: cleaning up`);
    cleanup();
    process.exit(130);
  });
}
process.once('exit', cleanup);

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`\n  drill failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  for (const p of [web.web1, web.web2, worker].filter((x): x is Proc => !!x)) console.error(logTail(p));
} finally {
  cleanup();
}
process.exit(code);
