// npm run bench:leads [-- --rows=1000000] [--reseed] [--only=sqlite|postgres] [--only-figures=contract,ads,…]
//
// The lead screens on a year of data, over real HTTP, SQLite and PostgreSQL side by side:
//   1. DB 현황 first page for a month with a status filter (미처리): p50 / p95 of 50 requests (goal p95 ≤ 50 ms)
//   2. phone-digits search — last four (q=5678) and a prefix (q=010-1234) — today (the screen's
//      default period) and over a year: p50 / p95 (goal p95 ≤ 10 ms)
//   3. a month of 상담 통계 (GET /api/shops/:shopId/cs-stats): p50 / p95 (goal ≤ 200 ms)
//   4. allocating 1,000 unassigned leads in turn over the shop's counselors: preview, then apply (goal ≤ 1 s)
//   5. a lead submitted through the public intake reaching an open lead stream (server-sent
//      events): from the intake's answer (the lead is committed by then) to the event, p50 / p99
//      of 200 submissions 20 ms apart (goal p99 ≤ 1 s)
//   6. personal data: 통합 DB 검색 by the last four digits across 20 shops (goal p95 ≤ 50 ms),
//      개인정보 접근 기록's first page of a month (goal p95 ≤ 50 ms), importing a 50,000-row CSV
//      (goal ≤ 20 s), and exporting ~100,000 leads to XLSX from a server process of its own,
//      whose peak resident memory (VmHWM) is read from /proc (goal ≤ 15 s, ≤ 300 MB)
//   7. 계약 현황 of the largest shop's 12-month contract (GET /api/shops/:shopId/contracts/status?contractId=…,
//      every day of a year of its leads counted): p50 / p95 of 30 (goal p95 ≤ 100 ms); and the first page
//      of the leads behind its 정산 대상 count (…/contracts/:id/leads?kind=counted): p50 / p95 (no goal)
//   8. a month of 광고 현황 figures over the 20 shops, measured two ways: in-process, the ad-spend
//      service's adFigures({ shopIds: all 20, a month, byLanding: false }) on the bench's own database
//      handle, p50 / p95 of 20 runs (goal p95 ≤ 200 ms); and over HTTP, where only the per-shop route
//      exists, 20 GET /api/shops/:shopId/ad-spend one after the other as the marketer: p50 / p95 of
//      the sum of such a round, 10 rounds (no goal); the two must add up to the same totals
//   9. the SLA scan (scripts/bench-sla.ts): speed to lead's escalation job finding the due leads of the
//      20 shops with the SLA on, in process as the worker runs it every 5 s — the first pass after
//      turning it on (no goal) and the steady state of a job that has kept up: p50 / p95 of 50 passes
//      (goal p95 ≤ 50 ms), with the plans of its two queries (new arrivals; running clocks); and what
//      the screens read of it: the largest shop's SLA figures over 30 days, the ranking of the 20 shops (no goal)
// and the plans of the queries behind them, built by the repositories themselves: the list and
// phone-search queries (leads repository), the contract's counting query (shop-contracts
// repository scopeDays: every bucket counted per day, each day over its own stretch of the index)
// and the ad figures' lead query (ad-spend repository leads) — EXPLAIN QUERY PLAN on SQLite,
// EXPLAIN ANALYZE on PostgreSQL; the money ones should read the covering index
// leads_shop_created_cover_idx alone (SQLite: USING COVERING INDEX; PostgreSQL: Index Only Scan,
// Heap Fetches: 0).
//
// --only=sqlite|postgres runs one engine; --only-figures=<groups> (comma-separated) runs only those
// groups of figures, with their plans: list (1), search (2), stats (3), allocation (4), live (5),
// personal (6), contract (7), ads (8), sla (9) — e.g. --only-figures=contract,ads while working on the money screens.
// --smoke (npm run bench:smoke): 2,000 leads seeded afresh on each engine (dropped afterwards), a few
// requests per figure, a 500-row import, goals not checked.
//
// Each engine gets a bulk-seeded database (scripts/seed-bulk.ts), made on the first run and reused
// afterwards: SQLite in <tmp>/leadroom-bench-leads/<rows>/, PostgreSQL in the schema
// bench_leads_<rows> of BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
// The app is build() on that database, listening on 127.0.0.1, logged in as the largest shop's
// 업체관리자 (data scope 'all'; the marketer for what spans the 20 shops). What the bench writes
// (the allocation, the submitted and imported leads) is undone afterwards — and on PostgreSQL
// vacuumed away, before the money figures and at the start of a run, so index-only scans find
// the pages all-visible again — so later runs measure the same data; the access record keeps
// its entries (the searches, the contract's leads viewed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql, type Kysely, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { build } from '../server/app.ts';
import { openDatabase, type DbHandle } from '../server/db/dialect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import type { Database } from '../server/db/schema.ts';
import { leadsRepository, type LeadListFilter } from '../server/modules/leads/leads.repository.ts';
import { landingSecret, signRenderStamp } from '../server/lib/render-stamp.ts';
import { addDays, periodInstants, seoulDay } from '../contracts/kst.ts';
import { leadsApi, LEAD_STREAM_EVENT, type LeadStreamEvent } from '../contracts/leads.ts';
import { allocationApi } from '../contracts/allocation.ts';
import { BULK_OWNER, BULK_PASSWORD, seedBulk } from './seed-bulk.ts';
import { benchAccessRecord, benchGlobalSearch } from './bench-access.ts';
import { benchAdFiguresHttp, benchAdFiguresInProcess, benchContractStatus, contractScopeOf } from './bench-money.ts';
import { shopContractsRepository } from '../server/modules/shop-contracts/shop-contracts.repository.ts';
import { adSpendRepository } from '../server/modules/ad-spend/ad-spend.repository.ts';
import { benchImport } from './bench-import.ts';
import { slaScan } from './bench-sla.ts';
import { dueLeads } from '../server/modules/leads/sla.ts';
import { slaFigures as slaFiguresOf, slaRanking } from '../server/modules/leads/sla-figures.ts';
import { IMPORT_SOURCE } from '../contracts/data-insertion.ts';
import { benchExport } from './bench-export.ts';
import { argOf, eachEngine, ENGINE_LABEL, freePort, freshSchema, PG_URL, pct, pgUrlOf, redact, sized, SMOKE, startBench, type Engine } from './bench-kit.ts';
import { buildIfStale, serverEntry } from './build-if-stale.mjs';

