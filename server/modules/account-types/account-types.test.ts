import { describe, expect, it } from 'vitest';
import { eachTestApp, TEST_PASSWORD, createAccount, typeIdByName, type Client, type TestApp } from '../../test-helpers.ts';
import { SCREEN_KEYS } from '../../../contracts/screens.ts';

let t: TestApp;
let admin: Client;
eachTestApp((app, client) => {
  t = app;
  admin = client;
});

const newType = (name: string, extra: Record<string, unknown> = {}) =>
  admin.post('/api/account-types', { name, area: 'admin', dataScope: 'all', ...extra });

describe('account types list', () => {
  it('lists the built-in types in order, pages, filters and sorts', async () => {
    const all = (await admin.get('/api/account-types')).json();
    expect(all.total).toBe(5);
    expect(all.items.map((i: { name: string }) => i.name)).toEqual(['최고관리자', '관리자', '마케터', '업체관리자', '상담원']);
    expect(all.items[0]).toMatchObject({ builtinKey: 'superadmin', area: 'admin', usage: 1, active: true });

    const page2 = (await admin.get('/api/account-types?page=2&pageSize=2')).json();
    expect(page2).toMatchObject({ total: 5, items: [{ name: '마케터' }, { name: '업체관리자' }] });

    const filtered = (await admin.get(`/api/account-types?q=${encodeURIComponent('관리자')}`)).json();
    expect(filtered.items.map((i: { name: string }) => i.name)).toEqual(['최고관리자', '관리자', '업체관리자']);

    const byUsage = (await admin.get('/api/account-types?sort=-usage')).json();
    expect(byUsage.items[0].name).toBe('최고관리자');
    const byName = (await admin.get('/api/account-types?sort=-name')).json();
    expect(byName.items[0].name).toBe('최고관리자');
    expect(byName.items.at(-1).name).toBe('관리자');
  });

  it('rejects a bad page size with a field error', async () => {
    const res = await admin.get('/api/account-types?pageSize=1000');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('pageSize');
  });
});

