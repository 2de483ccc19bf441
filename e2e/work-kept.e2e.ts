// Work that used to get lost or go wrong (issue 22), in real Chromium against the built product
// with demo data: a marketer's landing editor asks before Esc or 닫기 throws changes away and
// offers the unsaved work back when opened again; a modal form asks too; the appointment picker
// offers no day or hour already past; the calendar shows the appointments of the neighbouring
// month's days in its grid, and another month opens on its 1st; an import left waiting says when it
// will be cancelled, and is cancelled from the list.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, WAIT } from './harness.ts';
import { addDays, seoulDay } from '../contracts/kst.ts';

const e2e = setupProduct();
const SHOP = 'smile-dental';
const ASK = '저장하지 않은 변경 사항이 있습니다';

/** Logs in and makes the demo dental shop the current one; answers its id. */
async function enterShop(page: Page, loginId: string): Promise<number> {
  await login(page, loginId, DEMO_PASSWORD);
  return page.evaluate(async (code) => {
    const shops = (await (await fetch('/api/auth/shops')).json()).items as Array<{ id: number; shopCode: string }>;
    const id = shops.find((s) => s.shopCode === code)!.id;
    sessionStorage.setItem('currentShopId', String(id));
    return id;
  }, SHOP);
}

/** Waits until no finite animation runs (a modal zooming in), for a clean screenshot. */
async function settled(page: Page): Promise<void> {
  const running = () => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length);
  await expect.poll(running, WAIT).toBe(0);
}

/** The close question, once it is up. */
const question = (page: Page) => page.locator('.ant-modal-confirm', { hasText: ASK });

describe('work that is not thrown away', () => {
  it('asks before the landing editor closes with changes, and offers them back when it opens again', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await enterShop(page, 'marketer');
    await page.goto('/landing-status');
    await page.getByRole('button', { name: '랜딩 만들기' }).click();
    const drawer = page.locator('.ant-drawer');
    const title = drawer.getByLabel('랜딩 이름');
    await expect.poll(() => title.isVisible(), WAIT).toBe(true);

    // Nothing typed: Esc closes at once.
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible(), WAIT).toBe(false);
    expect(await question(page).count()).toBe(0);

    await page.getByRole('button', { name: '랜딩 만들기' }).click();
    await expect.poll(() => title.isVisible(), WAIT).toBe(true);
    await title.fill('연말 스케일링 이벤트 초안');
    await drawer.getByRole('tab', { name: '콘텐츠' }).click();
    await drawer.getByLabel('대표 문구', { exact: true }).fill('연말 스케일링 1회 무료');

    // Esc asks; 계속 편집 keeps the drawer and what was typed.
    await page.keyboard.press('Escape');
    await expect.poll(() => question(page).isVisible(), WAIT).toBe(true);
    expect(await drawer.isVisible()).toBe(true);
    await settled(page);
    await screenshot(page, 'e2e-landing-editor-close-asks', { fullPage: false });
    await question(page).getByRole('button', { name: '계속 편집' }).click();
    await expect.poll(() => question(page).count(), WAIT).toBe(0);
    expect(await drawer.isVisible()).toBe(true);
    expect(await title.inputValue()).toBe('연말 스케일링 이벤트 초안');

    // 닫기 asks too; closing anyway closes.
    await drawer.locator('.ant-drawer-body').getByRole('button', { name: '닫기', exact: true }).click();
    await expect.poll(() => question(page).isVisible(), WAIT).toBe(true);
    await question(page).getByRole('button', { name: '닫기', exact: true }).click();
    await expect.poll(() => drawer.isVisible(), WAIT).toBe(false);
    expect(new URL(page.url()).searchParams.get('edit')).toBeNull();

    // Opened again, even after a reload, the editor offers the unsaved work back.
    await page.reload();
    await page.getByRole('button', { name: '랜딩 만들기' }).click();
    const offer = drawer.locator('.ant-alert', { hasText: '저장하지 않고 닫은 내용이 있습니다' });
    await expect.poll(() => offer.isVisible(), WAIT).toBe(true);
    expect(await title.inputValue()).toBe('');
    await settled(page);
    await screenshot(page, 'e2e-landing-editor-draft-offer', { fullPage: false });
    await offer.getByRole('button', { name: '되살리기' }).click();
    await expect.poll(() => title.inputValue(), WAIT).toBe('연말 스케일링 이벤트 초안');
    expect(await drawer.getByLabel('대표 문구', { exact: true }).inputValue()).toBe('연말 스케일링 1회 무료');
    const preview = page.frameLocator('iframe[title="랜딩 미리보기"]');
    await expect.poll(() => preview.getByRole('heading', { name: '연말 스케일링 1회 무료' }).isVisible(), WAIT).toBe(true);

    // Restored work is unsaved work: Esc asks. Discarded, the next opening is empty and closes at once.
    await page.keyboard.press('Escape');
    await expect.poll(() => question(page).isVisible(), WAIT).toBe(true);
    await question(page).getByRole('button', { name: '닫기', exact: true }).click();
    await expect.poll(() => drawer.isVisible(), WAIT).toBe(false);
    await page.getByRole('button', { name: '랜딩 만들기' }).click();
    await expect.poll(() => offer.isVisible(), WAIT).toBe(true);
    await offer.getByRole('button', { name: '버리기' }).click();
    await expect.poll(() => offer.count(), WAIT).toBe(0);
    expect(await title.inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible(), WAIT).toBe(false);
    await page.getByRole('button', { name: '랜딩 만들기' }).click();
    await expect.poll(() => title.isVisible(), WAIT).toBe(true);
    expect(await offer.count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible(), WAIT).toBe(false);
    await page.context().close();
  });

  it('asks before a modal form with changes closes', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    await page.goto('/client-type-setting');
    await page.getByRole('button', { name: /등록$/ }).first().click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('이름').isVisible(), WAIT).toBe(true);
    await dialog.getByLabel('이름').fill('프랜차이즈');
    await dialog.getByRole('button', { name: '취소' }).click();
    await expect.poll(() => question(page).isVisible(), WAIT).toBe(true);
    await question(page).getByRole('button', { name: '계속 편집' }).click();
    await expect.poll(() => question(page).count(), WAIT).toBe(0);
    expect(await dialog.getByLabel('이름').inputValue()).toBe('프랜차이즈');
    await page.keyboard.press('Escape');
    await expect.poll(() => question(page).isVisible(), WAIT).toBe(true);
    await settled(page);
    await screenshot(page, 'e2e-resource-form-close-asks', { fullPage: false });
    await question(page).getByRole('button', { name: '닫기', exact: true }).click();
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), WAIT).toBe(0);
    await page.context().close();
  });
});

