// npm run bench:delivery [-- --only=sqlite|postgres] [--jobs=20000] [--backlog=50000] [--leads=300]
//
// Delivery to a webhook receiver (node:http on 127.0.0.1 in this process, answering 200 at once
// with a small JSON body), SQLite and PostgreSQL side by side:
//   1. deliveries per second with 1 and with 2 workers draining --jobs due jobs (goal ≥ 1,000/s
//      with 2 workers on PostgreSQL). The workers are `npm run worker` processes (scripts/worker.ts,
//      each its own process with its own database connections), as they run at scale; the rate is
//      the receipts over the time from the first receipt to the last.
//   2. end-to-end latency: --leads leads submitted through the public intake of a running app
//      (build(), listening on 127.0.0.1, its delivery worker in process as in `npm start`), 10 ms
//      apart: from the intake's answer (the lead committed; its job follows with the batch's follow-ups, ~50 ms) to the receiver's receipt,
//      p50 / p99 (goal p99 ≤ 1 s).
//   3. catch-up: --backlog jobs that piled up while the receiver was down all come due at once
//      (the receiver is back, their backoff over), with the workers each engine runs at scale
//      (SQLite one: one process writes at a time; PostgreSQL two): from the moment they are due
//      to the last one delivered (the workers find them at their next poll, ≤ 1 s).
// Every receipt is counted by its Idempotency-Key: a key received twice is reported.
//
// Each engine gets a fresh database: SQLite in a temporary folder, PostgreSQL a fresh schema in
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), dropped afterwards.
// --smoke (npm run bench:smoke): 300 jobs, a 500-job backlog, 20 leads; goals not checked.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { build } from '../server/app.ts';
import { openDatabase, type DbHandle } from '../server/db/dialect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import type { Database } from '../server/db/schema.ts';
import { landingSecret, signRenderStamp } from '../server/lib/render-stamp.ts';
import { argOf, eachEngine, ENGINE_LABEL, freshSchema, PG_URL, pct, redact, ROOT, sized, startBench, type Engine } from './bench-kit.ts';
import { buildIfStale } from './build-if-stale.mjs';

const numArg = (name: string, fallback: number) => Number((argOf(name) || String(fallback)).replace(/[_,]/g, ''));
const JOBS = numArg('jobs', sized(20_000, 300));
const BACKLOG = numArg('backlog', sized(50_000, 500));
const LEADS = numArg('leads', sized(300, 20));
const SUBMIT_GAP_MS = 10;
/** The receiver listens on loopback: allowed as an operator allows an on-premise CRM (OUTBOUND_ALLOW_CIDRS). */
const RECEIVER_RANGE = '127.0.0.1/32';
const SECRET = 'whsec_bench';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 100 ? `${Math.round(n)}` : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const say = (line = '') => console.log(line);

// The receiver listens on 127.0.0.1: the apps and workers here may deliver there (loopbackReceivers).
const bench = startBench(`Leadroom delivery benchmark — ${os.cpus().length} CPU, Node ${process.version}; webhook receiver on 127.0.0.1 (200 at once)`,
  ENGINE_LABEL, { loopbackReceivers: true });
const { record } = bench;

// ── The receiver ───────────────────────────────────────────────────────────────────────

