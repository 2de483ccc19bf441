// A/B experiments end to end in real Chromium against the built product: a marketer reads the demo
// experiments (on another landing), creates variant B and edits it in the variant editor (headline,
// button colour, hero image, its form: a field of A's removed, one of its own added first), is warned
// of the field the privacy policy does not name, and starts it at 50/50; twenty fresh visitors see
// both variants (B's with its colour, hero and form) and each keeps theirs on reload; a visitor of
// each sends their variant's form;
// 랜딩 현황's experiment screen splits the leads by variant; the marketer promotes B and the
// public page shows B's headline to everyone.
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MIN_FILL_MS } from '../contracts/intake.ts';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, TEST_MS, WAIT } from './harness.ts';
import { gradientPng } from '../server/db/demo-landings.ts';

const e2e = setupProduct();
const LANDING = '/view/smile-dental/implant-event';
const A_HEADLINE = '임플란트, 이제 부담 없이 시작하세요';
const B_HEADLINE = '임플란트 상담, 오늘 신청하면 CT 무료';
/** B's button colour, as the page's computed style gives it. */
const B_PRIMARY = { hex: 'C2410C', rgb: 'rgb(194, 65, 12)' };

/** A fresh visitor on a phone (a browser of their own: distinct user agents, as phones are). */
const visitor = (browser: Browser, n: number) =>
  newPage(browser, e2e.product.url, {
    viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
    userAgent: `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${n} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${n} Mobile/15E148 Safari/604.1`,
  });

