import { describe, expect, it } from 'vitest';
import { eachTestApp, TEST_PASSWORD, createAccount, createShop, type Client, type TestApp } from '../../test-helpers.ts';

let t: TestApp;
let admin: Client;
eachTestApp((app, client) => {
  t = app;
  admin = client;
});

describe('shop permissions', () => {
  it('lists accounts with their shops, paged and filtered', async () => {
    const a = await createShop(admin, 'shop-a');
    const b = await createShop(admin, 'shop-b');
    const kim = await createAccount(admin, 'mkim', '마케터', { name: '김마케' });
    await createAccount(admin, 'owner', '업체관리자');
    await createAccount(admin, 'manager', '관리자');
    await admin.put(`/api/shop-permissions/${kim}`, { shopIds: [b, a] });

    const all = (await admin.get('/api/shop-permissions')).json();
    expect(all.total).toBe(4);
    expect(all.items.find((r: { loginId: string }) => r.loginId === 'mkim')).toEqual({
      accountId: kim, loginId: 'mkim', name: '김마케', accountTypeName: '마케터', area: 'shop', shopIds: [a, b],
    });
    const shopArea = (await admin.get('/api/shop-permissions?area=shop')).json();
    expect(shopArea.items.map((r: { loginId: string }) => r.loginId)).toEqual(['mkim', 'owner']);
    expect((await admin.get(`/api/shop-permissions?q=${encodeURIComponent('김마')}`)).json().items[0].loginId).toBe('mkim');
    expect((await admin.get('/api/shop-permissions?page=2&pageSize=3&sort=-loginId')).json()).toMatchObject({ total: 4, items: [{ loginId: 'admin' }] });
    expect((await admin.get('/api/shop-permissions?area=nope')).statusCode).toBe(400);

    const shops = (await admin.get('/api/shop-permissions/shops')).json();
    expect(shops.items.map((s: { shopCode: string }) => s.shopCode)).toEqual(['shop-a', 'shop-b']);
  });

  it('replaces an account’s shops, and the account sees exactly those', async () => {
    const a = await createShop(admin, 'shop-a');
    const b = await createShop(admin, 'shop-b');
    const owner = await createAccount(admin, 'owner', '업체관리자');
    const first = await admin.put(`/api/shop-permissions/${owner}`, { shopIds: [a, a, b] });
    expect(first.statusCode).toBe(200);
    expect(first.json().shopIds).toEqual([a, b]);
    const second = await admin.put(`/api/shop-permissions/${owner}`, { shopIds: [b] });
    expect(second.json().shopIds).toEqual([b]);

    const c = await t.login('owner', TEST_PASSWORD);
    expect((await c.get('/api/auth/shops')).json().items.map((s: { id: number }) => s.id)).toEqual([b]);
    expect((await c.get(`/api/shops/${a}/base-information`)).statusCode).toBe(403);
    expect((await c.get(`/api/shops/${b}/base-information`)).statusCode).toBe(200);
    expect((await admin.put(`/api/shop-permissions/${owner}`, { shopIds: [] })).json().shopIds).toEqual([]);
  });

  it('refuses unknown shops, unknown accounts and bad bodies', async () => {
    const a = await createShop(admin, 'shop-a');
    const owner = await createAccount(admin, 'owner', '업체관리자');
    await admin.put(`/api/shop-permissions/${owner}`, { shopIds: [a] });
    const unknown = await admin.put(`/api/shop-permissions/${owner}`, { shopIds: [a, 9999] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toHaveProperty('shopIds');
    // Nothing changed.
    expect((await admin.get('/api/shop-permissions?q=owner')).json().items[0].shopIds).toEqual([a]);
    expect((await admin.put(`/api/shop-permissions/9999`, { shopIds: [a] })).statusCode).toBe(404);
    const bad = await admin.put(`/api/shop-permissions/${owner}`, { shopIds: ['x'] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)[0]).toMatch(/^shopIds/);
  });

  it('needs the shop-permission-setting screen', async () => {
    const owner = await createAccount(admin, 'owner', '업체관리자');
    const c = await t.login('owner', TEST_PASSWORD);
    expect((await c.get('/api/shop-permissions')).statusCode).toBe(403);
    expect((await c.put(`/api/shop-permissions/${owner}`, { shopIds: [] })).statusCode).toBe(403);
  });
});
