import { describe, expect, it } from 'vitest';
import { formToken, landingInput, leadBody, publishPolicy, shopAccount, submit, type LandingTestApp, eachLandingTest } from '../../test-landings.ts';
import { createShop, type Client } from '../../test-helpers.ts';

let t: LandingTestApp;
let landingId: number;
eachLandingTest((app, landing) => ([t, landingId] = [app, landing]));

const stats = () => `/api/shops/${t.shopId}/cs-stats`;
const at = (iso: string) => void (t.clock.current = new Date(iso));

/** Submits a lead through the public form at the clock's time and answers its id. */
async function lead(phone: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, { phone, ...extra }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}

const accountId = async (loginId: string) => (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow()).id;
const assign = (ids: number[], loginId: string) => accountId(loginId).then((id) => t.app.db.updateTable('leads').set({ assignee_id: id }).where('id', 'in', ids).execute());
async function setStatus(id: number, csStatus: string, extra: Record<string, unknown> = {}) {
  const res = await t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${id}`, { csStatus, ...extra });
  expect(res.statusCode, res.body).toBe(200);
}
const zeros = { 미처리: 0, 부재: 0, 통화완료: 0, 상담예약: 0, 계약: 0, 보류: 0, 거절: 0, 결번: 0, 무효: 0, 중복: 0 };

/**
 * The shop's worked leads (the clock is UTC; Seoul is nine hours ahead):
 *   H  10-31 23:59 Seoul, unassigned, 미처리                     (last month)
 *   A  11-20 23:30 Seoul, csa1, 부재 after 80 minutes
 *   B  11-21 00:30 Seoul, csa1, 통화완료 after 10 minutes
 *   E  11-21 00:30 Seoul, csa1, 계약 after 20 minutes
 *   C  11-21 00:30 Seoul, csb2, 상담예약 after 20 minutes
 *   D  11-21 00:30 Seoul, csb2, duplicate of A, then 통화완료 after 15 minutes
 *   F  11-21 00:30 Seoul, unassigned, 미처리
 *   G  11-21 00:30 Seoul, csa1, 계약, deleted
 */
async function workedShop() {
  await shopAccount(t, 'csa1', 'counselor');
  await shopAccount(t, 'csb2', 'counselor');
  at('2026-10-31T14:59:00.000Z');
  const h = await lead('010-5555-0008');
  at('2026-11-20T14:30:00.000Z');
  const a = await lead('010-5555-0001');
  at('2026-11-20T15:30:00.000Z');
  const [b, c, e, d, f, g] = [await lead('010-5555-0002'), await lead('010-5555-0003'), await lead('010-5555-0005'), await lead('010-5555-0001'), await lead('010-5555-0006'), await lead('010-5555-0007')];
  await assign([a, b, e, g], 'csa1');
  await assign([c, d], 'csb2');
  at('2026-11-20T15:40:00.000Z');
  await setStatus(b, '통화완료');
  at('2026-11-20T15:45:00.000Z');
  await setStatus(d, '통화완료');
  at('2026-11-20T15:50:00.000Z');
  await setStatus(e, '계약');
  await setStatus(g, '계약');
  await setStatus(c, '상담예약', { reservedAt: '2026-11-22T05:00:00.000Z' });
  await setStatus(a, '부재');
  await t.app.db.updateTable('leads').set({ deleted_at: '2026-11-20T15:55:00.000Z' }).where('id', '=', g).execute();
  return { a, b, c, d, e, f, g, h };
}

describe('the shop’s call statistics', () => {
  it('counts by status × counselor and by Seoul day; rates leave duplicates and deleted leads out; median first contact per counselor', async () => {
    const { d } = await workedShop();
    expect((await t.app.db.selectFrom('leads').select('duplicate_of').where('id', '=', d).executeTakeFirstOrThrow()).duplicate_of).not.toBeNull();
    const res = await t.admin.get(stats());
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    // Today is 11-21 in Seoul (00:50): this month so far.
    expect(s.period).toEqual({ from: '2026-11-01', to: '2026-11-21' });
    expect(s.scope).toBe('all');
    expect(s.totals).toEqual({
      total: 6, unique: 5, byStatus: { ...zeros, 부재: 1, 통화완료: 2, 계약: 1, 상담예약: 1, 미처리: 1 },
      contacted: 3, contracted: 1, contactRate: 3 / 5, conversionRate: 1 / 5,
      firstContacts: 4, firstContactAvgMinutes: 32.5, firstContactMedianMinutes: 20,
    });
    expect(s.counselors).toEqual([
      {
        counselorId: await accountId('csa1'), name: 'csa1', total: 3, unique: 3, byStatus: { ...zeros, 부재: 1, 통화완료: 1, 계약: 1 },
        contacted: 2, contracted: 1, contactRate: 2 / 3, conversionRate: 1 / 3, firstContacts: 3, firstContactAvgMinutes: 36.7, firstContactMedianMinutes: 20,
      },
      {
        counselorId: await accountId('csb2'), name: 'csb2', total: 2, unique: 1, byStatus: { ...zeros, 상담예약: 1, 통화완료: 1 },
        contacted: 1, contracted: 0, contactRate: 1, conversionRate: 0, firstContacts: 1, firstContactAvgMinutes: 20, firstContactMedianMinutes: 20,
      },
      {
        counselorId: null, name: '미배분', total: 1, unique: 1, byStatus: { ...zeros, 미처리: 1 },
        contacted: 0, contracted: 0, contactRate: 0, conversionRate: 0, firstContacts: 0, firstContactAvgMinutes: null, firstContactMedianMinutes: null,
      },
    ]);
    expect(s.byDay).toHaveLength(21);
    expect(s.byDay[0]).toEqual({ day: '2026-11-01', total: 0, byStatus: zeros });
    // 23:30 in Seoul is still the 20th; 00:30 is the 21st.
    expect(s.byDay.at(-2)).toEqual({ day: '2026-11-20', total: 1, byStatus: { ...zeros, 부재: 1 } });
    expect(s.byDay.at(-1)).toEqual({ day: '2026-11-21', total: 5, byStatus: { ...zeros, 통화완료: 2, 계약: 1, 상담예약: 1, 미처리: 1 } });

    // 23:59 on 31 October in Seoul belongs to that day, not to November.
    const october = (await t.admin.get(`${stats()}?from=2026-10-31&to=2026-10-31`)).json();
    expect(october.totals).toMatchObject({ total: 1, unique: 1, contactRate: 0, firstContactMedianMinutes: null });
    expect(october.byDay).toEqual([{ day: '2026-10-31', total: 1, byStatus: { ...zeros, 미처리: 1 } }]);
    expect(october.counselors.map((c: { name: string; total: number }) => [c.name, c.total])).toEqual([['csa1', 0], ['csb2', 0], ['미배분', 1]]);
  });

  it('takes the mean of the middle two for an even count', async () => {
    await shopAccount(t, 'csa1', 'counselor');
    at('2026-11-21T00:00:00.000Z');
    const ids = [await lead('010-6666-0001'), await lead('010-6666-0002'), await lead('010-6666-0003'), await lead('010-6666-0004')];
    await assign(ids, 'csa1');
    for (const [i, minutes] of [[0, 5], [1, 7], [2, 12], [3, 60]] as const) {
      at(new Date(Date.parse('2026-11-21T00:00:00.000Z') + minutes * 60_000).toISOString());
      await setStatus(ids[i]!, '부재');
    }
    const s = (await t.admin.get(stats())).json();
    expect(s.counselors[0]).toMatchObject({ name: 'csa1', firstContacts: 4, firstContactMedianMinutes: 9.5, firstContactAvgMinutes: 21 });
    expect(s.totals.firstContactMedianMinutes).toBe(9.5);
  });

  it('shows a counselor the statistics of their own leads only, and no other shop’s', async () => {
    await workedShop();
    const counselor = await t.login('csa1', 'Shop-pass-2026');
    const res = await counselor.get(stats());
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s.scope).toBe('assigned');
    expect(s.totals).toMatchObject({ total: 3, unique: 3, contacted: 2, contracted: 1, firstContactMedianMinutes: 20 });
    expect(s.counselors.map((c: { name: string }) => c.name)).toEqual(['csa1']);
    expect(s.byDay.at(-1)).toMatchObject({ total: 2 });
    expect(s.byDay.at(-2)).toMatchObject({ total: 1 });

    const other = await createShop(t.admin, 'other');
    expect((await counselor.get(`/api/shops/${other}/cs-stats`)).statusCode).toBe(403);
    expect((await counselor.get('/api/cs-stats')).statusCode).toBe(403);
  });

  it('is refused without the screen’s permission, and to anyone not logged in', async () => {
    const type = await t.app.db.selectFrom('account_types').select(['id', 'permissions']).where('builtin_key', '=', 'marketer').executeTakeFirstOrThrow();
    await t.app.db.updateTable('account_types').set({ permissions: JSON.stringify({ ...JSON.parse(type.permissions), 'cs-stats': 'none' }) }).where('id', '=', type.id).execute();
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    expect((await marketer.get(stats())).statusCode).toBe(403);
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.get(stats())).statusCode).toBe(200);
    expect((await owner.get('/api/cs-stats')).statusCode).toBe(403);
    expect((await t.anonymous.get(stats())).statusCode).toBe(401);
  });

  it('refuses a period it cannot read with a Korean message on its field', async () => {
    const field = async (c: Client, query: string) => {
      const res = await c.get(`${stats()}?${query}`);
      expect(res.statusCode, query).toBe(400);
      return res.json().error.fields;
    };
    expect(await field(t.admin, 'from=2026-11-22&to=2026-11-21')).toEqual({ from: '시작일이 종료일보다 늦습니다.' });
    expect(await field(t.admin, 'from=2025-01-01&to=2026-11-21')).toEqual({ from: '기간은 1년 이내로 정하세요.' });
    expect((await field(t.admin, 'from=2026-02-31')).from).toBe('없는 날짜입니다.');
    expect((await field(t.admin, 'to=20261121')).to).toBe('날짜는 YYYY-MM-DD 형식입니다.');
    expect((await field(t.admin, 'from=2026-11-25')).from).toBe('시작일이 종료일보다 늦습니다.');
    expect((await t.admin.get('/api/cs-stats?from=2026-11-22&to=2026-11-21')).json().error.fields).toEqual({ from: '시작일이 종료일보다 늦습니다.' });
    expect((await t.admin.get('/api/cs-stats?shopId=abc')).json().error.fields.shopId).toBe('업체를 목록에서 고르세요.');
  });
});

describe('the statistics across shops', () => {
  /** A second shop's published landing; answers a submitter of leads to it. */
  async function otherShopLanding(shopId: number) {
    const landing = await t.admin.post(`/api/shops/${shopId}/landings`, landingInput({ landingCode: 'second-event' }));
    expect(landing.statusCode, landing.body).toBe(201);
    const id = landing.json().id as number;
    expect((await t.admin.post(`/api/shops/${shopId}/landings/${id}/publish`)).statusCode).toBe(200);
    return async (phone: string) => {
      const res = await submit(t, { ...leadBody(t, id, { phone }), shopCode: 'second', landingCode: 'second-event', _t: formToken(t, id) });
      expect(res.statusCode, res.body).toBe(201);
    };
  }

  it('gives every shop its row by status with its rates and median first contact, narrows to one shop, and lists closed shops only with leads', async () => {
    await workedShop();
    const second = await createShop(t.admin, 'second', { name: '가나한의원' });
    await publishPolicy(t.admin, second);
    at('2026-11-21T00:00:00.000Z');
    const otherShopLead = await otherShopLanding(second);
    await otherShopLead('010-7777-0001');
    await otherShopLead('010-7777-0002');
    await createShop(t.admin, 'closed', { name: '닫힌업체', status: 'disabled' });

    const res = await t.admin.get('/api/cs-stats');
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s.period).toEqual({ from: '2026-11-01', to: '2026-11-21' });
    expect(s.shops.map((r: { shopName: string; total: number }) => [r.shopName, r.total])).toEqual([['미소치과', 6], ['가나한의원', 2]]);
    expect(s.shops[0]).toMatchObject({
      shopId: t.shopId, active: true, unique: 5, contacted: 3, contracted: 1, contactRate: 3 / 5, conversionRate: 1 / 5,
      firstContactMedianMinutes: 20, firstContactAvgMinutes: 32.5, byStatus: { ...zeros, 부재: 1, 통화완료: 2, 계약: 1, 상담예약: 1, 미처리: 1 },
    });
    expect(s.shops[1]).toMatchObject({ shopId: second, unique: 2, contactRate: 0, firstContactMedianMinutes: null, byStatus: { ...zeros, 미처리: 2 } });
    expect(s.totals).toMatchObject({ total: 8, unique: 7, contacted: 3, contracted: 1, contactRate: 3 / 7, firstContacts: 4, firstContactMedianMinutes: 20 });
    expect(s.byDay.at(-1)).toMatchObject({ day: '2026-11-21', total: 7 });
    expect(s.counselors).toBeNull();

    const one = (await t.admin.get(`/api/cs-stats?shopId=${second}`)).json();
    expect(one.shops.map((r: { shopId: number }) => r.shopId)).toEqual([second]);
    expect(one.totals).toMatchObject({ total: 2, unique: 2 });
    // One shop chosen: its counselors too, as the shop's own 상담 통계 has them.
    const first = (await t.admin.get(`/api/cs-stats?shopId=${t.shopId}`)).json();
    const own = (await t.admin.get(stats())).json();
    expect(first.counselors).toEqual(own.counselors);
    expect(first.counselors.length).toBeGreaterThan(1);
    expect((await t.admin.get('/api/cs-stats?shopId=999999')).statusCode).toBe(404);

    // The closed shop appears once it has leads of the period.
    const closed = await t.app.db.selectFrom('shops').select('id').where('shop_code', '=', 'closed').executeTakeFirstOrThrow();
    await t.app.db.updateTable('leads').set({ shop_id: closed.id }).where('phone', '=', '01077770002').execute();
    const again = (await t.admin.get('/api/cs-stats')).json();
    expect(again.shops.map((r: { shopName: string; total: number; active: boolean }) => [r.shopName, r.total, r.active])).toEqual([
      ['미소치과', 6, true], ['가나한의원', 1, true], ['닫힌업체', 1, false],
    ]);
  });
});