describe('appointments and the calendar', () => {
  it('offers no day or hour already past in the appointment picker', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await enterShop(page, 'marketer');
    await page.goto('/database-status?from=2026-01-01');
    const row = page.locator('.ant-table-row').first();
    await expect.poll(() => row.isVisible(), WAIT).toBe(true);
    await row.getByRole('combobox', { name: '상담 상태' }).click();
    await page.locator('.ant-select-dropdown:visible').getByText('상담예약', { exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '상담예약 시간' });
    await expect.poll(() => dialog.isVisible(), WAIT).toBe(true);
    await dialog.getByRole('textbox').click();
    const popup = page.locator('.ant-picker-dropdown:visible');
    await expect.poll(() => popup.count(), WAIT).toBe(1);

    const today = seoulDay(new Date());
    const yesterday = addDays(today, -1);
    const cell = (day: string) => popup.locator(`td[title="${day}"]`);
    // The panel starts on the week of the 1st: a month beginning on Sunday shows no day before it.
    if ((await cell(yesterday).count()) === 0) await popup.locator('.ant-picker-header-prev-btn').click();
    await expect.poll(() => cell(yesterday).getAttribute('class'), WAIT).toContain('ant-picker-cell-disabled');
    if ((await cell(today).count()) === 0) await popup.locator('.ant-picker-header-next-btn').click();
    expect(await cell(addDays(today, 1)).first().getAttribute('class')).not.toContain('ant-picker-cell-disabled');

    // Today's hours before this one are off (midnight has none before it; after 23:50 today is over).
    const [hour, minute] = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'Asia/Seoul' })
      .format(new Date())
      .split(':')
      .map(Number) as [number, number];
    if (hour < 23 || minute <= 50) {
      expect(await cell(today).getAttribute('class')).not.toContain('ant-picker-cell-disabled');
      await cell(today).click();
      const hours = popup.locator('.ant-picker-time-panel-column').first().locator('li');
      await expect.poll(() => hours.count(), WAIT).toBe(24);
      if (hour > 0) expect(await hours.nth(hour - 1).getAttribute('class')).toContain('ant-picker-time-panel-cell-disabled');
      if (hour < 23) expect(await hours.nth(hour + 1).getAttribute('class')).not.toContain('ant-picker-time-panel-cell-disabled');
      await settled(page);
      await screenshot(page, 'e2e-appointment-picker', { fullPage: false });
      // Today taken as it comes: the time is the first one still ahead, not midnight.
      await popup.getByRole('button', { name: '확인' }).click();
      const picked = await dialog.getByRole('textbox').inputValue();
      expect(picked.slice(0, 10)).toBe(today);
      expect(picked.slice(11) >= `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`).toBe(true);
    }
    await page.context().close();
  });

  it('shows the appointments of the next month’s days in this month’s grid', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    const shopId = await enterShop(page, 'marketer');
    const today = seoulDay(new Date());
    const nextFirst = `${addDays(`${today.slice(0, 7)}-28`, 7).slice(0, 7)}-01`;
    // A lead booked at 10:00 on the 1st of next month, through the product's own API.
    const booked = await page.evaluate(
      async ({ shopId, reservedAt }) => {
        const list = await (await fetch(`/api/shops/${shopId}/leads?from=2026-01-01&pageSize=1`)).json();
        const lead = list.items[0] as { id: number; name: string };
        const res = await fetch(`/api/shops/${shopId}/leads/${lead.id}`, {
          method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ csStatus: '상담예약', reservedAt }),
        });
        return res.ok ? lead.name : `PATCH ${res.status} ${await res.text()}`;
      },
      { shopId, reservedAt: `${nextFirst}T10:00:00+09:00` },
    );
    expect(booked).not.toMatch(/^PATCH/);

    await page.goto('/database-calendar');
    const calendar = page.locator('.ant-picker-calendar');
    await expect.poll(() => calendar.isVisible(), WAIT).toBe(true);
    // The next month's 1st is greyed in this month's grid, with its appointment.
    const first = calendar.locator(`.ant-picker-cell[title="${nextFirst}"]`);
    expect(await first.getAttribute('class')).not.toContain('ant-picker-cell-in-view');
    await expect.poll(() => first.innerText(), WAIT).toContain(booked);
    expect(await first.innerText()).toContain('10:00');
    await settled(page);
    await screenshot(page, 'e2e-database-calendar-next-month-days');
    await page.context().close();
  });

  it('opens another month on its 1st, and this month on today', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await enterShop(page, 'marketer');
    const today = seoulDay(new Date());
    const nextFirst = `${addDays(`${today.slice(0, 7)}-28`, 7).slice(0, 7)}-01`;
    await page.goto('/database-calendar');
    const calendar = page.locator('.ant-picker-calendar');
    await expect.poll(() => calendar.locator('.ant-picker-cell-selected').getAttribute('title'), WAIT).toBe(today);

    await page.getByRole('button', { name: '다음 달' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('day'), WAIT).toBe(nextFirst);
    await expect.poll(() => calendar.locator('.ant-picker-cell-selected').getAttribute('title'), WAIT).toBe(nextFirst);
    const dayPanel = page.locator('.lr-cal-day');
    await expect.poll(() => dayPanel.locator('.ant-card-head-title').innerText(), WAIT).toContain(`${Number(nextFirst.slice(5, 7))}월 1일`);

    // Back to this month: today, where it is.
    await page.getByRole('button', { name: '이전 달' }).click();
    await expect.poll(() => calendar.locator('.ant-picker-cell-selected').getAttribute('title'), WAIT).toBe(today);
    expect(new URL(page.url()).searchParams.get('day')).toBeNull();
    await page.context().close();
  });
});

