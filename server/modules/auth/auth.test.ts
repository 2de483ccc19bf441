import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, testApp, type TestApp } from '../../test-helpers.ts';
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
    expect(res.json()).toEqual({ status: 'ok', database: process.env.LR_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite' });
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

  it('locks after five failures for thirty minutes, and an administrator can unlock', async () => {
    for (let i = 0; i < 4; i++) expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: 'wrong-pass-1' })).statusCode).toBe(401);
    expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: 'wrong-pass-1' })).statusCode).toBe(423);
    // Even the right password is refused while locked.
    expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(423);
    t.clock.advanceMinutes(29);
    expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(423);
    t.clock.advanceMinutes(2);
    expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(200);
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
});

describe('errors', () => {
  it('answers JSON 404 for an unknown API path', async () => {
    const res = await t.anonymous.get('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});
