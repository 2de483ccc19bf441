// A counselor's phone, in real Chromium at 390×844 against the built product with demo data: DB
// 현황 as cards with the SLA countdown, the lead drawer full width, 전화 걸기 (the number revealed,
// the 통화 시도 recorded and the SLA clock stopped), then 부재 and a 상담예약 — nothing wider than
// the screen. And the back office is installable: its manifest, icons and offline page are served.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, submitAsVisitor, WAIT } from './harness.ts';
import { addDays, seoulDay } from '../contracts/kst.ts';

const e2e = setupProduct();

/** A call of the product's API from the logged-in page (its session, its origin). */
async function api<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const res = await page.evaluate(
    async ([m, p, b]) => {
      const r = await fetch(p as string, { method: m as string, headers: b ? { 'content-type': 'application/json' } : {}, body: b ? JSON.stringify(b) : undefined });
      return { status: r.status, text: await r.text() };
    },
    [method, path, body] as const,
  );
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return JSON.parse(res.text) as T;
}

/**
 * Nothing is wider than the screen: no sideways scrolling, and the layout viewport is the phone's
 * 390 px (a page wider than the screen makes a mobile browser zoom out to fit it, which widens innerWidth).
 */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth && window.innerWidth === 390);

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** An appointment two days ahead at 14:00 (Seoul): the picker and the server take no time already past. */
const BOOKED_DAY = addDays(seoulDay(new Date()), 2);