const ROWS = Number((argOf('rows') || sized('1000000', '2000')).replace(/[_,]/g, ''));
const RESEED = argOf('reseed') !== undefined;
const FIGURE_GROUPS = ['list', 'search', 'stats', 'allocation', 'live', 'personal', 'contract', 'ads', 'sla'] as const;
type FigureGroup = (typeof FIGURE_GROUPS)[number];
const ONLY_FIGURES = argOf('only-figures')?.split(',').map((g) => g.trim()).filter(Boolean);
const unknownGroups = ONLY_FIGURES?.filter((g) => !(FIGURE_GROUPS as readonly string[]).includes(g)) ?? [];
if (unknownGroups.length) throw new Error(`--only-figures: unknown ${unknownGroups.join(', ')} (groups: ${FIGURE_GROUPS.join(', ')})`);
/** Whether this run measures a group of figures (all of them without --only-figures). */
const want = (g: FigureGroup) => !ONLY_FIGURES || ONLY_FIGURES.includes(g);
// Reused from run to run; a smoke run's are fresh (a temporary folder, a schema of its own) and go afterwards.
let PG_SCHEMA = `bench_leads_${ROWS}`;
let SQLITE_DIR = path.join(os.tmpdir(), 'leadroom-bench-leads', String(ROWS));
const SHOP_CODE = 'bulk-dental-01';
const LIST_REQUESTS = sized(50, 5);
const SEARCH_REQUESTS = sized(50, 5);
const STATS_REQUESTS = sized(20, 3);
const SLA_PASSES = sized(50, 5);
const SLA_SCREEN_RUNS = sized(5, 2);
const ALLOCATE = 1000;
const ALLOCATION_ROUNDS = sized(3, 1);
const SUBMISSIONS = sized(200, 20);
/** Requests per figure of the personal-data and money steps (their own defaults outside a smoke run). */
const STEP_REQUESTS = sized(undefined, 3);
const SUBMIT_GAP_MS = 20;
/** The phones the bench submits start with this (seeded phones never do: theirs are 010 + 2000…9999 + four digits). */
const BENCH_PHONE = '0100';
const BENCH_NAME = '벤치테스트';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 100 ? `${Math.round(n)}` : n >= 10 ? n.toFixed(1) : n.toFixed(2));

const bench = startBench(`Leadroom lead-screen benchmark — ${fmt(ROWS)} leads, ${os.cpus().length} CPU, Node ${process.version}`, ENGINE_LABEL);
const { record } = bench;
const say = (line = '') => console.log(line);

// ── HTTP ───────────────────────────────────────────────────────────────────────────────

interface Session {
  base: string;
  cookie: string;
}

async function login(base: string, loginId: string, password: string): Promise<Session> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ loginId, password }),
  });
  if (res.status !== 200) throw new Error(`login ${loginId}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('lr_session='));
  if (!cookie) throw new Error('login: no session cookie');
  return { base, cookie };
}

async function call(s: Session, method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; json: unknown; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(s.base + url, {
    method,
    headers: { cookie: s.cookie, origin: s.base, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const took = performance.now() - t0;
  return { status: res.status, json: text ? JSON.parse(text) : null, ms: took };
}

const withParams = (template: string, params: Record<string, string | number>) => template.replace(/:(\w+)/g, (_, k: string) => String(params[k]));
const qs = (q: Record<string, string | undefined>) =>
  Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(v!)}`).join('&');

/** Timed GETs of `urls` in turn (a few untimed first, to warm caches and the JIT): sorted milliseconds. */
async function timeGets(s: Session, urls: string[], warm = 3): Promise<{ sorted: number[]; last: unknown }> {
  let last: unknown;
  for (const url of urls.slice(0, warm)) {
    const r = await call(s, 'GET', url);
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.json)}`);
  }
  const times: number[] = [];
  for (const url of urls) {
    const r = await call(s, 'GET', url);
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.json)}`);
    times.push(r.ms);
    last = r.json;
  }
  return { sorted: times.sort((a, b) => a - b), last };
}

// ── The plans ──────────────────────────────────────────────────────────────────────────