describe('landing experiments', () => {
  it('a marketer runs variant B at 50/50, visitors keep their variant, leads split by variant, and promoting B changes the page', { timeout: TEST_MS * 2 }, async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page, 'marketer', DEMO_PASSWORD);
    await page.goto('/landing-status');
    // The demo's experiments run on the insurance shop's landing.
    const pickShop = async (name: string) => {
      await page.getByLabel('현재 업체').click();
      await page.locator('.ant-select-item-option', { hasText: name }).click();
    };
    await pickShop('한빛손해보험 강남지점');
    await page.locator('tr', { hasText: 'free-checkup' }).getByRole('button', { name: 'A/B 실험' }).click();
    const drawer = page.locator('.ant-drawer');
    // The demo's running experiment (too little data) and its finished one (a clear winner).
    await expect.poll(() => drawer.getByText('아직 데이터가 부족합니다').first().isVisible(), WAIT).toBe(true);
    await expect.poll(() => drawer.getByText('B안이 이겼습니다').isVisible(), WAIT).toBe(true);
    expect(await drawer.getByText('B안이 가장 좋을 확률이 99.9% 이상입니다. B안을 채택해도 좋습니다.').isVisible()).toBe(true);
    await drawer.locator('.ant-card').first().locator('[role=img] canvas').waitFor();
    await screenshot(page, 'e2e-experiments-demo', { fullPage: false });
    await drawer.locator('.ant-card').nth(1).scrollIntoViewIfNeeded();
    await screenshot(page, 'e2e-experiments-finished', { fullPage: false });

    // On the implant landing, which runs none: a new one, B with another headline.
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible(), WAIT).toBe(false);
    await pickShop('서울미소치과');
    await page.locator('tr', { hasText: 'implant-event' }).getByRole('button', { name: 'A/B 실험' }).click();
    await expect.poll(() => drawer.getByRole('button', { name: '실험 만들기' }).isVisible(), WAIT).toBe(true);
    await drawer.getByLabel('새 실험 이름').fill('대표 문구 실험 2');
    await drawer.getByRole('button', { name: '실험 만들기' }).click();
    await expect.poll(() => drawer.getByRole('button', { name: 'B안 내용 편집' }).isVisible(), WAIT).toBe(true);

    // B's content in the variant editor: the landing editor's content tab and form builder, with a live preview.
    await drawer.getByRole('button', { name: 'B안 내용 편집' }).click();
    const editor = page.locator('.ant-drawer', { hasText: 'B안 내용 편집' });
    await editor.getByLabel('대표 문구', { exact: true }).fill(B_HEADLINE);
    await editor.locator('#variant-editor-B_content_colors_primary').click();
    const hex = page.locator('.ant-color-picker-input input').last();
    await hex.fill(B_PRIMARY.hex);
    await hex.press('Enter');
    await editor.getByLabel('대표 문구', { exact: true }).click();
    await expect.poll(() => editor.getByRole('button', { name: `강조색 (버튼) #${B_PRIMARY.hex.toLowerCase()}` }).isVisible(), WAIT).toBe(true);
    // The hero through the landing's upload route (the demo's is 1200×630 too: wait for the new file).
    const thumbnail = editor.locator('img[src^="/uploads/"]').first();
    const aHero = await thumbnail.getAttribute('src');
    await editor.locator('input[type=file]').setInputFiles({ name: 'b-hero.png', mimeType: 'image/png', buffer: await gradientPng([194, 65, 12], [253, 186, 116]) });
    await expect.poll(() => thumbnail.getAttribute('src'), WAIT).not.toBe(aHero);
    const bHero = (await thumbnail.getAttribute('src'))!.replace(/\.\w+$/, '');
    await editor.getByLabel('대체 텍스트').fill('CT 무료 안내');
    // The preview shows B as its visitors will get it.
    const preview = editor.frameLocator('iframe[title="랜딩 미리보기"]');
    await expect.poll(() => preview.locator('h1').innerText().catch(() => ''), WAIT).toBe(B_HEADLINE);
    await expect.poll(() => preview.locator('img.hero').getAttribute('alt', { timeout: 1000 }).catch(() => ''), WAIT).toBe('CT 무료 안내');
    expect(await preview.locator('img.hero').getAttribute('src')).toContain(bHero);
    await screenshot(page, 'e2e-experiments-variant-content', { fullPage: false });
    // The colours with the landing editor's contrast check.
    const contrast = editor.getByRole('region', { name: '색상 명암비' });
    await contrast.scrollIntoViewIfNeeded();
    expect(await contrast.innerText()).toMatch(/글자색 · 배경색 \d+\.\d:1/);
    await screenshot(page, 'e2e-experiments-variant-colors', { fullPage: false });

    // B's form: 관심 진료 (required in A) removed; 희망 지점, its own and required, asked first.
    await editor.getByRole('tab', { name: '신청 양식' }).click();
    await editor.getByRole('button', { name: '추가 항목 1 삭제' }).click();
    await editor.getByRole('button', { name: /항목 추가/ }).click();
    await editor.locator('#variant-editor-B_formFields_2_label').fill('희망 지점');
    await editor.locator('#variant-editor-B_formFields_2_key').fill('branch');
    await editor.getByLabel('추가 항목 3 필수').check();
    await editor.getByRole('button', { name: '추가 항목 3 위로' }).click();
    await editor.getByRole('button', { name: '추가 항목 2 위로' }).click();
    await expect.poll(() => preview.locator('form [name]:is(input, select):not([type=hidden])').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('name')))].filter((n) => n !== 'website').slice(0, 5)), WAIT)
      .toEqual(['name', 'phone', 'branch', 'callTime', 'symptoms']);
    await screenshot(page, 'e2e-experiments-variant-form', { fullPage: false });
    await editor.getByRole('button', { name: '저장', exact: true }).click();
    await expect.poll(() => editor.count(), WAIT).toBe(0);
    // Saved: the card sums B up, and warns (as publishing does) of the field the policy does not name.
    await expect.poll(() => drawer.getByText(B_HEADLINE).isVisible(), WAIT).toBe(true);
    expect(await drawer.getByText("'희망 지점'이 개인정보 처리방침의 수집 항목에 없습니다.", { exact: false }).isVisible()).toBe(true);
    await screenshot(page, 'e2e-experiments-draft', { fullPage: false });
    expect(await drawer.locator('#weight-A').inputValue()).toBe('50');
    expect(await drawer.locator('#weight-B').inputValue()).toBe('50');
    await drawer.getByRole('button', { name: '저장하고 시작' }).click();
    await expect.poll(() => drawer.getByRole('button', { name: 'B안 채택하고 종료' }).isVisible(), WAIT).toBe(true);

    // Twenty fresh visitors: both headlines are shown, and a reload keeps each visitor's.
    const seen: Record<string, number> = {};
    const sent = new Set<string>();
    for (let n = 0; n < 20; n++) {
      const v = await visitor(e2e.browser, n);
      await v.page.goto(LANDING);
      const headline = (await v.page.locator('h1').innerText()).trim();
      expect([A_HEADLINE, B_HEADLINE]).toContain(headline);
      // B's visitors get B's colour, hero and form; A's the landing's.
      const isB = headline === B_HEADLINE;
      expect(await v.page.locator('button[type=submit]').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(isB ? B_PRIMARY.rgb : 'rgb(14, 124, 134)');
      expect(await v.page.locator('img.hero[alt="CT 무료 안내"]').count()).toBe(isB ? 1 : 0);
      expect(await v.page.locator('input[name=branch]').count()).toBe(isB ? 1 : 0);
      expect(await v.page.locator('select[name=treatment]').count()).toBe(isB ? 0 : 1);
      seen[headline] = (seen[headline] ?? 0) + 1;
      await v.page.reload();
      expect((await v.page.locator('h1').innerText()).trim()).toBe(headline);
      // The first visitor of each variant sends the form.
      if (!sent.has(headline)) {
        sent.add(headline);
        const openedAt = Date.now();
        await v.page.locator('input[name=name]').fill(headline === A_HEADLINE ? '김에이' : '이비안');
        await v.page.locator('input[name=phone]').fill(headline === A_HEADLINE ? '010-4100-0001' : '010-4200-0002');
        // Each variant's own form: 관심 진료 on A's, 희망 지점 on B's (where 관심 진료 is not asked).
        if (headline === A_HEADLINE) await v.page.locator('select[name=treatment]').selectOption('임플란트');
        else await v.page.locator('input[name=branch]').fill('강남점');
        await v.page.locator('input[name=privacyConsent]').check();
        const wait = openedAt + MIN_FILL_MS + 300 - Date.now();
        if (wait > 0) await v.page.waitForTimeout(wait);
        await v.page.locator('button[type=submit]').click();
        await expect.poll(() => v.page.locator('#ok').isVisible(), WAIT).toBe(true);
      }
      await v.context.close();
    }
    expect(Object.keys(seen).sort()).toEqual([B_HEADLINE, A_HEADLINE].sort());

    // 랜딩 현황's experiment screen: the leads split by variant (one each), the visits counted (by the
    // beacon, at most 10 a minute from one address: these visitors share 127.0.0.1).
    await page.reload();
    const results = drawer.locator('.ant-card').first().locator('tbody tr.ant-table-row');
    const leadsOf = (i: number) => results.nth(i).locator('td').nth(3).innerText();
    await expect.poll(async () => [await leadsOf(0), await leadsOf(1)], WAIT).toEqual(['1', '1']);
    const visitsOf = async (i: number) => Number(await results.nth(i).locator('td').nth(2).innerText());
    await expect.poll(async () => Math.min(await visitsOf(0), await visitsOf(1)), WAIT).toBeGreaterThan(0);
    await drawer.locator('.ant-card').first().locator('[role=img] canvas').waitFor();
    await screenshot(page, 'e2e-experiments-running', { fullPage: false });

    // Promote B: the landing's page shows B's headline to everyone, at the same address.
    await drawer.getByRole('button', { name: 'B안 채택하고 종료' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '확인' }).click();
    await expect.poll(() => drawer.locator('.ant-card').first().getByText('채택', { exact: true }).isVisible(), WAIT).toBe(true);
    for (let n = 30; n < 33; n++) {
      const v = await visitor(e2e.browser, n);
      await expect
        .poll(async () => {
          await v.page.goto(LANDING);
          return (await v.page.locator('h1').innerText()).trim();
        }, WAIT)
        .toBe(B_HEADLINE);
      await v.context.close();
    }
    await page.context().close();
  });
});