class Receiver {
  private server!: http.Server;
  url = '';
  /** Receipts per Idempotency-Key. */
  perKey = new Map<string, number>();
  /** performance.now() of each receipt, in order. */
  times: number[] = [];
  /** Receipt time by the delivered lead's phone (the latency step). */
  byPhone = new Map<string, number>();
  private waiters: Array<() => void> = [];

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const now = performance.now();
        const key = String(req.headers['idempotency-key']);
        this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
        this.times.push(now);
        if (this.trackPhones) {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { leads: Array<{ phone?: string }> };
          for (const l of body.leads) if (l.phone && !this.byPhone.has(l.phone)) this.byPhone.set(l.phone, now);
        }
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 11 }).end('{"ok":true}');
        if (this.waiters.length) for (const w of this.waiters.splice(0)) w();
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/leads`;
  }

  trackPhones = false;

  reset() {
    this.perKey.clear();
    this.times = [];
    this.byPhone.clear();
  }

  get count() {
    return this.times.length;
  }

  get repeats() {
    let n = 0;
    for (const c of this.perKey.values()) if (c > 1) n += c - 1;
    return n;
  }

  async until(n: number, timeoutMs: number): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (this.count < n) {
      if (Date.now() > end) return false;
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return true;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

// ── The database ───────────────────────────────────────────────────────────────────────

interface Bench {
  engine: Engine;
  handle: DbHandle;
  db: Kysely<Database>;
  dir: string;
  /** Env a worker process needs to open the same database. */
  env: Record<string, string>;
  shopId: number;
  shopCode: string;
  landingId: number;
  landingCode: string;
  channelId: number;
  leadIds: number[];
  close(): Promise<void>;
}

async function prepare(engine: Engine, receiverUrl: string, leads: number): Promise<Bench> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-bench-delivery-'));
  let handle: DbHandle;
  let env: Record<string, string>;
  let drop = async () => {};
  if (engine === 'postgres') {
    const schema = await freshSchema('bench_delivery');
    handle = await openDatabase({ url: PG_URL, pgSchema: schema.name, poolSize: 10 });
    env = { DATABASE_URL: schema.url };
    drop = schema.drop;
    say(`  database: ${redact(PG_URL)}, schema ${schema.name} (dropped afterwards)`);
  } else {
    const file = path.join(dir, 'leadroom.sqlite');
    handle = await openDatabase({ url: file });
    env = { DATABASE_URL: file };
    say(`  database: ${file}`);
  }
  const db = handle.db;
  await migrateToLatest(db);
  const at = new Date(Date.now() - 60_000).toISOString();
  const { id: shopId } = await db.insertInto('shops').values({
    shop_code: 'bench-dental', name: '벤치치과', client_type_id: null, status: 'active', company_name: '벤치치과의원', representative: '김벤치',
    business_number: '1078616321', phone: '0212345678', address: '서울', privacy_officer_name: '이보호', privacy_officer_contact: '02-555-0100', created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  const { id: landingId } = await db.insertInto('landings').values({
    shop_id: shopId, landing_code: 'implant', title: '임플란트 상담', status: 'open', content: '{}', form_fields: '[]', privacy_consent_text: '동의',
    thank_you_message: '감사합니다', duplicate_window_days: 30, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  const { id: channelId } = await db.insertInto('delivery_channels').values({
    shop_id: shopId, name: '벤치 CRM', kind: 'webhook', enabled: 1, mode: 'instant', config: JSON.stringify({ url: receiverUrl, timeoutMs: 5000 }), secret: SECRET,
    created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  // The leads the jobs deliver: written straight to the table (intake is measured in step 2).
  const leadIds: number[] = [];
  const CHUNK = 1000;
  for (let i = 0; i < leads; i += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, leads - i) }, (_, k) => {
      const n = i + k;
      return {
        shop_id: shopId, landing_id: landingId, source: 'landing', name: `고객${n}`, phone: `0109${String(n).padStart(7, '0')}`, answers: '{"area":"서울"}',
        privacy_consent: 1, marketing_consent: 0, sensitive_consent: 0, cs_status: '미처리', created_at: at, updated_at: at, phone_last4: String(n).padStart(4, '0').slice(-4),
      };
    });
    leadIds.push(...(await db.insertInto('leads').values(rows as never).returning('id').execute()).map((r) => r.id));
  }
  return {
    engine, handle, db, dir, env, shopId, shopCode: 'bench-dental', landingId, landingCode: 'implant', channelId, leadIds,
    async close() {
      await handle.close();
      await drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `n` pending jobs, one per lead, due at `dueAt` (far ahead: not yet). */
async function addJobs(b: Bench, n: number, dueAt: string): Promise<void> {
  const at = new Date().toISOString();
  const CHUNK = 1000;
  for (let i = 0; i < n; i += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, n - i) }, (_, k) => ({
      shop_id: b.shopId, channel_id: b.channelId, lead_id: b.leadIds[(i + k) % b.leadIds.length]!, status: 'pending' as const, trigger: 'intake' as const,
      attempts: 0, next_attempt_at: dueAt, idempotency_key: crypto.randomUUID(), created_at: at, updated_at: at,
    }));
    await b.db.insertInto('delivery_jobs').values(rows).execute();
  }
}

const FAR = '2999-01-01T00:00:00.000Z';

async function countJobs(db: Kysely<Database>, status: 'succeeded' | 'pending' | 'failed'): Promise<number> {
  return Number((await db.selectFrom('delivery_jobs').select(sql<number>`count(*)`.as('n')).where('status', '=', status).executeTakeFirstOrThrow()).n);
}

// ── Worker processes ───────────────────────────────────────────────────────────────────

interface WorkerProcess {
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** scripts/worker.ts as the build compiles it (what `npm run start:cluster` runs): it starts in half the time tsx takes. */
const WORKER_ENTRY = path.join(ROOT, 'dist/app/scripts/worker.js');

async function startWorker(b: Bench, n: number): Promise<WorkerProcess> {
  const dataDir = path.join(b.dir, `worker-${n}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const proc = spawn(process.execPath, [WORKER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env, ...b.env, DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn', SEED_DEMO: '0', WORKER: '1', INTAKE_WRITER_THREAD: '0',
      INITIAL_ADMIN_PASSWORD: 'Bench-admin-2026!', OUTBOUND_ALLOW_CIDRS: RECEIVER_RANGE,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('워커 실행 중')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`worker ${n} exited (${code}): ${out}`)));
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    proc,
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