/** Captures every query a Kysely instance runs, compiled as the engine gets it. */
class Capture implements KyselyPlugin {
  queries: CompiledQuery[] = [];
  constructor(private readonly db: Kysely<Database>) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.queries.push(this.db.getExecutor().compileQuery(args.node, args.queryId));
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

async function explain(db: Kysely<Database>, engine: Engine, q: CompiledQuery): Promise<string> {
  if (engine === 'sqlite') {
    const { rows } = await db.executeQuery<{ id: number; parent: number; detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]));
    const depth = new Map<number, number>([[0, 0]]);
    return rows
      .map((r) => {
        const d = (depth.get(r.parent) ?? 0) + 1;
        depth.set(r.id, d);
        return `${'  '.repeat(d - 1)}${d > 1 ? '`--' : ''}${r.detail}`;
      })
      .join('\n');
  }
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze, buffers) ${q.sql}`, [...q.parameters]));
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/**
 * The SQL `run` sends through a repository built on the db it is handed, each query named by
 * `name`, with its plan; `keep` leaves out what was compiled but not sent (a UNION's second
 * part is captured on its own too).
 */
async function capturedPlans(db: Kysely<Database>, engine: Engine, title: string, run: (db: Kysely<Database>) => Promise<unknown>, name: (q: CompiledQuery) => string,
  keep: (q: CompiledQuery) => boolean = () => true) {
  const capture = new Capture(db);
  await run(db.withPlugin(capture));
  for (const q of capture.queries.filter(keep)) {
    say(`\n  ── ${title} — ${name(q)} (${ENGINE_LABEL[engine]})`);
    say(`  ${shortValues(q.sql)}`);
    say(`  parameters: ${JSON.stringify(q.parameters)}`);
    say((await explain(db, engine, q)).replace(/^/gm, '    '));
  }
}

/** A long VALUES list (a contract's days) as its first and last rows and how many there are. */
function shortValues(sqlText: string): string {
  return sqlText.replace(/\(values ((?:\([^()]*\)(?:, )?){4,})\)/g, (_, rows: string) => {
    const each = rows.match(/\([^()]*\)/g)!;
    return `(values ${each[0]}, … ${each.length - 2} more …, ${each[each.length - 1]})`;
  });
}

/** The SQL the repository runs for one list request (its count and its page), with their plans. */
async function plans(db: Kysely<Database>, engine: Engine, shopId: number, title: string, f: LeadListFilter) {
  await capturedPlans(db, engine, title, (d) => leadsRepository(d).list(shopId, { accountId: 0, scope: 'all' }, f),
    (q) => `${/^select count\(\*\)/.test(q.sql) ? 'count' : 'page'} query`);
}

// ── One engine ─────────────────────────────────────────────────────────────────────────

async function open(engine: Engine): Promise<DbHandle> {
  return engine === 'sqlite' ? openDatabase({ url: path.join(SQLITE_DIR, 'leadroom.sqlite') }) : openDatabase({ url: PG_URL, pgSchema: PG_SCHEMA, poolSize: 10 });
}

/** The bench database of an engine: seeded on the first run (or with --reseed), reused afterwards. */
async function prepare(engine: Engine): Promise<void> {
  const where = engine === 'sqlite' ? path.join(SQLITE_DIR, 'leadroom.sqlite') : `${redact(PG_URL)}, schema ${PG_SCHEMA}`;
  let have = 0;
  if (!RESEED && (engine === 'postgres' || fs.existsSync(path.join(SQLITE_DIR, 'leadroom.sqlite')))) {
    const h = await open(engine);
    try {
      const shop = await h.db.selectFrom('shops').select('id').where('shop_code', '=', SHOP_CODE).executeTakeFirst().catch(() => undefined);
      if (shop) have = Number((await h.db.selectFrom('leads').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    } finally {
      await h.close();
    }
  }
  if (have >= ROWS) {
    say(`  database: ${where} (${fmt(have)} leads, reused; --reseed to make it again)`);
    return;
  }
  say(`  database: ${where} — seeding ${fmt(ROWS)} leads (${SMOKE ? 'dropped afterwards' : 'once; later runs reuse it'})`);
  const r = await seedBulk({ db: engine === 'sqlite' ? path.join(SQLITE_DIR, 'leadroom.sqlite') : PG_URL, schema: engine === 'postgres' ? PG_SCHEMA : undefined, leads: ROWS, fresh: true });
  say(`  seeded: ${fmt(r.leads)} leads, ${fmt(r.events)} events in ${r.seconds.toFixed(1)} s`);
  record('seed', `seed:bulk ${fmt(ROWS)} leads (+ events, indexes, ANALYZE)`, 'minutes', engine, `${r.seconds.toFixed(0)} s`);
}

async function runEngine(engine: Engine) {
  // A smoke run's database is its own, made afresh and dropped at the end.
  const smokeSchema = SMOKE && engine === 'postgres' ? await freshSchema('bench_leads_smoke') : null;
  if (smokeSchema) PG_SCHEMA = smokeSchema.name;
  if (SMOKE && engine === 'sqlite') SQLITE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-bench-leads-smoke-'));
  try {
    await measure(engine);
  } finally {
    await smokeSchema?.drop();
    if (SMOKE && engine === 'sqlite') fs.rmSync(SQLITE_DIR, { recursive: true, force: true });
  }
}

async function measure(engine: Engine) {
  await prepare(engine);
  const handle = await open(engine);
  const db = handle.db;
  // Migrations newer than the seeded database run here (build() would run them too): timed, as they would run on a live one.
  // What an earlier run wrote and undid (or a run that stopped half-way) is cleaned up before anything is measured.
  await settle(engine, db);
  const t0 = performance.now();
  const applied = await migrateToLatest(db);
  if (applied.length) say(`  migrated: ${applied.join(', ')} (${((performance.now() - t0) / 1000).toFixed(1)} s on ${fmt(ROWS)} leads)`);
  const dataDir = engine === 'sqlite' ? SQLITE_DIR : fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-bench-leads-pg-'));
  const app = await build({
    // No automatic purge: the seeded year of leads is older than its policies' retention, and the figures measure the screens.
    config: { dataDir, seedDemo: false, logLevel: 'silent', intakeRateLimit: 0, loginRateLimit: 1000, distDir: '/nonexistent', workerEnabled: false },
    database: handle,
  });
  // A step that runs minutes without HTTP (the export's own server, an in-process figure) must not find the
  // connections it kept alive closed under it: the server's 72 s keep-alive would race the next request's reuse.
  app.server.keepAliveTimeout = 30 * 60_000;
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const s = await login(base, BULK_OWNER, BULK_PASSWORD);
    const shop = await db.selectFrom('shops').select('id').where('shop_code', '=', SHOP_CODE).executeTakeFirstOrThrow();
    const shopId = shop.id;
    const listPath = withParams(leadsApi.list.path, { shopId });
    const today = seoulDay(new Date());
    const month = addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
    const monthFrom = `${month}-01`;
    const monthTo = addDays(`${today.slice(0, 7)}-01`, -1);
    const yearFrom = addDays(today, -365);
    say(`  shop ${SHOP_CODE} (id ${shopId}), ${fmt(Number((await db.selectFrom('leads').select((eb) => eb.fn.countAll<number>().as('n')).where('shop_id', '=', shopId).executeTakeFirstOrThrow()).n))} leads; month ${monthFrom} … ${monthTo}`);

    // 1. The month's list with a status filter.
    if (want('list')) {
      const listUrl = `${listPath}?${qs({ from: monthFrom, to: monthTo, status: '미처리' })}`;
      const list = await timeGets(s, Array.from({ length: LIST_REQUESTS }, () => listUrl));
      const listTotal = (list.last as { total: number }).total;
      record('list', `DB 현황 page 1, a month, status=미처리 (${fmt(listTotal)} rows match)`, 'p95 ≤ 50 ms', engine,
        `${ms(pct(list.sorted, 0.5))} / ${ms(pct(list.sorted, 0.95))} ms`, pct(list.sorted, 0.95) <= 50);
      const monthAll = await timeGets(s, Array.from({ length: LIST_REQUESTS }, () => `${listPath}?${qs({ from: monthFrom, to: monthTo })}`));
      record('list-all', `DB 현황 page 1, a month, no filter (${fmt((monthAll.last as { total: number }).total)} rows)`, 'p95 ≤ 50 ms', engine,
        `${ms(pct(monthAll.sorted, 0.5))} / ${ms(pct(monthAll.sorted, 0.95))} ms`, pct(monthAll.sorted, 0.95) <= 50);
    }

    // 2. Phone-digits searches: 50 different numbers each, the same ones on both engines.
    if (want('search')) {
      const digits = (n: number, seed: number) => String((seed * 7919 + n * 104729) % 10 ** 4).padStart(4, '0');
      const searches = [
        { key: 'last4-today', label: 'phone search, last four (q=5678), today', q: (n: number) => digits(n, 1), from: undefined, to: undefined },
        { key: 'last4-year', label: 'phone search, last four (q=5678), a year', q: (n: number) => digits(n, 2), from: yearFrom, to: today },
        { key: 'prefix-today', label: 'phone search, prefix (q=010-1234), today', q: (n: number) => `010-${digits(n, 3)}`, from: undefined, to: undefined },
        { key: 'prefix-year', label: 'phone search, prefix (q=010-1234), a year', q: (n: number) => `010-${digits(n, 4)}`, from: yearFrom, to: today },
      ];
      for (const x of searches) {
        const r = await timeGets(s, Array.from({ length: SEARCH_REQUESTS }, (_, n) => `${listPath}?${qs({ q: x.q(n), from: x.from, to: x.to })}`));
        record(x.key, x.label, 'p95 ≤ 10 ms', engine, `${ms(pct(r.sorted, 0.5))} / ${ms(pct(r.sorted, 0.95))} ms`, pct(r.sorted, 0.95) <= 10);
      }
    }

    // 3. A month of 상담 통계 (another module; skipped while it is not there).
    if (want('stats')) {
      const statsLabel = 'cs-stats, a month (GET /api/shops/:shopId/cs-stats)';
      let statsPath: string | null = null;
      try {
        const { csStatsApi } = (await import('../contracts/cs-stats.ts' as string)) as { csStatsApi: { shop: { path: string } } };
        statsPath = withParams(csStatsApi.shop.path, { shopId });
      } catch (err) {
        record('stats', statsLabel, 'p95 ≤ 200 ms', engine, 'skipped');
        say(`  cs-stats skipped: contracts/cs-stats.ts did not load (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
      }
      if (statsPath) {
        const probe = await call(s, 'GET', `${statsPath}?${qs({ from: monthFrom, to: monthTo })}`);
        if (probe.status !== 200) {
          record('stats', statsLabel, 'p95 ≤ 200 ms', engine, `skipped (${probe.status})`);
          say(`  cs-stats skipped: ${statsPath} answered ${probe.status}`);
        } else {
          const r = await timeGets(s, Array.from({ length: STATS_REQUESTS }, () => `${statsPath}?${qs({ from: monthFrom, to: monthTo })}`), 2);
          record('stats', statsLabel, 'p95 ≤ 200 ms', engine, `${ms(pct(r.sorted, 0.5))} / ${ms(pct(r.sorted, 0.95))} ms`, pct(r.sorted, 0.95) <= 200);
        }
      }
    }

    // 4. Allocation of 1,000 unassigned leads, in turn over the shop's counselors; undone after each round.
    if (want('allocation')) {
      const state = await call(s, 'GET', withParams(allocationApi.state.path, { shopId }));
      const counselorIds = (state.json as { counselors: Array<{ id: number }> }).counselors.map((c) => c.id);
      const settingsBefore = await db.selectFrom('lead_settings').select('rr_cursor').where('shop_id', '=', shopId).executeTakeFirst();
      const ids = (
        await db.selectFrom('leads').select('id').where('shop_id', '=', shopId).where('assignee_id', 'is', null).where('duplicate_of', 'is', null)
          .where('deleted_at', 'is', null).orderBy('created_at', 'desc').limit(ALLOCATE).execute()
      ).map((r) => r.id);
      // A small seed may have fewer unassigned leads in the shop than that: the label says how many.
      if (ids.length < sized(10, 1)) throw new Error(`only ${ids.length} unassigned leads in ${SHOP_CODE}`);
      const input = { mode: 'round-robin', counselorIds, leadIds: ids };
      const previews: number[] = [];
      const applies: number[] = [];
      for (let round = 0; round < ALLOCATION_ROUNDS; round++) {
        const startedAt = new Date(Date.now() - 1000).toISOString();
        const preview = await call(s, 'POST', withParams(allocationApi.preview.path, { shopId }), input);
        if (preview.status !== 200 || (preview.json as { total: number }).total !== ids.length) throw new Error(`preview: ${preview.status} ${JSON.stringify(preview.json)}`);
        const apply = await call(s, 'POST', withParams(allocationApi.apply.path, { shopId }), input);
        const plan = apply.json as { total: number; unplaced: number };
        if (apply.status !== 200 || plan.total !== ids.length || plan.unplaced) throw new Error(`apply: ${apply.status} ${JSON.stringify(apply.json)}`);
        previews.push(preview.ms);
        applies.push(apply.ms);
        // Undo: the leads unassigned again, their assign events gone, the cursor back.
        for (let i = 0; i < ids.length; i += 500) {
          const chunk = ids.slice(i, i + 500);
          await db.updateTable('leads').set({ assignee_id: null, assigned_at: null }).where('id', 'in', chunk).execute();
          await db.deleteFrom('lead_events').where('lead_id', 'in', chunk).where('action', '=', 'assign').where('at', '>=', startedAt).execute();
        }
        await db.updateTable('lead_settings').set({ rr_cursor: settingsBefore?.rr_cursor ?? 0 }).where('shop_id', '=', shopId).execute();
      }
      previews.sort((a, b) => a - b);
      applies.sort((a, b) => a - b);
      record('alloc-preview', `allocation preview, ${fmt(ids.length)} leads over ${counselorIds.length} counselors (median of ${ALLOCATION_ROUNDS})`, '', engine, `${ms(pct(previews, 0.5))} ms`);
      record('alloc-apply', `allocation apply, ${fmt(ids.length)} leads, round-robin (median / max of ${ALLOCATION_ROUNDS})`, '≤ 1 s', engine,
        `${ms(pct(applies, 0.5))} / ${ms(applies[applies.length - 1]!)} ms`, applies[applies.length - 1]! <= 1000);
    }

    // 5. Intake → the open lead stream.
    if (want('live')) await liveLatency(engine, s, db, shopId, dataDir, () => app.links.leadFollowUps());

    // 6. Personal data: search, the access record, import, export.
    if (want('personal')) await personalData(engine, base, s, db, shopId, month, handle);
    // The writes above are undone, but on PostgreSQL not yet cleaned up: the figures below, and the next run, read the leads as seeded.
    if (want('allocation') || want('live') || want('personal')) await settle(engine, db);

    // 7. 계약 현황 of the largest shop's 12-month contract, and the leads behind its count.
    const contract = want('contract') ? await yearContract(db, shopId) : null;
    if (want('contract')) {
      const c = contract!;
      const r = await benchContractStatus(base, s.cookie, shopId, c.id, STEP_REQUESTS);
      say(`  contract ${c.id} (${c.starts_on} … ${c.ends_on}): ${fmt(r.counted)} counted over ${r.days} days; ${fmt(r.leadsTotal)} leads behind the count`);
      record('contract-status', `계약 현황, 12-month contract, ${fmt(r.counted)} counted (GET …/contracts/status?contractId=)`, 'p95 ≤ 100 ms', engine,
        `${ms(pct(r.status, 0.5))} / ${ms(pct(r.status, 0.95))} ms`, pct(r.status, 0.95) <= 100);
      record('contract-leads', '  its leads behind 정산 대상, page 1 (…/contracts/:id/leads?kind=counted)', '', engine,
        `${ms(pct(r.leads, 0.5))} / ${ms(pct(r.leads, 0.95))} ms`);
    }

    // 8. A month of 광고 현황 over the 20 shops: in-process on the bench's handle (one adFigures call), and over HTTP (a request per shop).
    const shopIds = (await db.selectFrom('shops').select('id').where('shop_code', 'like', 'bulk-%').orderBy('id').execute()).map((r) => r.id);
    if (want('ads')) {
      const inProcess = await benchAdFiguresInProcess(db, shopIds, monthFrom, monthTo, STEP_REQUESTS);
      record('ads-inprocess', `광고 현황, a month × ${shopIds.length} shops: adFigures() in-process, one call`, 'p95 ≤ 200 ms', engine,
        `${ms(pct(inProcess.sorted, 0.5))} / ${ms(pct(inProcess.sorted, 0.95))} ms`, pct(inProcess.sorted, 0.95) <= 200);
      const marketer = await login(base, 'bulk-marketer', BULK_PASSWORD);
      const http = await benchAdFiguresHttp(base, marketer.cookie, shopIds, monthFrom, monthTo, STEP_REQUESTS);
      record('ads-http', `  over HTTP: sum of ${shopIds.length} GET /api/shops/:shopId/ad-spend in turn (per round)`, '', engine,
        `${ms(pct(http.rounds, 0.5))} / ${ms(pct(http.rounds, 0.95))} ms`);
      record('ads-http-one', '  over HTTP: one of those requests (one shop, a month)', '', engine,
        `${ms(pct(http.requests, 0.5))} / ${ms(pct(http.requests, 0.95))} ms`);
      const a = inProcess.totals;
      const b = http.totals;
      const same = a.leads === b.leads && a.validLeads === b.validLeads && a.spend === b.spend;
      say(`  ad figures ${monthFrom} … ${monthTo}, ${shopIds.length} shops: ${fmt(a.leads)} leads, ${fmt(a.validLeads)} valid, ₩${fmt(a.spend)} spend in-process; ` +
        `${same ? 'the same over HTTP' : `OVER HTTP ${fmt(b.leads)} / ${fmt(b.validLeads)} / ₩${fmt(b.spend)} — THEY DIFFER`}`);
      if (!same) throw new Error('ad figures: in-process and HTTP totals differ');
    }

    // 9. The SLA scan: escalation's search for due leads over the 20 shops, the first pass after turning it on and the steady state.
    if (want('sla')) await slaFigures(engine, db, shopIds, shopId);

    // The plans, built by the repositories themselves.
    if (want('list') || want('search') || want('contract') || want('ads')) {
      say(`\n  Plans (${ENGINE_LABEL[engine]}; the queries the repositories run for the requests above)`);
    }
    const period = (from: string, to: string) => periodInstants(from, to);
    const filter = (f: Partial<LeadListFilter> & { fromIso: string; toIso: string }): LeadListFilter => ({ page: 1, pageSize: 20, ...f });
    if (want('list')) await plans(db, engine, shopId, `month list, status=미처리 (${monthFrom} … ${monthTo})`, filter({ ...period(monthFrom, monthTo), status: ['미처리'] }));
    if (want('search')) {
      await plans(db, engine, shopId, 'phone search q=5678, a year', filter({ ...period(yearFrom, today), q: '5678' }));
      await plans(db, engine, shopId, 'phone search q=010-1234, a year', filter({ ...period(yearFrom, today), q: '010-1234' }));
    }
    if (want('contract')) {
      const scope = await contractScopeOf(db, shopId, contract!.id);
      await capturedPlans(db, engine, `계약 현황, contract ${contract!.id} (${contract!.starts_on} … ${contract!.ends_on})`, (d) => shopContractsRepository(d).scopeDays(scope),
        () => 'counting query (shop-contracts repository scopeDays → valid-leads countsPerDay: each day\'s buckets counted over its own index range)');
    }
    if (want('ads')) {
      await capturedPlans(db, engine, `광고 현황, ${monthFrom} … ${monthTo} × ${shopIds.length} shops`,
        (d) => adSpendRepository(d).leads({ shopIds, from: monthFrom, to: monthTo, byLanding: false, ...period(monthFrom, monthTo) }),
        () => 'lead query (ad-spend repository leads)');
    }
  } finally {
    await app.close();
    await handle.close();
    if (engine === 'postgres') fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * PostgreSQL: rows the bench wrote and then deleted or updated back leave dead tuples and
 * clear the visibility map of their pages (new rows go wherever the free space map points), so
 * index-only scans of old leads would fetch heap pages for a while; autovacuum does not step
 * in below a fifth of the table. VACUUM does what it would on a live database, in seconds (it
 * skips the pages still all-visible), so every figure reads the leads as seeded.
 */
async function settle(engine: Engine, db: Kysely<Database>) {
  if (engine !== 'postgres') return;
  const t0 = performance.now();
  await sql`vacuum (analyze) leads, lead_events`.execute(db);
  say(`  vacuumed leads and lead_events (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

/** The shop's longest contract (the bulk seed gives each shop one of 12 months, ending today). */
async function yearContract(db: Kysely<Database>, shopId: number) {
  const contracts = await db.selectFrom('shop_contracts').select(['id', 'starts_on', 'ends_on']).where('shop_id', '=', shopId).execute();
  const length = (c: { starts_on: string; ends_on: string }) => Date.parse(c.ends_on) - Date.parse(c.starts_on);
  const c = contracts.sort((a, b) => length(b) - length(a) || b.id - a.id)[0];
  if (!c) throw new Error(`${SHOP_CODE} has no contract: the bulk seed predates seedBulkMoney (--reseed)`);
  if (length(c) < 360 * 86400_000) throw new Error(`${SHOP_CODE}'s longest contract runs ${c.starts_on} … ${c.ends_on}, not 12 months`);
  return c;
}

async function liveLatency(engine: Engine, s: Session, db: Kysely<Database>, shopId: number, dataDir: string, followUps: () => Promise<void>) {
  const landing = await db.selectFrom('landings').select(['id', 'landing_code', 'form_fields']).where('shop_id', '=', shopId).orderBy('id').executeTakeFirstOrThrow();
  const interest = (JSON.parse(landing.form_fields) as Array<{ key: string; options: string[] }>).find((f) => f.key === 'interest')!.options[0]!;
  const controller = new AbortController();
  const res = await fetch(`${s.base}${withParams(leadsApi.stream.path, { shopId })}`, { headers: { cookie: s.cookie }, signal: controller.signal });
  if (res.status !== 200) throw new Error(`stream: ${res.status}`);
  const arrivals = new Map<number, number>();
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const pattern = new RegExp(`^event: ${LEAD_STREAM_EVENT}\\ndata: (.*)$`, 'm');
  const pump = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const now = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = pattern.exec(block);
          if (!data) continue;
          const event = JSON.parse(data[1]!) as LeadStreamEvent;
          if (event.kind === 'created') for (const id of event.ids) if (!arrivals.has(id)) arrivals.set(id, now);
        }
      }
    } catch {
      // aborted
    }
  })();

  const secret = landingSecret(dataDir);
  const since = new Date(Date.now() - 1000).toISOString();
  const run = String(Date.now() % 1000).padStart(3, '0');
  const answered = new Map<string, number>();
  const failures: string[] = [];
  try {
    for (let n = 0; n < SUBMISSIONS; n++) {
      const phone = `${BENCH_PHONE}${run}${String(n).padStart(4, '0')}`;
      const body = {
        shopCode: SHOP_CODE, landingCode: landing.landing_code, name: BENCH_NAME, phone, privacyConsent: true, interest,
        _t: signRenderStamp(secret, landing.id, new Date(Date.now() - 10_000)),
      };
      const r = await fetch(`${s.base}/api/public/leads`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'bench-leads' }, body: JSON.stringify(body) });
      const text = await r.text();
      const t = performance.now();
      if (r.status !== 201) failures.push(`${r.status} ${text}`);
      else answered.set(phone, t);
      await new Promise((resolve) => setTimeout(resolve, SUBMIT_GAP_MS));
    }
    const until = Date.now() + 5000;
    while (arrivals.size < answered.size && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    controller.abort();
    await pump;
  }
  if (failures.length) throw new Error(`intake: ${failures.length} failed, e.g. ${failures[0]}`);
  const stored = await db.selectFrom('leads').select(['id', 'phone']).where('shop_id', '=', shopId).where('phone', 'like', `${BENCH_PHONE}${run}%`)
    .where('name', '=', BENCH_NAME).where('created_at', '>=', since).execute();
  const latencies: number[] = [];
  let early = 0;
  let missing = 0;
  for (const { id, phone } of stored) {
    const sent = answered.get(phone);
    const heard = arrivals.get(id);
    if (sent === undefined) continue;
    if (heard === undefined) {
      missing++;
      continue;
    }
    if (heard < sent) early++;
    latencies.push(Math.max(0, heard - sent));
  }
  latencies.sort((a, b) => a - b);
  // Leave the database as seeded: the submitted leads and their events go, once intake has written
  // the last ones' `created` events (its follow-ups, a moment after each commit; a delete before them raced them).
  await followUps();
  const leadIds = stored.map((r) => r.id);
  for (let i = 0; i < leadIds.length; i += 500) {
    await db.deleteFrom('lead_events').where('lead_id', 'in', leadIds.slice(i, i + 500)).execute();
    await db.deleteFrom('leads').where('id', 'in', leadIds.slice(i, i + 500)).execute();
  }
  const note = `${fmt(latencies.length)} heard${missing ? `, ${missing} MISSING` : ''}${early ? `, ${early} before the answer` : ''}`;
  record('live', `intake answer → lead stream event, p50 / p99 (${SUBMISSIONS} leads, ${SUBMIT_GAP_MS} ms apart)`, 'p99 ≤ 1 s', engine,
    latencies.length ? `${ms(pct(latencies, 0.5))} / ${ms(pct(latencies, 0.99))} ms` : 'none heard', !missing && latencies.length > 0 && pct(latencies, 0.99) <= 1000);
  say(`  live events: ${note}`);
}

