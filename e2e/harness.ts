// Starts the built product on a free port with a fresh data directory and demo data,
// and drives Debian's Chromium through playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { MIN_FILL_MS } from '../contracts/intake.ts';
import { HOOK_MS, SCREEN_MS, WAIT_MS } from './waits.ts';

export { HOOK_MS, SCREEN_MS, TEST_MS, WAIT_MS } from './waits.ts';
/** The options of an expect.poll or a waitFor: a state the UI reaches. */
export const WAIT = { timeout: WAIT_MS };
/** A walk's test timeout: a minute to log in and start, and SCREEN_MS per screen. */
export const walkTimeout = (screens: number) => 60_000 + screens * SCREEN_MS;

export const ADMIN_PASSWORD = 'E2e-Admin!2345';
export const DEMO_PASSWORD = 'leadroom-demo1';
const ROOT = path.resolve(import.meta.dirname, '..');

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface Product {
  url: string;
  dataDir: string;
  /** The process started: the server, or what `nodeArgs` runs. */
  process: ChildProcess;
  output: () => string;
  /** SIGTERM (unless it has exited already), wait for the exit, remove the data directory. */
  stop(): Promise<void>;
}

/**
 * Starts the built product; `env` may depend on the port it will listen on. `nodeArgs`: what node
 * runs instead of the server itself (e.g. the built server under npm start's supervisor).
 */
export async function startProduct(extra: Record<string, string> | ((port: number) => Record<string, string>) = {}, o: { nodeArgs?: string[] } = {}): Promise<Product> {
  const entry = path.join(ROOT, 'dist/app/server/main.js');
  if (!fs.existsSync(entry)) throw new Error('dist/app/server/main.js missing: run `npm run build` first');
  const port = await freePort();
  const env = typeof extra === 'function' ? extra(port) : extra;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-e2e-'));
  let out = '';
  const child: ChildProcess = spawn(process.execPath, o.nodeArgs ?? [entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD, SEED_DEMO: '1', DEMO_PASSWORD, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise((r) => child.once('exit', r));
  // Migrating and seeding the demo data: a minute or more on a busy machine.
  const deadline = Date.now() + HOOK_MS - 30_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
      try {
        const res = await fetch(`${url}/api/health`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    // Not left running (and seeding) behind a failed start.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    dataDir,
    process: child,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...args] });
}

export async function newPage(browser: Browser, baseURL: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, locale: 'ko-KR', timezoneId: 'Asia/Seoul', viewport: { width: 1366, height: 860 }, reducedMotion: 'reduce', ...options });
  // Playwright's own waits (a click's, a waitFor's, a navigation's) allow a slow machine too.
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  return { context, page };
}

