// Agency and client are two sides: the demo 업체관리자 (a client) finds no ad spend, CPA target,
// CPA or margin anywhere — not in the menu, not on 업체 대시보드, not on any screen it may open,
// not in any answer its browser receives — and the agency's screens answer 403 at their
// addresses; 권한 설정 marks those screens and will not give them to a client type.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENS } from '../contracts/screens.ts';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, WAIT, walkTimeout } from './harness.ts';

const e2e = setupProduct();

/** What the agency's figures are called on screen. */
const AGENCY_WORDS = /광고비|목표 CPA|CPA|CPL|마진|이번 달 광고/;
/** What they are called in the API's answers. */
const AGENCY_KEYS = new Set(['spend', 'cpa', 'cpl', 'targetCpa', 'actualCpa', 'revenue', 'margin', 'marginRate']);

function agencyKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => agencyKeys(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(AGENCY_KEYS.has(k) ? [`${path}.${k}`] : []), ...agencyKeys(v, `${path}.${k}`)]);
}

/** A logged-in page that keeps every key of the agency's figures found in the JSON its API calls answered. */
async function as(loginId: string, password?: string): Promise<{ page: Page; seen: string[] }> {
  const { page } = await newPage(e2e.browser, e2e.product.url);
  const seen: string[] = [];
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith('/api/') || !(res.headers()['content-type'] ?? '').includes('json')) return;
    try {
      seen.push(...agencyKeys(await res.json(), url.pathname));
    } catch {
      // a body already gone (navigation): nothing to read
    }
  });
  await login(page, loginId, password);
  return { page, seen };
}

/** Opens a screen and waits until its chunk and data are in (its title in the header). */
async function open(page: Page, path: string, title?: string): Promise<string> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('body').innerText(), { message: path, ...WAIT }).not.toContain('Loading...');
  if (title) await expect.poll(() => page.locator('header h1').innerText(), { message: path, ...WAIT }).toBe(title);
  return page.locator('body').innerText();
}

describe('the demo 업체관리자', () => {
  it('sees the dashboard’s leads and contracts but no spend, CPA or margin, and no agency screen in the menu', async () => {
    // The same dashboard as the agency's marketer sees it carries this month's spend: the check below can fail.
    const marketer = await as('marketer', DEMO_PASSWORD);
    await expect.poll(() => open(marketer.page, '/shop-dashboard', '업체 대시보드')).toMatch(/광고비/);

    const { page, seen } = await as('owner', DEMO_PASSWORD);
    expect(new URL(page.url()).pathname).toBe('/shop-dashboard');
    await expect.poll(() => page.getByText('계약 진행').first().isVisible(), WAIT).toBe(true);
    const text = await open(page, '/shop-dashboard', '업체 대시보드');
    expect(text).not.toMatch(AGENCY_WORDS);
    await screenshot(page, 'client-side-owner-shop-dashboard');

    const menu = await page.locator('.ant-menu').first().innerText();
    for (const title of ['CPA 관리', '광고 현황', '랜딩 스크립트']) expect(menu).not.toContain(title);
    expect(menu).toContain('계약 현황');
    expect(seen).toEqual([]);
  });

  it('finds none of them on any screen it may open, nor in any answer its browser gets', { timeout: walkTimeout(SCREENS.filter((s) => s.area === 'shop').length) }, async () => {
    const { page, seen } = await as('owner', DEMO_PASSWORD);
    const account = JSON.parse((await page.evaluate(() => sessionStorage.getItem('loginAccount'))) ?? 'null') as { side: string; permissions: Record<string, string> };
    expect(account.side).toBe('client');
    const screens = SCREENS.filter((s) => s.area === 'shop' && account.permissions[s.key] !== 'none');
    expect(screens.length).toBeGreaterThan(10);
    for (const s of screens) expect(await open(page, `/${s.key}`, s.title), s.key).not.toMatch(AGENCY_WORDS);
    expect(seen).toEqual([]);
  });

  it('gets the 403 result at the agency screens’ addresses', async () => {
    const { page } = await as('owner', DEMO_PASSWORD);
    for (const path of ['/cpa-management', '/advertising-status', '/landing-script-management']) {
      await page.goto(path);
      await expect.poll(() => page.locator('.ant-result-title').innerText(), { message: path, ...WAIT }).toBe('403');
      expect(await page.locator('.ant-result-subtitle').innerText(), path).toBe('대행사 전용 화면입니다. 고객사 계정에는 열리지 않습니다.');
      expect(await page.locator('body').innerText(), path).not.toMatch(/광고비|목표 CPA|마진/);
    }
    await screenshot(page, 'client-side-owner-403');
    // The API behind them refuses too, in Korean.
    const answer = await page.evaluate(async () => {
      const shops = (await (await fetch('/api/auth/shops')).json()) as { items: Array<{ id: number }> };
      const res = await fetch(`/api/shops/${shops.items[0]!.id}/cpa`);
      return { status: res.status, body: await res.json() };
    });
    expect(answer).toEqual({ status: 403, body: { error: { code: 'FORBIDDEN', message: '대행사 전용 기능입니다. 고객사 계정에는 열리지 않습니다.' } } });
  });
});

describe('권한 설정', () => {
  it('marks the agency-only screens and offers a client type none of them', async () => {
    const { page } = await as('admin', undefined);
    await open(page, '/permission-setting', '권한 설정');
    await page.getByText('업체관리자', { exact: true }).click();
    await expect.poll(() => page.getByText('고객사', { exact: true }).first().isVisible()).toBe(true);
    const cpa = page.getByRole('radiogroup', { name: 'CPA 관리 권한' });
    await expect.poll(() => cpa.getByRole('radio', { name: '조회' }).isDisabled()).toBe(true);
    expect(await cpa.getByRole('radio', { name: '편집' }).isDisabled()).toBe(true);
    expect(await cpa.getByRole('radio', { name: '없음' }).isChecked()).toBe(true);
    const contracts = page.getByRole('radiogroup', { name: '계약 관리 권한' });
    expect(await contracts.getByRole('radio', { name: '조회' }).isDisabled()).toBe(false);
    expect(await contracts.getByRole('radio', { name: '편집' }).isDisabled()).toBe(true);
    expect(await page.getByText('대행사 전용', { exact: true }).count()).toBe(3);
    await screenshot(page, 'client-side-permission-setting');

    // The agency's marketer may be given them.
    await page.getByText('마케터', { exact: true }).click();
    await expect.poll(() => page.getByRole('radiogroup', { name: 'CPA 관리 권한' }).getByRole('radio', { name: '편집' }).isDisabled()).toBe(false);
  });
});
