// Variant attribution on the screens, in real Chromium against the built product (the demo's
// running experiment on 한빛손해보험's free-checkup landing): 랜딩 관리 expands the landing into
// 실험안별 visits, leads and conversion; the drawer's 종료 예약 becomes a 시스템 예약 (실험 종료),
// which 최고관리자 sees on 시스템 예약, opens and cancels there — and the drawer then shows none;
// 업체 대시보드 splits the landing's month by variant and DB 현황 tags leads with theirs.
import { describe, expect, it } from 'vitest';
import { addDays, seoulDay } from '../contracts/kst.ts';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, TEST_MS, WAIT } from './harness.ts';

const e2e = setupProduct();

describe('variant attribution', () => {
  it('splits a landing by variant, and its scheduled stop is managed on 시스템 예약', { timeout: TEST_MS * 2 }, async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page, 'marketer', DEMO_PASSWORD);
    await page.goto('/landing-status');
    await page.getByLabel('현재 업체').click();
    await page.locator('.ant-select-item-option', { hasText: '한빛손해보험 강남지점' }).click();
    const row = page.locator('tr', { hasText: 'free-checkup' });
    await expect.poll(() => row.isVisible(), WAIT).toBe(true);
    await row.getByRole('button', { name: '펼치기' }).click();
    const split = page.getByRole('table', { name: '실험안별 방문·접수·전환율' });
    await expect.poll(() => split.isVisible(), WAIT).toBe(true);
    // The demo's running experiment (its finished one ran within the 30 days too): 50 visits for A and 56 for B over its three days.
    const variantRow = (key: string) => split.locator('tr', { hasText: '버튼 문구 실험' }).filter({ hasText: `실험안 ${key}` });
    await expect.poll(() => variantRow('A').locator('td').nth(2).textContent(), WAIT).toBe('50');
    expect(await variantRow('B').locator('td').nth(2).textContent()).toBe('56');
    await screenshot(page, 'e2e-variant-split-landings', { fullPage: false });

    // 종료 예약 in the drawer.
    await row.getByRole('button', { name: 'A/B 실험' }).click();
    const drawer = page.locator('.ant-drawer');
    const picker = drawer.getByLabel('종료 예약').first();
    await expect.poll(() => picker.isVisible(), WAIT).toBe(true);
    await picker.click();
    await picker.fill('2099-12-31 10:00');
    await picker.press('Enter');
    await expect.poll(() => page.getByText('종료를 예약했습니다.', { exact: false }).isVisible(), WAIT).toBe(true);
    await screenshot(page, 'e2e-variant-split-drawer', { fullPage: false });

    // 최고관리자 sees it on 시스템 예약 as 실험 종료, opens it, and cancels it there.
    const admin = (await newPage(e2e.browser, e2e.product.url)).page;
    await login(admin);
    await admin.goto('/system-reservation');
    const reservation = admin.locator('tr', { hasText: '실험 종료' });
    await expect.poll(() => reservation.isVisible(), WAIT).toBe(true);
    expect(await reservation.textContent()).toContain('A/B 실험: 버튼 문구 실험');
    await screenshot(admin, 'e2e-variant-split-reservations', { fullPage: false });
    await reservation.getByRole('button', { name: '수정' }).click();
    const modal = admin.locator('.ant-modal');
    await expect.poll(() => modal.getByText('실험 종료 일시 (한국 시간)').isVisible(), WAIT).toBe(true);
    await screenshot(admin, 'e2e-variant-split-reservation-form', { fullPage: false });
    await admin.keyboard.press('Escape');
    await expect.poll(() => modal.isVisible(), WAIT).toBe(false);
    await reservation.getByRole('button', { name: '취소' }).click();
    await admin.getByLabel('사유').fill('실험 연장');
    await admin.locator('.ant-modal').getByRole('button', { name: '예약 취소' }).click();
    await expect.poll(() => admin.locator('tr', { hasText: '실험 종료' }).textContent(), WAIT).toContain('취소 사유: 실험 연장');

    // The drawer, read again, shows no scheduled stop.
    await page.reload();
    await expect.poll(() => drawer.getByLabel('종료 예약').first().isVisible(), WAIT).toBe(true);
    expect(await drawer.getByLabel('종료 예약').first().inputValue()).toBe('');

    // 업체 대시보드's 이번 달 랜딩별 expands the landing into its variants' leads; DB 현황 tags each lead with its variant.
    await page.goto('/shop-dashboard');
    const byLanding = page.locator('.ant-card', { hasText: '이번 달 랜딩별' });
    const landingRow = byLanding.locator('tr', { hasText: '보험료 무료 점검 캠페인' });
    await expect.poll(() => landingRow.isVisible(), WAIT).toBe(true);
    await landingRow.getByRole('button', { name: '펼치기' }).click();
    await expect.poll(() => byLanding.locator('tr', { hasText: '실험안 A' }).isVisible(), WAIT).toBe(true);
    await byLanding.scrollIntoViewIfNeeded();
    await screenshot(page, 'e2e-variant-split-dashboard', { fullPage: false });
    const today = seoulDay(new Date());
    // The demo's experiment leads are its landing's oldest of the last three days: a page of 100 holds them.
    await page.goto(`/database-status?from=${addDays(today, -6)}&to=${today}&pageSize=100`);
    const tag = page.locator('.ant-table-row .ant-tag', { hasText: '실험안 B' }).first();
    await expect.poll(() => tag.isVisible(), WAIT).toBe(true);
    await tag.scrollIntoViewIfNeeded();
    await screenshot(page, 'e2e-variant-split-leads', { fullPage: false });
  });
});