describe('an import not run', () => {
  it('says when it will be cancelled, and is cancelled from the list with its file deleted', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await enterShop(page, 'marketer');
    await page.goto('/data-insertion?tab=import');
    const csv = Buffer.from('\ufeff고객명,휴대폰\r\n박람회일,010-2468-0001\r\n박람회이,010-2468-0002\r\n');
    await page.locator('input[type=file]').setInputFiles({ name: '박람회 명단.csv', mimeType: 'text/csv', buffer: csv });
    await expect.poll(() => page.getByText('박람회 명단.csv — 2행').isVisible(), WAIT).toBe(true);
    const notice = page.locator('.ant-alert', { hasText: '까지 가져오지 않으면 이 가져오기는 자동으로 취소되고' });
    await expect.poll(() => notice.isVisible(), WAIT).toBe(true);
    const id = Number(new URL(page.url()).searchParams.get('import'));
    const files = () => fs.readdirSync(path.join(e2e.product.dataDir, 'imports'));
    expect(files()).toContain(String(id));

    const row = page.locator('.ant-table-row', { hasText: '박람회 명단.csv' });
    await expect.poll(() => row.innerText(), WAIT).toContain('항목 연결 대기');
    await settled(page);
    await screenshot(page, 'e2e-data-insertion-waiting');
    await row.getByRole('button', { name: '취소' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '가져오기 취소' }).click();
    await expect.poll(() => row.innerText(), WAIT).toContain('취소됨');
    expect(await row.getByRole('button', { name: '취소' }).count()).toBe(0);
    // The open import says so; the file is gone from the disk.
    await expect.poll(() => page.getByText('취소된 가져오기입니다').isVisible(), WAIT).toBe(true);
    expect(files()).not.toContain(String(id));
    await settled(page);
    await screenshot(page, 'e2e-data-insertion-cancelled');
    await page.context().close();
  });
});

