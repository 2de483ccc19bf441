import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, TEST_PASSWORD, createAccount, createShop, testApp, type TestApp } from '../../test-helpers.ts';
import { BACKGROUND_HEADER } from '../../../contracts/http.ts';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(async () => {
  await t.close();
});

describe('health', () => {
  it('reports the database engine', async () => {
    const res = await t.anonymous.get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ database: { dialect: process.env.LR_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite', reachable: true } });
  });
});

describe('login', () => {
  it('answers the account and sets an HttpOnly SameSite session cookie', async () => {
    const res = await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.account).toMatchObject({ loginId: 'admin', accountTypeName: '최고관리자', area: 'admin', home: '/dashboard' });
    expect(body.account.passwordHash).toBeUndefined();
    const cookie = res.cookies.find((c) => c.name === 'lr_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const me = await t.anonymous.request('GET', '/api/auth/me', undefined, { cookie: `lr_session=${cookie.value}` });
    expect(me.statusCode).toBe(200);
    expect(me.json().account.loginId).toBe('admin');
  });

  it('gives the same 401 for a wrong password and an unknown id', async () => {
    const wrong = await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: 'nope-nope-1' });
    const unknown = await t.anonymous.post('/api/auth/login', { loginId: 'ghost', password: 'nope-nope-1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.any(String) });
  });

  it('rejects an empty body with field errors', async () => {
    const res = await t.anonymous.post('/api/auth/login', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ message: '아이디를 입력하세요.', fields: { loginId: '아이디를 입력하세요.', password: '비밀번호를 입력하세요.' } });
  });

  it('locks after five failures for thirty minutes without telling a guesser which ids exist', async () => {
    const attempt = (loginId: string, password: string) => t.anonymous.post('/api/auth/login', { loginId, password });
    const unknown = await attempt('ghost', 'wrong-pass-1');
    for (let i = 0; i < 5; i++) {
      const res = await attempt('admin', 'wrong-pass-1');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(unknown.json());
    }
    expect(unknown.json().error.message).toContain('5번 틀리면 계정이 30분 동안 잠기고');
    t.clock.advanceMinutes(29);
    expect((await attempt('admin', ADMIN_PASSWORD)).json()).toEqual(unknown.json());
    t.clock.advanceMinutes(2);
    expect((await attempt('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('answers a locked account the same whether or not the password is right', async () => {
    const attempt = (password: string) => t.anonymous.post('/api/auth/login', { loginId: 'admin', password });
    for (let i = 0; i < 5; i++) await attempt('wrong-pass-1');
    const wrong = await attempt('wrong-pass-2');
    const right = await attempt(ADMIN_PASSWORD);
    expect([wrong.statusCode, right.statusCode]).toEqual([401, 401]);
    expect(right.json()).toEqual(wrong.json());
    expect(right.headers['content-length']).toBe(wrong.headers['content-length']);
    expect(right.cookies).toEqual([]);
    // Guesses during the lock neither extend it nor count toward the next one.
    const row = await t.app.db.selectFrom('accounts').select(['failed_logins', 'status']).where('login_id', '=', 'admin').executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_logins: 5, status: 'locked' });
  });

  it('counts every one of twenty parallel wrong passwords and locks the account', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => t.anonymous.post('/api/auth/login', { loginId: 'admin', password: 'wrong-pass-1' })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(401));
    const row = await t.app.db.selectFrom('accounts').select(['failed_logins', 'status', 'locked_until']).where('login_id', '=', 'admin').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ failed_logins: 5, status: 'locked', locked_until: expect.any(String) });
    const events = await t.app.db.selectFrom('audit_events').select('action').where('action', 'in', ['login-failed', 'login-locked']).execute();
    expect(events.filter((e) => e.action === 'login-locked')).toHaveLength(1);
    expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(401);
  });

  it('answers a disabled account the same whether or not the password is right', async () => {
    const admin = await t.login();
    const types = (await admin.get('/api/account-types/options')).json().items as Array<{ id: number; name: string }>;
    const created = await admin.post('/api/accounts', { loginId: 'mkim', password: 'Test!pass123', name: '김', accountTypeId: types.find((x) => x.name === '마케터')!.id });
    await admin.put(`/api/accounts/${created.json().id}`, { name: '김', accountTypeId: created.json().accountTypeId, status: 'disabled' });
    const wrong = await t.anonymous.post('/api/auth/login', { loginId: 'mkim', password: 'wrong-pass-1' });
    const right = await t.anonymous.post('/api/auth/login', { loginId: 'mkim', password: 'Test!pass123' });
    const unknown = await t.anonymous.post('/api/auth/login', { loginId: 'ghost', password: 'Test!pass123' });
    expect([wrong.statusCode, right.statusCode]).toEqual([401, 401]);
    expect(right.json()).toEqual(wrong.json());
    expect(right.json()).toEqual(unknown.json());
  });
});

