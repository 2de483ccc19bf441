import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formToken, landingInput, leadBody, openLanding, publishPolicy, submit, type LandingTestApp, landingTestApp } from '../../test-landings.ts';
import { TEST_PASSWORD, createAccount, createShop, type Client } from '../../test-helpers.ts';
import { GLOBAL_SEARCH_MAX, SEARCH_TERM_REQUIRED } from '../../../contracts/global-search.ts';

interface Shop {
  shopId: number;
  shopCode: string;
  landingId: number;
}

let t: LandingTestApp;
let a: Shop;
let b: Shop;
let c: Shop;
beforeEach(async () => {
  t = await landingTestApp();
  a = { shopId: t.shopId, shopCode: t.shopCode, landingId: await openLanding(t) };
  b = await shopWithLanding('second');
  c = await shopWithLanding('third');
});
afterEach(async () => {
  await t.close();
});

async function shopWithLanding(shopCode: string): Promise<Shop> {
  const shopId = await createShop(t.admin, shopCode);
  await publishPolicy(t.admin, shopId);
  const created = await t.admin.post(`/api/shops/${shopId}/landings`, landingInput());
  expect(created.statusCode, created.body).toBe(201);
  const landingId = created.json().id as number;
  expect((await t.admin.post(`/api/shops/${shopId}/landings/${landingId}/publish`)).statusCode).toBe(200);
  return { shopId, shopCode, landingId };
}

