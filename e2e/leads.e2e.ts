// Working the leads end to end, in real Chromium against the built product with demo data: a
// visitor's submission appears in an already open DB 현황 without a reload; a counselor sees only
// their own leads and books an appointment on one.
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, submitAsVisitor as visit, WAIT } from './harness.ts';
import { addDays, seoulDay } from '../contracts/kst.ts';

/** An appointment a week ahead: the picker and the server take no time already past. */
const BOOKED_DAY = addDays(seoulDay(new Date()), 7);

const e2e = setupProduct();

/** A visitor on a phone sends the demo dental landing. */
const submitAsVisitor = (name: string, phone: string) => visit(e2e.browser, e2e.product.url, name, phone);

describe('working the leads', () => {
  it('shows a visitor’s submission in an open DB 현황 within seconds, without a reload', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    await page.goto('/database-status');
    await expect.poll(() => page.locator('.ant-table-row').count(), WAIT).toBeGreaterThan(0);
    let reloaded = false;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) reloaded = true;
    });

    await submitAsVisitor('실시간방문', '010-5555-7777');

    const row = page.locator('.ant-table-row', { hasText: '실시간방문' });
    await expect.poll(() => row.isVisible(), WAIT).toBe(true);
    expect(await row.innerText()).toContain('010-****-7777');
    expect(await page.getByText('새 DB 1건이 접수되었습니다').isVisible()).toBe(true);
    expect(reloaded).toBe(false);
    await screenshot(page, 'e2e-database-status-live');

    // The detail opens from the name; revealing the number is one click, and both are in the record.
    await row.getByText('실시간방문').click();
    const drawer = page.locator('.ant-drawer');
    await expect.poll(() => drawer.getByText('신청 내용').isVisible(), WAIT).toBe(true);
    await drawer.getByRole('button', { name: '전화번호 보기' }).click();
    await expect.poll(() => drawer.getByText('010-5555-7777').isVisible(), WAIT).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('counts a new lead on an open 업체 대시보드 without a reload, and marks DB 현황 in the menu until it is opened', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page, 'owner', DEMO_PASSWORD);
    await page.goto('/shop-dashboard');
    const today = page.locator('.ant-card', { hasText: '오늘 접수 DB' }).locator('.ant-statistic-content-value');
    await expect.poll(() => today.isVisible(), WAIT).toBe(true);
    const before = Number((await today.innerText()).replace(/\D/g, ''));

    await submitAsVisitor('대시보드방문', '010-5555-8888');
    await expect.poll(async () => Number((await today.innerText()).replace(/\D/g, '')), WAIT).toBe(before + 1);
    const entry = page.locator('.ant-menu-item', { hasText: 'DB 현황' });
    await expect.poll(() => entry.locator('.ant-badge').innerText(), WAIT).toBe('1');
    await screenshot(page, 'e2e-shop-dashboard-live');

    await entry.locator('a').click();
    await expect.poll(() => page.locator('.ant-table-row', { hasText: '대시보드방문' }).isVisible(), WAIT).toBe(true);
    expect(await entry.locator('.ant-badge').count()).toBe(0);
  });

  it('lets a manager allocate chosen leads in turn, after a preview', async () => {
    // Leads of its own to allocate: how many of the demo's leads of this month are unallocated
    // depends on the day and the hour it is seeded (on 12-07 at 10:30 KST, none).
    for (const n of [1, 2, 3, 4]) await submitAsVisitor(`배분방문${n}`, `010-5556-000${n}`);
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page, 'owner', DEMO_PASSWORD);
    await page.goto('/data-allocation');
    const rows = page.locator('.ant-table-row').filter({ has: page.locator('input[type=checkbox]') });
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(3);
    const names: string[] = [];
    for (let i = 0; i < 4; i++) {
      await rows.nth(i).locator('input[type=checkbox]').check();
      names.push((await rows.nth(i).locator('td').nth(2).innerText()).trim());
    }
    await page.getByRole('button', { name: '미리보기' }).click();
    const plan = page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: /^배분$/ }) }).locator('.ant-table');
    await expect.poll(() => plan.innerText(), WAIT).toContain('2건');
    expect(await plan.innerText()).toContain('오상담');
    expect(await plan.innerText()).toContain('유상담');
    await screenshot(page, 'e2e-data-allocation-preview');
    await page.getByRole('button', { name: '배분 적용' }).click();
    // The confirmation says what is about to happen, not just "이대로 배분할까요?".
    await expect.poll(() => page.locator('.ant-popconfirm').innerText(), WAIT).toContain('미배분 DB 4건을 상담원 2명에게 배분할까요?');
    await screenshot(page, 'e2e-data-allocation-confirm');
    await page.locator('.ant-popconfirm').getByRole('button', { name: '배분' }).click();
    await expect.poll(() => page.getByText('4건을 배분했습니다.').isVisible(), WAIT).toBe(true);

    const assigned = await page.evaluate(async (chosen) => {
      const shops = (await (await fetch('/api/auth/shops')).json()).items as Array<{ id: number; shopCode: string }>;
      const shop = shops.find((s) => s.shopCode === 'smile-dental')!;
      const items = (await (await fetch(`/api/shops/${shop.id}/leads?from=2026-01-01&pageSize=100`)).json()).items as Array<{ name: string; assigneeName: string | null }>;
      return chosen.map((n) => items.find((i) => i.name === n)?.assigneeName ?? null);
    }, names);
    expect(assigned.filter((a) => a === '오상담')).toHaveLength(2);
    expect(assigned.filter((a) => a === '유상담')).toHaveLength(2);
  });

  it('lets a counselor see only their leads and book an appointment on one', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page, 'counselor', DEMO_PASSWORD);
    await page.goto('/database-status?from=2026-01-01');
    await expect.poll(() => page.locator('.ant-table-row').count(), WAIT).toBeGreaterThan(0);
    // No 담당 column and no 미배분 filter: every lead here is the counselor's own.
    expect(await page.locator('th', { hasText: '담당' }).count()).toBe(0);
    const shopId = await page.evaluate(() => Number(sessionStorage.getItem('currentShopId')) || null);
    const seen = await page.evaluate(async (id) => {
      const shops = (await (await fetch('/api/auth/shops')).json()).items as Array<{ id: number }>;
      const res = await fetch(`/api/shops/${id ?? shops[0]!.id}/leads?from=2026-01-01&pageSize=100`);
      return (await res.json()).items.map((i: { assigneeName: string | null }) => i.assigneeName);
    }, shopId);
    expect(new Set(seen)).toEqual(new Set(['오상담']));

    const row = page.locator('.ant-table-row').first();
    await row.getByRole('combobox', { name: '상담 상태' }).click();
    await page.locator('.ant-select-dropdown:visible').getByText('상담예약', { exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('상담예약 시간').isVisible(), WAIT).toBe(true);
    const input = dialog.getByRole('textbox');
    await input.click();
    await input.fill(`${BOOKED_DAY} 14:00`);
    await input.press('Enter');
    await dialog.getByRole('button', { name: '적용' }).click();
    await expect.poll(() => row.innerText(), WAIT).toContain(`${BOOKED_DAY} 14:00`);
    expect(await row.innerText()).toContain('상담예약');
    await screenshot(page, 'e2e-database-status-counselor');

    // The appointment is on the counselor's calendar, on its Seoul day, and opens the lead.
    const booked = await page.evaluate(async ([id, reservedAt]) => {
      const shops = (await (await fetch('/api/auth/shops')).json()).items as Array<{ id: number }>;
      const res = await fetch(`/api/shops/${id ?? shops[0]!.id}/leads?from=2026-01-01&pageSize=100&status=${encodeURIComponent('상담예약')}`);
      return ((await res.json()).items as Array<{ name: string; reservedAt: string | null }>).find((i) => i.reservedAt === reservedAt)!.name;
    }, [shopId, new Date(`${BOOKED_DAY}T14:00:00+09:00`).toISOString()] as const);
    await page.locator('.ant-menu').getByText('DB 캘린더', { exact: true }).click();
    await expect.poll(() => page.locator('.ant-picker-calendar').isVisible(), WAIT).toBe(true);
    await page.goto(`/database-calendar?day=${BOOKED_DAY}`);
    const cell = page.locator(`.ant-picker-cell[title="${BOOKED_DAY}"]`);
    await expect.poll(() => cell.innerText(), WAIT).toContain(booked);
    expect(await cell.innerText()).toContain('14:00');
    const panel = page.locator('.ant-card', { hasText: `${Number(BOOKED_DAY.slice(5, 7))}월 ${Number(BOOKED_DAY.slice(8))}일` }).last();
    await expect.poll(() => panel.getByText(booked).first().isVisible(), WAIT).toBe(true);
    await screenshot(page, 'e2e-database-calendar-counselor');
    await panel.getByText(booked).first().click();
    await expect.poll(() => page.locator('.ant-drawer').getByText('신청 내용').isVisible(), WAIT).toBe(true);
  });
});
