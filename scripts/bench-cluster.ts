// npm run bench:cluster [-- --compare-sched] — past one process, side by side in one run:
//   1. intake (wrk, 50 connections, 10 s, rate limit off, scripts/wrk/intake.lua, after the same
//      3 s warm-up as bench:landing): one process on SQLite, one process on PostgreSQL, and
//      `npm run start:cluster` on PostgreSQL with Redis — leads/s, p50/p99, stored rows = 2xx
//      (goals: PostgreSQL ≥ 0.8× SQLite; p99 ≤ 25 ms on SQLite, ≤ 50 ms on PostgreSQL; the cluster
//      ≥ 1.5× one PostgreSQL process)
//   2. landing GET req/s (wrk, accept-encoding gzip/br): one web process vs nginx with one worker,
//      the cluster vs nginx with as many workers as it has web processes, nginx serving the very
//      bytes (the brotli body) with the very headers the app answers with (goal cluster ≥ 0.6×
//      nginx); and deploy/nginx.conf (ports and paths changed) proxying to the cluster
//   3. a fault run: intake load on the cluster with a webhook channel to a receiver here; one web
//      process and one worker SIGKILLed mid-run (the primary replaces them); once the outbox has
//      drained, every acknowledged lead must be stored, every stored lead delivered, and each under
//      one Idempotency-Key (a key received twice is a repeat, not a loss). Exit code 1 on a loss.
// --compare-sched also measures the cluster's GET under the other scheduling policy.
// PostgreSQL: fresh schemas of BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
// dropped afterwards; Redis: BENCH_REDIS_URL (default redis://127.0.0.1:6379/12), flushed before
// and after; ports the system picks. Every process shares the bench's LANDING_SECRET (bench-kit).
// --smoke (npm run bench:smoke): 1 s of intake and of GET load without warm-ups, a 4-second fault
// run (kills at 1 s and 2 s); goals not checked.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { Redis } from 'ioredis';
import {
  ensureProgram, freePort, freshSchema, intakeLoad, PG_URL, redact, ROOT, sized, SMOKE, startBench, startCluster, startNginx, startReceiver, startServer,
  tokenOf, wrkGetRate, wrkIntake, type Child, type ClusterChild, type WrkIntakeResult,
} from './bench-kit.ts';
import { openDatabase } from '../server/db/dialect.ts';
import type { Database } from '../server/db/schema.ts';

const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379/12';
const CONNECTIONS = 50;
const INTAKE_SECONDS = Number(process.env.BENCH_SECONDS ?? sized(10, 1));
const GET_SECONDS = Number(process.env.BENCH_GET_SECONDS ?? sized(8, 1));
/** The fault run: its load, and when the web process and the worker are killed. */
const FAULT = sized({ seconds: 12, killWebAt: 3, killWorkerAt: 6 }, { seconds: 4, killWebAt: 1, killWorkerAt: 2 });
const WEB = Number(process.env.WEB_PROCESSES || os.availableParallelism());
const SCHED = (process.env.CLUSTER_SCHED ?? 'none').toLowerCase();
const COMPARE_SCHED = process.argv.includes('--compare-sched');
const PAGE = '/view/smile-dental/implant-event';
const GET_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const common = { INTAKE_RATE_LIMIT: '0', SEED_DEMO: '1' };

const COLUMNS = { sqlite: 'SQLite, 1 process', postgres: 'PostgreSQL, 1 process', cluster: `PostgreSQL, cluster ×${WEB}` } as const;
type Column = keyof typeof COLUMNS;
// The fault run's receiver listens on 127.0.0.1: the cluster's worker may deliver there (loopbackReceivers).
const bench = startBench(`Leadroom cluster benchmark — ${os.cpus().length} CPU, Node ${process.version}; wrk 1 thread, ${CONNECTIONS} connections`, COLUMNS,
  { loopbackReceivers: true });

interface IntakeFigure {
  run: WrkIntakeResult;
  stored: number;
}

/** The form token of the landing, asked again for a while: a process just started may answer before its page is ready. */
async function pageToken(url: string): Promise<string> {
  for (let i = 0; ; i++) {
    try {
      return await tokenOf(url);
    } catch (err) {
      if (i >= 20) throw err;
      await sleep(500);
    }
  }
}

async function lastLeadId(db: Kysely<Database>): Promise<number> {
  return Number((await db.selectFrom('leads').select(sql<number>`coalesce(max(id), 0)`.as('n')).executeTakeFirstOrThrow()).n);
}

