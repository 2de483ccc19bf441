import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShop, TEST_PASSWORD, testApp, type TestApp } from '../../test-helpers.ts';
import { landingTestApp, leadBody, openLanding, submit } from '../../test-landings.ts';
import { readStream } from '../../test-streams.ts';
import { DASHBOARD_STREAM_EVENT, type DashboardStreamEvent } from '../../../contracts/dashboard.ts';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
  const admin = await t.login();
  await createShop(admin, 'shop-a');
  await createShop(admin, 'shop-b');
});
afterEach(async () => {
  await t.close();
});

async function addLead(shopId: number, phone: string, createdAt: string, dup: number | null = null) {
  return t.app.db
    .insertInto('leads')
    .values({
      shop_id: shopId, landing_id: null, name: '홍길동', phone, answers: '{}', privacy_consent: 1, marketing_consent: 0, sensitive_consent: 0,
      privacy_policy_id: null, utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null,
      media_type_id: null, referrer: null, ip: null, user_agent: null, cs_status: '미처리', assignee_id: null, reserved_at: null,
      memo: null, duplicate_of: dup, invalid_reason: null, deleted_at: null, purged_at: null, created_at: createdAt, updated_at: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

describe('dashboard', () => {
  it('counts leads by Seoul day and month, per shop, and lists recent logins', async () => {
    // The test clock is 2026-11-21T01:00Z = 10:00 in Seoul.
    const shops = await t.app.db.selectFrom('shops').select(['id', 'name']).orderBy('id').execute();
    const a = shops[0]!.id;
    const b = shops[1]!.id;
    const first = await addLead(a, '01011112222', '2026-11-20T15:30:00.000Z'); // 00:30 on the 21st in Seoul: today
    await addLead(a, '01011112222', '2026-11-20T16:00:00.000Z', first.id); // today, a duplicate
    await addLead(b, '01033334444', '2026-11-20T14:59:00.000Z'); // 23:59 on the 20th in Seoul: this month, not today
    await addLead(b, '01055556666', '2026-10-31T14:00:00.000Z'); // 31 Oct in Seoul: last month
    // A refused submission at 00:10 on the 21st in Seoul, and one the day before the chart begins.
    for (const at of ['2026-11-20T15:10:00.000Z', '2026-10-22T03:00:00.000Z']) {
      await t.app.db.insertInto('blocked_submissions').values({ shop_id: a, landing_id: null, reason: 'honeypot', at }).execute();
    }
    const admin = await t.login();
    const res = await admin.get('/api/dashboard');
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.today).toBe('2026-11-21');
    expect(d.leads).toMatchObject({ today: 2, month: 3, duplicatesToday: 1 });
    expect(d.leads.byShop).toEqual([
      { shopId: a, shopName: shops[0]!.name, today: 2, month: 2, duplicates: 1 },
      { shopId: b, shopName: shops[1]!.name, today: 0, month: 1, duplicates: 0 },
    ]);
    // Three non-duplicate leads, none assigned yet (last month's too: the backlog has no period).
    expect(d.leads.unassigned).toBe(3);
    expect(d.leads.daily).toHaveLength(30);
    expect(d.leads.daily.at(-1)).toEqual({ day: '2026-11-21', count: 2, duplicates: 1, blocked: 1 });
    expect(d.leads.daily.at(-2)).toEqual({ day: '2026-11-20', count: 1, duplicates: 0, blocked: 0 });
    expect(d.leads.daily[0]).toEqual({ day: '2026-10-23', count: 0, duplicates: 0, blocked: 0 });
    expect(d.security.blockedToday).toBe(1);
    expect(d.shops.active).toBe(2);
    expect(d.recentLogins[0]).toMatchObject({ loginId: 'admin' });
  });

  it('is refused to shop-area accounts', async () => {
    const admin = await t.login();
    const ownerType = await t.app.db.selectFrom('account_types').select('id').where('builtin_key', '=', 'shop-owner').executeTakeFirstOrThrow();
    await admin.post('/api/accounts', { loginId: 'owner', password: TEST_PASSWORD, name: '업체관리자', accountTypeId: ownerType.id });
    const owner = await t.login('owner', TEST_PASSWORD);
    expect((await owner.get('/api/dashboard')).statusCode).toBe(403);
    expect((await owner.get('/api/dashboard/stream')).statusCode).toBe(403);
  });
});

describe('the dashboard stream', () => {
  it('tells an open dashboard of leads arriving in any shop, by shop and count only', async () => {
    const l = await landingTestApp();
    try {
      const landingId = await openLanding(l);
      const base = await l.app.listen({ host: '127.0.0.1', port: 0 });
      const stream = await readStream<DashboardStreamEvent>(`${base}/api/dashboard/stream`, l.admin, DASHBOARD_STREAM_EVENT);
      expect((await submit(l, leadBody(l, landingId, { name: '홍길동', phone: '010-2222-3333' }))).statusCode).toBe(201);
      const [event] = await stream.until(1);
      expect(event).toEqual({ kind: 'created', shopId: l.shopId, count: 1 });
      expect(JSON.stringify(stream.events)).not.toMatch(/홍길동|2222|3333/);
      await stream.close();
    } finally {
      await l.close();
    }
  });
});