describe('the session in one answer', () => {
  it('answers the account with its permissions and the shops it may enter; without a session, 401', async () => {
    const admin = await t.login();
    const a = await createShop(admin, 'shop-a');
    const b = await createShop(admin, 'shop-b');
    const owner = await createAccount(admin, 'owner', '업체관리자');
    await admin.put(`/api/shop-permissions/${owner}`, { shopIds: [b] });

    const mine = (await admin.get('/api/auth/session')).json();
    expect(mine.account).toMatchObject({ loginId: 'admin', area: 'admin', home: '/dashboard' });
    expect(mine.account.permissions.dashboard).toBe('write');
    expect(mine.shops.map((s: { id: number }) => s.id).sort()).toEqual([a, b].sort());

    const ownerSession = (await (await t.login('owner', TEST_PASSWORD)).get('/api/auth/session')).json();
    expect(ownerSession.account).toMatchObject({ loginId: 'owner', area: 'shop' });
    expect(ownerSession.shops).toEqual([{ id: b, shopCode: 'shop-b', name: '업체 shop-b', status: 'active' }]);

    const none = await t.anonymous.get('/api/auth/session');
    expect(none.statusCode).toBe(401);
    expect(none.headers['cache-control']).toContain('no-store');
  });
});

describe('own password', () => {
  const NEW = 'Fresh!pass2026';

  it('ends every other session of the account, keeping the one that changed it', async () => {
    const a = await t.login();
    const b = await t.login();
    const res = await a.post('/api/auth/password', { currentPassword: ADMIN_PASSWORD, newPassword: NEW });
    expect(res.statusCode).toBe(204);
    expect((await a.get('/api/auth/me')).statusCode).toBe(200);
    expect((await b.get('/api/auth/me')).statusCode).toBe(401);
    expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(401);
    expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: NEW })).statusCode).toBe(200);
  });

  it('counts wrong current passwords toward the lockout', async () => {
    const a = await t.login();
    for (let i = 0; i < 4; i++) {
      const res = await a.post('/api/auth/password', { currentPassword: 'wrong-pass-1', newPassword: NEW });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({ currentPassword: '현재 비밀번호가 올바르지 않습니다.' });
    }
    const fifth = await a.post('/api/auth/password', { currentPassword: 'wrong-pass-1', newPassword: NEW });
    expect(fifth.statusCode).toBe(423);
    expect((await a.get('/api/auth/me')).statusCode).toBe(401);
    expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(401);
  });

  it('refuses a weak or unchanged new password with a message on its field', async () => {
    const a = await t.login();
    expect((await a.post('/api/auth/password', { currentPassword: ADMIN_PASSWORD, newPassword: 'short' })).json().error.fields).toHaveProperty('newPassword');
    const same = await a.post('/api/auth/password', { currentPassword: ADMIN_PASSWORD, newPassword: ADMIN_PASSWORD });
    expect(same.json().error.fields).toEqual({ newPassword: '지금 쓰는 비밀번호와 다른 비밀번호를 정하세요.' });
    expect((await a.post('/api/auth/password', {})).json().error.fields).toEqual({ currentPassword: '현재 비밀번호를 입력하세요.', newPassword: '비밀번호를 입력하세요.' });
  });

  it('is rate-limited per address', async () => {
    await t.close();
    t = await testApp({ loginRateLimit: 3 });
    const res = await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD });
    const a = t.anonymous;
    const cookie = `lr_session=${res.cookies.find((c) => c.name === 'lr_session')!.value}`;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await a.request('POST', '/api/auth/password', { currentPassword: 'x', newPassword: NEW }, { cookie })).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});

