// npm run bench:spa [-- --base=<commit>] [--runs=N] [--screens=/a,/b] [--keep-base] — how fast each
// back-office screen opens, in headless Chromium (Debian's) as the administrator, on SQLite demo data:
//   - first content: ms from the navigation's start to the first frame that shows a table row or a
//     figure (a statistic, a list item, a chart, a calendar day, a form field filled from the server),
//     with an empty cache (a fresh browser context that holds the session) and on reload;
//   - responses per load: every response the page received until its network was quiet (the
//     document, scripts, styles, API answers, the live event stream);
//   - JS: the uncompressed bytes of JavaScript the load ran.
// Medians of --runs loads (3; --smoke: 1, and only a couple of screens). With --base=<commit>, that
// commit is built in a git worktree under the system's temp directory (node_modules linked, kept for
// the next run with --keep-base) and both builds are measured in the same run, alternately, side by
// side. Last, the waterfall (every request with its start and end) of the slowest screen's load.
// Goals (a quiet 2-core machine): first content ≤ 1.0 s on reload, ≤ 2.0 s with an empty cache,
// ≤ 25 responses per load. The load average is printed with the figures: on a loaded machine they
// say more side by side than alone.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SCREENS } from '../contracts/screens.ts';
import { argOf, freePort, printTable, ROOT, SMOKE } from './bench-kit.ts';
import { buildIfStale } from './build-if-stale.mjs';

const ADMIN_PASSWORD = 'Bench-admin-2026!';
const RUNS = Number(argOf('runs') || (SMOKE ? 1 : 3));
const SMOKE_SCREENS = ['/dashboard', '/database-status'];
const SCREEN_PATHS = argOf('screens')?.split(',').filter(Boolean) ?? (SMOKE ? SMOKE_SCREENS : SCREENS.map((s) => `/${s.key}`));
const GOAL = { reloadMs: 1000, emptyMs: 2000, responses: 25 };
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
/** How long the network must be quiet (the live event stream aside) before a load counts as done. */
const QUIET_MS = 800;
const LOAD_TIMEOUT_MS = 30_000;

/**
 * What counts as a screen's first content: a table's row, a figure, a list's item, a chart, a
 * calendar's day, a description filled in, an empty table's "no data" (its answer came), or a
 * block a screen without a list marks `data-content="ready"` once its data came (DB 등록's form) —
 * never inside a spinning or skeleton block, and shown (not in a closed tab or a hidden panel).
 */
const CONTENT_SELECTOR = [
  '.ant-table-row', '.ant-table-placeholder .ant-empty', '.ant-statistic-content-value', '.ant-list-item', '.ant-descriptions-item-content',
  '.ant-card-body canvas', '.ant-picker-calendar-date', '.ant-result', '.ant-empty', '.ant-form-item-control-input input[value]:not([value=""])',
  '[data-content="ready"]',
].join(',');

interface Target {
  label: string;
  root: string;
  url: string;
  server: ChildProcess;
  cookie: string;
  account: unknown;
}

interface Load {
  ms: number | null;
  responses: number;
  jsBytes: number;
  path: string;
  waterfall: Array<{ name: string; start: number; end: number; kind: string }>;
}

