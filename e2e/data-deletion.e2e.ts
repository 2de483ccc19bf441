// The life of a lead after DB 현황, end to end in real Chromium against the built product with demo
// data: an administrator deletes a lead with a reason on DB 삭제 and restores it on 삭제 DB 관리
// (it is back in DB 현황), then deletes another through "every lead the filter finds" and destroys
// it at once; the destruction is in the log, and the automatic purge's settings are shown.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { login, newPage, screenshot, setupProduct, still, submitAsVisitor as visit, WAIT } from './harness.ts';

const e2e = setupProduct();

/** A visitor on a phone sends the demo dental landing. */
const submitAsVisitor = (name: string, phone: string) => visit(e2e.browser, e2e.product.url, name, phone);

/** Searches the screen's list by name (the table's 이름 또는 전화번호 filter). */
async function searchList(page: Page, name: string) {
  const box = page.getByRole('textbox', { name: '이름 또는 전화번호' });
  await box.fill(name);
  await box.press('Enter');
  await expect.poll(() => new URL(page.url()).searchParams.get('q'), WAIT).toBe(name);
}

/** Types the reason into the open reason dialog and confirms with `ok`; answers the dialog. */
async function confirmWithReason(page: Page, ok: string, reason: string) {
  const dialog = page.getByRole('dialog');
  await expect.poll(() => dialog.getByRole('button', { name: ok }).isVisible(), WAIT).toBe(true);
  // A click while the dialog is still zooming in can be lost on a loaded machine: wait it out.
  await still(page, 'the dialog opening');
  await dialog.getByRole('textbox', { name: '사유' }).fill(reason);
  await dialog.getByRole('button', { name: ok }).click();
  return dialog;
}