describe('account type create / update / delete', () => {
  it('creates a type with no rights at all', async () => {
    const res = await newType('정산 담당', { area: 'shop', dataScope: 'assigned', sortOrder: 9 });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ name: '정산 담당', area: 'shop', dataScope: 'assigned', canUnmask: false, canExport: false, builtinKey: null, usage: 0, sortOrder: 9 });
    expect(Object.keys(body.permissions).sort()).toEqual([...SCREEN_KEYS].sort());
    expect(new Set(Object.values(body.permissions))).toEqual(new Set(['none']));
  });

  it('answers 400 with fields for an invalid body and 409 for a taken name', async () => {
    const bad = await admin.post('/api/account-types', { name: ' ', area: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)).toEqual(expect.arrayContaining(['name', 'area', 'dataScope']));

    const dup = await newType('관리자');
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.fields).toEqual({ name: expect.any(String) });
    const id = (await newType('임시')).json().id;
    const dupUpdate = await admin.put(`/api/account-types/${id}`, { name: '마케터', area: 'admin', dataScope: 'all' });
    expect(dupUpdate.statusCode).toBe(409);
  });

  it('updates a type; moving it to the shop area drops administrator screens', async () => {
    const id = (await newType('운영')).json().id;
    await admin.put(`/api/permissions/${id}`, { permissions: { 'client-setting': 'write', 'database-status': 'read' }, canUnmask: false, canExport: false });
    const res = await admin.put(`/api/account-types/${id}`, { name: '운영팀', area: 'shop', dataScope: 'all', sortOrder: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: '운영팀', area: 'shop', sortOrder: 3 });
    expect(res.json().permissions).toMatchObject({ 'client-setting': 'none', 'database-status': 'read' });
  });

  it('keeps the 최고관리자 type an active all-data administrator type', async () => {
    const id = await typeIdByName(admin, '최고관리자');
    const area = await admin.put(`/api/account-types/${id}`, { name: '최고관리자', area: 'shop', dataScope: 'all' });
    expect(area.statusCode).toBe(409);
    expect(area.json().error.fields).toHaveProperty('area');
    const inactive = await admin.put(`/api/account-types/${id}`, { name: '최고관리자', area: 'admin', dataScope: 'all', active: false });
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json().error.fields).toHaveProperty('active');
    const renamed = await admin.put(`/api/account-types/${id}`, { name: '대표 관리자', area: 'admin', dataScope: 'all' });
    expect(renamed.statusCode).toBe(200);
  });

  it('deletes an unused custom type only', async () => {
    const id = (await newType('임시')).json().id;
    expect((await admin.del(`/api/account-types/${id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/account-types/${id}`)).statusCode).toBe(404);
    expect((await admin.del(`/api/account-types/${id}`)).statusCode).toBe(404);

    const builtin = await admin.del(`/api/account-types/${await typeIdByName(admin, '상담원')}`);
    expect(builtin.statusCode).toBe(409);

    const used = (await newType('사용 중')).json().id;
    await createAccount(admin, 'user1', '사용 중');
    await createAccount(admin, 'user2', '사용 중');
    const inUse = await admin.del(`/api/account-types/${used}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.message).toContain('2개');
  });
});

describe('permission matrix', () => {
  it('lists every type with a complete matrix', async () => {
    const res = await admin.get('/api/permissions');
    expect(res.statusCode).toBe(200);
    const { items } = res.json();
    expect(items).toHaveLength(5);
    for (const item of items) expect(Object.keys(item.permissions).sort()).toEqual([...SCREEN_KEYS].sort());
  });

  it('saves one type’s row, normalised, with its personal-data rights', async () => {
    const id = (await newType('조회 전용')).json().id;
    const res = await admin.put(`/api/permissions/${id}`, {
      permissions: { dashboard: 'read', 'account-setting': 'write', 'no-such-screen': 'write' }, canUnmask: true, canExport: false,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ canUnmask: true, canExport: false });
    expect(body.permissions).toMatchObject({ dashboard: 'read', 'account-setting': 'write', 'client-setting': 'none' });
    expect(body.permissions).not.toHaveProperty('no-such-screen');

    const bad = await admin.put(`/api/permissions/${id}`, { permissions: { dashboard: 'admin' }, canUnmask: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)).toEqual(expect.arrayContaining(['permissions.dashboard', 'canUnmask', 'canExport']));
  });

  it('never gives a shop-area type an administrator screen', async () => {
    const id = await typeIdByName(admin, '마케터');
    const res = await admin.put(`/api/permissions/${id}`, { permissions: { 'client-setting': 'write', 'database-status': 'write' }, canUnmask: false, canExport: false });
    expect(res.json().permissions).toMatchObject({ 'client-setting': 'none', 'database-status': 'write' });
  });

  it('refuses to change the 최고관리자 row', async () => {
    const id = await typeIdByName(admin, '최고관리자');
    const res = await admin.put(`/api/permissions/${id}`, { permissions: {}, canUnmask: false, canExport: false });
    expect(res.statusCode).toBe(409);
    expect((await admin.get('/api/accounts')).statusCode).toBe(200);
  });

  it('is enforced: a type without a screen gets 403 on its API', async () => {
    const typeId = (await newType('대시보드만')).json().id;
    await admin.put(`/api/permissions/${typeId}`, { permissions: { dashboard: 'read', 'account-setting': 'read' }, canUnmask: false, canExport: false });
    await createAccount(admin, 'viewer', '대시보드만');
    const viewer = await t.login('viewer', TEST_PASSWORD);
    expect((await viewer.get('/api/accounts')).statusCode).toBe(200);
    const write = await viewer.post('/api/accounts', { loginId: 'other', password: TEST_PASSWORD, name: 'x', accountTypeId: typeId });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.code).toBe('FORBIDDEN');
    for (const url of ['/api/shops', '/api/deny-rules', '/api/shop-permissions', '/api/account-types', '/api/permissions']) {
      expect((await viewer.get(url)).statusCode, url).toBe(403);
    }
  });

  it('takes effect at once: without client-setting a 관리자 gets 403 on /api/shops', async () => {
    await createAccount(admin, 'manager', '관리자');
    const manager = await t.login('manager', TEST_PASSWORD);
    expect((await manager.get('/api/shops')).statusCode).toBe(200);
    // 관리자 may read the matrix but not change it.
    const managerTypeId = await typeIdByName(admin, '관리자');
    expect((await manager.get('/api/permissions')).statusCode).toBe(200);
    expect((await manager.put(`/api/permissions/${managerTypeId}`, { permissions: {}, canUnmask: false, canExport: false })).statusCode).toBe(403);

    const row = (await admin.get('/api/permissions')).json().items.find((i: { id: number }) => i.id === managerTypeId);
    const res = await admin.put(`/api/permissions/${managerTypeId}`, {
      permissions: { ...row.permissions, 'client-setting': 'none' }, canUnmask: row.canUnmask, canExport: row.canExport,
    });
    expect(res.statusCode).toBe(200);
    expect((await manager.get('/api/shops')).statusCode).toBe(403);
    expect((await manager.get('/api/accounts')).statusCode).toBe(200);
    expect((await manager.get('/api/auth/me')).json().account.permissions['client-setting']).toBe('none');
  });
});

describe('agency and client sides', () => {
  const row = async (name: string) => (await admin.get('/api/permissions')).json().items.find((i: { name: string }) => i.name === name);
  const save = (id: number, permissions: Record<string, string>) => admin.put(`/api/permissions/${id}`, { permissions, canUnmask: false, canExport: false });

  it('puts the built-in administrators and marketers on the agency’s side, the shop owner and counselors on the client’s', async () => {
    const sides = Object.fromEntries((await admin.get('/api/permissions')).json().items.map((i: { name: string; side: string }) => [i.name, i.side]));
    expect(sides).toEqual({ 최고관리자: 'agency', 관리자: 'agency', 마케터: 'agency', 업체관리자: 'client', 상담원: 'client' });
    // The built-in client types hold nothing of the agency's.
    expect(await row('업체관리자')).toMatchObject({
      permissions: { 'cpa-management': 'none', 'advertising-status': 'none', 'landing-script-management': 'none', 'contract-management': 'read', 'contract-status': 'read' },
    });
  });

  it('makes a shop-area type the client’s unless the agency is chosen, and an administrator-area type always the agency’s', async () => {
    expect((await newType('파트너', { area: 'shop' })).json().side).toBe('client');
    expect((await newType('외주 마케터', { area: 'shop', side: 'agency' })).json().side).toBe('agency');
    expect((await newType('감사', { area: 'admin', side: 'client' })).json().side).toBe('agency');
    const owner = await typeIdByName(admin, '업체관리자');
    const res = await admin.put(`/api/account-types/${owner}`, { name: '업체관리자', area: 'shop', side: 'agency', dataScope: 'all' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.fields).toEqual({ side: '기본 제공 유형의 구분(대행사·고객사)은 바꿀 수 없습니다.' });
    expect((await admin.put(`/api/account-types/${owner}`, { name: '업체관리자', area: 'admin', dataScope: 'all' })).statusCode).toBe(409);
  });

  it('refuses to grant a client type an agency-only screen, in Korean, and grants it to an agency type', async () => {
    const partner = (await newType('파트너', { area: 'shop' })).json().id;
    const refused = await save(partner, { 'shop-dashboard': 'read', 'cpa-management': 'read', 'contract-management': 'write' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('고객사 유형에는 대행사 전용 권한을 줄 수 없습니다: 계약 관리 편집, CPA 관리.');
    expect((await row('파트너')).permissions['shop-dashboard']).toBe('none');
    expect((await save(partner, { 'shop-dashboard': 'read', 'contract-management': 'read' })).statusCode).toBe(200);
    expect((await save(await typeIdByName(admin, '업체관리자'), { ...(await row('업체관리자')).permissions, 'advertising-status': 'read' })).statusCode).toBe(400);

    const outsourced = (await newType('외주 마케터', { area: 'shop', side: 'agency' })).json().id;
    expect((await save(outsourced, { 'cpa-management': 'write', 'contract-management': 'write' })).json().permissions).toMatchObject({
      'cpa-management': 'write', 'contract-management': 'write',
    });
  });

  it('takes the agency’s screens from a type moved to the client’s side', async () => {
    const id = (await newType('외주 마케터', { area: 'shop', side: 'agency' })).json().id;
    await save(id, { 'cpa-management': 'write', 'contract-management': 'write', 'database-status': 'write' });
    const moved = await admin.put(`/api/account-types/${id}`, { name: '외주 마케터', area: 'shop', side: 'client', dataScope: 'all' });
    expect(moved.json()).toMatchObject({ side: 'client', permissions: { 'cpa-management': 'none', 'contract-management': 'read', 'database-status': 'write' } });
  });

  it('leaves agency-only screens out of a client account’s session, whatever its stored matrix says', async () => {
    const owner = await typeIdByName(admin, '업체관리자');
    await t.app.db.updateTable('account_types').set({ permissions: JSON.stringify({ 'shop-dashboard': 'read', 'cpa-management': 'write', 'contract-management': 'write' }) }).where('id', '=', owner).execute();
    await createAccount(admin, 'owner1', '업체관리자');
    const me = (await (await t.login('owner1', TEST_PASSWORD)).get('/api/auth/me')).json().account;
    expect(me).toMatchObject({ side: 'client', permissions: { 'shop-dashboard': 'read', 'cpa-management': 'none', 'contract-management': 'read' } });
  });
});