const ms = (n: number | null) => (n === null ? '—' : `${(n / 1000).toFixed(2)} s`);
const kb = (n: number) => `${Math.round(n / 1024).toLocaleString('en')} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');

// ── The builds and their servers ──────────────────────────────────────────────────────────

function git(args: string[], cwd = ROOT): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** The base commit built in a worktree of its own under the temp directory (reused when it is there and built). */
function buildBase(commit: string): { root: string; sha: string; remove(): void } {
  const sha = git(['rev-parse', '--verify', `${commit}^{commit}`]);
  const dir = path.join(os.tmpdir(), `leadroom-bench-spa-${sha.slice(0, 12)}`);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT });
    fs.rmSync(dir, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: ROOT });
  };
  const entry = path.join(dir, 'dist/app/server/main.js');
  if (fs.existsSync(entry)) {
    console.log(`  base ${sha.slice(0, 7)}: reusing the build in ${dir}`);
    return { root: dir, sha, remove };
  }
  if (fs.existsSync(dir)) remove();
  git(['worktree', 'add', '--detach', dir, sha]);
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'));
  console.log(`  base ${sha.slice(0, 7)}: building in ${dir} (npm run build, a few minutes)`);
  const t0 = Date.now();
  const run = spawnSync('npm', ['run', 'build', '--silent'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    process.stdout.write(run.stdout ?? '');
    process.stderr.write(run.stderr ?? '');
    remove();
    throw new Error(`the build of ${sha.slice(0, 7)} failed`);
  }
  console.log(`  base ${sha.slice(0, 7)}: built in ${Math.round((Date.now() - t0) / 1000)} s`);
  return { root: dir, sha, remove };
}

/** A build's server on a fresh data directory with the demo data, logged in as the administrator. */
async function startTarget(label: string, root: string, dataDir: string): Promise<Target> {
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(root, 'dist/app/server/main.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1',
      LOG_LEVEL: 'warn', INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD, SEED_DEMO: '1', DEMO_PASSWORD: 'leadroom-demo1',
    },
  });
  let err = '';
  server.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`${label}: the server exited: ${err}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > until) throw new Error(`${label}: the server did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginId: 'admin', password: ADMIN_PASSWORD }),
  });
  if (!res.ok) throw new Error(`${label}: login answered ${res.status}: ${await res.text()}`);
  const cookie = /lr_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error(`${label}: login set no session cookie`);
  const { account } = (await res.json()) as { account: unknown };
  return { label, root, url, server, cookie, account };
}

async function stopTarget(t: Target): Promise<void> {
  if (t.server.exitCode !== null) return;
  const exited = new Promise((r) => t.server.once('exit', r));
  t.server.kill('SIGTERM');
  await exited;
}

// ── One load ──────────────────────────────────────────────────────────────────────────────

/**
 * Runs in the page before its own scripts: the tab holds the login (as a tab that logged in
 * does: sessionStorage, which a build without a session request needs), and the first frame with
 * content is timed (a MutationObserver sees it in the DOM, the next animation frame paints it).
 * A string, not a function: tsx's helpers would not exist in the page.
 */
const pageProbe = (account: string, selector: string) => `(() => {
  if (location.pathname !== '/bclog' && !sessionStorage.getItem('loginAccount')) sessionStorage.setItem('loginAccount', ${JSON.stringify(account)});
  const selector = ${JSON.stringify(selector)};
  const shown = () => {
    for (const el of document.querySelectorAll(selector)) {
      if (el.closest('.ant-spin-blur, .ant-skeleton, [hidden], .ant-tabs-tabpane-hidden')) continue;
      if (el.getClientRects().length) return true;
    }
    return false;
  };
  let seen = false;
  const observer = new MutationObserver(() => {
    if (seen || !shown()) return;
    seen = true;
    observer.disconnect();
    requestAnimationFrame(() => (window.__firstContent = performance.now()));
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'value'] });
})();`;

/** Waits until no request (the event stream aside) has started or ended for QUIET_MS. */
function quietNetwork(page: Page): { done: Promise<void>; count(): number; stop(): void } {
  const open = new Set<unknown>();
  let responses = 0;
  let last = Date.now();
  const isStream = (url: string) => /\/events(\?|$)|\/stream(\?|$)/.test(url);
  const onRequest = (r: import('playwright-core').Request) => {
    if (!isStream(r.url())) open.add(r);
    last = Date.now();
  };
  const onEnd = (r: import('playwright-core').Request) => {
    open.delete(r);
    last = Date.now();
  };
  const onResponse = () => void responses++;
  page.on('request', onRequest);
  page.on('requestfinished', onEnd);
  page.on('requestfailed', onEnd);
  page.on('response', onResponse);
  let timer: NodeJS.Timeout;
  const done = new Promise<void>((resolve) => {
    const started = Date.now();
    timer = setInterval(() => {
      if ((open.size === 0 && Date.now() - last >= QUIET_MS) || Date.now() - started > LOAD_TIMEOUT_MS) resolve();
    }, 50);
  });
  return {
    done,
    count: () => responses,
    stop() {
      clearInterval(timer);
      page.off('request', onRequest);
      page.off('requestfinished', onEnd);
      page.off('requestfailed', onEnd);
      page.off('response', onResponse);
    },
  };
}

async function measure(page: Page, go: () => Promise<unknown>): Promise<Load> {
  const net = quietNetwork(page);
  try {
    await go();
    await page.waitForFunction(() => (window as unknown as { __firstContent?: number }).__firstContent !== undefined, null, { timeout: LOAD_TIMEOUT_MS, polling: 100 }).catch(() => {});
    await net.done;
    const got = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const all = [...(nav ? [nav] : []), ...resources];
      return {
        first: (window as unknown as { __firstContent?: number }).__firstContent ?? null,
        path: location.pathname,
        jsBytes: resources.filter((r) => /\.m?js(\?|$)/.test(r.name)).reduce((n, r) => n + r.decodedBodySize, 0),
        waterfall: all.map((r) => ({ name: r.name.replace(location.origin, ''), start: r.startTime, end: r.responseEnd, kind: r.initiatorType })),
      };
    });
    return { ms: got.first, responses: net.count(), jsBytes: got.jsBytes, path: got.path, waterfall: got.waterfall };
  } finally {
    net.stop();
  }
}

async function freshContext(browser: Browser, t: Target): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: t.url, locale: 'ko-KR', timezoneId: 'Asia/Seoul', viewport: { width: 1366, height: 860 } });
  await context.addCookies([{ name: 'lr_session', value: t.cookie, url: t.url, httpOnly: true, sameSite: 'Lax' }]);
  await context.addInitScript({ content: pageProbe(JSON.stringify(t.account), CONTENT_SELECTOR) });
  return context;
}

/** One empty-cache load of `screen` in a fresh context, then a reload in the same tab. */
async function emptyThenReload(browser: Browser, t: Target, screen: string): Promise<{ empty: Load; reload: Load }> {
  const context = await freshContext(browser, t);
  try {
    const page = await context.newPage();
    const empty = await measure(page, () => page.goto(screen));
    const reload = await measure(page, () => page.reload());
    for (const l of [empty, reload]) if (l.path !== screen) throw new Error(`${t.label} ${screen}: the load ended on ${l.path}`);
    return { empty, reload };
  } finally {
    await context.close();
  }
}

// ── The run ───────────────────────────────────────────────────────────────────────────────

interface Row {
  empty: Load[];
  reload: Load[];
}

const baseArg = argOf('base');
console.log(`\nnpm run bench:spa — back-office screens in headless Chromium, administrator, SQLite demo data${SMOKE ? ' — SMOKE RUN (goals not checked)' : ''}`);
console.log(`  ${os.cpus().length} cores, load average ${load()} (1 / 5 / 15 min); ${RUNS} run(s) per screen; ${SCREEN_PATHS.length} screens`);

if (!buildIfStale('  (building: npm run build)')) process.exit(1);
const base = baseArg ? buildBase(baseArg) : null;
const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-bench-spa-data-'));
const targets: Target[] = [];
const results = new Map<string, Map<string, Row>>();
const failures: string[] = [];
let browser: Browser | null = null;
try {
  if (base) targets.push(await startTarget(`before (${base.sha.slice(0, 7)})`, base.root, path.join(dataRoot, 'base')));
  targets.push(await startTarget(base ? 'after (this tree)' : 'this tree', ROOT, path.join(dataRoot, 'head')));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  // A first load of each build warms the server (its caches, the demo data's pages) unmeasured.
  for (const t of targets) await emptyThenReload(browser, t, SCREEN_PATHS[0]!).catch(() => {});
  for (const t of targets) results.set(t.label, new Map());
  for (const screen of SCREEN_PATHS) {
    for (let run = 0; run < RUNS; run++) {
      // Alternately: neither build always runs first, on a machine whose load changes.
      const order = run % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) {
        try {
          const { empty, reload } = await emptyThenReload(browser, t, screen);
          const row = results.get(t.label)!.get(screen) ?? { empty: [], reload: [] };
          row.empty.push(empty);
          row.reload.push(reload);
          results.get(t.label)!.set(screen, row);
          if (empty.ms === null || reload.ms === null) failures.push(`${t.label} ${screen}: no content within ${LOAD_TIMEOUT_MS / 1000} s`);
        } catch (err) {
          failures.push(`${t.label} ${screen}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
        }
      }
    }
    const line = targets.map((t) => {
      const row = results.get(t.label)!.get(screen);
      if (!row) return `${t.label}: failed`;
      return `${t.label}: ${ms(median(row.empty.map((l) => l.ms ?? Infinity)))} / ${ms(median(row.reload.map((l) => l.ms ?? Infinity)))}, ${median(row.empty.map((l) => l.responses))} responses, JS ${kb(median(row.empty.map((l) => l.jsBytes)))}`;
    });
    console.log(`  ▸ ${screen}  ${line.join('  |  ')}  (load ${os.loadavg()[0]!.toFixed(2)})`);
  }
} finally {
  await browser?.close();
  for (const t of targets) await stopTarget(t);
  fs.rmSync(dataRoot, { recursive: true, force: true });
  if (base && argOf('keep-base') === undefined) base.remove();
}