/** The warm-up and the measured run bench:landing does, then the stored rows of the measured run (recorded in `column`). */
async function intake(column: Column, baseUrl: string, db: Kysely<Database>): Promise<IntakeFigure> {
  const token = await pageToken(baseUrl + PAGE);
  await sleep(2100); // the form's minimum fill time
  if (!SMOKE) await wrkIntake(baseUrl, { connections: CONNECTIONS, seconds: 3, token, prefix: '0108' });
  // Demo leads have phones of every prefix: only rows written after this count.
  const before = await lastLeadId(db);
  const run = await wrkIntake(baseUrl, { connections: CONNECTIONS, seconds: INTAKE_SECONDS, token, prefix: '0109' });
  const stored = Number((await db.selectFrom('leads').select(sql<number>`count(*)`.as('n')).where('id', '>', before).where('phone', 'like', '0109%').executeTakeFirstOrThrow()).n);
  const onPostgres = column !== 'sqlite';
  bench.record('intake-rate', 'intake leads/s (2xx ÷ seconds)', '', column, fmt(run.ok / run.seconds));
  bench.record('intake-latency', 'intake latency p50 / p99', 'p99 ≤ 25 ms SQLite, ≤ 50 ms PostgreSQL', column, `${run.p50.toFixed(1)} / ${run.p99.toFixed(1)} ms`,
    run.p99 <= (onPostgres ? 50 : 25));
  bench.record('intake-stored', 'stored rows = 2xx answers', '', column, `${fmt(stored)} = ${fmt(run.ok)} ${stored === run.ok ? 'OK' : 'MISMATCH'}`);
  bench.record('intake-other', 'other answers · socket errors', '', column, `${run.other} · ${run.socketErrors}`);
  bench.check(`${COLUMNS[column]}: stored rows (${stored}) = 2xx answers (${run.ok}), and some taken`, stored === run.ok && run.ok > 0);
  return { run, stored };
}

/** The landing as the app answers a browser: the raw (still compressed) body and its headers. */
function rawGet(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: GET_HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * nginx serving the landing's bytes as the app sends them: the same content-encoding (the
 * precompressed body from the app, not nginx compressing) and every header the app sets, so
 * both answers are the same size on the wire. No access log, and keep-alive connections
 * unlimited, as Node's server keeps them.
 */
function staticNginxConf(dir: string, port: number, workers: number, answer: { headers: http.IncomingHttpHeaders; body: Buffer }): string {
  fs.writeFileSync(path.join(dir, 'page.bin'), answer.body);
  const skip = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
  const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const adds = Object.entries(answer.headers)
    .filter(([k]) => !skip.has(k))
    .map(([k, v]) => `        add_header ${k} ${quote(String(v))};`)
    .join('\n');
  return `worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  etag off;
  server_tokens off;
  keepalive_requests 10000000;
  keepalive_timeout 65s;
  server {
    listen 127.0.0.1:${port};
    root ${dir};
    location = ${PAGE} {
        types { }
        default_type ${quote(String(answer.headers['content-type']))};
${adds}
        try_files /page.bin =404;
    }
  }
}
`;
}