// ── Personal data ─────────────────────────────────────────────────────────────────────

const IMPORT_ROWS = sized(50_000, 500);
const EXPORT_ROWS = sized(100_000, 1000);

/** The peak and current resident memory of a process, in MB (Linux /proc). */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
}

/** The built server (npm start's) as a process of its own on the bench database, so its memory is its own. */
async function serverProcess(engine: Engine, handle: DbHandle): Promise<{ base: string; pid: number; stop(): Promise<void> }> {
  if (!buildIfStale('  building the server for the export step…')) throw new Error('build failed');
  const { spawn } = await import('node:child_process');
  const port = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>), PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: '0', WORKER: '0', LOG_LEVEL: 'warn', NODE_ENV: 'production',
    INTAKE_WRITER_THREAD: '0',
  };
  // Its LANDING_SECRET is the bench's (startBench): on PostgreSQL the database refuses a process with another.
  if (engine === 'sqlite') env.DATA_DIR = SQLITE_DIR;
  else {
    env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-bench-export-'));
    env.DATABASE_URL = pgUrlOf(handle.pg!.schema);
  }
  const child = spawn(process.execPath, [serverEntry], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  // Listened for from the start: a child ended by a signal (exitCode stays null) is waited for only once.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  let err = '';
  child.stderr!.on('data', (b) => (err += b));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!ended()) child.kill('SIGTERM');
    await exited;
    if (engine === 'postgres') fs.rmSync(env.DATA_DIR!, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const problem = ended() ? `server exited (${child.exitCode ?? child.signalCode})` : Date.now() > deadline ? 'server did not start' : null;
    if (problem) {
      await stop();
      throw new Error(`${problem}: ${err}`);
    }
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, pid: child.pid!, stop };
}

