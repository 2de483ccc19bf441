// The foundation as a person meets it, in real Chromium against the built product.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENS } from '../contracts/screens.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, login, newPage, screenshot, setupProduct, walkTimeout } from './harness.ts';

const e2e = setupProduct();

async function fresh(): Promise<Page> {
  return (await newPage(e2e.browser, e2e.product.url)).page;
}

/** A side-menu entry, once the menu has rendered (count() itself does not wait). */
async function menuItem(page: Page, title: string) {
  await page.locator('.ant-menu').first().waitFor();
  return page.locator('.ant-menu').getByRole('link', { name: title, exact: true });
}

describe('guard and public paths', () => {
  it('sends /dashboard without a login to /, which renders nothing', async () => {
    const page = await fresh();
    await page.goto('/dashboard');
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.locator('#root').innerText()).toBe('');
  });

  it('opens a deep link in a new tab of a logged-in browser where it points, asking the server for the session', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    // A new tab: its sessionStorage is empty, the browser's session cookie is not.
    const tab = await context.newPage();
    const sessionAsks: string[] = [];
    tab.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/auth/')) sessionAsks.push(new URL(r.url()).pathname);
    });
    await tab.goto('/database-status');
    await tab.locator('.ant-table-row').first().waitFor({ timeout: 30_000 });
    expect(new URL(tab.url()).pathname).toBe('/database-status');
    expect(JSON.parse((await tab.evaluate(() => sessionStorage.getItem('loginAccount'))) ?? 'null')?.loginId).toBe('admin');
    // The account, its permissions and its shops came in one answer.
    expect(sessionAsks).toEqual(['/api/auth/session']);
    await context.close();
  });

  it('opens a screen on reload without its chunks\' Loading... fallback (the chunks are in before the first render)', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    // Every text the page ever shows, from its first node on (a fallback shown, then held back for
    // React's reveal throttle, idled the screen by hundreds of milliseconds).
    await context.addInitScript(() => {
      const seen: string[] = ((window as unknown as { __texts: string[] }).__texts = []);
      new MutationObserver(() => seen.push(document.body?.innerText ?? '')).observe(document, { childList: true, subtree: true, characterData: true });
    });
    for (const path of ['/advertising-status', '/dashboard']) {
      await page.goto(path);
      await page.reload();
      await page.locator('.ant-statistic-content-value').first().waitFor({ timeout: 30_000 });
      const texts = await page.evaluate(() => (window as unknown as { __texts: string[] }).__texts);
      expect(texts.length, path).toBeGreaterThan(0);
      expect(texts.filter((t) => t.includes('Loading...')), path).toEqual([]);
    }
    await context.close();
  });

  it('asks for a screen\'s data on reload as the page starts, once, not after its chunks', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    await page.goto('/advertising-status');
    await page.locator('.ant-statistic-content-value').first().waitFor({ timeout: 30_000 });
    // The tab keeps what this load asked for in its first moments.
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('leadroom.prefetch') ?? ''), { timeout: 15_000 }).toContain('/ad-spend?');
    await page.reload();
    await page.locator('.ant-statistic-content-value').first().waitFor({ timeout: 30_000 });
    const entries = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => ({ name: new URL(e.name).pathname, start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
    );
    const data = entries.filter((e) => e.name.endsWith('/ad-spend'));
    const chunk = entries.find((e) => /\/advertising-status-[\w-]+\.js$/.test(e.name));
    // One request, taken by the screen (not asked again), started before the screen's chunk was even in.
    expect(data, JSON.stringify(entries)).toHaveLength(1);
    expect(chunk, JSON.stringify(entries)).toBeDefined();
    expect(data[0]!.start).toBeLessThan(chunk!.end);
    await context.close();
  });

  it('shows the Korean 404 for an unknown path, whose button goes to /', async () => {
    const page = await fresh();
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByText('요청하신 주소의 페이지를 찾을 수 없습니다.').isVisible()).toBe(true);
    await expect.poll(() => page.locator('.ant-result-title').innerText()).toBe('404');
    await screenshot(page, 'e2e-404');
    await page.getByRole('button', { name: '처음 화면으로' }).click();
    await page.waitForURL((u) => u.pathname === '/');
  });

  it('answers JSON 404 for unknown API paths and a plain 404 for asset-like paths', async () => {
    const api = await fetch(`${e2e.product.url}/api/nope`);
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('NOT_FOUND');
    const asset = await fetch(`${e2e.product.url}/favicon.ico`);
    expect(asset.status).toBe(404);
    expect(asset.headers.get('content-type')).not.toContain('text/html');
  });
});

