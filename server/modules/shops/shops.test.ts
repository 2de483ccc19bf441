import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { eachTestApp, TEST_PASSWORD, createAccount, createShop, type Client, type TestApp } from '../../test-helpers.ts';

let t: TestApp;
let admin: Client;
eachTestApp((app, client) => {
  t = app;
  admin = client;
});

async function clientType(code: string, active = true) {
  const res = await admin.post('/api/codes/client-type', { name: `유형 ${code}`, code, active });
  return res.json().id as number;
}
const input = (shopCode: string, extra: Record<string, unknown> = {}) => ({ shopCode, name: `업체 ${shopCode}`, ...extra });

describe('shops list', () => {
  it('pages, filters and sorts', async () => {
    const dental = await clientType('dental');
    await createShop(admin, 'alpha', { name: '가나치과', clientTypeId: dental, companyName: '가나의료법인' });
    await createShop(admin, 'bravo', { name: '다라보험' });
    await createShop(admin, 'charlie', { name: '마바법률', status: 'disabled' });

    const all = (await admin.get('/api/shops')).json();
    expect(all.total).toBe(3);
    expect(all.items.map((s: { shopCode: string }) => s.shopCode)).toEqual(['alpha', 'bravo', 'charlie']);
    expect(all.items[0]).toMatchObject({ clientTypeName: '유형 dental', leadCount: 0, status: 'active' });

    expect((await admin.get('/api/shops?page=2&pageSize=2')).json()).toMatchObject({ total: 3, items: [{ shopCode: 'charlie' }] });
    expect((await admin.get('/api/shops?sort=-shopCode')).json().items[0].shopCode).toBe('charlie');
    expect((await admin.get('/api/shops?status=disabled')).json().items.map((s: { shopCode: string }) => s.shopCode)).toEqual(['charlie']);
    expect((await admin.get(`/api/shops?clientTypeId=${dental}`)).json().total).toBe(1);
    expect((await admin.get(`/api/shops?q=${encodeURIComponent('의료법인')}`)).json().items[0].shopCode).toBe('alpha');
    expect((await admin.get('/api/shops?q=brav')).json().items[0].shopCode).toBe('bravo');
  });
});