// ── The steps ──────────────────────────────────────────────────────────────────────────

/** Jobs already waiting come due now; answers that instant (performance.now()). */
async function makeDue(b: Bench): Promise<number> {
  const t0 = performance.now();
  await b.db.updateTable('delivery_jobs').set({ next_attempt_at: new Date().toISOString() }).where('status', '=', 'pending').where('next_attempt_at', '=', FAR).execute();
  return t0;
}

async function drain(b: Bench, receiver: Receiver, n: number, workers: number, label: string): Promise<{ rate: number; seconds: number; fromDue: number }> {
  receiver.reset();
  await addJobs(b, n, FAR);
  const procs: WorkerProcess[] = [];
  try {
    // Every worker is up (its banner printed) before the jobs come due, so none has a head start.
    const started = await Promise.allSettled(Array.from({ length: workers }, (_, i) => startWorker(b, i + 1)));
    for (const r of started) if (r.status === 'fulfilled') procs.push(r.value);
    for (const r of started) if (r.status === 'rejected') throw r.reason;
    const due = await makeDue(b);
    const ok = await receiver.until(n, 300_000);
    const last = receiver.times.at(-1) ?? performance.now();
    const first = receiver.times[0] ?? last;
    // Every job recorded (the receipts came first): the workers' last batch is written.
    const end = Date.now() + 30_000;
    while ((await countJobs(b.db, 'pending')) > 0 && Date.now() < end) await sleep(100);
    const seconds = (last - first) / 1000;
    say(`  ${label}: ${fmt(receiver.count)} of ${fmt(n)} received${ok ? '' : ' (TIMED OUT)'} in ${seconds.toFixed(2)} s from the first receipt, ` +
      `${((last - due) / 1000).toFixed(2)} s from due; ${receiver.repeats ? `${receiver.repeats} REPEATED keys` : 'no key twice'}`);
    bench.check(`${ENGINE_LABEL[b.engine]}, ${label}: every job received once (${fmt(receiver.perKey.size)} keys of ${fmt(n)}, ${receiver.repeats} repeats)`,
      ok && receiver.perKey.size === n && !receiver.repeats);
    return { rate: receiver.count / Math.max(seconds, 0.001), seconds, fromDue: (last - due) / 1000 };
  } finally {
    for (const p of procs) await p.stop();
  }
}

