// Landing scripts and the back office's session, in real Chromium.
// 1. One origin (the default): a marketer sets tracking tags from templates; a 최고관리자 with
//    an open session visits the landing, and nothing from that page reaches a back-office API.
// 2. PUBLIC_ORIGIN on a second host: a marketer's free-form script runs on the public page
//    and still cannot act with the 최고관리자's session — not even with the page's CSP lifted.
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MIN_FILL_MS } from '../contracts/intake.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, launchBrowser, login, newPage, screenshot, startProduct, type Product, WAIT } from './harness.ts';

const LANDING = '/view/smile-dental/implant-event';
const META_ID = '123456789012345';
const GA4_ID = 'G-AB12CD34EF';

/** Answers every request to another host with an empty 200 (the machine has no way out), and records it. */
async function stubOutside(page: Page, seen: string[]) {
  await page.route(/^https:\/\//, (route) => {
    seen.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'application/javascript', body: '' });
  });
}

async function fillDemoForm(page: Page, name: string, phone: string, openedAt: number) {
  await page.locator('input[name=name]').fill(name);
  await page.locator('input[name=phone]').fill(phone);
  await page.locator('select[name=treatment]').selectOption('임플란트');
  await page.locator('input[name=privacyConsent]').check();
  const wait = openedAt + MIN_FILL_MS + 300 - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
}