export async function login(page: Page, loginId = 'admin', password = ADMIN_PASSWORD): Promise<void> {
  await page.goto('/bclog');
  await page.getByLabel('아이디').fill(loginId);
  await page.getByLabel('비밀번호').fill(password);
  await page.getByRole('button', { name: '로그인' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/bclog'));
}

/**
 * How many visible things move on the page, as a string: a function handed to page.evaluate keeps
 * the names tsx's transform gives its inner functions (`__name`, unknown in the page), which broke
 * `npm run screenshots`. Only what can be seen moves: antd leaves a motion class on a button's
 * loading icon inside a modal that closed (display: none), where its transition never ends, and a
 * button's loading icon folding away can stay "leaving" while the spinner turns.
 */
const MOVING_JS = `(() => {
  const seen = (e) => !e || !('checkVisibility' in e) || e.checkVisibility();
  return document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity && seen(a.effect?.target)).length +
    [...document.querySelectorAll('[class*="-appear-active"], [class*="-enter-active"], [class*="-leave-active"]')]
      .filter((e) => seen(e) && !e.classList.contains('ant-btn-loading-icon')).length;
})()`;

/**
 * Waits until nothing on the page moves: no running animation, no antd motion class (a drawer
 * sliding in, a tab's ink bar, a message fading in). What a screenshot or axe's colours need.
 */
export async function still(page: Page, what = 'animations'): Promise<void> {
  // A plain loop, not vitest's expect.poll: `npm run screenshots` uses this outside a test run.
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const moving = await page.evaluate<number>(MOVING_JS);
    if (moving === 0) return;
    if (Date.now() > until) {
      const which = await page.evaluate(() => [
        ...document.getAnimations().filter((a) => a.playState === 'running').map((a) => `${(a as CSSAnimation).animationName ?? 'animation'} on ${((a.effect as KeyframeEffect | null)?.target as Element | null)?.className ?? '?'}`),
        ...[...document.querySelectorAll('[class*="-appear-active"], [class*="-enter-active"], [class*="-leave-active"]')].map((e) => e.className),
      ].join('; '));
      throw new Error(`${what}: still moving after ${WAIT_MS} ms (${which})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The whole page, or only the viewport (`fullPage: false`: a drawer or a modal is fixed to the
 * viewport), once nothing moves.
 */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  await still(page, `screenshot ${name}`);
  const dir = path.join(ROOT, 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await picture(page, path.join(dir, `${name}.png`), fullPage);
}

/** The tallest picture taken of a whole page (Chromium's limit is 16,384 px). */
const MAX_PICTURE_HEIGHT = 16_000;

/**
 * A picture of the viewport, or of the whole page: for that the viewport is made as tall as the
 * page (its width kept) and put back after. Not Playwright's `fullPage`: Chromium's capture beyond
 * the viewport passes now and then through a 1×1 viewport, which turns every width media query to
 * a phone's for a moment, and a screen that shows a phone other parts (DB 현황's cards for its
 * table) unmounts what it had open — a test then waited 40 s for an export dialog that was gone.
 */
async function picture(page: Page, file: string, fullPage: boolean): Promise<void> {
  const viewport = page.viewportSize();
  const height = fullPage ? await page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0)) : 0;
  if (!viewport || height <= viewport.height) {
    await page.screenshot({ path: file });
    return;
  }
  await page.setViewportSize({ width: viewport.width, height: Math.min(height, MAX_PICTURE_HEIGHT) });
  try {
    await page.screenshot({ path: file });
  } finally {
    await page.setViewportSize(viewport);
  }
}

/** One product and one browser for a spec file, started before its tests and stopped after. */
export function setupProduct(env?: Parameters<typeof startProduct>[0], browserArgs: string[] = []): { product: Product; browser: Browser } {
  const ctx = {} as { product: Product; browser: Browser };
  beforeAll(async () => {
    ctx.product = await startProduct(env);
    ctx.browser = await launchBrowser(browserArgs);
  });
  // A failed test leaves a picture of every page it had open (screenshots/failed-…): what the
  // browser showed when the wait ran out, for a failure on a machine one cannot watch (CI).
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail' || !ctx.browser) return;
    const dir = path.join(ROOT, 'screenshots');
    fs.mkdirSync(dir, { recursive: true });
    const name = task.name.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 60);
    const pages = ctx.browser.contexts().flatMap((c) => c.pages());
    for (const [i, page] of pages.entries()) {
      await page.screenshot({ path: path.join(dir, `failed-${name}-${i + 1}.png`), fullPage: true, timeout: 10_000 }).catch(() => {});
    }
  });
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.product?.stop();
  });
  return ctx;
}

/**
 * A visitor on a phone fills in and sends the demo dental landing (waiting out its minimum fill
 * time); `landing` is another landing's path with the same form (a copy of it).
 */
export async function submitAsVisitor(browser: Browser, baseURL: string, name: string, phone: string, landing = '/view/smile-dental/implant-event'): Promise<void> {
  const visitor = await newPage(browser, baseURL, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await visitor.page.goto(landing);
  // The form's minimum fill time runs from when the server rendered the page, which may be any
  // time during the navigation (the first visit renders it): counted from its end.
  const openedAt = Date.now();
  await visitor.page.locator('input[name=name]').fill(name);
  await visitor.page.locator('input[name=phone]').fill(phone);
  await visitor.page.locator('select[name=treatment]').selectOption('임플란트');
  await visitor.page.locator('input[name=privacyConsent]').check();
  const wait = openedAt + MIN_FILL_MS + 300 - Date.now();
  if (wait > 0) await visitor.page.waitForTimeout(wait);
  await visitor.page.locator('button[type=submit]').click();
  await expect.poll(() => visitor.page.locator('#ok').isVisible(), WAIT).toBe(true);
  await visitor.context.close();
}