async function latency(b: Bench, receiver: Receiver): Promise<{ sorted: number[]; missing: number; early: number }> {
  receiver.reset();
  receiver.trackPhones = true;
  const app = await build({
    config: { dataDir: b.dir, seedDemo: false, logLevel: 'silent', intakeRateLimit: 0, loginRateLimit: 1000, distDir: '/nonexistent', workerEnabled: true, initialAdminPassword: 'Bench-admin-2026!', outboundAllowCidrs: [RECEIVER_RANGE] },
    database: b.handle,
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const answered = new Map<string, number>();
  try {
    const secret = landingSecret(b.dir);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const target = new URL(`${base}/api/public/leads`);
    const post = (json: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(json);
      });
    // A few first, untimed: connections, JIT and the landing's definition warm.
    for (let n = 0; n < LEADS + 5; n++) {
      const phone = `0108${String(n).padStart(7, '0')}`;
      const body = JSON.stringify({
        shopCode: b.shopCode, landingCode: b.landingCode, name: '지연측정', phone, privacyConsent: true, _t: signRenderStamp(secret, b.landingId, new Date(Date.now() - 10_000)),
      });
      const status = await post(body);
      if (status !== 201) throw new Error(`intake answered ${status}`);
      if (n >= 5) answered.set(phone, performance.now());
      await sleep(SUBMIT_GAP_MS);
    }
    agent.destroy();
    const until = Date.now() + 10_000;
    while ([...answered.keys()].some((p) => !receiver.byPhone.has(p)) && Date.now() < until) await sleep(20);
  } finally {
    await app.close();
    receiver.trackPhones = false;
  }
  const latencies: number[] = [];
  let missing = 0;
  let early = 0;
  for (const [phone, sent] of answered) {
    const got = receiver.byPhone.get(phone);
    if (got === undefined) missing++;
    else {
      if (got < sent) early++;
      latencies.push(Math.max(0, got - sent));
    }
  }
  return { sorted: latencies.sort((a, c) => a - c), missing, early };
}

async function runEngine(engine: Engine, receiver: Receiver) {
  const b = await prepare(engine, receiver.url, Math.max(JOBS, BACKLOG));
  try {
    // 2. End to end first, on a quiet database.
    const e2e = await latency(b, receiver);
    const p50 = e2e.sorted.length ? pct(e2e.sorted, 0.5) : NaN;
    const p99 = e2e.sorted.length ? pct(e2e.sorted, 0.99) : NaN;
    say(`  end to end: ${e2e.sorted.length} of ${LEADS} received${e2e.missing ? `, ${e2e.missing} MISSING` : ''}${e2e.early ? `, ${e2e.early} before the intake's answer arrived` : ''}`);
    bench.check(`${ENGINE_LABEL[engine]}: every lead taken in was delivered (${e2e.missing} missing)`, e2e.missing === 0);
    record('e2e', `intake answer → webhook receipt, p50 / p99 (${LEADS} leads ${SUBMIT_GAP_MS} ms apart, worker in the app)`, 'p99 ≤ 1 s', engine,
      e2e.sorted.length ? `${ms(p50)} / ${ms(p99)} ms` : 'none', !e2e.missing && e2e.sorted.length > 0 && p99 <= 1000);

    // 1. Throughput with 1 and 2 worker processes.
    for (const workers of [1, 2]) {
      const r = await drain(b, receiver, JOBS, workers, `${workers} worker${workers > 1 ? 's' : ''}, ${fmt(JOBS)} jobs`);
      const goal = workers === 2 ? '≥ 1,000/s on PostgreSQL' : '';
      record(`rate-${workers}`, `deliveries per second, ${workers} worker process${workers > 1 ? 'es' : ''} (${fmt(JOBS)} jobs)`, goal, engine,
        `${fmt(r.rate)}/s${receiver.repeats ? ` (${receiver.repeats} repeated)` : ''}`, workers === 2 && engine === 'postgres' ? r.rate >= 1000 && !receiver.repeats : receiver.repeats ? false : undefined);
    }

    // 3. The backlog after an outage, with the setup each engine runs at scale: SQLite one worker
    // (one process writes at a time), PostgreSQL two.
    const workers = engine === 'sqlite' ? 1 : 2;
    const c = await drain(b, receiver, BACKLOG, workers, `catch-up, ${fmt(BACKLOG)} jobs, ${workers} worker${workers > 1 ? 's' : ''}`);
    record('catch-up', `catch-up of a ${fmt(BACKLOG)}-job backlog (SQLite 1 worker, PostgreSQL 2), from due to the last delivered`, '', engine,
      `${c.fromDue.toFixed(1)} s (${fmt(BACKLOG / Math.max(c.fromDue, 0.001))}/s)${receiver.repeats ? ` (${receiver.repeats} repeated)` : ''}`, receiver.repeats ? false : undefined);
    const left = await countJobs(b.db, 'pending');
    const failed = await countJobs(b.db, 'failed');
    if (left || failed) say(`  jobs left pending: ${left}, failed: ${failed}`);
  } finally {
    await b.close();
  }
}

async function main() {
  say('  workers: `npm run worker` processes (scripts/worker.ts, built), each with its own database connections; 20 sends in flight each');
  const receiver = new Receiver();
  await receiver.start();
  try {
    await eachEngine(bench, (engine) => runEngine(engine, receiver));
  } finally {
    await receiver.close();
  }
  bench.finish();
}

if (!buildIfStale('  (building: npm run build)')) throw new Error('npm run build failed');
if (!fs.existsSync(WORKER_ENTRY)) throw new Error(`${WORKER_ENTRY} is missing: npm run build`);
await main();
