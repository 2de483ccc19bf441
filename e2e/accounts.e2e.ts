// What a new administrator meets first, in real Chromium: forms that say what to enter,
// their own password in the account menu, one-time passwords replaced at the next login,
// the agency's details, and the privacy page naming who collects.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, DEMO_PASSWORD, login, newPage, screenshot, setupProduct, WAIT } from './harness.ts';

const e2e = setupProduct();

async function toast(page: Page, text: string) {
  await expect.poll(() => page.locator('.ant-message').getByText(text).isVisible(), WAIT).toBe(true);
}

async function accountMenu(page: Page, item: string) {
  await page.getByRole('banner').getByRole('button', { name: /정관리|최고관리자|한마케|김미소|오상담/ }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe('account forms', () => {
  it('an empty save says what to enter, never a raw schema message; a shop-area type asks for its shops', async () => {
    const { page, context } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    await page.goto('/account-setting');
    await page.getByRole('button', { name: '계정 등록' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: '저장' }).click();
    for (const text of ['아이디를 입력하세요.', '비밀번호를 입력하세요.', '이름을 입력하세요.', '계정 유형을 선택하세요.']) {
      await expect.poll(() => dialog.getByText(text).isVisible(), WAIT).toBe(true);
    }
    expect(await dialog.innerText()).not.toMatch(/잘못된 입력|예상 타입|undefined/);
    await screenshot(page, 'e2e-account-form-empty');

    await dialog.getByLabel('연락처').fill('abc');
    await expect.poll(() => dialog.getByText('올바른 전화번호를 입력하세요.').isVisible(), WAIT).toBe(true);
    await dialog.getByLabel('계정 유형').click();
    await page.getByTitle('마케터').click();
    await expect.poll(() => dialog.getByText('업체를 고르지 않으면 이 계정은 로그인해도 볼 수 있는 업체가 없습니다.').isVisible(), WAIT).toBe(true);
    await dialog.getByLabel('접근 업체').click();
    await page.getByTitle('서울미소치과').click();
    await page.keyboard.press('Escape');
    await dialog.getByLabel('아이디').fill('newmkt');
    await dialog.getByLabel('초기 비밀번호').fill('Temp!pass2026');
    await dialog.getByLabel('이름').fill('신마케');
    await dialog.getByLabel('연락처').fill('010-2222-3333');
    await dialog.getByRole('button', { name: '저장' }).click();
    await toast(page, '저장했습니다.');
    await expect.poll(() => page.locator('tr', { hasText: 'newmkt' }).innerText(), WAIT).toContain('1곳');
    await context.close();
  });

  it('a one-time password is replaced at the next login before anything else', async () => {
    const { page, context } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    await page.goto('/account-setting');
    const row = page.locator('tr', { hasText: 'newmkt' });
    await row.getByRole('button', { name: '비밀번호 초기화' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('새 비밀번호').fill('Reset!pass2026');
    await dialog.getByRole('button', { name: '저장' }).click();
    await toast(page, '비밀번호를 초기화했습니다.');
    await context.close();

    const fresh = await newPage(e2e.browser, e2e.product.url);
    await login(fresh.page, 'newmkt', 'Reset!pass2026');
    await expect.poll(() => fresh.page.getByText('새 비밀번호 정하기').isVisible(), WAIT).toBe(true);
    expect(await fresh.page.locator('.ant-menu').count()).toBe(0);
    await screenshot(fresh.page, 'e2e-password-required');
    await fresh.page.getByLabel('현재 비밀번호').fill('Reset!pass2026');
    await fresh.page.getByLabel('새 비밀번호', { exact: true }).fill('Mine!pass2026');
    await fresh.page.getByLabel('새 비밀번호 확인').fill('Mine!pass2026');
    await fresh.page.getByRole('button', { name: '비밀번호 정하고 시작하기' }).click();
    await expect.poll(() => fresh.page.locator('.ant-menu').first().isVisible(), WAIT).toBe(true);
    await fresh.context.close();
  });

  it('the account menu changes one’s own password and ends the other sessions', async () => {
    const a = await newPage(e2e.browser, e2e.product.url);
    const b = await newPage(e2e.browser, e2e.product.url);
    await login(a.page, 'manager', DEMO_PASSWORD);
    await login(b.page, 'manager', DEMO_PASSWORD);
    await accountMenu(a.page, '비밀번호 변경');
    const dialog = a.page.getByRole('dialog');
    await dialog.getByLabel('현재 비밀번호').fill(DEMO_PASSWORD);
    await dialog.getByLabel('새 비밀번호', { exact: true }).fill('Changed!pass2026');
    await dialog.getByLabel('새 비밀번호 확인').fill('Changed!pass2027');
    await dialog.getByRole('button', { name: '변경' }).click();
    await expect.poll(() => dialog.getByText('새 비밀번호와 같게 입력하세요.').isVisible(), WAIT).toBe(true);
    await dialog.getByLabel('새 비밀번호 확인').fill('Changed!pass2026');
    await screenshot(a.page, 'e2e-password-change');
    await dialog.getByRole('button', { name: '변경' }).click();
    await toast(a.page, '비밀번호를 바꿨습니다.');
    // The other browser's session ended: its next request goes back to the login.
    await b.page.goto('/account-setting');
    await b.page.waitForURL((u) => u.pathname === '/bclog', WAIT);
    await a.page.goto('/account-setting');
    await expect.poll(() => a.page.locator('.ant-table-row').first().isVisible(), WAIT).toBe(true);
    await a.context.close();
    await b.context.close();
  });
});

describe('who collects the data', () => {
  it('shows the agency’s details to administrators on the shop screen', async () => {
    const { page, context } = await newPage(e2e.browser, e2e.product.url, { viewport: { width: 1440, height: 900 } });
    await login(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/client-setting');
    await expect.poll(() => page.getByText('(주)리드룸마케팅').isVisible(), WAIT).toBe(true);
    await screenshot(page, 'e2e-client-setting-operator');
    await context.close();
  });

  it('the privacy page names the agency as collector and the clinic as recipient; the form asks a separate sensitive consent', async () => {
    const { page, context } = await newPage(e2e.browser, e2e.product.url, { viewport: { width: 390, height: 844 }, isMobile: true });
    await page.goto('/view/smile-dental/implant-event');
    await expect.poll(() => page.getByText('민감정보 처리 동의').isVisible(), WAIT).toBe(true);
    await page.locator('details').first().locator('summary').click();
    expect(await page.locator('details').first().innerText()).toContain('수집하는 자: (주)리드룸마케팅');
    await page.goto('/view/smile-dental/implant-event/privacy');
    const text = await page.locator('body').innerText();
    expect(text).toContain('(주)리드룸마케팅은 「개인정보 보호법」에 따라');
    expect(text).toMatch(/제공받는 자[\s\S]*서울미소치과의원/);
    expect(text).toContain('민감정보: 불편한 증상');
    await screenshot(page, 'e2e-privacy-collector');

    await page.goto('/view/hanbit-insurance/free-checkup/privacy');
    const shopCollects = await page.locator('body').innerText();
    expect(shopCollects).toContain('한빛손해보험(주)는 「개인정보 보호법」에 따라');
    expect(shopCollects).toContain('개인정보를 제3자에게 제공하지 않습니다.');
    expect(shopCollects).toMatch(/개인정보 처리의 위탁[\s\S]*\(주\)리드룸마케팅/);
    await context.close();
  });
});
