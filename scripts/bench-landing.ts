// npm run bench:landing [-- --only=sqlite|postgres] — the landing page and intake figures in one run:
// the page, whichever engine is behind it:
//   1. gzip bytes of a demo landing's HTML (goal ≤ 14 KB) and of its inline script (≤ 2 KB)
//   2. Lighthouse (mobile, Debian's Chromium) on the demo landing: performance, accessibility,
//      best practices and SEO, the median of three runs (goal 100 each)
//   3. GET req/s of that landing from our server (answered from its page cache) and from `serve`
//      on the same file (goal ≥ 7×)
//   4. the demo landing with a Meta Pixel and a GA4 tag (goal ≤ 14 KB)
//   4b. the insurance demo landing while its demo A/B experiment runs (two variants) beside the same landing
//      once it is stopped (one), in one run: GET req/s as a returning visitor (cookie) and a fresh
//      one (assigned, cookie set), and Lighthouse of each (goal: within noise, ≥ 0.9×; 100 each)
// then on SQLite and on PostgreSQL side by side, each on a fresh database:
//   5. the first GET of the landing after a restart (goal: from the disk cache, a few ms)
//   6. intake leads/s and p99 with 50 connections for ~10 s, rate limit off (goal ≥ 10,000/s,
//      p99 ≤ 20 ms), and the check that stored rows equal 2xx answers
// and last:
//   7. seconds to pre-render 1,000 landings through Vike (goal ≤ 30 s)
// Our server runs as `npm start` runs it (the build, rebuilt when stale) on a fresh data directory
// (PostgreSQL: a fresh schema of BENCH_DATABASE_URL, dropped afterwards); the load comes from wrk
// (a C program, one thread), so the figures are the server's, not the load generator's.
// --smoke (npm run bench:smoke): 1 s of load, one Lighthouse run, 20 landings pre-rendered; goals not checked.
// --variants-only: part 4b alone (the A/B experiment's figures).
//
// --base=<commit> adds, last, this tree against that commit on each engine, alternately in one
// run (so the machine's load weighs on both alike): both servers on fresh databases, then
// BENCH_ROUNDS rounds (default 2), each a landing GET run and an intake run of each, the order
// flipped every round; a table side by side with the ratios (goal: intake ≥ 0.8× the base on
// SQLite, p99 ≤ 25 ms; PostgreSQL ≥ 0.8× SQLite, p99 ≤ 50 ms). The base is checked out and built
// once under the temp folder (bench-base.ts). --compare-only runs that part alone. E.g.
//   npm run bench:landing -- --base=4babd9d --compare-only
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import {
  argOf, eachEngine, ENGINE_LABEL, ensureProgram, freshSchema, PG_URL, printTable, redact, ROOT, sized, SMOKE, startBench, startServe, startServer, tokenOf, wrkGetRate,
  wrkIntake, type Child, type Engine, type WrkIntakeResult,
} from './bench-kit.ts';
import { prepareBase, type BaseTree } from './bench-base.ts';
import { openDatabase } from '../server/db/dialect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { pageRenderer } from '../server/modules/landings/public/renderer.ts';
import { prerenderLandings } from '../server/modules/landings/public/prerender.ts';
import { INLINE_SCRIPT } from '../pages/view/render/inline-script.ts';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const CONNECTIONS = 50;
const GET_SECONDS = Number(process.env.BENCH_SECONDS ?? sized(10, 1));
const INTAKE_SECONDS = Number(process.env.BENCH_SECONDS ?? sized(10, 1));
const PRERENDER_COUNT = sized(1000, 20);
const PATH = '/view/smile-dental/implant-event';
const DIST = path.join(ROOT, 'dist');
const LIGHTHOUSE_RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? sized(3, 1));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
// Headless and quiet: Chromium fetches nothing but the page under test (no updates, no sync,
// no field trials); Lighthouse itself runs offline.
const CHROME_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-extensions', '--metrics-recording-only',
];