async function personalData(engine: Engine, base: string, owner: Session, db: Kysely<Database>, shopId: number, month: string, handle: DbHandle) {
  // The marketer may enter all 20 shops and write DB 등록; the owner reads the access record and may export.
  const marketer = await login(base, 'bulk-marketer', BULK_PASSWORD);
  const search = await benchGlobalSearch(base, marketer.cookie, STEP_REQUESTS);
  record('global-search', 'global search, last four, 20 shops (p50 / p95)', 'p95 ≤ 50 ms', engine,
    `${ms(pct(search, 0.5))} / ${ms(pct(search, 0.95))} ms`, pct(search, 0.95) <= 50);
  const record1 = await benchAccessRecord(base, owner.cookie, shopId, month, STEP_REQUESTS);
  record('access-record', `access record, first page of ${month} (p50 / p95)`, 'p95 ≤ 50 ms', engine,
    `${ms(pct(record1, 0.5))} / ${ms(pct(record1, 0.95))} ms`, pct(record1, 0.95) <= 50);

  // Import 50,000 rows, then take them away again (with their events), so later runs see the same data.
  const since = new Date(Date.now() - 1000).toISOString();
  const imported = await benchImport(base, marketer.cookie, shopId, IMPORT_ROWS);
  record('import', `CSV import, ${fmt(IMPORT_ROWS)} rows (${fmt(imported.imported)} imported, ${fmt(imported.failed)} refused)`, '≤ 20 s', engine,
    `${(imported.ms / 1000).toFixed(1)} s`, imported.ms <= 20_000);
  const added = (await db.selectFrom('leads').select('id').where('shop_id', '=', shopId).where('source', '=', IMPORT_SOURCE).where('created_at', '>=', since).execute()).map((r) => r.id);
  for (let i = 0; i < added.length; i += 1000) {
    const chunk = added.slice(i, i + 1000);
    await db.deleteFrom('lead_events').where('lead_id', 'in', chunk).execute();
    await db.deleteFrom('leads').where('id', 'in', chunk).execute();
  }

  // Export ~100,000 leads from a server process of its own.
  const server = await serverProcess(engine, handle);
  try {
    const s = await login(server.base, BULK_OWNER, BULK_PASSWORD);
    const before = memoryOf(server.pid);
    // The period whose leads number about EXPORT_ROWS: from the Seoul day of the EXPORT_ROWS-th newest lead to today.
    const edge = await db.selectFrom('leads').select('created_at').where('shop_id', '=', shopId).where('deleted_at', 'is', null)
      .orderBy('created_at', 'desc').offset(EXPORT_ROWS - 1).limit(1).executeTakeFirst();
    const today = seoulDay(new Date());
    const x = await benchExport(server.base, s.cookie, shopId, edge ? addDays(seoulDay(edge.created_at), 1) : addDays(today, -365), today);
    const after = memoryOf(server.pid);
    record('export', `XLSX export, ${fmt(x.rows)} rows, ${(x.bytes / 1024 / 1024).toFixed(1)} MB: time · server peak RSS (${Math.round(before.now)} MB before)`, '≤ 15 s, ≤ 300 MB', engine,
      `${(x.ms / 1000).toFixed(1)} s · ${Math.round(after.peak)} MB`, x.ms <= 15_000 && after.peak <= 300);
  } finally {
    await server.stop();
  }
}

