import { describe, expect, it } from 'vitest';
import { eachTestApp, type Client, type TestApp } from '../../test-helpers.ts';

let t: TestApp;
let admin: Client;
const base = '/api/codes/media-type';

eachTestApp((app, client) => {
  t = app;
  admin = client;
});

describe('code tables', () => {
  it('creates, lists with search, sort and paging, updates and deletes', async () => {
    for (const [i, name] of ['메타', '네이버', '카카오', '구글 50%'].entries()) {
      const res = await admin.post(base, { name, code: `m${i}`, sortOrder: 10 - i, active: i !== 2 });
      expect(res.statusCode).toBe(201);
    }
    const sorted = (await admin.get(`${base}?sort=sortOrder&pageSize=2&page=1`)).json();
    expect(sorted.total).toBe(4);
    expect(sorted.items.map((x: { name: string }) => x.name)).toEqual(['구글 50%', '카카오']);
    expect((await admin.get(`${base}?active=false`)).json().items.map((x: { name: string }) => x.name)).toEqual(['카카오']);
    // LIKE wildcards in the search text are literal; the search ignores case.
    expect((await admin.get(`${base}?q=${encodeURIComponent('50%')}`)).json().total).toBe(1);
    expect((await admin.get(`${base}?q=${encodeURIComponent('%')}`)).json().total).toBe(1);
    expect((await admin.get(`${base}?q=M1`)).json().items[0].name).toBe('네이버');

    const id = sorted.items[0].id;
    const upd = await admin.put(`${base}/${id}`, { name: '구글', code: 'google', sortOrder: 1, active: false });
    expect(upd.statusCode).toBe(200);
    expect(upd.json()).toMatchObject({ name: '구글', code: 'google', active: false, usage: 0 });
    expect((await admin.del(`${base}/${id}`)).statusCode).toBe(204);
    expect((await admin.get(base)).json().total).toBe(3);
  });

  it('validates input and refuses duplicates with field messages', async () => {
    const bad = await admin.post(base, { name: '', code: 'has space' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['code', 'name']);
    await admin.post(base, { name: '메타', code: 'meta' });
    const dup = await admin.post(base, { name: '메타', code: 'meta' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.fields).toMatchObject({ code: expect.any(String), name: expect.any(String) });
  });

  it('refuses to delete a code in use', async () => {
    const type = (await admin.post('/api/codes/client-type', { name: '치과', code: 'dental' })).json();
    await admin.post('/api/shops', { shopCode: 'a-shop', name: '에이치과', clientTypeId: type.id });
    const res = await admin.del(`/api/codes/client-type/${type.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain('사용 중');
    expect((await admin.get('/api/codes/client-type')).json().items[0].usage).toBe(1);
  });

  it('serves active options to any logged-in account and guards each table by its own screen', async () => {
    await admin.post(base, { name: '메타', code: 'meta' });
    await admin.post(base, { name: '꺼짐', code: 'off', active: false });
    expect((await admin.get(`${base}/options`)).json().items.map((x: { name: string }) => x.name)).toEqual(['메타']);
    expect((await t.anonymous.get(`${base}/options`)).statusCode).toBe(401);
  });
});