/** A lead through the public form of `shop`; answers its id. */
async function lead(shop: Shop, name: string, phone: string): Promise<number> {
  const res = await submit(t, leadBody(t, shop.landingId, { shopCode: shop.shopCode, _t: formToken(t, shop.landingId), name, phone }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}

/** A shop-area account of a built-in type permitted `shops`, logged in; answers it with its id. */
async function account(loginId: string, typeName: string, shops: Shop[]): Promise<{ client: Client; id: number }> {
  const id = await createAccount(t.admin, loginId, typeName);
  const permitted = await t.admin.put(`/api/shop-permissions/${id}`, { shopIds: shops.map((s) => s.shopId) });
  expect(permitted.statusCode, permitted.body).toBeLessThan(300);
  return { client: await t.login(loginId, TEST_PASSWORD), id };
}

const search = (client: Client, q: string, extra = '') => client.get(`/api/global-search?q=${encodeURIComponent(q)}${extra}`);
const ids = async (client: Client, q: string) => {
  const res = await search(client, q);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as Array<{ id: number }>).map((i) => i.id).sort((x, y) => x - y);
};
const searches = () =>
  t.app.db.selectFrom('access_events').select(['shop_id', 'account_id', 'action', 'row_count', 'detail']).where('action', '=', 'search').orderBy('id').execute();

describe('통합 DB 검색', () => {
  it('searches only the shops the account may enter, a counselor only their own leads, never deleted ones', async () => {
    const inA = await lead(a, '홍길동', '010-1234-5678');
    const mineInA = await lead(a, '김영희', '010-2222-5678');
    const inB = await lead(b, '박철수', '010-3333-5678');
    const inC = await lead(c, '이민수', '010-4444-5678');
    const deleted = await lead(b, '최삭제', '010-5555-5678');
    await t.app.db.updateTable('leads').set({ deleted_at: t.clock.current.toISOString() }).where('id', '=', deleted).execute();

    const marketer = await account('mkt1', '마케터', [a, b]);
    const counselor = await account('csa1', '상담원', [a]);
    await t.app.db.updateTable('leads').set({ assignee_id: counselor.id }).where('id', '=', mineInA).execute();

    expect(await ids(t.admin, '5678')).toEqual([inA, mineInA, inB, inC]);
    expect(await ids(marketer.client, '5678')).toEqual([inA, mineInA, inB]);
    expect(await ids(counselor.client, '5678')).toEqual([mineInA]);

    const res = (await search(counselor.client, '5678')).json();
    expect(res).toMatchObject({ total: 1, capped: false, kind: 'last4', shopCount: 1, scope: 'assigned' });
    const all = (await search(t.admin, '5678')).json();
    expect(all.shopCount).toBe(3);
    // Two of the four hits are in one shop: three shops hold them.
    expect(all).toMatchObject({ total: 4, foundShopCount: 3 });
    expect((await search(marketer.client, '5678')).json()).toMatchObject({ total: 3, shopCount: 2, foundShopCount: 2 });
    // Newest first; the shop, the landing, the masked phone, the status and the counselor of each.
    expect(all.items[0]).toEqual({
      id: inC, shopId: c.shopId, shopName: '업체 third', landingTitle: '임플란트 상담 이벤트', source: 'landing', createdAt: expect.any(String),
      name: '이민수', phone: '010-****-5678', phoneLast4: '5678', csStatus: '미처리', assigneeName: null,
    });
    expect(all.items.find((i: { id: number }) => i.id === mineInA).assigneeName).toBe('csa1');
    expect(JSON.stringify(all)).not.toMatch(/1234-5678|01012345678/);
  });

  it('finds by the last four, the end or the start of a number, the whole number, and a name’s start', async () => {
    const hong = await lead(a, '홍길동', '010-1234-5678');
    const hong2 = await lead(b, '홍길순', '010-9876-5678');
    const kim = await lead(c, '김영희', '010-1234-9999');
    const land = await lead(b, '남궁민수', '02-234-5678');

    expect(await ids(t.admin, '5678')).toEqual([hong, hong2, land]);
    expect(await ids(t.admin, '45678')).toEqual([hong, land]);
    expect(await ids(t.admin, '2345678')).toEqual([hong, land]);
    expect(await ids(t.admin, '12345678')).toEqual([hong]);
    // Seven digits and more: the start of a number too.
    expect(await ids(t.admin, '010-1234')).toEqual([hong, kim]);
    expect(await ids(t.admin, '010-1234-5678')).toEqual([hong]);
    expect(await ids(t.admin, '+82 10 1234 5678')).toEqual([hong]);
    expect((await search(t.admin, '010-1234')).json().kind).toBe('phone');
    expect(await ids(t.admin, '홍길')).toEqual([hong, hong2]);
    expect(await ids(t.admin, '김영희')).toEqual([kim]);
    expect(await ids(t.admin, '남궁')).toEqual([land]);
    // A name's start, not any part of it.
    expect(await ids(t.admin, '길동')).toEqual([]);
    expect(await ids(t.admin, '홍%')).toEqual([]);
    expect((await search(t.admin, '홍길')).json().kind).toBe('name');
  });

  it('says what to enter: four digits, two letters', async () => {
    const short = await search(t.admin, '123');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.q).toBe('전화번호는 4자리 이상 입력하세요.');
    expect((await search(t.admin, '김')).json().error.fields.q).toBe('이름은 2자 이상 입력하세요.');
    expect((await t.admin.get('/api/global-search')).json().error.fields.q).toBe(SEARCH_TERM_REQUIRED);
    expect((await t.admin.get('/api/global-search?q=%20%20')).json().error.fields.q).toBe(SEARCH_TERM_REQUIRED);
  });

  it('records each search: the term masked, one row per shop with its hits, or one without a shop when nothing was found', async () => {
    await lead(a, '홍길동', '010-1234-5678');
    await lead(a, '홍길순', '010-2222-5678');
    await lead(b, '홍길자', '010-3333-5678');
    const admin = (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', 'admin').executeTakeFirstOrThrow()).id;

    await search(t.admin, '010-1234-5678');
    await search(t.admin, '5678');
    await search(t.admin, '홍길동');
    await search(t.admin, '0000');
    const rows = (await searches()).map((r) => ({ ...r, detail: JSON.parse(r.detail!) }));
    expect(rows).toEqual([
      { shop_id: a.shopId, account_id: admin, action: 'search', row_count: 1, detail: { term: '010-****-5678', kind: 'phone', total: 1, capped: false, page: 1 } },
      { shop_id: b.shopId, account_id: admin, action: 'search', row_count: 1, detail: { term: '****5678', kind: 'last4', total: 3, capped: false, page: 1 } },
      { shop_id: a.shopId, account_id: admin, action: 'search', row_count: 2, detail: { term: '****5678', kind: 'last4', total: 3, capped: false, page: 1 } },
      { shop_id: a.shopId, account_id: admin, action: 'search', row_count: 1, detail: { term: '홍*동', kind: 'name', total: 1, capped: false, page: 1 } },
      { shop_id: null, account_id: admin, action: 'search', row_count: 0, detail: { term: '****0000', kind: 'last4', total: 0, capped: false, page: 1 } },
    ]);
    const all = JSON.stringify(await searches());
    expect(all).not.toMatch(/1234|홍길동/);
    // A refused term reaches nothing and is not recorded.
    await search(t.admin, '12');
    expect(await searches()).toHaveLength(5);
  });

  it(`answers the newest ${GLOBAL_SEARCH_MAX} in pages and says when there are more`, async () => {
    const start = Date.parse('2026-11-01T00:00:00.000Z');
    const rows = Array.from({ length: GLOBAL_SEARCH_MAX + 5 }, (_, i) => {
      const at = new Date(start + i * 60_000).toISOString();
      return {
        shop_id: i % 2 ? a.shopId : b.shopId, landing_id: null, source: 'manual', name: `고객${i}`, phone: `0107000${String(i).padStart(4, '0')}`,
        answers: '{}', privacy_consent: 1, marketing_consent: 0, sensitive_consent: 0, privacy_policy_id: null, cs_status: '미처리',
        phone_last4: String(i).padStart(4, '0'), created_at: at, updated_at: at,
      };
    });
    await t.app.db.insertInto('leads').values(rows).execute();
    const first = (await search(t.admin, '010-7000', '&pageSize=50')).json();
    expect(first).toMatchObject({ total: GLOBAL_SEARCH_MAX, capped: true });
    expect(first.items).toHaveLength(50);
    expect(first.items[0].name).toBe(`고객${GLOBAL_SEARCH_MAX + 4}`);
    const last = (await search(t.admin, '010-7000', '&pageSize=50&page=4')).json();
    expect(last.items.at(-1).name).toBe('고객5');
    const recorded = (await searches()).slice(-2);
    expect(recorded.map((r) => r.row_count)).toEqual([100, 100]);
    expect(JSON.parse(recorded[0]!.detail!)).toMatchObject({ capped: true, total: GLOBAL_SEARCH_MAX, page: 4 });
  });

  it('refuses an account whose type lacks the screen', async () => {
    const counselor = await account('csa2', '상담원', [a]);
    const type = await t.app.db.selectFrom('account_types').select(['id', 'permissions']).where('builtin_key', '=', 'counselor').executeTakeFirstOrThrow();
    const permissions = { ...JSON.parse(type.permissions), 'global-db-search': 'none' };
    await t.app.db.updateTable('account_types').set({ permissions: JSON.stringify(permissions) }).where('id', '=', type.id).execute();
    expect((await search(counselor.client, '5678')).statusCode).toBe(403);
    expect(await searches()).toHaveLength(0);
  });
});