// ── The tables ────────────────────────────────────────────────────────────────────────────

const missed: string[] = [];
const head = targets[targets.length - 1]!;
const mark = (ok: boolean) => (SMOKE ? '' : ok ? ' ✓' : ' ✗');
const stats = (row: Row | undefined) => {
  if (!row || !row.empty.length) return null;
  const empty = median(row.empty.map((l) => l.ms ?? Infinity));
  const reload = median(row.reload.map((l) => l.ms ?? Infinity));
  return { empty, reload, responses: Math.max(...row.empty.map((l) => l.responses), ...row.reload.map((l) => l.responses)), js: median(row.empty.map((l) => l.jsBytes)) };
};
const fmt = (n: number) => (Number.isFinite(n) ? ms(n) : 'none');
const header = ['screen', 'empty cache', 'reload', 'responses per load', 'JS (uncompressed)'];
const rows: string[][] = [];
for (const screen of SCREEN_PATHS) {
  const cells = targets.map((t) => stats(results.get(t.label)!.get(screen)));
  const after = cells[cells.length - 1];
  const before = cells.length > 1 ? cells[0] : null;
  const pair = (f: (s: NonNullable<(typeof cells)[number]>) => string, goal?: (s: NonNullable<(typeof cells)[number]>) => boolean) => {
    const a = after ? f(after) + (goal ? mark(goal(after)) : '') : 'failed';
    return base ? `${before ? f(before) : 'failed'} → ${a}` : a;
  };
  if (after && !SMOKE) {
    if (!(after.empty <= GOAL.emptyMs)) missed.push(`${screen} empty cache`);
    if (!(after.reload <= GOAL.reloadMs)) missed.push(`${screen} reload`);
    if (!(after.responses <= GOAL.responses)) missed.push(`${screen} responses`);
  }
  rows.push([
    screen,
    pair((s) => fmt(s.empty), (s) => s.empty <= GOAL.emptyMs),
    pair((s) => fmt(s.reload), (s) => s.reload <= GOAL.reloadMs),
    pair((s) => String(s.responses), (s) => s.responses <= GOAL.responses),
    pair((s) => kb(s.js)),
    '',
  ]);
}
console.log(`\n  ${base ? `before → after: ${targets[0]!.label} → ${head.label}; ` : ''}medians of ${RUNS} run(s); goals: empty cache ≤ ${GOAL.emptyMs / 1000} s, reload ≤ ${GOAL.reloadMs / 1000} s, ≤ ${GOAL.responses} responses`);
console.log(`  load average at the end: ${load()} (${os.cpus().length} cores)\n`);
printTable([[...header, ''], ...rows]);