describe('login', () => {
  it('shows inline errors, then logs in, stores loginAccount and shows the dashboard', async () => {
    const page = await fresh();
    await page.goto('/bclog');
    await page.getByRole('button', { name: '로그인' }).click();
    await expect.poll(() => page.getByText('아이디를 입력하세요.').isVisible()).toBe(true);
    await page.getByLabel('아이디').fill('admin');
    await page.getByLabel('비밀번호').fill('wrong-password-1');
    await page.getByRole('button', { name: '로그인' }).click();
    await expect.poll(() => page.getByText('아이디 또는 비밀번호가 올바르지 않습니다.').isVisible()).toBe(true);
    await page.getByLabel('비밀번호').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: '로그인' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    const stored = JSON.parse((await page.evaluate(() => sessionStorage.getItem('loginAccount'))) ?? 'null');
    expect(stored).toMatchObject({ loginId: 'admin', accountTypeName: '최고관리자' });
    await expect.poll(() => page.getByText('오늘 접수 DB').isVisible()).toBe(true);
    await screenshot(page, 'e2e-dashboard');
  });

  it('sends a shop-area account to the shop dashboard with only its shops', async () => {
    const page = await fresh();
    await login(page, 'owner', DEMO_PASSWORD);
    expect(new URL(page.url()).pathname).toBe('/shop-dashboard');
    await page.locator('.ant-select').first().click();
    const options = await page.locator('.ant-select-item-option').allInnerTexts();
    expect(options).toEqual(['서울미소치과']);
    // No administrator menu for a shop-area type.
    expect(await (await menuItem(page, '업체 관리')).count()).toBe(0);
  });
});

describe('every path renders for 최고관리자', () => {
  const paths = ['/', '/bclog', ...SCREENS.map((s) => `/${s.key}`)];
  it('walks all 38 paths without the error page, and nothing a page does breaks its security policy', { timeout: walkTimeout(paths.length) }, async () => {
    const page = await fresh();
    // What the browser refused under the back office's CSP (a library's probe of eval, an inline
    // script): each is an error in the console and an event a security review would chase.
    const refused: string[] = [];
    await page.exposeFunction('cspRefused', (what: string) => refused.push(`${page.url()}: ${what}`));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { cspRefused: (s: string) => void }).cspRefused(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
      ),
    );
    await login(page);
    for (const path of paths) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      // Lazy chunks may still be arriving: wait for the screen, never the error page.
      await expect.poll(() => page.locator('body').innerText(), { message: path }).not.toContain('Loading...');
      expect(await page.locator('body').innerText(), path).not.toContain('Unexpected Application Error!');
      if (path.length > 1 && path !== '/bclog') {
        const title = SCREENS.find((s) => `/${s.key}` === path)!.title;
        await expect.poll(() => page.locator('header h1').innerText(), { message: path }).toBe(title);
      }
    }
    const landing = await fetch(`${e2e.product.url}/view/smile-dental/implant-event`);
    const privacy = await fetch(`${e2e.product.url}/view/smile-dental/implant-event/privacy`);
    for (const res of [landing, privacy]) {
      expect(res.status).toBeLessThan(500);
      expect(await res.text()).not.toContain('Unexpected Application Error!');
    }
    expect(paths.length + 2).toBe(38);
    expect(refused).toEqual([]);
  });
});

