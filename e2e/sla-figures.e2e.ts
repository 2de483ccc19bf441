// Speed to lead, measured, as people see it on the demo: the agency's administrator finds the
// demo shops ranked by SLA met on 대시보드; the demo 업체관리자 finds the 응답 SLA card with its
// figures and the distribution chart on 업체 대시보드, and 상담 통계's 응답 SLA tab with the tables
// per counselor, landing, medium and hour and the re-route reasons — at 1440×900 and 390×844.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, still, TEST_MS, WAIT } from './harness.ts';

const e2e = setupProduct();
const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function as(loginId: string | undefined, viewport: { width: number; height: number }): Promise<Page> {
  const { page } = await newPage(e2e.browser, e2e.product.url, { viewport });
  await (loginId ? login(page, loginId, DEMO_PASSWORD) : login(page));
  return page;
}

/** One card alone, as the page shows it (a phone's full page is too tall to read in one picture). */
async function cardShot(page: Page, l: Locator, name: string) {
  await l.scrollIntoViewIfNeeded();
  await still(page, name);
  await l.screenshot({ path: path.join('screenshots', `${name}.png`) });
}

/** The text of the card titled `title`, once it has rendered a figure or a table. */
const card = (page: Page, title: string) => page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) }).first();

describe('speed to lead, measured', () => {
  for (const size of SIZES) {
    it(`ranks the shops by SLA met on 대시보드, and shows the shop its SLA card and 응답 SLA tab (${size.name})`, { timeout: TEST_MS }, async () => {
      const admin = await as(undefined, size.viewport);
      await admin.goto('/dashboard');
      const ranking = card(admin, '응답 SLA 준수율 순위');
      await expect.poll(() => ranking.locator('tbody tr.ant-table-row').count(), WAIT).toBe(2);
      const rows = await ranking.locator('tbody tr.ant-table-row').allInnerTexts();
      expect(rows.join('\n')).toMatch(/서울미소치과/);
      expect(rows.join('\n')).toMatch(/한빛손해보험 강남지점/);
      expect(rows[0]).toMatch(/^1\s/);
      await ranking.scrollIntoViewIfNeeded();
      await screenshot(admin, `sla-dashboard-${size.name}`);
      await cardShot(admin, ranking, `sla-dashboard-card-${size.name}`);
      await admin.context().close();

      const owner = await as('owner', size.viewport);
      await owner.goto('/shop-dashboard');
      const sla = card(owner, '응답 SLA (최근 30일)');
      await expect.poll(() => sla.innerText(), WAIT).toMatch(/SLA 준수율\s*\n?\s*\d+(\.\d)?%/);
      expect(await sla.innerText()).toMatch(/첫 연락 중앙값[\s\S]*분/);
      await expect.poll(() => sla.locator('canvas').count(), WAIT).toBeGreaterThan(0);
      await screenshot(owner, `sla-shop-dashboard-${size.name}`);
      await cardShot(owner, sla, `sla-shop-dashboard-card-${size.name}`);

      await sla.getByRole('link', { name: '상담 통계에서 자세히' }).click();
      await expect.poll(() => new URL(owner.url()).search, WAIT).toBe('?tab=sla');
      const counselors = card(owner, '상담원별');
      await expect.poll(() => counselors.locator('tbody tr.ant-table-row').count(), WAIT).toBeGreaterThan(1);
      expect(await counselors.innerText()).toMatch(/오상담/);
      await expect.poll(() => card(owner, '기한 준수').innerText(), WAIT).toMatch(/기한 경과 → 다음 상담원에게 재배분/);
      await expect.poll(() => card(owner, '접수 시간대별').locator('tbody tr.ant-table-row').count(), WAIT).toBeGreaterThan(3);
      await expect.poll(() => card(owner, '첫 연락까지 걸린 시간 분포').locator('canvas').count(), WAIT).toBeGreaterThan(0);
      await screenshot(owner, `sla-cs-stats-${size.name}`);
      await cardShot(owner, card(owner, '기한 준수'), `sla-cs-stats-figures-${size.name}`);
      await cardShot(owner, counselors, `sla-cs-stats-counselors-${size.name}`);
      await owner.context().close();
    });
  }
});
