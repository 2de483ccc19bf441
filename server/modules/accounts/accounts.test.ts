import { describe, expect, it } from 'vitest';
import { eachTestApp, TEST_PASSWORD, createAccount, createShop, typeIdByName, type Client, type TestApp } from '../../test-helpers.ts';
import { accountsService } from './accounts.service.ts';
import type { Actor } from '../audit/audit.service.ts';

let t: TestApp;
let admin: Client;
eachTestApp((app, client) => {
  t = app;
  admin = client;
});

const login = (loginId: string, password = TEST_PASSWORD) => t.anonymous.post('/api/auth/login', { loginId, password });
const sessionsOf = async (accountId: number) =>
  (await t.app.db.selectFrom('sessions').select('id').where('account_id', '=', accountId).execute()).length;
const adminId = async () => (await admin.get('/api/auth/me')).json().account.id as number;
const update = async (c: Client, id: number, patch: Record<string, unknown>) => {
  const cur = (await c.get(`/api/accounts/${id}`)).json();
  return c.put(`/api/accounts/${id}`, { name: cur.name, phone: cur.phone, email: cur.email, accountTypeId: cur.accountTypeId, ...patch });
};

describe('accounts list', () => {
  it('pages, filters and sorts', async () => {
    await createAccount(admin, 'mkim', '마케터', { name: '김마케', email: 'mkim@example.com' });
    await createAccount(admin, 'clee', '상담원', { name: '이상담' });
    const park = await createAccount(admin, 'park', '상담원', { name: '박상담' });
    await update(admin, park, { status: 'disabled' });

    const all = (await admin.get('/api/accounts')).json();
    expect(all.total).toBe(4);
    expect(all.items.map((a: { loginId: string }) => a.loginId)).toEqual(['admin', 'clee', 'mkim', 'park']);
    expect(all.items[0]).not.toHaveProperty('passwordHash');

    const page = (await admin.get('/api/accounts?page=2&pageSize=3&sort=-loginId')).json();
    expect(page).toMatchObject({ total: 4, items: [{ loginId: 'admin' }] });

    const counselors = (await admin.get(`/api/accounts?accountTypeId=${await typeIdByName(admin, '상담원')}`)).json();
    expect(counselors.items.map((a: { loginId: string }) => a.loginId)).toEqual(['clee', 'park']);
    expect((await admin.get('/api/accounts?status=disabled')).json().items.map((a: { loginId: string }) => a.loginId)).toEqual(['park']);
    expect((await admin.get(`/api/accounts?q=${encodeURIComponent('상담')}`)).json().total).toBe(2);
    expect((await admin.get('/api/accounts?q=mkim@')).json().items[0].loginId).toBe('mkim');
    expect((await admin.get('/api/accounts?sort=-name')).json().items[0].name).toBe('최고관리자');
    expect((await admin.get('/api/accounts?status=gone')).statusCode).toBe(400);
  });
});

describe('account create', () => {
  it('creates an account that can log in, with a normalised phone', async () => {
    const res = await admin.post('/api/accounts', {
      loginId: 'new.user', password: TEST_PASSWORD, name: '신규', phone: '010-1234-5678', email: '',
      accountTypeId: await typeIdByName(admin, '마케터'),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ loginId: 'new.user', phone: '01012345678', email: null, accountTypeName: '마케터', status: 'active', shopCount: 0 });
    expect((await login('new.user')).statusCode).toBe(200);
    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'detail']).where('action', '=', 'account.create').executeTakeFirstOrThrow();
    expect(audit.detail).not.toContain(TEST_PASSWORD);
  });

  it('answers 400 with fields for a bad id, weak password, phone and e-mail', async () => {
    const res = await admin.post('/api/accounts', { loginId: 'A', password: 'short', name: '', phone: '123', email: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.fields)).toEqual(expect.arrayContaining(['loginId', 'password', 'name', 'phone', 'email', 'accountTypeId']));
    const unknownType = await admin.post('/api/accounts', { loginId: 'valid', password: TEST_PASSWORD, name: 'x', accountTypeId: 999 });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().error.fields).toHaveProperty('accountTypeId');
  });

  it('answers 409 on a taken login id', async () => {
    await createAccount(admin, 'taken', '마케터');
    const res = await admin.post('/api/accounts', { loginId: 'taken', password: TEST_PASSWORD, name: 'x', accountTypeId: await typeIdByName(admin, '상담원') });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.fields).toEqual({ loginId: expect.any(String) });
  });

  it('lets only a 최고관리자 grant the 최고관리자 type', async () => {
    await createAccount(admin, 'manager', '관리자');
    const manager = await t.login('manager', TEST_PASSWORD);
    const res = await manager.post('/api/accounts', { loginId: 'boss', password: TEST_PASSWORD, name: 'x', accountTypeId: await typeIdByName(admin, '최고관리자') });
    expect(res.statusCode).toBe(403);
  });
});