function accountsNamed(product: Product, loginId: string): number {
  const db = new Database(path.join(product.dataDir, 'leadroom.sqlite'), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from accounts where login_id = ?').get(loginId) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('tracking tags on the back office’s own origin', () => {
  let product: Product;
  let browser: Browser;
  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('a marketer adds a Meta pixel and a GA4 tag from templates; free-form scripts are off', async () => {
    const { page, context } = await newPage(browser, product.url, { viewport: { width: 1440, height: 1000 } });
    await login(page, 'marketer', DEMO_PASSWORD);
    await page.goto('/landing-script-management');
    await page.getByRole('menuitem', { name: /11월 임플란트 무료 상담/ }).click();
    await expect.poll(() => page.getByText('지금은 쓸 수 없습니다').isVisible(), WAIT).toBe(true);
    expect(await page.getByText('PUBLIC_ORIGIN').first().isVisible()).toBe(true);
    expect(await page.locator('textarea').count()).toBe(0);

    const add = async (label: string) => {
      await page.getByRole('button', { name: '태그 추가' }).click();
      await page.getByRole('menuitem', { name: label }).click();
    };
    await add('Meta 픽셀');
    const ids = page.getByRole('textbox', { name: /ID/ });
    await ids.nth(0).fill('12345');
    await page.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => page.getByText('Meta 픽셀 ID는 15~16자리 숫자입니다.').isVisible(), WAIT).toBe(true);
    await ids.nth(0).fill(META_ID);
    await add('Google 태그 (GA4 · Google Ads)');
    await ids.nth(1).fill(GA4_ID);
    await page.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => page.getByText('저장했습니다. 게시 중인 페이지에 바로 반영됩니다.').isVisible(), WAIT).toBe(true);
    await screenshot(page, 'e2e-landing-script-management');
    await context.close();
  });

  it('stays within 14 KB gzip with both tags on', async () => {
    // fetch() would inflate the body: ask over plain HTTP for the bytes a phone receives.
    const body = await new Promise<Buffer>((resolve, reject) => {
      http.get(`${product.url}${LANDING}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      }).on('error', reject);
    });
    const html = zlib.gunzipSync(body).toString();
    expect(html).toContain(META_ID);
    expect(body.length).toBeLessThan(14 * 1024);
  });

  it('a 최고관리자 with an open session visits the landing: its tags run, no request reaches a back-office API', async () => {
    const { page, context } = await newPage(browser, product.url, { viewport: { width: 390, height: 844 }, isMobile: true });
    await login(page, 'admin', ADMIN_PASSWORD);
    const requests: string[] = [];
    const outside: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await stubOutside(page, outside);
    const openedAt = Date.now();
    await page.goto(LANDING);
    await expect.poll(() => outside.some((u) => u.startsWith('https://connect.facebook.net/')), WAIT).toBe(true);
    expect(outside.some((u) => u.startsWith(`https://www.googletagmanager.com/gtag/js?id=${GA4_ID}`))).toBe(true);
    await fillDemoForm(page, '관리자방문', '010-5555-1212', openedAt);
    await page.locator('form#f button[type=submit]').click();
    await expect.poll(() => page.locator('#ok').isVisible(), WAIT).toBe(true);
    // The conversion went to the pixel's queue (its library is stubbed out here).
    const queued = await page.evaluate(() => (window as unknown as { fbq: { queue: unknown[][] } }).fbq.queue.map((a) => `${a[0]}:${a[1]}`));
    expect(queued).toEqual([`init:${META_ID}`, 'track:PageView', 'track:Lead']);
    const apis = requests.map((u) => new URL(u)).filter((u) => u.origin === product.url && u.pathname.startsWith('/api/'));
    expect(apis.map((u) => u.pathname).every((p) => p.startsWith('/api/public/'))).toBe(true);
    expect(apis.length).toBeGreaterThan(0);
    await context.close();
  });
});

describe('free-form scripts with PUBLIC_ORIGIN on a second host', () => {
  // public.localhost is mapped to this machine's loopback address: another host, another site.
  let product: Product;
  let browser: Browser;
  let publicOrigin = '';
  beforeAll(async () => {
    product = await startProduct((port) => {
      publicOrigin = `http://public.localhost:${port}`;
      return { PUBLIC_ORIGIN: publicOrigin };
    });
    browser = await launchBrowser(['--host-resolver-rules=MAP public.localhost 127.0.0.1']);
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const attack = () =>
    `<script>window.__ran=1;` +
    `fetch(${JSON.stringify(`${product.url}/api/accounts`)},{method:'POST',credentials:'include',headers:{'content-type':'application/json'},` +
    `body:JSON.stringify({loginId:'intruder',password:'Intruder!2345',name:'x',accountTypeId:1})}).then(function(r){window.__json=r.status},function(){window.__json='refused'});` +
    `fetch(${JSON.stringify(`${product.url}/api/auth/logout`)},{method:'POST',mode:'no-cors',credentials:'include',headers:{'content-type':'text/plain'}}).then(function(){window.__simple='sent'},function(){window.__simple='refused'});` +
    `</script>`;

  it('a marketer saves a free-form script, which the public page runs', async () => {
    const { page, context } = await newPage(browser, product.url);
    await login(page, 'marketer', DEMO_PASSWORD);
    await page.goto('/landing-script-management');
    await page.getByRole('menuitem', { name: /11월 임플란트 무료 상담/ }).click();
    const head = page.getByRole('textbox', { name: 'head 스크립트' });
    await expect.poll(() => head.isVisible(), WAIT).toBe(true);
    await head.fill(attack());
    await page.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => page.getByText('저장했습니다. 게시 중인 페이지에 바로 반영됩니다.').isVisible(), WAIT).toBe(true);
    await context.close();
  });

  for (const bypassCSP of [false, true]) {
    it(`the script cannot act with a 최고관리자's session${bypassCSP ? ' even with the page CSP lifted' : ''}`, async () => {
      const { page, context } = await newPage(browser, product.url, { bypassCSP });
      await login(page, 'admin', ADMIN_PASSWORD);
      // The back office's host sends landing visitors to the public origin.
      await page.goto(LANDING);
      expect(new URL(page.url()).origin).toBe(publicOrigin);
      await expect.poll(() => page.evaluate(() => (window as unknown as { __ran?: number }).__ran), WAIT).toBe(1);
      await expect.poll(() => page.evaluate(() => (window as unknown as { __json?: unknown }).__json), WAIT).toBe('refused');
      await expect.poll(() => page.evaluate(() => (window as unknown as { __simple?: unknown }).__simple), WAIT).toBeDefined();
      // Whatever it sent has been answered.
      await page.waitForLoadState('networkidle');
      expect(accountsNamed(product, 'intruder')).toBe(0);
      // The session is untouched: the logout the script sent never reached it.
      await page.goto(`${product.url}/dashboard`);
      await expect.poll(() => page.getByRole('heading', { name: '대시보드' }).isVisible(), WAIT).toBe(true);
      // And the public host serves nothing of the back office.
      const probe = await page.goto(`${publicOrigin}/api/auth/me`);
      expect(probe?.status()).toBe(404);
      await context.close();
    });
  }
});

describe('a landing left open past its form token’s age', () => {
  let product: Product;
  let browser: Browser;
  beforeAll(async () => {
    // Tokens live 7.2 s here, so the page's is stale after a short wait.
    product = await startProduct({ LANDING_TOKEN_MAX_AGE_HOURS: '0.002' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('still takes the visitor’s submission: the page fetches a fresh token and sends again', async () => {
    const { page, context } = await newPage(browser, product.url, { viewport: { width: 390, height: 844 }, isMobile: true });
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/public/leads')) statuses.push(r.status());
    });
    await page.goto(LANDING);
    await fillDemoForm(page, '오래연', '010-7777-8888', Date.now());
    // Not a wait for the UI: the page's token must be older than its 7.2 s age.
    await page.waitForTimeout(8_000);
    await page.locator('form#f button[type=submit]').click();
    await expect.poll(() => page.locator('#ok').isVisible(), WAIT).toBe(true);
    expect(statuses).toEqual([400, 201]);
    await context.close();
  });
});