/** deploy/nginx.conf in front of the local cluster: its listen, upstream servers, pid and log paths changed, nothing else. */
function proxyConf(dir: string, port: number, upstreamPort: number): string {
  const conf = fs.readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
  let servers = 0;
  const out = conf
    .replace(/^worker_processes .*;$/m, `worker_processes ${WEB};`)
    .replace(/^pid .*;$/m, `pid ${dir}/nginx.pid;`)
    .replace(/\/var\/log\/nginx\//g, `${dir}/logs/`)
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`)
    .replace(/^(\s*)server \d+\.\d+\.\d+\.\d+:\d+( .*)?;$/gm, (_, indent: string, rest: string | undefined) =>
      servers++ === 0 ? `${indent}server 127.0.0.1:${upstreamPort}${rest ?? ''};` : '');
  if (servers < 1 || !out.includes(`listen 127.0.0.1:${port};`)) throw new Error('deploy/nginx.conf: no upstream server or listen line to point at the bench');
  return out;
}

async function main() {
  ensureProgram('wrk');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-bench-cluster-'));
  // nginx started as root reads files as its workers' user (nobody): mkdtemp's 0700 would hide them.
  fs.chmodSync(work, 0o755);
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: true });
  await redis.connect();
  await redis.flushdb();
  console.log(`  PostgreSQL ${redact(PG_URL)} (fresh schemas, dropped afterwards) · Redis ${REDIS_URL}`);
  console.log(`  cluster: ${WEB} web processes + 1 worker (npm run start:cluster, ${SCHED === 'rr' ? 'SCHED_RR' : 'SCHED_NONE'})`);

  const running: Child[] = [];
  const schemas: Array<{ drop(): Promise<void> }> = [];
  const schema = async () => {
    const s = await freshSchema('bench_cluster');
    schemas.push(s);
    return s;
  };
  const stopAll = async () => {
    for (const c of running.splice(0).reverse()) await c.stop().catch(() => {});
  };
  let nginxSeq = 0;
  const nginx = async (conf: (dir: string, port: number) => string) => {
    const dir = path.join(work, `nginx-${++nginxSeq}`);
    fs.mkdirSync(dir, { recursive: true });
    const port = await freePort();
    const n = await startNginx(dir, conf(dir, port), `http://127.0.0.1:${port}${PAGE}`);
    running.push(n);
    return n;
  };
  /** Landing GET req/s of ours against nginx serving the same bytes with `workers` workers, recorded in `column`. */
  const compareGet = async (column: Column, label: string, oursUrl: string, workers: number, goal?: number) => {
    const answer = await rawGet(oursUrl + PAGE);
    if (answer.status !== 200 || answer.headers['content-encoding'] !== 'br') throw new Error(`${PAGE}: ${answer.status} ${answer.headers['content-encoding']}`);
    const ng = await nginx((dir, port) => staticNginxConf(dir, port, workers, answer));
    const theirs = await rawGet(ng.url);
    if (!theirs.body.equals(answer.body)) throw new Error(`nginx answers different bytes: ${theirs.status} ${theirs.body.length} vs ${answer.body.length}`);
    // A short unmeasured run first: every web process renders and caches the page, the JIT warms.
    if (!SMOKE) await wrkGetRate(oursUrl + PAGE, { connections: CONNECTIONS, seconds: 2, headers: GET_HEADERS });
    const ours = await wrkGetRate(oursUrl + PAGE, { connections: CONNECTIONS, seconds: GET_SECONDS, headers: GET_HEADERS });
    const ref = await wrkGetRate(ng.url, { connections: CONNECTIONS, seconds: GET_SECONDS, headers: GET_HEADERS });
    await ng.stop();
    running.splice(running.indexOf(ng), 1);
    bench.record(`get-${label}`, `landing GET req/s (br), ${label}: ours vs nginx serving the same bytes`, goal ? `cluster ≥ ${goal}× nginx` : '', column,
      `${fmt(ours)} vs ${fmt(ref)} = ${(ours / ref).toFixed(2)}×`, goal ? ours / ref >= goal : undefined);
  };
  const rate = new Map<Column, number>();

  try {
    // ── 1. Intake on one process: SQLite, then PostgreSQL ────────────────────────────────
    await bench.column('sqlite', async () => {
      const dataDir = path.join(work, 'sqlite');
      running.push(await startServer({ dataDir, env: common }));
      const h = await openDatabase({ url: path.join(dataDir, 'leadroom.sqlite') });
      try {
        const f = await intake('sqlite', running[0]!.url, h.db);
        rate.set('sqlite', f.run.ok / f.run.seconds);
      } finally {
        await h.close();
        await stopAll();
      }
    });
    await bench.column('postgres', async () => {
      const one = await schema();
      const s = await startServer({ dataDir: path.join(work, 'pg-one'), env: { ...common, DATABASE_URL: one.url } });
      running.push(s);
      const h = await openDatabase({ url: PG_URL, pgSchema: one.name, poolSize: 2 });
      try {
        const f = await intake('postgres', s.url, h.db);
        rate.set('postgres', f.run.ok / f.run.seconds);
        // 2a. One web process against nginx with one worker (for reference).
        await compareGet('postgres', 'one web process, nginx 1 worker', s.url, 1);
      } finally {
        await h.close();
        await stopAll();
      }
    });

    // ── The cluster ─────────────────────────────────────────────────────────────────────
    const clusterEnv = {
      ...common, REDIS_URL, WEB_PROCESSES: String(WEB), WORKER_PROCESSES: '1', CLUSTER_SCHED: SCHED,
      // A killed worker's claimed deliveries go back to the queue after this (default 60 s).
      DELIVERY_LEASE_MS: '5000',
      // The fault run's receiver listens on loopback: allowed as an operator allows an on-premise CRM.
      OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32',
    };
    await bench.column('cluster', async () => {
      const many = await schema();
      const cluster: ClusterChild = await startCluster({ env: { ...clusterEnv, DATABASE_URL: many.url, DATA_DIR: path.join(work, 'cluster') } });
      running.push(cluster);
      const ch = await openDatabase({ url: PG_URL, pgSchema: many.name, poolSize: 2 });
      try {
        const f = await intake('cluster', cluster.url, ch.db);
        rate.set('cluster', f.run.ok / f.run.seconds);

        // ── 2b. The cluster's GET against nginx with as many workers; then nginx in front ─────
        await compareGet('cluster', `the cluster, nginx ${WEB} workers`, cluster.url, WEB, 0.6);
        const proxy = await nginx((dir, port) => proxyConf(dir, port, Number(new URL(cluster.url).port)));
        const via = await rawGet(proxy.url);
        const direct = await rawGet(cluster.url + PAGE);
        if (via.status !== 200 || !via.body.equals(direct.body)) throw new Error('deploy/nginx.conf: the landing through nginx differs from the cluster\'s');
        const viaRate = await wrkGetRate(proxy.url, { connections: CONNECTIONS, seconds: GET_SECONDS, headers: GET_HEADERS });
        bench.record('proxy', `deploy/nginx.conf → cluster (${WEB} nginx workers), GET req/s; the same bytes proxied`, '', 'cluster', fmt(viaRate));
        await proxy.stop();
        running.splice(running.indexOf(proxy), 1);

        // ── 3. The fault run ─────────────────────────────────────────────────────────────
        await fault(cluster, ch.db);
      } finally {
        await ch.close();
        await stopAll();
      }

      if (COMPARE_SCHED) {
        const other = SCHED === 'rr' ? 'none' : 'rr';
        const again = await schema();
        const c2 = await startCluster({ env: { ...clusterEnv, CLUSTER_SCHED: other, DATABASE_URL: again.url, DATA_DIR: path.join(work, 'cluster-2') } });
        running.push(c2);
        try {
          await compareGet('cluster', `the cluster under ${other === 'rr' ? 'SCHED_RR' : 'SCHED_NONE'}, nginx ${WEB} workers`, c2.url, WEB);
        } finally {
          await stopAll();
        }
      }
    });

    // ── The goals between columns ───────────────────────────────────────────────────────
    const [lite, one, many] = [rate.get('sqlite'), rate.get('postgres'), rate.get('cluster')];
    if (lite && one) bench.recordOnce('pg-vs-sqlite', 'intake leads/s: PostgreSQL ÷ SQLite, one process each', '≥ 0.8×', `${(one / lite).toFixed(2)}×`, one >= 0.8 * lite);
    if (one && many) bench.recordOnce('cluster-vs-pg', `intake leads/s: the cluster (×${WEB}) ÷ PostgreSQL one process`, '≥ 1.5×', `${(many / one).toFixed(2)}×`, many >= 1.5 * one);
  } finally {
    await stopAll();
    for (const s of schemas) await s.drop().catch(() => {});
    await redis.flushdb().catch(() => {});
    redis.disconnect();
    fs.rmSync(work, { recursive: true, force: true });
  }
  bench.finish();
}