describe('account update', () => {
  it('changes details and type, and counts shop permissions', async () => {
    const id = await createAccount(admin, 'mkim', '마케터');
    const res = await update(admin, id, { name: '김수정', phone: '02-555-0100', accountTypeId: await typeIdByName(admin, '상담원') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: '김수정', phone: '025550100', accountTypeName: '상담원' });
    const shop = await createShop(admin, 'shop-a');
    await admin.put(`/api/shop-permissions/${id}`, { shopIds: [shop] });
    expect((await admin.get(`/api/accounts/${id}`)).json().shopCount).toBe(1);
    expect((await admin.get('/api/accounts/9999')).statusCode).toBe(404);
  });

  it('disabling ends the account’s sessions; enabling lets it in again', async () => {
    const id = await createAccount(admin, 'mkim', '마케터');
    const kim = await t.login('mkim', TEST_PASSWORD);
    expect(await sessionsOf(id)).toBe(1);
    const res = await update(admin, id, { status: 'disabled' });
    expect(res.json().status).toBe('disabled');
    expect(await sessionsOf(id)).toBe(0);
    expect((await kim.get('/api/auth/me')).statusCode).toBe(401);
    // Disabled: the right password gets the refusal a wrong one gets.
    expect((await login('mkim')).json()).toEqual((await login('mkim', 'wrong-pass-1')).json());
    expect((await login('mkim')).statusCode).toBe(401);
    expect((await update(admin, id, { status: 'active' })).json().status).toBe('active');
    expect((await login('mkim')).statusCode).toBe(200);
  });

  it('refuses to let an account disable or demote itself', async () => {
    const self = await adminId();
    const disable = await update(admin, self, { status: 'disabled' });
    expect(disable.statusCode).toBe(409);
    expect(disable.json().error.fields).toHaveProperty('status');
    const demote = await update(admin, self, { accountTypeId: await typeIdByName(admin, '관리자') });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error.fields).toHaveProperty('accountTypeId');
    expect((await update(admin, self, { name: '대표' })).statusCode).toBe(200);
  });
});

