// npm run bench:cluster [-- --compare-sched] — past one process, side by side in one run:
//   1. intake (wrk, 50 connections, 10 s, rate limit off, scripts/wrk/intake.lua, after the same
//      3 s warm-up as bench:landing): one process on SQLite, one process on PostgreSQL, and
//      `npm run start:cluster` on PostgreSQL with Redis — leads/s, p50/p99, stored rows = 2xx
//      (goals: PostgreSQL ≥ 0.5× SQLite with p99 ≤ 50 ms; the cluster ≥ 1.5× one PostgreSQL process)
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
// and after. Ports 4500–4549.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { Redis } from 'ioredis';
import {
  ensureWrk, intakeLoad, printTable, ROOT, startCluster, startNginx, startReceiver, startServer, tokenOf, wrkGetRate, wrkIntake,
  type Child, type ClusterChild, type WrkIntakeResult,
} from './bench-kit.ts';
import { openDatabase } from '../server/db/dialect.ts';
import type { Database } from '../server/db/schema.ts';

const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379/12';
const CONNECTIONS = 50;
const INTAKE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const GET_SECONDS = Number(process.env.BENCH_GET_SECONDS ?? 8);
const FAULT_SECONDS = 12;
const WEB = Number(process.env.WEB_PROCESSES || os.availableParallelism());
const SCHED = (process.env.CLUSTER_SCHED ?? 'none').toLowerCase();
const COMPARE_SCHED = process.argv.includes('--compare-sched');
const PAGE = '/view/smile-dental/implant-event';
const GET_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };
const SECRET = crypto.randomBytes(32).toString('hex');
const PORT = { sqlite: 4500, pgOne: 4501, cluster: 4502, nginxOne: 4510, nginxMany: 4511, nginxProxy: 4512, receiver: 4520 } as const;
const SCHEMAS = { one: 'bench_cluster_one', cluster: 'bench_cluster' } as const;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const pgUrl = (schema: string) => {
  const u = new URL(PG_URL);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
};
const common = { INTAKE_RATE_LIMIT: '0', LANDING_SECRET: SECRET, SEED_DEMO: '1' };

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