describe('deleting, restoring and destroying leads', () => {
  it('lets an administrator delete a lead with a reason and restore it on 삭제 DB 관리', async () => {
    await submitAsVisitor('삭제복구방문', '010-5656-1111');
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    await page.goto('/data-deletion');
    await searchList(page, '삭제복구방문');
    const row = page.locator('.ant-table-row', { hasText: '삭제복구방문' });
    await expect.poll(() => row.isVisible(), WAIT).toBe(true);
    expect(await row.innerText()).toContain('010-****-1111');
    await row.locator('input[type=checkbox]').check();
    await page.getByRole('button', { name: '선택한 1건 삭제' }).click();

    // The reason is required, said inline in Korean.
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('선택한 DB 1건을 삭제합니다.').isVisible(), WAIT).toBe(true);
    await still(page, 'the dialog opening');
    await dialog.getByRole('button', { name: '1건 삭제' }).click();
    await expect.poll(() => dialog.getByText('삭제 사유를 입력하세요.').isVisible(), WAIT).toBe(true);
    await screenshot(page, 'e2e-data-deletion-reason');
    await confirmWithReason(page, '1건 삭제', '고객이 삭제를 요청함');
    await expect.poll(() => page.getByText('1건을 삭제했습니다.').isVisible(), WAIT).toBe(true);
    await expect.poll(() => row.count(), WAIT).toBe(0);

    // Gone from DB 현황 too.
    await page.goto(`/database-status?q=${encodeURIComponent('삭제복구방문')}`);
    await expect.poll(() => page.getByText('조건에 맞는 결과가 없습니다.').isVisible(), WAIT).toBe(true);

    await page.locator('.ant-menu').getByText('삭제 DB 관리', { exact: true }).click();
    const deleted = page.locator('.ant-table-row', { hasText: '삭제복구방문' });
    await expect.poll(() => deleted.isVisible(), WAIT).toBe(true);
    const text = await deleted.innerText();
    expect(text).toContain('고객이 삭제를 요청함');
    expect(text).toContain('유예 기간 만료');
    expect(text).toContain('010-****-1111');
    await screenshot(page, 'e2e-deleted-data-management');
    await deleted.getByRole('button', { name: '복구', exact: true }).click();
    await confirmWithReason(page, '1건 복구', '잘못 삭제함');
    await expect.poll(() => page.getByText('1건을 복구했습니다.').isVisible(), WAIT).toBe(true);
    await expect.poll(() => deleted.count(), WAIT).toBe(0);

    await page.goto(`/database-status?q=${encodeURIComponent('삭제복구방문')}`);
    await expect.poll(() => page.locator('.ant-table-row', { hasText: '삭제복구방문' }).isVisible(), WAIT).toBe(true);
  });

  it('lets an administrator delete every lead a filter finds, then destroy it at once; the destruction is in the log', async () => {
    await submitAsVisitor('즉시파기방문', '010-5656-2222');
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    await page.goto('/data-deletion');
    await searchList(page, '즉시파기방문');
    await expect.poll(() => page.locator('.ant-table-row', { hasText: '즉시파기방문' }).isVisible(), WAIT).toBe(true);
    await page.getByRole('button', { name: '조건에 맞는 전체 삭제' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('지금 목록의 조건에 맞는 DB 1건을 삭제합니다.', { exact: false }).isVisible(), WAIT).toBe(true);
    await confirmWithReason(page, '1건 삭제', '광고 테스트 유입');
    await expect.poll(() => page.getByText('1건을 삭제했습니다.').isVisible(), WAIT).toBe(true);

    await page.goto('/deleted-data-management');
    const deleted = page.locator('.ant-table-row', { hasText: '즉시파기방문' });
    await expect.poll(() => deleted.isVisible(), WAIT).toBe(true);
    await deleted.getByRole('button', { name: '즉시 파기' }).click();
    const purge = page.getByRole('dialog');
    await expect.poll(() => purge.getByText('되돌릴 수 없습니다.').isVisible(), WAIT).toBe(true);
    await still(page, 'the dialog opening');
    await purge.getByRole('button', { name: '1건 파기' }).click();
    await expect.poll(() => purge.getByText('파기 사유를 입력하세요.').isVisible(), WAIT).toBe(true);
    await confirmWithReason(page, '1건 파기', '고객이 즉시 파기를 요청함');
    await expect.poll(() => page.getByText('1건을 파기했습니다.').isVisible(), WAIT).toBe(true);
    await expect.poll(() => deleted.count(), WAIT).toBe(0);

    await page.getByRole('tab', { name: '파기 기록' }).click();
    const logged = page.locator('.ant-table-row', { hasText: '고객이 즉시 파기를 요청함' });
    await expect.poll(() => logged.isVisible(), WAIT).toBe(true);
    expect(await logged.innerText()).toContain('즉시 파기');
    expect(await logged.innerText()).toContain('1건');
    expect(await page.locator('.ant-table').innerText()).not.toContain('즉시파기방문');
    await screenshot(page, 'e2e-destruction-log');

    await page.getByRole('tab', { name: '자동 파기' }).click();
    const grace = page.getByRole('spinbutton', { name: '유예 기간 (일)' });
    await expect.poll(() => grace.inputValue(), WAIT).toBe('30');
    await expect.poll(() => page.getByText('앞으로 30일 동안 자동 파기될 DB').isVisible(), WAIT).toBe(true);
    await screenshot(page, 'e2e-automatic-purge');

    // The destroyed lead is no longer in any list, by name or by number.
    await page.goto(`/database-status?q=${encodeURIComponent('5656-2222')}`);
    await expect.poll(() => page.getByText('조건에 맞는 결과가 없습니다.').isVisible(), WAIT).toBe(true);
  });

  it('shows the deletion, the restoration and the destruction in the access record', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    await page.goto('/database-history');
    // Newest first: the tests above deleted and restored one lead, then deleted and destroyed another.
    const rows = page.locator('.ant-table-row');
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(3);
    const withAction = (label: string) => rows.filter({ has: page.locator('.ant-tag', { hasText: new RegExp(`^${label}$`) }) });
    await expect.poll(() => withAction('파기').count(), WAIT).toBe(1);
    expect(await withAction('복원').count()).toBe(1);
    expect(await withAction('삭제').count()).toBe(2);
    // The destroyed lead keeps its record but shows nothing personal; the restored one is masked.
    const purged = await withAction('파기').innerText();
    expect(purged).toContain('파기됨');
    expect(purged).not.toContain('즉시파기방문');
    const restored = await withAction('복원').innerText();
    expect(restored).toContain('010-****-1111');
    expect(restored).not.toContain('삭제복구방문');
    expect(await page.locator('.ant-table').innerText()).not.toMatch(/5656-2222|즉시파기방문/);
    await screenshot(page, 'e2e-database-history');
  });
});