/** Lighthouse scores (0–100) per category, the median of `runs` runs (Lighthouse's own advice against variance), and what fell short. */
async function lighthouseScores(url: string, runs: number): Promise<{ scores: Record<string, number>; short: string[] }> {
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  const all: Array<Record<string, number>> = [];
  const short = new Set<string>();
  try {
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
      if (!result) throw new Error('lighthouse returned nothing');
      const lhr = result.lhr;
      const run: Record<string, number> = {};
      for (const c of CATEGORIES) {
        const cat = lhr.categories[c]!;
        run[c] = Math.round((cat.score ?? 0) * 100);
        for (const ref of cat.auditRefs) {
          const a = lhr.audits[ref.id];
          if (ref.weight > 0 && a && a.score !== null && a.score < 1) short.add(`${c}: ${ref.id} ${a.displayValue ?? ''}`.trim());
        }
      }
      all.push(run);
    }
  } finally {
    chrome.kill();
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { scores: Object.fromEntries(CATEGORIES.map((c) => [c, median(all.map((r) => r[c]!))])), short: [...short] };
}

/** Milliseconds of one GET, the whole body read. */
async function timedGet(url: string): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

const gz = (s: string | Buffer) => zlib.gzipSync(s, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

const bench = startBench(`Leadroom landing benchmark — ${os.cpus().length} CPU, Node ${process.version}, ${CONNECTIONS} connections`, ENGINE_LABEL);

/** 1–4: the page, served by a process on SQLite (the page cache answers it; no engine changes its bytes or its rate). */
async function thePage(work: string) {
  const dataDir = path.join(work, 'page');
  const server = await startServer({ dataDir, env: { INTAKE_RATE_LIMIT: '0' } }); // builds first when stale
  let serve: Awaited<ReturnType<typeof startServe>> | undefined;
  try {
    const page = await fetch(server.url + PATH);
    const html = await page.text();
    if (page.status !== 200) throw new Error(`${PATH}: ${page.status}`);
    bench.recordOnce('html', 'demo landing HTML, gzip (incl. inline CSS)', '≤ 14 KB', kb(gz(html)), gz(html) <= 14 * 1024);
    bench.recordOnce('script', 'inline script, gzip', '≤ 2 KB', `${gz(INLINE_SCRIPT)} B`, gz(INLINE_SCRIPT) <= 2048);

    // Lighthouse on the demo landing as our server serves it (its hero converted by now: the page rendered).
    const lh = await lighthouseScores(server.url + PATH, LIGHTHOUSE_RUNS);
    for (const c of CATEGORIES) bench.recordOnce(`lighthouse-${c}`, `Lighthouse ${c} (mobile, median of ${LIGHTHOUSE_RUNS})`, '100', String(lh.scores[c]), lh.scores[c] === 100);
    for (const s of lh.short) console.log(`    short of full marks in a run — ${s}`);

    // GET: our cache vs `serve` on the same pre-rendered file.
    const staticDir = path.join(work, 'static');
    fs.mkdirSync(path.join(staticDir, PATH), { recursive: true });
    fs.writeFileSync(path.join(staticDir, PATH, 'index.html'), html);
    serve = await startServe(staticDir);
    const served = await (await fetch(serve.url + PATH)).text();
    if (served !== html) throw new Error('serve answers different bytes');
    for (const [label, headers] of [['browser (accept-encoding: gzip, br)', { 'accept-encoding': 'gzip, deflate, br' }], ['no compression', {}]] as const) {
      const ours = await wrkGetRate(server.url + PATH, { connections: CONNECTIONS, seconds: GET_SECONDS, headers });
      const theirs = await wrkGetRate(serve.url + PATH, { connections: CONNECTIONS, seconds: GET_SECONDS, headers });
      bench.recordOnce(`get-${label}`, `GET req/s, ours vs serve — ${label}`, 'ours ≥ 7×', `${fmt(ours)} vs ${fmt(theirs)} = ${(ours / theirs).toFixed(1)}×`, ours >= 7 * theirs);
    }
    await serve.stop();
    serve = undefined;

    // The same landing with a Meta Pixel and a GA4 tag on (set in the database; the server's
    // page cache sees the change within seconds).
    const tagged = await openDatabase({ url: path.join(dataDir, 'leadroom.sqlite') });
    await tagged.db
      .updateTable('landings')
      .set({ tracking_tags: JSON.stringify([{ kind: 'meta-pixel', id: '123456789012345', conversionLabel: '' }, { kind: 'google-tag', id: 'G-AB12CD34EF', conversionLabel: '' }]), version: sql<number>`version + 1` })
      .where('landing_code', '=', 'implant-event')
      .execute();
    await tagged.close();
    let withTags = '';
    for (let i = 0; i < 50 && !withTags.includes('fbevents.js'); i++) {
      await sleep(200);
      withTags = await (await fetch(server.url + PATH)).text();
    }
    if (!withTags.includes('fbevents.js')) throw new Error('the landing with tracking tags was not served within 10 s');
    bench.recordOnce('tagged', 'demo landing with Meta Pixel + GA4 tag, gzip', '≤ 14 KB', kb(gz(withTags)), gz(withTags) <= 14 * 1024);
  } finally {
    await serve?.stop();
    await server.stop();
  }
}

/** --variants-only: part 4b alone. */
const VARIANTS_ONLY = argOf('variants-only') !== undefined;
const BROWSER_UA = 'Mozilla/5.0 (Linux; Android 14; SM-S921N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** The demo landing whose demo A/B experiment runs (the implant landing stays single-variant, as earlier releases served it). */
const VARIANTS_PATH = '/view/hanbit-insurance/free-checkup';

/** 4b: two variants (the demo experiment running) beside one (the same landing, the experiment stopped). */
async function twoVariants(work: string) {
  const dataDir = path.join(work, 'variants');
  const server = await startServer({ dataDir, env: { INTAKE_RATE_LIMIT: '0' } });
  const url = server.url + VARIANTS_PATH;
  const browser = { 'accept-encoding': 'gzip, deflate, br', 'user-agent': BROWSER_UA };
  const get = (headers: Record<string, string>) => wrkGetRate(url, { connections: CONNECTIONS, seconds: GET_SECONDS, headers });
  try {
    const first = await fetch(url, { headers: browser });
    await first.arrayBuffer();
    const cookie = first.headers.get('set-cookie')?.split(';')[0];
    if (!cookie) throw new Error(`${VARIANTS_PATH} runs no experiment: is the demo data seeded?`);
    const returning = { ...browser, cookie };
    // Both variants' pages are in the cache before the load (a visitor of each came).
    for (let i = 0; i < 20; i++) await (await fetch(url, { headers: { ...browser, 'user-agent': `${BROWSER_UA} ${i}` } })).arrayBuffer();
    // A warm-up (JIT, the demo image's conversions at start), then two variants, one, and two again
    // (the machine's load weighs on both alike); the two-variant figure is the mean of its runs.
    await get(returning);
    const twoFirst = await get(returning);
    const twoFresh = await get(browser);
    const lhTwo = await lighthouseScores(url, LIGHTHOUSE_RUNS);

    // The experiment stops (as a marketer's stop writes it), later runs again; the page cache sees each within seconds.
    const setRunning = async (running: boolean) => {
      const handle = await openDatabase({ url: path.join(dataDir, 'leadroom.sqlite') });
      const now = new Date().toISOString();
      await handle.db
        .updateTable('landing_experiments')
        .set({ status: running ? 'running' : 'stopped', stopped_at: running ? null : now, updated_at: now })
        .where('name', '=', '버튼 문구 실험')
        .execute();
      await handle.close();
      for (let i = 0; i < 50; i++) {
        await sleep(200);
        const res = await fetch(url, { headers: browser });
        const assigned = res.headers.get('set-cookie') !== null;
        if (assigned === running && (await res.text()).includes('name="_x"') === running) return;
      }
      throw new Error(`the experiment was not ${running ? 'served' : 'stopped'} after 10 s`);
    };
    await setRunning(false);
    const one = await get(returning);
    const lhOne = await lighthouseScores(url, LIGHTHOUSE_RUNS);
    await setRunning(true);
    const twoReturning = (twoFirst + (await get(returning))) / 2;
    bench.recordOnce(
      'variants-get', 'GET req/s, two variants (returning visitor / fresh visitor) vs one variant', 'returning ≥ 0.9× one',
      `${fmt(twoReturning)} / ${fmt(twoFresh)} vs ${fmt(one)} = ${(twoReturning / one).toFixed(2)}× / ${(twoFresh / one).toFixed(2)}×`, twoReturning >= 0.9 * one,
    );
    for (const c of CATEGORIES) {
      bench.recordOnce(`variants-lighthouse-${c}`, `Lighthouse ${c}, two variants vs one`, '100 both', `${lhTwo.scores[c]} vs ${lhOne.scores[c]}`, lhTwo.scores[c] === 100 && lhOne.scores[c] === 100);
    }
    for (const s of new Set([...lhTwo.short, ...lhOne.short])) console.log(`    short of full marks in a run — ${s}`);
  } finally {
    await server.stop();
  }
}

/** 5–6 on one engine: a restart, then intake load, on a fresh database. */
async function onEngine(engine: Engine, work: string) {
  const dataDir = path.join(work, engine);
  const schema = engine === 'postgres' ? await freshSchema('bench_landing') : null;
  const env = { INTAKE_RATE_LIMIT: '0', ...(schema ? { DATABASE_URL: schema.url } : {}) };
  if (schema) console.log(`  database: ${redact(PG_URL)}, schema ${schema.name} (dropped afterwards)`);
  let server = await startServer({ dataDir, env });
  try {
    // A restart: the first GET is answered from the page written to disk, not after a cold render.
    const first = await fetch(server.url + PATH);
    await first.arrayBuffer();
    if (first.status !== 200) throw new Error(`${PATH}: ${first.status}`);
    await server.stop();
    server = await startServer({ dataDir, env });
    const afterRestart = await timedGet(server.url + PATH);
    const warmGet = await timedGet(server.url + PATH);
    if (afterRestart.status !== 200) throw new Error(`${PATH} after restart: ${afterRestart.status}`);
    bench.record('restart', 'first GET of the landing after a restart (then the next)', 'from disk: a few ms (was ~850 ms)', engine,
      `${afterRestart.ms.toFixed(1)} ms (then ${warmGet.ms.toFixed(1)} ms)`);

    // Intake: a warm-up (JIT, the writer thread), then the measured run; wrk stops sending
    // after the run's seconds and waits for every answer, so answers can be compared with rows.
    const token = await tokenOf(server.url + PATH);
    await sleep(2100); // the form's minimum fill time
    if (!SMOKE) await wrkIntake(server.url, { connections: CONNECTIONS, seconds: 3, token, prefix: '0108' });
    // Only the run's own leads are counted: demo leads may have phones of the same prefix.
    const { db, close } = schema ? await openDatabase({ url: PG_URL, pgSchema: schema.name, poolSize: 2 }) : await openDatabase({ url: path.join(dataDir, 'leadroom.sqlite') });
    try {
      const before = Number((await db.selectFrom('leads').select(sql<number>`coalesce(max(id), 0)`.as('id')).executeTakeFirstOrThrow()).id);
      const run = await wrkIntake(server.url, { connections: CONNECTIONS, seconds: INTAKE_SECONDS, token, prefix: '0109' });
      const stored = await db.selectFrom('leads').select('phone').where('id', '>', before).where('phone', 'like', '0109%').execute();
      // Their `created` events follow each batch by a moment (intake's follow-ups): waited for, a few seconds at most.
      const countEvents = () => db
        .selectFrom('lead_events as e')
        .innerJoin('leads as l', 'l.id', 'e.lead_id')
        .select(sql<number>`count(*)`.as('n'))
        .where('l.id', '>', before)
        .where('l.phone', 'like', '0109%')
        .where('e.action', '=', 'created')
        .executeTakeFirstOrThrow();
      let events = await countEvents();
      for (const until = Date.now() + 5000; Number(events.n) < stored.length && Date.now() < until; events = await countEvents()) await sleep(100);
      const rate = run.ok / run.seconds;
      bench.record('intake-rate', 'intake leads/s (2xx ÷ seconds)', '≥ 10,000/s', engine, fmt(rate), rate >= 10_000);
      bench.record('intake-latency', 'intake latency p50 / p99', 'p99 ≤ 20 ms', engine, `${run.p50.toFixed(1)} / ${run.p99.toFixed(1)} ms`, run.p99 <= 20);
      bench.record('intake-answers', 'intake answers: 2xx · other · socket errors', '', engine, `${fmt(run.ok)} · ${run.other} · ${run.socketErrors} in ${run.seconds.toFixed(1)} s`);
      const equal = stored.length === run.ok && Number(events.n) === stored.length;
      bench.record('stored', 'stored rows (each with its created event) = 2xx answers', '', engine, `${fmt(stored.length)} = ${fmt(run.ok)} ${equal ? 'OK' : 'MISMATCH'}`);
      bench.check(`${ENGINE_LABEL[engine]}: stored rows (${stored.length}, ${events.n} created events) = 2xx answers (${run.ok}), and some taken`, equal && run.ok > 0);
    } finally {
      await close();
    }
  } finally {
    await server.stop();
    await schema?.drop();
  }
}

/** 7. Pre-render PRERENDER_COUNT open landings through Vike's renderPage. */
async function prerender(work: string) {
  const handle = await openDatabase({ url: path.join(work, 'prerender.sqlite') });
  try {
    await migrateToLatest(handle.db);
    const now = new Date().toISOString();
    const shop = await handle.db
      .insertInto('shops')
      .values({ shop_code: 'bench', name: '벤치치과', client_type_id: null, status: 'active', company_name: '벤치치과의원', representative: '김벤치', business_number: '1078616321', phone: '0212345678', address: '서울', privacy_officer_name: '이보호', privacy_officer_contact: '02-555-0100', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto('privacy_policies')
      .values({ shop_id: shop.id, version: 1, purpose: '상담 신청 접수', items: '이름, 연락처', retention_days: 180, third_parties: '[]', officer_name: null, officer_contact: null, body: '', published_at: now, created_by: null, created_at: now, updated_at: now })
      .execute();
    const content = JSON.stringify({ headline: '임플란트 무료 상담', subheadline: '11월 한정', body: '정밀 진단과 1:1 상담.\n\n지금 신청하세요.', bullets: ['3D CT', '야간 진료'], ctaLabel: '상담 신청' });
    const fields = JSON.stringify([{ key: 'area', label: '지역', type: 'select', options: ['서울', '경기'], required: true }]);
    for (let i = 0; i < PRERENDER_COUNT; i += 200) {
      await handle.db
        .insertInto('landings')
        .values(Array.from({ length: Math.min(200, PRERENDER_COUNT - i) }, (_, j) => ({
          shop_id: shop.id, landing_code: `landing-${i + j}`, title: `랜딩 ${i + j}`, status: 'open' as const, open_at: null, close_at: null,
          media_type_id: null, event_type_id: null, content, form_fields: fields, privacy_consent_text: '동의합니다.', marketing_consent_text: null,
          thank_you_message: '감사합니다.', thank_you_url: null, duplicate_window_days: 30, privacy_policy_version_id: null, published_at: now,
          created_by: null, created_at: now, updated_at: now,
        })))
        .execute();
    }
    const renderer = await pageRenderer(DIST);
    const t0 = performance.now();
    const result = await prerenderLandings({ db: handle.db, renderer, secret: Buffer.from('bench'), freeScripts: false, outDir: path.join(work, 'prerendered') });
    const seconds = (performance.now() - t0) / 1000;
    bench.check(`pre-render: ${result.pages.length} files for ${PRERENDER_COUNT} landings and their privacy pages`, result.pages.length >= 2 * PRERENDER_COUNT);
    bench.recordOnce('prerender', `pre-render ${fmt(PRERENDER_COUNT)} landings + privacy pages (${renderer.kind}, ${fmt(result.pages.length)} files)`, '≤ 30 s',
      `${seconds.toFixed(1)} s`, seconds <= 30);
  } finally {
    await handle.close();
  }
}

// ── Against a base commit ──────────────────────────────────────────────────────────────

const BASE_REF = argOf('base');
const COMPARE_ONLY = argOf('compare-only') !== undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(2, 1));

interface Side {
  label: 'base' | 'ours';
  server: Child;
  token: string;
  /** Counts this side's leads: id above `after`, phone starting with `prefix`. */
  stored(after: number, prefix: string): Promise<number>;
  maxId(): Promise<number>;
  close(): Promise<void>;
}

interface SideRun {
  get: number;
  intake: WrkIntakeResult;
  rate: number;
  stored: number;
}

/** Per engine: each side's runs in order. */
const compared: Partial<Record<Engine, { base: SideRun[]; ours: SideRun[] }>> = {};

async function startSide(label: Side['label'], engine: Engine, work: string, base: BaseTree | null): Promise<Side> {
  const dataDir = path.join(work, `${label}-${engine}`);
  const schema = engine === 'postgres' ? await freshSchema(`bench_cmp_${label}`) : null;
  const env = { INTAKE_RATE_LIMIT: '0', ...(schema ? { DATABASE_URL: schema.url } : {}) };
  const server = await startServer({ dataDir, env, ...(base ? { base } : {}) });
  const handle = schema ? await openDatabase({ url: PG_URL, pgSchema: schema.name, poolSize: 2 }) : await openDatabase({ url: path.join(dataDir, 'leadroom.sqlite') });
  const token = await tokenOf(server.url + PATH);
  return {
    label, server, token,
    async stored(after, prefix) {
      const row = await handle.db.selectFrom('leads').select(sql<number>`count(*)`.as('n')).where('id', '>', after).where('phone', 'like', `${prefix}%`).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async maxId() {
      return Number((await handle.db.selectFrom('leads').select(sql<number>`coalesce(max(id), 0)`.as('id')).executeTakeFirstOrThrow()).id);
    },
    async close() {
      await handle.close();
      await server.stop();
      await schema?.drop();
    },
  };
}

/** The base and this tree on one engine, alternately: GET, then intake, per side, ROUNDS rounds. */
async function againstBase(engine: Engine, work: string, base: BaseTree) {
  const sides: Side[] = [];
  try {
    sides.push(await startSide('base', engine, work, base));
    sides.push(await startSide('ours', engine, work, null));
    await sleep(2100); // the form's minimum fill time
    if (!SMOKE) for (const s of sides) await wrkIntake(s.server.url, { connections: CONNECTIONS, seconds: 3, token: s.token, prefix: '0108' });
    const runs = { base: [] as SideRun[], ours: [] as SideRun[] };
    compared[engine] = runs;
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? sides : [...sides].reverse();
      for (const s of order) {
        const get = await wrkGetRate(s.server.url + PATH, { connections: CONNECTIONS, seconds: GET_SECONDS, headers: { 'accept-encoding': 'gzip, deflate, br' }, allowTimeouts: true });
        const prefix = `010${round}`;
        const before = await s.maxId();
        const intake = await wrkIntake(s.server.url, { connections: CONNECTIONS, seconds: INTAKE_SECONDS, token: s.token, prefix });
        const stored = await s.stored(before, prefix);
        const rate = intake.ok / intake.seconds;
        runs[s.label].push({ get, intake, rate, stored });
        console.log(`  ▸ round ${round}, ${s.label}: GET ${fmt(get)}/s · intake ${fmt(rate)} leads/s, p99 ${intake.p99.toFixed(1)} ms · stored ${fmt(stored)} of ${fmt(intake.ok)} 2xx`);
        bench.check(`${ENGINE_LABEL[engine]} ${s.label}, round ${round}: stored rows (${stored}) = 2xx answers (${intake.ok}), and some taken`, stored === intake.ok && intake.ok > 0);
      }
    }
  } finally {
    for (const s of sides) await s.close();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** The comparison's table (each run, then the means and ratios), and its goals as figures of the run. */
function reportComparison(base: BaseTree) {
  const rows: string[][] = [['figure', 'engine', 'base', 'ours', 'ours ÷ base']];
  const ratio = (a: number, b: number) => (b ? `${(a / b).toFixed(2)}×` : '—');
  for (const engine of Object.keys(ENGINE_LABEL) as Engine[]) {
    const r = compared[engine];
    if (!r?.ours.length) continue;
    const e = ENGINE_LABEL[engine];
    r.ours.forEach((o, i) => {
      const b = r.base[i];
      rows.push([`landing GET req/s, round ${i + 1}`, e, b ? fmt(b.get) : '—', fmt(o.get), b ? ratio(o.get, b.get) : '—']);
      rows.push([`intake leads/s, round ${i + 1}`, e, b ? fmt(b.rate) : '—', fmt(o.rate), b ? ratio(o.rate, b.rate) : '—']);
      rows.push([`intake p50 / p99 ms, round ${i + 1}`, e, b ? `${b.intake.p50.toFixed(1)} / ${b.intake.p99.toFixed(1)}` : '—', `${o.intake.p50.toFixed(1)} / ${o.intake.p99.toFixed(1)}`, '']);
      rows.push([`stored rows = 2xx, round ${i + 1}`, e, b ? `${fmt(b.stored)} = ${fmt(b.intake.ok)}` : '—', `${fmt(o.stored)} = ${fmt(o.intake.ok)}`, '']);
    });
    rows.push(['intake leads/s, mean', e, fmt(mean(r.base.map((x) => x.rate))), fmt(mean(r.ours.map((x) => x.rate))), ratio(mean(r.ours.map((x) => x.rate)), mean(r.base.map((x) => x.rate)))]);
    rows.push(['landing GET req/s, mean', e, fmt(mean(r.base.map((x) => x.get))), fmt(mean(r.ours.map((x) => x.get))), ratio(mean(r.ours.map((x) => x.get)), mean(r.base.map((x) => x.get)))]);
  }
  console.log(`
  This tree against base ${base.commit.slice(0, 12)} (${base.subject}), ${ROUNDS} alternating round(s), load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}:`);
  printTable(rows);
  const s = compared.sqlite;
  const p = compared.postgres;
  const worstP99 = (xs: SideRun[]) => Math.max(...xs.map((x) => x.intake.p99));
  if (s?.ours.length && s.base.length) {
    const r = mean(s.ours.map((x) => x.rate)) / mean(s.base.map((x) => x.rate));
    bench.recordOnce('cmp-sqlite', `SQLite intake vs base ${base.commit.slice(0, 7)} (mean of rounds)`, '≥ 0.8×', `${r.toFixed(2)}×`, r >= 0.8);
    bench.recordOnce('cmp-sqlite-p99', 'SQLite intake p99, worst round', '≤ 25 ms', `${worstP99(s.ours).toFixed(1)} ms`, worstP99(s.ours) <= 25);
  }
  if (p?.ours.length && s?.ours.length) {
    const r = mean(p.ours.map((x) => x.rate)) / mean(s.ours.map((x) => x.rate));
    bench.recordOnce('cmp-pg', 'PostgreSQL intake vs SQLite, this tree (mean of rounds)', '≥ 0.8×', `${r.toFixed(2)}×`, r >= 0.8);
    bench.recordOnce('cmp-pg-p99', 'PostgreSQL intake p99, worst round', '≤ 50 ms', `${worstP99(p.ours).toFixed(1)} ms`, worstP99(p.ours) <= 50);
  }
}

async function main() {
  ensureProgram('wrk');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-bench-'));
  if (COMPARE_ONLY && !BASE_REF) throw new Error('--compare-only needs --base=<commit>');
  try {
    if (VARIANTS_ONLY) await bench.part('A/B experiment: two variants beside one', () => twoVariants(work));
    else if (!COMPARE_ONLY) {
      await bench.part('The page (served from a process on SQLite; no engine changes it)', () => thePage(work));
      await bench.part('A/B experiment: two variants beside one', () => twoVariants(work));
      await eachEngine(bench, (engine) => onEngine(engine, work));
      await bench.part('Pre-render', () => prerender(work));
    }
    if (BASE_REF) {
      let base: BaseTree | null = null;
      await bench.part(`Against base ${BASE_REF}: building it`, async () => void (base = prepareBase(BASE_REF)));
      if (base) {
        const b: BaseTree = base;
        await eachEngine(bench, (engine) => againstBase(engine, work, b));
        reportComparison(b);
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  bench.finish();
}

await main();