// The slowest screen's waterfall (its load nearest the median), for each build: with an empty
// cache, and on reload.
for (const t of targets) for (const kind of ['empty', 'reload'] as const) {
  let slowest: { screen: string; load: Load } | null = null;
  for (const [screen, row] of results.get(t.label)!) {
    const m = median(row[kind].map((l) => l.ms ?? Infinity));
    const pick = row[kind].find((l) => (l.ms ?? Infinity) === m)!;
    if (!slowest || (pick.ms ?? Infinity) > (slowest.load.ms ?? Infinity)) slowest = { screen, load: pick };
  }
  if (!slowest) continue;
  console.log(`\n  waterfall of the slowest screen, ${t.label}: ${slowest.screen}, ${kind === 'empty' ? 'empty cache' : 'reload'}, first content at ${ms(slowest.load.ms)}`);
  const wf = [...slowest.load.waterfall].sort((a, b) => a.start - b.start);
  printTable([
    ['request', 'start ms', 'end ms', 'kind', ''],
    ...wf.map((r) => [r.name.length > 70 ? r.name.slice(0, 67) + '…' : r.name, r.start.toFixed(0), r.end.toFixed(0), r.kind, '']),
  ]);
}

console.log('');
if (SMOKE) console.log('  goals not checked (smoke run)');
else console.log(missed.length ? `  goals missed: ${missed.join(', ')}` : '  every goal met');
if (failures.length) console.log(`  FAILED: ${failures.join('; ')}`);
console.log('');
if (failures.length || (!SMOKE && missed.length)) process.exitCode = 1;