describe('a counselor’s phone', () => {
  it('shows my leads as cards with the SLA countdown; 전화 걸기 records the call and stops the clock; 부재 and 상담예약 are one tap each', async () => {
    // The shop (the demo dental clinic) keeps a first-contact promise around the clock, so any time of day is working time.
    const admin = await newPage(e2e.browser, e2e.product.url);
    await login(admin.page);
    const shops = await api<{ items: Array<{ id: number; shopCode: string }> }>(admin.page, 'GET', '/api/auth/shops');
    const shopId = shops.items.find((s) => s.shopCode === 'smile-dental')?.id ?? shops.items[0]!.id;
    await api(admin.page, 'PUT', `/api/shops/${shopId}/lead-sla`, {
      enabled: true, minutes: 600, remindPercent: null, onDeadline: 'notify', maxReroutes: 0,
      workDays: [1, 2, 3, 4, 5, 6, 7], workStart: '00:00', workEnd: '24:00', holidays: [],
    });
    // A lead that arrives after the SLA was turned on, handed to the demo counselor 오상담.
    await submitAsVisitor(e2e.browser, e2e.product.url, '모바일고객', '010-3141-5926');
    const found = await api<{ items: Array<{ id: number }> }>(admin.page, 'GET', `/api/shops/${shopId}/leads?q=${encodeURIComponent('010-3141-5926')}`);
    const leadId = found.items[0]!.id;
    const counselors = await api<{ items: Array<{ id: number; loginId: string }> }>(admin.page, 'GET', `/api/shops/${shopId}/counselors`);
    const me = counselors.items.find((c) => c.loginId === 'counselor')!.id;
    await api(admin.page, 'POST', `/api/shops/${shopId}/allocation/reassign`, { leadIds: [leadId], to: me, reason: '모바일 확인' });
    await admin.context.close();

    const { page } = await newPage(e2e.browser, e2e.product.url, PHONE);
    await login(page, 'counselor', DEMO_PASSWORD);
    await page.goto('/database-status');
    // Each card is one button named by what it shows.
    const card = page.getByRole('button', { name: /^모바일고객/ });
    await card.waitFor();
    // The card: masked phone, the landing, the countdown of working minutes left (600 at most).
    await expect.poll(() => card.innerText(), WAIT).toMatch(/남음/);
    const text = await card.innerText();
    expect(text).toContain('010-****-5926');
    expect(text).toContain('미처리');
    expect(text).toContain('임플란트');
    // Only the counselor's own leads, no table.
    expect(await page.locator('.ant-table').count()).toBe(0);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'e2e-phone-database-status', { fullPage: false });

    await card.click();
    const drawer = page.locator('.ant-drawer-section');
    const callButton = drawer.getByRole('link', { name: /^전화 걸기/ });
    await callButton.waitFor();
    expect(await page.locator('.ant-drawer-content-wrapper').boundingBox()).toMatchObject({ x: 0, width: 390 });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'e2e-phone-lead-drawer', { fullPage: false });

    // The dialer is the phone's: here the tel: link is not followed (the page stays where it is).
    await page.evaluate(() =>
      document.addEventListener('click', (e) => {
        const link = (e.target as Element).closest<HTMLAnchorElement>('a[href^="tel:"]');
        if (!link) return;
        e.preventDefault();
        (window as unknown as { dialed: string[] }).dialed = [...((window as unknown as { dialed?: string[] }).dialed ?? []), link.getAttribute('href')!];
      }, true),
    );
    let left = false;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame() && !f.url().includes('/database-status')) left = true;
    });
    await callButton.click();
    await expect.poll(() => callButton.getAttribute('href'), WAIT).toBe('tel:01031415926');
    // One tap: the number went to the dialer at once.
    expect(await page.evaluate(() => (window as unknown as { dialed?: string[] }).dialed)).toEqual(['tel:01031415926']);
    await expect.poll(() => drawer.getByText('010-3141-5926').first().isVisible(), WAIT).toBe(true);
    // Contacted: the countdown gives way to 연락함.
    await expect.poll(() => drawer.getByText('연락함').first().isVisible(), WAIT).toBe(true);

    await drawer.getByRole('button', { name: '부재', exact: true }).click();
    await expect.poll(() => drawer.getByRole('button', { name: '부재', exact: true }).getAttribute('aria-pressed'), WAIT).toBe('true');

    await drawer.getByRole('button', { name: '상담예약', exact: true }).click();
    const dialog = page.locator('.ant-modal', { hasText: '상담예약 시간' });
    await dialog.waitFor();
    await dialog.getByLabel('예약 날짜').fill(BOOKED_DAY);
    await dialog.getByLabel('예약 날짜').press('Enter');
    await dialog.getByLabel('예약 시각').fill('14:00');
    await dialog.getByLabel('예약 시각').press('Enter');
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'e2e-phone-appointment', { fullPage: false });
    await dialog.getByRole('button', { name: '적용' }).click();
    await expect.poll(() => drawer.getByRole('button', { name: '상담예약', exact: true }).getAttribute('aria-pressed'), WAIT).toBe('true');
    expect(await fitsWidth(page)).toBe(true);
    expect(left).toBe(false);

    // What the server recorded: the call with its time, both outcomes, the first contact, the clock stopped.
    const lead = await api<{
      csStatus: string; reservedAt: string | null; firstContactAt: string | null; slaDueAt: string | null;
      history: Array<{ action: string; at: string; after: Record<string, unknown> | null }>;
    }>(page, 'GET', `/api/shops/${shopId}/leads/${leadId}`);
    expect(lead.csStatus).toBe('상담예약');
    expect(lead.reservedAt).toBe(new Date(`${BOOKED_DAY}T14:00:00+09:00`).toISOString());
    const calls = lead.history.filter((h) => h.action === 'call');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.after).toMatchObject({ firstContact: true, at: calls[0]!.at });
    expect(lead.firstContactAt).toBe(calls[0]!.at);
    expect(lead.slaDueAt).toBeNull();
    const statuses = lead.history.filter((h) => h.action === 'status').map((h) => h.after?.csStatus).reverse();
    expect(statuses).toEqual(['부재', '상담예약']);
    expect(lead.history.filter((h) => h.action === 'unmask')).toHaveLength(1);
    // Views: the drawer's opening (its refetches after each tap name it) and this reading.
    expect(lead.history.filter((h) => h.action === 'view')).toHaveLength(2);
    await drawer.getByText('처리 기록').scrollIntoViewIfNeeded();
    await screenshot(page, 'e2e-phone-lead-drawer-after', { fullPage: false });
    // The card says so too.
    await page.keyboard.press('Escape');
    await expect.poll(() => card.innerText(), WAIT).toContain('연락함');
    expect(await card.innerText()).toContain('상담예약');
    expect(await fitsWidth(page)).toBe(true);

    // A longer period pages from the server, twenty cards at a time (the demo counselor holds dozens of leads a month).
    await page.getByRole('combobox', { name: '접수 기간' }).click();
    await page.locator('.ant-select-dropdown:visible').getByText('최근 30일', { exact: true }).click();
    const more = page.getByRole('button', { name: /^더 보기/ });
    await more.waitFor();
    const cards = page.locator('.lr-lead-card');
    expect(await cards.count()).toBe(20);
    await more.click();
    await expect.poll(() => cards.count(), WAIT).toBeGreaterThan(20);
    expect(await fitsWidth(page)).toBe(true);
  });

  it('shows the SLA countdown as a column on the desktop table, beside the lead drawer', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url, { viewport: { width: 1440, height: 900 } });
    await login(page, 'owner', DEMO_PASSWORD);
    await page.goto('/database-status');
    await page.locator('.ant-table-row').first().waitFor();
    expect(await page.locator('.ant-table-thead th', { hasText: '응답 SLA' }).count()).toBe(1);
    expect(await page.locator('.ant-table-row', { hasText: '모바일고객' }).innerText()).toContain('연락함');
    await screenshot(page, 'e2e-desktop-database-status-sla', { fullPage: false });
    await page.locator('.ant-table-row', { hasText: '모바일고객' }).getByText('모바일고객').click();
    await page.locator('.ant-drawer-section').getByText('신청 내용').waitFor();
    await screenshot(page, 'e2e-desktop-lead-drawer', { fullPage: false });
  });

  it('is installable: the manifest, its icons and the offline page are served', async () => {
    const manifest = await fetch(`${e2e.product.url}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const m = (await manifest.json()) as { name: string; start_url: string; display: string; icons: Array<{ src: string; sizes: string; purpose: string }> };
    expect(m).toMatchObject({ name: '리드룸', start_url: '/database-status', display: 'standalone' });
    expect(m.icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of m.icons) {
      const res = await fetch(`${e2e.product.url}${icon.src}`);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
    const offline = await fetch(`${e2e.product.url}/offline.html`);
    expect(offline.status).toBe(200);
    expect(offline.headers.get('content-type')).toMatch(/^text\/html/);
    const offlineText = await offline.text();
    expect(offlineText).toContain('오프라인 상태입니다');
    expect(offlineText).toContain('다시 시도');
    // The back office links them.
    const { page } = await newPage(e2e.browser, e2e.product.url, PHONE);
    await page.goto('/bclog');
    expect(await page.locator('link[rel=manifest]').getAttribute('href')).toBe('/manifest.webmanifest');
    expect(await page.locator('link[rel=apple-touch-icon]').getAttribute('href')).toBe('/icons/apple-touch-icon.png');
  });
});