describe('a generated or reset password', () => {
  it('must be replaced before any screen answers', async () => {
    await t.close();
    const said: string[] = [];
    t = await testApp({ initialAdminPassword: undefined }, { onSeed: (m) => said.push(m) });
    const password = /admin \/ (\S+)/.exec(said.join('\n'))![1]!;
    const login = await t.anonymous.post('/api/auth/login', { loginId: 'admin', password });
    expect(login.json().account.mustChangePassword).toBe(true);
    const c = { cookie: `lr_session=${login.cookies.find((x) => x.name === 'lr_session')!.value}` };
    const dashboard = await t.anonymous.request('GET', '/api/dashboard', undefined, c);
    expect(dashboard.statusCode).toBe(403);
    expect(dashboard.json().error.code).toBe('PASSWORD_CHANGE_REQUIRED');
    expect((await t.anonymous.request('GET', '/api/auth/me', undefined, c)).statusCode).toBe(200);
    expect((await t.anonymous.request('POST', '/api/auth/password', { currentPassword: password, newPassword: 'Fresh!pass2026' }, c)).statusCode).toBe(204);
    expect((await t.anonymous.request('GET', '/api/auth/me', undefined, c)).json().account.mustChangePassword).toBe(false);
    expect((await t.anonymous.request('GET', '/api/dashboard', undefined, c)).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('expire after 60 idle minutes', async () => {
    const c = await t.login();
    t.clock.advanceMinutes(59);
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
    t.clock.advanceMinutes(59);
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
    t.clock.advanceMinutes(61);
    expect((await c.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('are not kept alive by the back office\'s background refreshes', async () => {
    const c = await t.login();
    const refresh = () => c.request('GET', '/api/auth/me', undefined, { [BACKGROUND_HEADER]: '1' });
    for (let i = 0; i < 5; i++) {
      t.clock.advanceMinutes(11);
      expect((await refresh()).statusCode).toBe(200);
    }
    t.clock.advanceMinutes(6); // 61 minutes since the last request of the person
    expect((await refresh()).statusCode).toBe(401);
    expect((await c.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('expire 12 hours after login however active', async () => {
    const c = await t.login();
    for (let i = 0; i < 12; i++) {
      t.clock.advanceMinutes(55);
      expect((await c.get('/api/auth/me')).statusCode).toBe(200);
    }
    t.clock.advanceMinutes(61);
    expect((await c.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('die server-side on logout', async () => {
    const c = await t.login();
    expect((await c.post('/api/auth/logout')).statusCode).toBe(204);
    expect((await c.get('/api/auth/me')).statusCode).toBe(401);
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request from another origin', async () => {
    const c = await t.login();
    const res = await c.request('POST', '/api/auth/logout', {}, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('CSRF');
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
    const login = await t.anonymous.request('POST', '/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD }, { origin: 'https://evil.example' });
    expect(login.statusCode).toBe(403);
  });

  it('compares the whole origin: scheme, host and port', async () => {
    const c = await t.login();
    // The request is http://localhost (tests' Host: localhost:80).
    for (const origin of ['https://localhost', 'http://localhost:8080']) {
      const res = await c.request('POST', '/api/auth/logout', undefined, { origin });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json().error.code).toBe('CSRF');
    }
    expect((await c.request('POST', '/api/auth/logout', undefined, { origin: 'http://localhost', referer: 'https://localhost/dashboard' })).statusCode).toBe(204);
  });

  it('takes the scheme from X-Forwarded-Proto only behind a trusted proxy', async () => {
    const c = await t.login();
    // As nginx passes it: Host without a port, the scheme in X-Forwarded-Proto.
    const tls = { host: 'localhost', origin: 'https://localhost', 'x-forwarded-proto': 'https' };
    expect((await c.request('POST', '/api/auth/logout', undefined, tls)).statusCode).toBe(403);
    await t.close();
    t = await testApp({ trustProxy: 1 });
    const behind = await t.login();
    // A page on http:// of the same host may not act on the https back office.
    expect((await behind.request('POST', '/api/auth/logout', undefined, { ...tls, origin: 'http://localhost' })).statusCode).toBe(403);
    expect((await behind.request('POST', '/api/auth/logout', undefined, tls)).statusCode).toBe(204);
  });
});

describe('the session cookie', () => {
  const tls = { host: 'localhost', origin: 'https://localhost', 'x-forwarded-proto': 'https' };
  const secureOf = async (headers: Record<string, string>) => {
    const res = await t.anonymous.request('POST', '/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD }, headers);
    expect(res.statusCode).toBe(200);
    return res.cookies.find((x) => x.name === 'lr_session')!.secure ?? false;
  };

  it('is Secure when the browser talks https: a trusted proxy says so, or the public pages are https', async () => {
    expect(await secureOf({})).toBe(false);
    // Without a trusted proxy the header is anyone's writing.
    expect(await secureOf(tls).catch(() => 'refused')).toBe('refused');
    await t.close();
    t = await testApp({ trustProxy: 1 });
    expect(await secureOf(tls)).toBe(true);
    expect(await secureOf({})).toBe(false);
    await t.close();
    t = await testApp({ publicOrigin: 'https://lp.example.com' });
    expect(await secureOf({})).toBe(true);
  });

  it('is cleared at logout with the attributes it was set with', async () => {
    await t.close();
    t = await testApp({ trustProxy: 1 });
    const login = await t.anonymous.request('POST', '/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD }, tls);
    const cookie = `lr_session=${login.cookies.find((x) => x.name === 'lr_session')!.value}`;
    const out = await t.anonymous.request('POST', '/api/auth/logout', undefined, { ...tls, cookie });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((x) => x.name === 'lr_session')).toMatchObject({ value: '', secure: true, httpOnly: true, path: '/' });
  });
});

describe('request basics', () => {
  it('ignores X-Forwarded-Host unless behind a trusted proxy', async () => {
    const c = await t.login();
    // A page on evil.example cannot pass the origin check by naming its own host as the forwarded one.
    const forged = await c.request('POST', '/api/auth/logout', undefined, { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' });
    expect(forged.statusCode).toBe(403);
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
    await t.close();
    t = await testApp({ trustProxy: 1 });
    const behind = await t.login();
    const viaProxy = await behind.request('POST', '/api/auth/logout', undefined, { origin: 'https://office.example', 'x-forwarded-host': 'office.example', 'x-forwarded-proto': 'https' });
    expect(viaProxy.statusCode).toBe(204);
  });

  it('refuses state changes from a sibling origin of the same site', async () => {
    const c = await t.login();
    const res = await c.request('POST', '/api/auth/logout', undefined, { 'sec-fetch-site': 'same-site', origin: 'http://localhost:80' });
    expect(res.statusCode).toBe(403);
  });

  it('accepts an empty body on a body-less action whatever its content type', async () => {
    for (const type of ['application/json', 'text/plain', 'application/octet-stream']) {
      const c = await t.login();
      const res = await c.request('POST', '/api/auth/logout', undefined, { 'content-type': type });
      expect(res.statusCode, type).toBe(204);
    }
    const c = await t.login();
    const junk = await t.anonymous.request('POST', '/api/auth/login', 'abc', { 'content-type': 'application/octet-stream', cookie: c.cookie });
    expect(junk.statusCode).toBe(415);
    expect(junk.json().error.message).toMatch(/[가-힣]/);
  });

  it('marks every API answer, above all the authenticated ones, as not to be cached', async () => {
    const c = await t.login();
    const me = await c.get('/api/auth/me');
    expect(me.headers['cache-control']).toBe('no-store');
    expect(me.headers['strict-transport-security']).toContain('max-age=');
    expect((await t.anonymous.get('/api/nope')).headers['cache-control']).toBe('no-store');
  });
});

describe('errors', () => {
  it('answers JSON 404 for an unknown API path', async () => {
    const res = await t.anonymous.get('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});