/** The warm-up and the measured run bench:landing does, then the stored rows of the measured run. */
async function intake(baseUrl: string, db: Kysely<Database>): Promise<IntakeFigure> {
  const token = await pageToken(baseUrl + PAGE);
  await sleep(2100); // the form's minimum fill time
  await wrkIntake(baseUrl, { connections: CONNECTIONS, seconds: 3, token, prefix: '0108' });
  // Demo leads have phones of every prefix: only rows written after this count.
  const before = await lastLeadId(db);
  const run = await wrkIntake(baseUrl, { connections: CONNECTIONS, seconds: INTAKE_SECONDS, token, prefix: '0109' });
  const stored = await db.selectFrom('leads').select(sql<number>`count(*)`.as('n')).where('id', '>', before).where('phone', 'like', '0109%').executeTakeFirstOrThrow();
  return { run, stored: Number(stored.n) };
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

async function pgAdmin(statement: string): Promise<void> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

async function main() {
  ensureWrk();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-bench-cluster-'));
  // nginx started as root reads files as its workers' user (nobody): mkdtemp's 0700 would hide them.
  fs.chmodSync(work, 0o755);
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: true });
  await redis.connect();
  await redis.flushdb();
  for (const s of Object.values(SCHEMAS)) await pgAdmin(`drop schema if exists "${s}" cascade; create schema "${s}"`);
  console.log(`\nLeadroom cluster benchmark — ${os.cpus().length} CPU, Node ${process.version}; wrk 1 thread, ${CONNECTIONS} connections`);
  console.log(`  PostgreSQL ${PG_URL.replace(/\/\/[^@/]*@/, '//…@')} (schemas ${Object.values(SCHEMAS).join(', ')}, dropped afterwards) · Redis ${REDIS_URL}`);
  console.log(`  cluster: ${WEB} web processes + 1 worker (npm run start:cluster, ${SCHED === 'rr' ? 'SCHED_RR' : 'SCHED_NONE'})\n`);

  const rows: string[][] = [['figure', 'SQLite, 1 process', 'PostgreSQL, 1 process', `PostgreSQL, cluster ×${WEB}`, 'goal']];
  const getRows: string[][] = [['landing GET req/s (br)', 'ours', 'nginx, same bytes', 'ours ÷ nginx', 'goal']];
  const faultRows: string[][] = [['fault run', 'count', 'check']];
  let failed = false;
  const running: Child[] = [];
  const stopAll = async () => {
    for (const c of running.splice(0).reverse()) await c.stop().catch(() => {});
  };
  let nginxSeq = 0;
  const nginx = async (conf: (dir: string) => string, port: number) => {
    const dir = path.join(work, `nginx-${++nginxSeq}`);
    fs.mkdirSync(dir, { recursive: true });
    const n = await startNginx(dir, conf(dir), `http://127.0.0.1:${port}${PAGE}`);
    running.push(n);
    return n;
  };
  const compareGet = async (label: string, oursUrl: string, workers: number, port: number, goal: string) => {
    const answer = await rawGet(oursUrl + PAGE);
    if (answer.status !== 200 || answer.headers['content-encoding'] !== 'br') throw new Error(`${PAGE}: ${answer.status} ${answer.headers['content-encoding']}`);
    const ng = await nginx((dir) => staticNginxConf(dir, port, workers, answer), port);
    const theirs = await rawGet(ng.url);
    if (!theirs.body.equals(answer.body)) throw new Error(`nginx answers different bytes: ${theirs.status} ${theirs.body.length} vs ${answer.body.length}`);
    // A short unmeasured run first: every web process renders and caches the page, the JIT warms.
    await wrkGetRate(oursUrl + PAGE, { connections: CONNECTIONS, seconds: 2, headers: GET_HEADERS });
    const ours = await wrkGetRate(oursUrl + PAGE, { connections: CONNECTIONS, seconds: GET_SECONDS, headers: GET_HEADERS });
    const ref = await wrkGetRate(ng.url, { connections: CONNECTIONS, seconds: GET_SECONDS, headers: GET_HEADERS });
    await ng.stop();
    running.splice(running.indexOf(ng), 1);
    getRows.push([label, fmt(ours), fmt(ref), `${(ours / ref).toFixed(2)}×`, goal]);
    console.log(`  ${label}: ${fmt(ours)} vs nginx ${fmt(ref)} (${(ours / ref).toFixed(2)}×)`);
    return ours / ref;
  };

  try {
    // ── 1. Intake on one process: SQLite, then PostgreSQL ────────────────────────────────
    const figures: IntakeFigure[] = [];
    {
      const dataDir = path.join(work, 'sqlite');
      const s = await startServer({ dataDir, port: PORT.sqlite, env: common });
      running.push(s);
      const h = await openDatabase({ url: path.join(dataDir, 'leadroom.sqlite') });
      figures.push(await intake(s.url, h.db));
      await h.close();
      await stopAll();
      console.log(`  intake, SQLite one process: ${fmt(figures[0]!.run.ok / figures[0]!.run.seconds)} leads/s`);
    }
    {
      const s = await startServer({ dataDir: path.join(work, 'pg-one'), port: PORT.pgOne, env: { ...common, DATABASE_URL: pgUrl(SCHEMAS.one) } });
      running.push(s);
      const h = await openDatabase({ url: PG_URL, pgSchema: SCHEMAS.one, poolSize: 2 });
      figures.push(await intake(s.url, h.db));
      await h.close();
      console.log(`  intake, PostgreSQL one process: ${fmt(figures[1]!.run.ok / figures[1]!.run.seconds)} leads/s`);
      // 2a. One web process against nginx with one worker (for reference).
      await compareGet('1 web process vs nginx, 1 worker', s.url, 1, PORT.nginxOne, 'for reference');
      await stopAll();
    }

    // ── The cluster ─────────────────────────────────────────────────────────────────────
    const clusterEnv = {
      ...common, DATABASE_URL: pgUrl(SCHEMAS.cluster), REDIS_URL, WEB_PROCESSES: String(WEB), WORKER_PROCESSES: '1', CLUSTER_SCHED: SCHED,
      // A killed worker's claimed deliveries go back to the queue after this (default 60 s).
      DELIVERY_LEASE_MS: '5000',
      // The fault run's receiver listens on loopback: allowed as an operator allows an on-premise CRM.
      OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32',
    };
    const cluster: ClusterChild = await startCluster({ port: PORT.cluster, env: { ...clusterEnv, DATA_DIR: path.join(work, 'cluster') } });
    running.push(cluster);
    const ch = await openDatabase({ url: PG_URL, pgSchema: SCHEMAS.cluster, poolSize: 2 });
    try {
      figures.push(await intake(cluster.url, ch.db));
      console.log(`  intake, PostgreSQL cluster: ${fmt(figures[2]!.run.ok / figures[2]!.run.seconds)} leads/s`);

      // ── 2b. The cluster's GET against nginx with as many workers; then nginx in front ─────
      const ratio = await compareGet(`cluster (${WEB} web) vs nginx, ${WEB} workers`, cluster.url, WEB, PORT.nginxMany, 'goal ≥ 0.6×');
      if (ratio < 0.6) getRows.at(-1)![4] = 'goal ≥ 0.6× ✗';
      else getRows.at(-1)![4] = 'goal ≥ 0.6× ✓';
      const proxy = await nginx((dir) => proxyConf(dir, PORT.nginxProxy, PORT.cluster), PORT.nginxProxy);
      const via = await rawGet(proxy.url);
      const direct = await rawGet(cluster.url + PAGE);
      if (via.status !== 200 || !via.body.equals(direct.body)) throw new Error('deploy/nginx.conf: the landing through nginx differs from the cluster\'s');
      const viaRate = await wrkGetRate(proxy.url, { connections: CONNECTIONS, seconds: GET_SECONDS, headers: GET_HEADERS });
      getRows.push([`deploy/nginx.conf → cluster (${WEB} nginx workers)`, fmt(viaRate), '', '', 'proxies: same bytes ✓']);
      console.log(`  deploy/nginx.conf in front of the cluster: ${fmt(viaRate)} req/s`);
      await proxy.stop();
      running.splice(running.indexOf(proxy), 1);

      // ── 3. The fault run ─────────────────────────────────────────────────────────────
      await fault(cluster, ch.db, faultRows).then((ok) => (failed ||= !ok));
    } finally {
      await ch.close();
    }
    await stopAll();

    if (COMPARE_SCHED) {
      const other = SCHED === 'rr' ? 'none' : 'rr';
      const c2 = await startCluster({ port: PORT.cluster + 1, env: { ...clusterEnv, CLUSTER_SCHED: other, DATA_DIR: path.join(work, 'cluster-2') } });
      running.push(c2);
      await compareGet(`cluster, ${other === 'rr' ? 'SCHED_RR' : 'SCHED_NONE'} vs nginx, ${WEB} workers`, c2.url, WEB, PORT.nginxMany + 10, 'the other policy');
      await stopAll();
    }

    // ── The table ───────────────────────────────────────────────────────────────────────
    const [lite, one, many] = figures as [IntakeFigure, IntakeFigure, IntakeFigure];
    const rate = (f: IntakeFigure) => f.run.ok / f.run.seconds;
    const mark = (ok: boolean) => (ok ? '✓' : '✗');
    const goalPg = rate(one) >= 0.5 * rate(lite) && one.run.p99 <= 50;
    const goalCluster = rate(many) >= 1.5 * rate(one);
    rows.push(['intake leads/s (2xx ÷ seconds)', ...figures.map((f) => fmt(rate(f))),
      `PG ${(rate(one) / rate(lite)).toFixed(2)}× SQLite (≥ 0.5×) ${mark(goalPg)}; cluster ${(rate(many) / rate(one)).toFixed(2)}× PG (≥ 1.5×) ${mark(goalCluster)}`]);
    rows.push(['intake latency p50 / p99 ms', ...figures.map((f) => `${f.run.p50.toFixed(1)} / ${f.run.p99.toFixed(1)}`), `p99 ≤ 50 ms on PostgreSQL ${mark(one.run.p99 <= 50 && many.run.p99 <= 50)}`]);
    rows.push(['stored rows = 2xx answers', ...figures.map((f) => `${fmt(f.stored)} = ${fmt(f.run.ok)} ${f.stored === f.run.ok ? 'OK' : 'MISMATCH'}`), '']);
    rows.push(['other answers · socket errors', ...figures.map((f) => `${f.run.other} · ${f.run.socketErrors}`), '']);
    if (figures.some((f) => f.stored !== f.run.ok)) failed = true;
    console.log('');
    printTable(rows);
    console.log('');
    printTable(getRows);
    console.log('');
    printTable(faultRows);
    console.log(failed ? '\n  FAIL: a lead was lost or stored rows differ from the answers.\n' : '\n  no lead lost\n');
    if (failed) process.exitCode = 1;
  } finally {
    await stopAll();
    for (const s of Object.values(SCHEMAS)) await pgAdmin(`drop schema if exists "${s}" cascade`).catch(() => {});
    await redis.flushdb().catch(() => {});
    redis.disconnect();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Intake and delivery load on the cluster while one web process and one worker are SIGKILLed. */
async function fault(cluster: ClusterChild, db: Kysely<Database>, out: string[][]): Promise<boolean> {
  const receiver = await startReceiver(PORT.receiver);
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
    const load = intakeLoad({ url: `${cluster.url}/api/public/leads`, connections: 20, durationMs: FAULT_SECONDS * 1000, body: lead });
    await sleep(3000);
    const web = cluster.pids.web.get(WEB)!;
    process.kill(web, 'SIGKILL');
    console.log(`  fault run: SIGKILL web ${WEB} (pid ${web}) at 3 s`);
    await sleep(3000);
    const worker = cluster.pids.worker.get(1)!;
    process.kill(worker, 'SIGKILL');
    console.log(`  fault run: SIGKILL worker 1 (pid ${worker}) at 6 s`);
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
    const ok = missingStored === 0 && notDelivered === 0 && twice === 0 && strangers === 0;
    out.push(
      [`SIGKILLed: web ${WEB} (→ pid ${newWeb}), worker 1 (→ pid ${newWorker})`, 'replaced', 'by the primary ✓'],
      ['acknowledged (2xx) leads', fmt(acked.size), `${fmt(result.errors)} requests cut off by the kill`],
      ['stored leads', fmt(stored.length), `acknowledged but missing: ${missingStored} ${missingStored ? '✗' : '✓'}`],
      ['delivered leads (their job\'s key received)', fmt(delivered), `stored but not delivered: ${notDelivered} ${notDelivered ? '✗' : '✓'}${left ? ` (${left} jobs still open)` : ''}`],
      ['unique Idempotency-Keys received', fmt(receiver.perKey.size), `leads with more than one key: ${twice} ${twice ? '✗' : '✓'}; unknown keys: ${strangers}`],
      ['receipts in all', fmt(receiver.total()), `${repeats} repeats of a key already received (allowed)`],
    );
    return ok;
  } finally {
    await receiver.close();
  }
}

await main();