/** Intake and delivery load on the cluster while one web process and one worker are SIGKILLed. */
async function fault(cluster: ClusterChild, db: Kysely<Database>): Promise<void> {
  const receiver = await startReceiver();
  try {
    const shop = await db.selectFrom('shops').select('id').where('shop_code', '=', 'smile-dental').executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const { id: channelId } = await db.insertInto('delivery_channels').values({
      shop_id: shop.id, name: '벤치 수신기', kind: 'webhook', enabled: 1, mode: 'instant', config: JSON.stringify({ url: receiver.url, timeoutMs: 5000 }),
      secret: `whsec_${crypto.randomBytes(24).toString('base64url')}`, created_at: at, updated_at: at,
    }).returning('id').executeTakeFirstOrThrow();
    const token = await pageToken(cluster.url + PAGE);
    await sleep(2100);
    const before = await lastLeadId(db);
    const lead = (n: number) => {
      const phone = `0105${String(n).padStart(7, '0')}`;
      return { phone, json: JSON.stringify({ shopCode: 'smile-dental', landingCode: 'implant-event', name: '장애시험', phone, privacyConsent: true, treatment: '임플란트', _t: token }) };
    };
    const load = intakeLoad({ url: `${cluster.url}/api/public/leads`, connections: 20, durationMs: FAULT.seconds * 1000, body: lead });
    await sleep(FAULT.killWebAt * 1000);
    const web = cluster.pids.web.get(WEB)!;
    process.kill(web, 'SIGKILL');
    console.log(`  fault run: SIGKILL web ${WEB} (pid ${web}) at ${FAULT.killWebAt} s`);
    await sleep((FAULT.killWorkerAt - FAULT.killWebAt) * 1000);
    const worker = cluster.pids.worker.get(1)!;
    process.kill(worker, 'SIGKILL');
    console.log(`  fault run: SIGKILL worker 1 (pid ${worker}) at ${FAULT.killWorkerAt} s`);
    const [newWeb, newWorker] = await Promise.all([cluster.replaced('web', WEB, web), cluster.replaced('worker', 1, worker)]);
    const result = await load;
    // The outbox drains: every job of the channel sent (a killed worker's claims come back after the lease).
    const until = Date.now() + 60_000;
    const open = async () =>
      Number((await db.selectFrom('delivery_jobs').select(sql<number>`count(*)`.as('n')).where('channel_id', '=', channelId).where('status', '!=', 'succeeded').executeTakeFirstOrThrow()).n);
    let left = await open();
    while (left > 0 && Date.now() < until) {
      await sleep(250);
      left = await open();
    }
    await sleep(500); // a repeat of a send already recorded would arrive now
    const acked = new Set(result.acked);
    const stored = await db.selectFrom('leads').select(['id', 'phone']).where('id', '>', before).where('phone', 'like', '0105%').execute();
    const storedPhones = new Set(stored.map((r) => r.phone));
    const jobs = await db.selectFrom('delivery_jobs').select(['lead_id', 'idempotency_key', 'status']).where('channel_id', '=', channelId).execute();
    const jobsByLead = new Map<number, typeof jobs>();
    for (const j of jobs) jobsByLead.set(j.lead_id, [...(jobsByLead.get(j.lead_id) ?? []), j]);
    const missingStored = [...acked].filter((p) => !storedPhones.has(p)).length;
    let delivered = 0;
    let twice = 0;
    for (const l of stored) {
      const js = jobsByLead.get(l.id) ?? [];
      if (js.length > 1) twice++;
      if (js.some((j) => receiver.perKey.has(j.idempotency_key))) delivered++;
    }
    const jobKeys = new Set(jobs.map((j) => j.idempotency_key));
    const strangers = [...receiver.perKey.keys()].filter((k) => !jobKeys.has(k)).length;
    const repeats = [...receiver.perKey.values()].reduce((a, c) => a + c - 1, 0);
    const notDelivered = stored.length - delivered;
    const f = (key: string, label: string, text: string) => bench.record(`fault-${key}`, `fault run: ${label}`, '', 'cluster', text);
    console.log(`  fault run: web ${WEB} replaced by pid ${newWeb}, worker 1 by pid ${newWorker}`);
    f('acked', 'acknowledged (2xx) leads · requests cut off by the kills', `${fmt(acked.size)} · ${fmt(result.errors)}`);
    f('stored', 'stored leads · acknowledged but missing', `${fmt(stored.length)} · ${missingStored} ${missingStored ? '✗' : '✓'}`);
    f('delivered', 'delivered leads (their job\'s key received) · stored but not delivered',
      `${fmt(delivered)} · ${notDelivered} ${notDelivered ? '✗' : '✓'}${left ? ` (${left} jobs still open)` : ''}`);
    f('keys', 'Idempotency-Keys received · leads with more than one key · unknown keys', `${fmt(receiver.perKey.size)} · ${twice} ${twice ? '✗' : '✓'} · ${strangers}`);
    f('receipts', 'receipts in all · repeats of a key already received (allowed)', `${fmt(receiver.total())} · ${repeats}`);
    bench.check(`fault run: every acknowledged lead stored (${missingStored} missing), every stored lead delivered (${notDelivered} not), ` +
      `one key per lead (${twice} with more), no unknown key (${strangers}), some acknowledged (${acked.size})`,
    missingStored === 0 && notDelivered === 0 && twice === 0 && strangers === 0 && acked.size > 0);
  } finally {
    await receiver.close();
  }
}

await main();
