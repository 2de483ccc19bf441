// Accessibility: axe-core over every back-office screen of the catalogue, the login page and
// the forms that open over a screen (a modal, the landing editor's drawer), in real Chromium.
// Fails on any serious or critical violation, and on a screen without its one h1 or main landmark.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { SCREENS, type Screen } from '../contracts/screens.ts';
import { allows, BUILTIN_ACCOUNT_TYPES } from '../contracts/permissions.ts';
import { addDays, seoulDay } from '../contracts/kst.ts';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, still, WAIT_MS, walkTimeout } from './harness.ts';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
// Moderate by axe's scale, but the issue asks every screen for them: one h1 (its title) and a main landmark.
const REQUIRED_RULES = new Set(['page-has-heading-one', 'landmark-one-main']);

interface Finding {
  where: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
  /** For colour contrast: `fg on bg = ratio` of each failing node (axe's own measurement). */
  pairs?: string[];
}

/** Every finding of the run, printed as counts per rule at the end (the before/after figure). */
const all: Finding[] = [];

afterAll(() => {
  const counts = new Map<string, number>();
  for (const f of all) counts.set(`${f.impact.padEnd(8)} ${f.rule}`, (counts.get(`${f.impact.padEnd(8)} ${f.rule}`) ?? 0) + 1);
  const lines = [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${String(n).padStart(3)} × ${k}`);
  const pairs = new Map<string, { n: number; example: string }>();
  for (const f of all) {
    f.pairs?.forEach((p, i) => {
      const seen = pairs.get(p) ?? { n: 0, example: `${f.where}: ${f.targets[i]!.slice(-70)}` };
      pairs.set(p, { ...seen, n: seen.n + 1 });
    });
  }
  const pairLines = [...pairs].sort((a, b) => b[1].n - a[1].n).map(([k, { n, example }]) => `  ${String(n).padStart(4)} × ${k}  (e.g. ${example})`);
  console.log(`axe findings by rule (screens affected):\n${lines.join('\n') || '  none'}`);
  if (pairLines.length) console.log(`colour pairs below the minimum (nodes):\n${pairLines.join('\n')}`);
});

const e2e = setupProduct();

const open: BrowserContext[] = [];
// A shop screen keeps a live event stream open: each test closes its pages.
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function fresh(loginId?: string, password?: string, options: Parameters<typeof newPage>[2] = {}): Promise<Page> {
  // The back office's CSP allows no inline script: axe is injected as one.
  const { context, page } = await newPage(e2e.browser, e2e.product.url, { bypassCSP: true, ...options });
  open.push(context);
  if (loginId) {
    await login(page, loginId, password);
    await page.waitForLoadState('networkidle');
  }
  return page;
}

/** Waits until the screen shows its data: no lazy chunk pending, no spinner or skeleton, network quiet. */
async function settle(page: Page, what: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('body').innerText(), { message: what, timeout: WAIT_MS }).not.toContain('Loading...');
  await expect
    .poll(() => page.locator('.ant-spin-spinning:visible, .ant-skeleton:visible, .ant-table-placeholder .ant-spin:visible').count(), { message: what, timeout: WAIT_MS })
    .toBe(0);
  // antd's motion (fade-ins, tab ink): axe measures colours as drawn.
  await still(page, what);
  expect(await page.locator('body').innerText(), what).not.toContain('Unexpected Application Error!');
}

/** Runs axe on the page (or only inside `include`) and returns its violations as findings. */
async function axe(page: Page, where: string, include?: string): Promise<Finding[]> {
  // axe reads colours as drawn: a message still fading in (antd's motion classes, CSS
  // animations) would be measured half transparent. Wait until nothing moves.
  await expect
    .poll(
      () => page.evaluate(() =>
        document.getAnimations().filter((a) => a.playState === 'running').length +
        document.querySelectorAll('[class*="-appear-active"], [class*="-enter-active"], [class*="-leave-active"]').length),
      { message: `${where}: animations`, timeout: WAIT_MS },
    )
    .toBe(0);
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(
    async ({ tags, include }) => {
      type Node = { target: unknown[]; any: Array<{ data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }> };
      const w = window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Node[] }> }> } };
      const result = await w.axe.run(include ? { include: [include] } : document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      const pair = (n: Node) => {
        const d = n.any.find((c) => c.data?.fgColor)?.data;
        return d ? `${d.fgColor} on ${d.bgColor} = ${d.contrastRatio}` : null;
      };
      return result.violations.map((v) => ({
        id: v.id, impact: v.impact ?? 'minor', help: v.help, targets: v.nodes.map((n) => n.target.map(String).join(' ')),
        pairs: v.id === 'color-contrast' ? v.nodes.map((n) => pair(n) ?? '?') : undefined,
      }));
    },
    { tags: TAGS, include },
  );
  const found = violations.map((v) => ({ where, rule: v.id, impact: v.impact, help: v.help, targets: v.targets, pairs: v.pairs }));
  all.push(...found);
  return found;
}

const blocking = (f: Finding) => f.impact === 'serious' || f.impact === 'critical' || REQUIRED_RULES.has(f.rule);

/** One line per blocking violation: the screen, the rule, its impact and the first few selectors. */
function report(findings: Finding[]): string[] {
  return findings
    .filter(blocking)
    .map((f) => `${f.where} · ${f.rule} (${f.impact}, ${f.targets.length}×): ${f.targets.slice(0, 4).join(' | ')}${f.targets.length > 4 ? ' …' : ''}`);
}

/** Opens each screen in turn as `page`'s account and collects what axe finds. */
async function walk(page: Page, screens: readonly Screen[], who: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const s of screens) {
    await page.goto(`/${s.key}`);
    await settle(page, `/${s.key}`);
    findings.push(...(await axe(page, `${who} /${s.key}`)));
    // The screen's title is its one h1 (in the page header).
    const h1 = await page.locator('h1').allInnerTexts();
    if (h1.length !== 1 || h1[0] !== s.title) {
      const f = { where: `${who} /${s.key}`, rule: 'h1-is-screen-title', impact: 'serious', help: 'one h1 with the screen title', targets: [JSON.stringify(h1)] };
      findings.push(f);
      all.push(f);
    }
  }
  return findings;
}

const count = (area: Screen['area']) => SCREENS.filter((s) => s.area === area).length;
const typeOf = (key: string) => BUILTIN_ACCOUNT_TYPES.find((t) => t.key === key)!;
const readable = (typeKey: string, area: Screen['area']) => SCREENS.filter((s) => s.area === area && allows(typeOf(typeKey).permissions, s.key, 'read'));

describe('axe-core on every back-office screen', () => {
  it('the login page, empty and with its inline errors', async () => {
    const page = await fresh();
    await page.goto('/bclog');
    await settle(page, '/bclog');
    expect(await page.locator('h1').count()).toBe(1);
    const found = await axe(page, '/bclog');
    await page.getByRole('button', { name: '로그인' }).click();
    await expect.poll(() => page.getByText('아이디를 입력하세요.').isVisible()).toBe(true);
    found.push(...(await axe(page, '/bclog (errors)')));
    expect(report(found)).toEqual([]);
  });

  it('every administrator screen as 최고관리자', { timeout: walkTimeout(count('admin')) }, async () => {
    const page = await fresh('admin');
    const screens = SCREENS.filter((s) => s.area === 'admin');
    expect(screens.length).toBeGreaterThan(10);
    const found = await walk(page, screens, 'admin');
    await screenshot(page, 'a11y-system-reservation');
    expect(report(found)).toEqual([]);
  });

  it('every shop screen as 최고관리자 (all write buttons shown)', { timeout: walkTimeout(count('shop')) }, async () => {
    const page = await fresh('admin');
    const found = await walk(page, SCREENS.filter((s) => s.area === 'shop'), 'admin');
    expect(report(found)).toEqual([]);
  });

  it('every shop screen the shop owner and a counselor may open, with their logins', { timeout: walkTimeout(2 * count('shop')) }, async () => {
    const owner = await fresh('owner', DEMO_PASSWORD);
    const ownerScreens = readable('shop-owner', 'shop');
    expect(ownerScreens.length).toBeGreaterThan(10);
    const found = await walk(owner, ownerScreens, 'owner');
    await owner.goto('/shop-dashboard');
    await settle(owner, '/shop-dashboard');
    await screenshot(owner, 'a11y-shop-dashboard');
    const counselor = await fresh('counselor', DEMO_PASSWORD);
    found.push(...(await walk(counselor, readable('counselor', 'shop'), 'counselor')));
    await counselor.goto('/database-status');
    await settle(counselor, '/database-status');
    await screenshot(counselor, 'a11y-database-status');
    expect(report(found)).toEqual([]);
  });

  it('DB 현황 on a counselor’s phone: the cards, and the drawer with its call and outcomes', async () => {
    const page = await fresh('counselor', DEMO_PASSWORD, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const today = seoulDay(new Date());
    await page.goto(`/database-status?from=${addDays(today, -29)}&to=${today}`);
    await settle(page, '/database-status (phone)');
    const card = page.locator('.lr-lead-card').first();
    await card.waitFor();
    const found = await axe(page, 'counselor /database-status (phone)');
    await card.click();
    await page.locator('.lr-call-panel').waitFor();
    await settle(page, '/database-status (phone drawer)');
    found.push(...(await axe(page, 'counselor /database-status (phone drawer)', '.ant-drawer-section')));
    await screenshot(page, 'a11y-phone-lead-drawer', { fullPage: false });
    expect(report(found)).toEqual([]);
  });

  it('상담 통계’s 응답 SLA tab, as the shop owner and a counselor', async () => {
    // The walks open each screen's first tab only.
    const found: Finding[] = [];
    for (const who of ['owner', 'counselor']) {
      const page = await fresh(who, DEMO_PASSWORD);
      await page.goto('/cs-stats?tab=sla');
      await settle(page, '/cs-stats?tab=sla');
      await expect.poll(() => page.locator('.ant-table-row').count(), { timeout: WAIT_MS }).toBeGreaterThan(0);
      found.push(...(await axe(page, `${who} /cs-stats?tab=sla`)));
    }
    expect(report(found)).toEqual([]);
  });

  it('DB 현황 with booked appointments: a time button is named by the time it shows', async () => {
    // The walks open today's leads, which may have no appointment: here a wide period of 상담예약 only.
    const page = await fresh('owner', DEMO_PASSWORD);
    const today = seoulDay(new Date());
    await page.goto(`/database-status?status=${encodeURIComponent('상담예약')}&from=${addDays(today, -59)}&to=${today}`);
    await settle(page, '/database-status (상담예약)');
    const shown = page.locator('.ant-table-row .ant-btn-link', { hasText: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/ });
    await expect.poll(() => shown.count()).toBeGreaterThan(0);
    const found = await axe(page, 'owner /database-status (상담예약)');
    expect(report(found)).toEqual([]);
    const time = await shown.first().innerText();
    await expect.poll(() => page.getByRole('button', { name: `${time}, 예약 시간 바꾸기` }).count()).toBeGreaterThan(0);
  });

  it('a modal form and the landing editor drawer', async () => {
    const page = await fresh('admin');
    await page.goto('/client-setting');
    await settle(page, '/client-setting');
    await page.getByRole('button', { name: '업체 등록' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('업체명').waitFor();
    await still(page);
    // Validation messages are text too: save empty to show them.
    await dialog.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => dialog.locator('.ant-form-item-explain-error').count()).toBeGreaterThan(0);
    const found = await axe(page, 'client-setting modal', '.ant-modal');
    await screenshot(page, 'a11y-client-modal', { fullPage: false });

    await page.goto('/landing-status');
    await settle(page, '/landing-status');
    await page.getByRole('button', { name: '편집' }).first().click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByLabel('랜딩 이름').waitFor();
    await settle(page, 'landing editor');
    found.push(...(await axe(page, 'landing editor · 기본 정보', '.ant-drawer')));
    await drawer.getByRole('tab', { name: '콘텐츠' }).click();
    await still(page);
    found.push(...(await axe(page, 'landing editor · 콘텐츠', '.ant-drawer')));
    expect(report(found)).toEqual([]);

    // The demo landing's colours pass; a light grey text colour is warned about, with its ratio.
    const contrast = drawer.getByRole('region', { name: '색상 명암비' });
    await contrast.scrollIntoViewIfNeeded();
    expect(await contrast.innerText()).toMatch(/글자색 · 배경색 \d+\.\d:1/);
    expect(await contrast.getByRole('alert').count()).toBe(0);
    await drawer.locator('#landing-editor_content_colors_text').click();
    const hex = page.locator('.ant-color-picker-input input').last();
    await hex.fill('AAAAAA');
    await hex.press('Enter');
    await expect.poll(() => contrast.getByRole('alert').innerText()).toContain('글자와 배경의 명암비 2.1:1 — 4.5:1 이상을 권장합니다.');
    await page.keyboard.press('Escape');
    await screenshot(page, 'a11y-landing-editor-contrast', { fullPage: false });
  });
});