describe('shop input', () => {
  it('says what to enter for each missing field, never a raw schema message', async () => {
    const res = await admin.post('/api/shops', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ name: '업체명을 입력하세요.', shopCode: '업체 코드를 입력하세요.' });
  });

  it('refuses letters in a phone number instead of saving it empty', async () => {
    const res = await admin.post('/api/shops', input('alpha', { phone: 'abc' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ phone: '올바른 전화번호를 입력하세요.' });
    expect((await admin.get('/api/shops')).json().total).toBe(0);
  });

  it('stores text without control characters on both engines', async () => {
    const res = await admin.post('/api/shops', input('alpha', { name: '가나\u0000치과', address: '서울\u0000 강남구', representative: '\u0000' }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: '가나치과', address: '서울 강남구', representative: null });
    const empty = await admin.post('/api/shops', input('bravo', { name: '\u0000' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ name: '업체명을 입력하세요.' });
  });
});

describe('shop create / update / delete', () => {
  it('creates a shop with its business details', async () => {
    const res = await admin.post('/api/shops', input('smile-dental', {
      companyName: '서울미소치과의원', businessNumber: '107-86-16321', phone: '02-1234-5678', address: '서울특별시 강남구',
      privacyOfficerName: '이정민', privacyOfficerContact: 'privacy@example.kr',
    }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ shopCode: 'smile-dental', businessNumber: '1078616321', phone: '0212345678', status: 'active', leadCount: 0 });
  });

  it('answers 400 with fields for an invalid body or client type', async () => {
    const res = await admin.post('/api/shops', { shopCode: 'Bad Code', name: '', businessNumber: '123-45-67890', phone: '12' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.fields)).toEqual(expect.arrayContaining(['shopCode', 'name', 'businessNumber', 'phone']));

    const unknownType = await admin.post('/api/shops', input('shop-a', { clientTypeId: 9999 }));
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().error.fields).toHaveProperty('clientTypeId');
    const inactive = await admin.post('/api/shops', input('shop-a', { clientTypeId: await clientType('old', false) }));
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().error.fields).toHaveProperty('clientTypeId');
  });

  it('answers 409 on a taken shop code', async () => {
    await createShop(admin, 'shop-a');
    const id = await createShop(admin, 'shop-b');
    const dup = await admin.post('/api/shops', input('shop-a'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.fields).toEqual({ shopCode: expect.any(String) });
    expect((await admin.put(`/api/shops/${id}`, input('shop-a'))).statusCode).toBe(409);
  });

  it('updates and disables a shop', async () => {
    const id = await createShop(admin, 'shop-a');
    const type = await clientType('law');
    const res = await admin.put(`/api/shops/${id}`, input('shop-a2', { name: '새 이름', clientTypeId: type, status: 'disabled' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ shopCode: 'shop-a2', name: '새 이름', clientTypeId: type, status: 'disabled' });
    expect((await admin.put('/api/shops/9999', input('zzz'))).statusCode).toBe(404);
  });

  it('deletes a shop only while nobody may enter it', async () => {
    const id = await createShop(admin, 'shop-a');
    const kim = await createAccount(admin, 'mkim', '마케터');
    await admin.put(`/api/shop-permissions/${kim}`, { shopIds: [id] });
    const res = await admin.del(`/api/shops/${id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain('1개');
    await admin.put(`/api/shop-permissions/${kim}`, { shopIds: [] });
    expect((await admin.del(`/api/shops/${id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/shops/${id}`)).statusCode).toBe(404);
  });
});

describe('once a shop has leads', () => {
  it('keeps its code and cannot be deleted', async () => {
    // A minimal stand-in where the leads migration is not there yet.
    await sql`create table if not exists leads (
      id integer primary key, shop_id integer not null, name text not null, phone text not null, created_at text not null, updated_at text not null
    )`.execute(t.app.db);
    const id = await createShop(admin, 'shop-a');
    await createShop(admin, 'shop-b');
    const now = t.clock.now().toISOString();
    for (const leadId of [1, 2]) {
      await sql`insert into leads (id, shop_id, name, phone, created_at, updated_at) values (${leadId}, ${id}, '홍길동', '01012345678', ${now}, ${now})`.execute(t.app.db);
    }

    expect((await admin.get('/api/shops')).json().items.map((s: { leadCount: number }) => s.leadCount)).toEqual([2, 0]);
    const rename = await admin.put(`/api/shops/${id}`, input('shop-z'));
    expect(rename.statusCode).toBe(409);
    expect(rename.json().error.fields).toHaveProperty('shopCode');
    expect((await admin.put(`/api/shops/${id}`, input('shop-a', { name: '이름만 변경' }))).statusCode).toBe(200);
    const del = await admin.del(`/api/shops/${id}`);
    expect(del.statusCode).toBe(409);
  });
});

describe('base information (shop area)', () => {
  it('isolates shops: an account permitted shop A cannot read or change shop B', async () => {
    const a = await createShop(admin, 'shop-a');
    const b = await createShop(admin, 'shop-b');
    const owner = await createAccount(admin, 'owner', '업체관리자');
    await admin.put(`/api/shop-permissions/${owner}`, { shopIds: [a] });
    const c = await t.login('owner', TEST_PASSWORD);

    const mine = await c.get(`/api/shops/${a}/base-information`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().shopCode).toBe('shop-a');
    const save = await c.put(`/api/shops/${a}/base-information`, { name: '우리 업체', representative: '김대표', phone: '010-9876-5432' });
    expect(save.statusCode).toBe(200);
    expect(save.json()).toMatchObject({ name: '우리 업체', representative: '김대표', phone: '01098765432', shopCode: 'shop-a' });

    expect((await c.get(`/api/shops/${b}/base-information`)).statusCode).toBe(403);
    expect((await c.put(`/api/shops/${b}/base-information`, { name: '탈취' })).statusCode).toBe(403);
    expect((await admin.get(`/api/shops/${b}`)).json().name).toBe('업체 shop-b');
    expect((await c.get('/api/shops')).statusCode).toBe(403);
    expect((await c.get(`/api/shops/${a}`)).statusCode).toBe(403);
  });

  it('validates the details and refuses a read-only type', async () => {
    const a = await createShop(admin, 'shop-a');
    const bad = await admin.put(`/api/shops/${a}/base-information`, { name: '', businessNumber: '1234567890' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)).toEqual(expect.arrayContaining(['name', 'businessNumber']));

    const counselor = await createAccount(admin, 'counsel', '상담원');
    await admin.put(`/api/shop-permissions/${counselor}`, { shopIds: [a] });
    const c = await t.login('counsel', TEST_PASSWORD);
    expect((await c.get(`/api/shops/${a}/base-information`)).statusCode).toBe(403);
  });
});