describe('administrator screens', () => {
  it('creates a shop and an account through the UI', async () => {
    const page = await fresh();
    await login(page);
    await page.goto('/client-setting');
    await page.getByRole('button', { name: '업체 등록' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('업체명').fill('강남바른한의원');
    await dialog.getByLabel('업체 코드').fill('Bad Code!');
    await dialog.getByLabel('사업자등록번호').fill('123-45-67890');
    await dialog.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => dialog.getByText('업체 코드는 영문 소문자·숫자·하이픈으로 40자 이내입니다.').isVisible()).toBe(true);
    await expect.poll(() => dialog.getByText('올바른 사업자등록번호가 아닙니다.').isVisible()).toBe(true);
    await dialog.getByLabel('업체 코드').fill('barun-clinic');
    await dialog.getByLabel('사업자등록번호').fill('107-86-16321');
    await dialog.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => page.getByRole('cell', { name: '강남바른한의원' }).isVisible()).toBe(true);
    await screenshot(page, 'e2e-client-setting');

    await page.goto('/account-setting');
    await page.getByRole('button', { name: '계정 등록' }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel('아이디').fill('kim.counsel');
    await form.getByLabel('초기 비밀번호').fill('short');
    await form.getByLabel('이름').fill('김상담');
    await form.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => form.getByText(/10자 이상/).first().isVisible()).toBe(true);
    await form.getByLabel('초기 비밀번호').fill('Counsel-2026!');
    await form.getByLabel('계정 유형').click();
    await page.locator('.ant-select-item-option', { hasText: '상담원' }).click();
    await form.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'kim.counsel' }).isVisible()).toBe(true);

    // The new account can log in with the password just set.
    const other = await fresh();
    await login(other, 'kim.counsel', 'Counsel-2026!');
    expect(new URL(other.url()).pathname).toBe('/shop-dashboard');
  });

  it('taking a screen from an account type hides its menu entry and the server refuses it', async () => {
    const manager = await fresh();
    await login(manager, 'manager', DEMO_PASSWORD);
    expect(await (await menuItem(manager, '접근 차단')).count()).toBe(1);

    const admin = await fresh();
    await login(admin);
    await admin.goto('/permission-setting');
    await admin.locator('.ant-segmented').getByText('관리자', { exact: true }).click();
    await admin.getByRole('radiogroup', { name: '접근 차단 권한' }).getByText('없음').click();
    await admin.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => admin.getByText(/권한을 저장했습니다/).isVisible()).toBe(true);
    await screenshot(admin, 'e2e-permission-setting');

    // The server refuses at once; the menu follows as soon as the back office asks the server again.
    const status = await manager.evaluate(async () => (await fetch('/api/deny-rules')).status);
    expect(status).toBe(403);
    await manager.reload();
    await expect.poll(async () => (await menuItem(manager, '접근 차단')).count()).toBe(0);
    expect(await (await menuItem(manager, '업체 관리')).count()).toBe(1);
    await manager.goto('/access-deny-setting');
    await expect.poll(() => manager.locator('.ant-result-title').innerText()).toBe('403');
  });

  it('logs out back to /bclog and the session is dead', async () => {
    const page = await fresh();
    await login(page);
    // Open the account menu (a click can be lost while the shell is still settling). After a
    // click the menu is given time to open, so a second click never closes a menu on its way in.
    const logout = page.getByRole('menuitem', { name: '로그아웃' });
    await expect
      .poll(async () => {
        if (!(await logout.isVisible())) {
          await page.locator('header').getByRole('button', { name: /최고관리자/ }).click();
          await logout.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => {});
        }
        return logout.isVisible();
      })
      .toBe(true);
    await logout.click();
    await page.waitForURL((u) => u.pathname === '/bclog');
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => sessionStorage.getItem('loginAccount'))).toBeNull();
    expect(await page.evaluate(async () => (await fetch('/api/auth/me')).status)).toBe(401);
    await page.goto('/dashboard');
    await page.waitForURL((u) => u.pathname === '/');
  });

  it('a 401 from the API clears loginAccount and returns to /bclog', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product.url);
    await login(page);
    await context.clearCookies();
    await page.goto('/client-setting');
    await page.waitForURL((u) => u.pathname === '/bclog');
    expect(await page.evaluate(() => sessionStorage.getItem('loginAccount'))).toBeNull();
  });

  it('refreshes an unattended dashboard in the background, as requests that do not keep the session alive', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await page.clock.install();
    await login(page);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await page.getByText('오늘 접수').first().waitFor();
    const refreshes: Array<{ path: string; background: string | undefined }> = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/dashboard' || path === '/api/auth/session') refreshes.push({ path, background: r.headers()['x-lr-background'] });
    });
    await page.clock.runFor(61_000);
    await expect.poll(() => refreshes.map((r) => r.path).sort()).toEqual(['/api/auth/session', '/api/dashboard']);
    expect(refreshes.every((r) => r.background === '1')).toBe(true);
  });
});