/** Passes of escalation's search over the shops, timed (after `warm` untimed). */
async function timePasses(pass: () => Promise<number>, n: number, warm = 3): Promise<{ sorted: number[]; due: number }> {
  let due = 0;
  for (let i = 0; i < warm; i++) due = await pass();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    due = await pass();
    times.push(performance.now() - t0);
  }
  return { sorted: times.sort((a, b) => a - b), due };
}

async function slaFigures(engine: Engine, db: Kysely<Database>, shopIds: number[], shopId: number) {
  const now = new Date();
  const scan = await slaScan(db, engine, shopIds, now);
  try {
    const first = await timePasses(() => scan.pass(now), SLA_PASSES);
    record('sla-first', `SLA scan, first pass after turning it on, ${shopIds.length} shops (${fmt(first.due)} due; at most 1,000 a shop)`, '', engine,
      `${ms(pct(first.sorted, 0.5))} / ${ms(pct(first.sorted, 0.95))} ms`);
    const s = await scan.steady(now);
    say(`  SLA window (14 days): ${fmt(s.windowLeads)} leads, ${fmt(s.waiting)} waiting (${((s.waiting / Math.max(1, s.windowLeads)) * 100).toFixed(0)}%); ` +
      `${fmt(s.manager)} escalated to the manager, ${fmt(s.running)} re-routed and running, ${fmt(s.waiting - s.manager - s.running)} newer than an hour`);
    const steady = await timePasses(() => scan.pass(now), SLA_PASSES);
    record('sla-scan', `SLA scan, steady state, ${shopIds.length} shops (${fmt(steady.due)} due of ${fmt(s.waiting)} waiting, ${fmt(ROWS)} leads)`, 'p95 ≤ 50 ms', engine,
      `${ms(pct(steady.sorted, 0.5))} / ${ms(pct(steady.sorted, 0.95))} ms`, pct(steady.sorted, 0.95) <= 50);
    // What the screens read of it: a month of one shop's figures (상담 통계's 응답 SLA tab) and the ranking of the 20 shops (대시보드).
    const today = seoulDay(now);
    const figures = await timePasses(async () => (await slaFiguresOf(db, shopId, { from: addDays(today, -29), to: today }, { id: 0, scope: 'all' }, now)).totals.leads, SLA_SCREEN_RUNS, 1);
    record('sla-figures', `  SLA figures of the largest shop, 30 days (${fmt(figures.due)} leads judged in working minutes)`, '', engine, `${ms(pct(figures.sorted, 0.5))} / ${ms(pct(figures.sorted, 0.95))} ms`);
    const ranking = await timePasses(async () => (await slaRanking(db, { from: addDays(today, -29), to: today }, now)).items.length, SLA_SCREEN_RUNS, 1);
    record('sla-ranking', `  SLA ranking of the ${shopIds.length} shops, 30 days (대시보드)`, '', engine, `${ms(pct(ranking.sorted, 0.5))} / ${ms(pct(ranking.sorted, 0.95))} ms`);
    say(`  load average while measuring: ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min, ${os.cpus().length} CPU)`);
    const rule = (await scan.rules()).find((r) => r.shopId === shopId)!;
    say(`\n  Plans of the SLA scan (${ENGINE_LABEL[engine]}; the largest shop, steady state)`);
    await capturedPlans(db, engine, 'SLA scan', (d) => dueLeads(d, rule, now),
      (q) => (/from "lead_sla_state" as "s" inner join/.test(q.sql) ? 'running clocks (sla.repository running)' : 'new arrivals (sla.repository arrivals)'));
  } finally {
    await scan.undo();
  }
}

// ── Main ───────────────────────────────────────────────────────────────────────────────

await eachEngine(bench, runEngine);
bench.finish();