describe('the last 최고관리자', () => {
  it('cannot be disabled, locked or moved to another type', async () => {
    const self = await adminId();
    await createAccount(admin, 'manager', '관리자');
    const manager = await t.login('manager', TEST_PASSWORD);
    const disable = await update(manager, self, { status: 'disabled' });
    expect(disable.statusCode).toBe(409);
    expect(disable.json().error.fields).toHaveProperty('status');
    const move = await update(manager, self, { accountTypeId: await typeIdByName(admin, '관리자') });
    expect(move.statusCode).toBe(409);
    expect(move.json().error.fields).toHaveProperty('accountTypeId');
    expect((await manager.post(`/api/accounts/${self}/lock`)).statusCode).toBe(409);
    expect((await admin.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('is only the last one: with a second, one may be disabled — by a 최고관리자', async () => {
    const self = await adminId();
    const boss = await createAccount(admin, 'boss', '최고관리자');
    await createAccount(admin, 'manager', '관리자');
    const manager = await t.login('manager', TEST_PASSWORD);
    // A 관리자 may not touch 최고관리자 accounts at all (not even their passwords).
    expect((await update(manager, boss, { status: 'disabled' })).statusCode).toBe(403);
    expect((await manager.post(`/api/accounts/${boss}/reset-password`, { password: 'Taken0ver!pw' })).statusCode).toBe(403);
    const bossClient = await t.login('boss', TEST_PASSWORD);
    expect((await update(bossClient, self, { status: 'disabled' })).statusCode).toBe(200);
    // Now boss is the last one.
    expect((await update(manager, boss, { status: 'disabled' })).statusCode).toBe(409);
  });

  it('survives two 최고관리자 disabling each other at the same moment: one wins, the other is refused', async () => {
    // Straight at the service (an HTTP request of the loser would meet its ended session first).
    const self = await adminId();
    const boss = await createAccount(admin, 'boss', '최고관리자');
    const service = accountsService(t.app.db, t.app.clock);
    const actor = async (id: number): Promise<Actor> => {
      const a = await service.get(id);
      return { id, loginId: a.loginId, accountTypeId: a.accountTypeId, superadmin: true, scope: 'all', side: 'agency', canUnmask: true, canExport: true, ip: '127.0.0.1' };
    };
    const disable = async (id: number) => {
      const a = await service.get(id);
      return { name: a.name, phone: a.phone, email: a.email, accountTypeId: a.accountTypeId, status: 'disabled' as const };
    };
    const [toBoss, toSelf, bySelf, byBoss] = [await disable(boss), await disable(self), await actor(self), await actor(boss)];
    const results = await Promise.allSettled([service.update(boss, toBoss, bySelf), service.update(self, toSelf, byBoss)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409 });
    const active = await t.app.db
      .selectFrom('accounts').innerJoin('account_types', 'account_types.id', 'accounts.account_type_id')
      .select('accounts.id').where('account_types.builtin_key', '=', 'superadmin').where('accounts.status', '=', 'active').execute();
    expect(active).toHaveLength(1);
  });
});

describe('password reset, lock and unlock', () => {
  async function lockOut(loginId: string) {
    for (let i = 0; i < 5; i++) await login(loginId, 'wrong-pass-1');
    // Locked: even the right password gets the refusal a wrong one gets.
    expect((await login(loginId)).statusCode).toBe(401);
  }

  it('unlocks an account locked by five bad logins', async () => {
    const id = await createAccount(admin, 'mkim', '마케터');
    await lockOut('mkim');
    expect((await admin.get(`/api/accounts/${id}`)).json()).toMatchObject({ status: 'locked', failedLogins: 5, lockedUntil: expect.any(String) });
    const res = await admin.post(`/api/accounts/${id}/unlock`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', failedLogins: 0, lockedUntil: null });
    expect((await login('mkim')).statusCode).toBe(200);
  });

  it('resets a password: lifts the lock and ends sessions', async () => {
    const id = await createAccount(admin, 'mkim', '마케터');
    const kim = await t.login('mkim', TEST_PASSWORD);
    await lockOut('mkim');
    const weak = await admin.post(`/api/accounts/${id}/reset-password`, { password: 'abc' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields).toHaveProperty('password');
    const res = await admin.post(`/api/accounts/${id}/reset-password`, { password: 'Brand!new123' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', failedLogins: 0 });
    expect((await kim.get('/api/auth/me')).statusCode).toBe(401);
    expect((await login('mkim')).statusCode).toBe(401);
    const fresh = await login('mkim', 'Brand!new123');
    expect(fresh.statusCode).toBe(200);
    // A password an administrator chose is temporary: the owner picks their own first.
    expect(fresh.json().account.mustChangePassword).toBe(true);
  });

  it('gives a one-time password from the console to whoever lost theirs', async () => {
    const id = await createAccount(admin, 'mkim', '마케터');
    const kim = await t.login('mkim', TEST_PASSWORD);
    await lockOut('mkim');
    const service = accountsService(t.app.db, t.clock.now);
    const { loginId, password } = await service.resetFromConsole('mkim');
    expect(loginId).toBe('mkim');
    expect((await kim.get('/api/auth/me')).statusCode).toBe(401);
    const res = await login('mkim', password);
    expect(res.statusCode).toBe(200);
    expect(res.json().account.mustChangePassword).toBe(true);
    expect((await service.resetFromConsole(undefined)).loginId).toBe('admin');
    await expect(service.resetFromConsole('ghost')).rejects.toMatchObject({ status: 404 });
    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'target_id', 'detail']).where('action', '=', 'account.reset-password').execute();
    expect(audit[0]).toMatchObject({ target_id: String(id), detail: expect.stringContaining('console') });
  });

  it('locks an account for thirty minutes and ends its sessions', async () => {
    const id = await createAccount(admin, 'mkim', '마케터');
    const kim = await t.login('mkim', TEST_PASSWORD);
    const res = await admin.post(`/api/accounts/${id}/lock`);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('locked');
    expect(await sessionsOf(id)).toBe(0);
    expect((await kim.get('/api/auth/me')).statusCode).toBe(401);
    expect((await login('mkim')).statusCode).toBe(401);
    t.clock.advanceMinutes(31);
    expect((await login('mkim')).statusCode).toBe(200);
    expect((await admin.post(`/api/accounts/${await adminId()}/lock`)).statusCode).toBe(409);
  });

  it('does not unlock a disabled account', async () => {
    const id = await createAccount(admin, 'mkim', '마케터');
    await update(admin, id, { status: 'disabled' });
    expect((await admin.post(`/api/accounts/${id}/unlock`)).statusCode).toBe(409);
    expect((await admin.post(`/api/accounts/${id}/lock`)).statusCode).toBe(409);
  });
});

describe('shops of a new account', () => {
  it('gives a shop-area account the shops chosen on its form, and an administrator none (it enters every shop)', async () => {
    const a = await createShop(admin, 'alpha');
    const b = await createShop(admin, 'bravo');
    const marketer = await createAccount(admin, 'mkim', '마케터', { shopIds: [a, b] });
    expect((await admin.get(`/api/accounts/${marketer}`)).json().shopCount).toBe(2);
    const kim = await t.login('mkim', TEST_PASSWORD);
    expect((await kim.get('/api/auth/shops')).json().items.map((s: { id: number }) => s.id).sort()).toEqual([a, b].sort());
    const manager = await createAccount(admin, 'jmgr', '관리자', { shopIds: [a] });
    expect((await admin.get(`/api/accounts/${manager}`)).json().shopCount).toBe(0);
  });

  it('refuses an unknown shop and creates nothing', async () => {
    const res = await admin.post('/api/accounts', { loginId: 'mkim', password: TEST_PASSWORD, name: '김', accountTypeId: await typeIdByName(admin, '마케터'), shopIds: [999] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('shopIds');
    expect((await admin.get('/api/accounts?q=mkim')).json().total).toBe(0);
  });
});

describe('access', () => {
  it('needs the account-setting screen', async () => {
    await createAccount(admin, 'mkim', '마케터');
    const kim = await t.login('mkim', TEST_PASSWORD);
    expect((await kim.get('/api/accounts')).statusCode).toBe(403);
    expect((await t.anonymous.get('/api/accounts')).statusCode).toBe(401);
  });
});
