import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShop, TEST_PASSWORD, testApp, type Client, type TestApp } from '../../test-helpers.ts';
import { landingTestApp, leadBody, openLanding, submit, type LandingTestApp, LONG_SESSIONS, addMedium, openCheckup } from '../../test-landings.ts';
import { reopenJob } from '../../worker/reopen.ts';
import { reservationsJob } from '../../worker/reservations.ts';
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

describe('the money on the dashboard', () => {
  let l: LandingTestApp;
  let implant: number;
  let checkup: number;
  let media: number;
  let other: number;
  beforeEach(async () => {
    l = await landingTestApp(LONG_SESSIONS);
    media = await addMedium(l, '메타', 'meta');
    implant = await openLanding(l, { mediaTypeId: media });
    checkup = await openCheckup(l);
    other = await createShop(l.admin, 'other');
  });
  afterEach(async () => {
    await l.close();
  });

  const at = (iso: string) => void (l.clock.current = new Date(iso));
  const dashboard = async (c: Client = l.admin) => {
    const res = await c.get('/api/dashboard');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  async function contract(shopId: number, extra: Record<string, unknown>): Promise<number> {
    const res = await l.admin.post(`/api/shops/${shopId}/contracts`, {
      name: '11월 계약', startsOn: '2026-11-01', endsOn: '2026-11-30', quantity: 5, unitPrice: 30_000, dailyCap: null,
      landingIds: [], mediaTypeIds: [], returnWindowDays: 7, maxReturnRate: 10, autoClose: false, memo: '', ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  }
  const status = async (shopId: number, id: number) => {
    const res = await l.admin.get(`/api/shops/${shopId}/contracts/status?contractId=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().contracts[0];
  };
  const visitor = async (phone: string) => expect((await submit(l, leadBody(l, implant, { phone }))).statusCode).toBe(201);
  /** A lead of the other shop entered by hand at `when`. */
  async function entered(when: string, phone: string) {
    at(when);
    const res = await l.admin.post(`/api/shops/${other}/data-insertion/leads`, { name: '고객', phone, landingId: null, mediaTypeId: media, consentBasis: 'phone-verbal' });
    expect(res.statusCode, res.body).toBe(201);
    at('2026-11-21T01:00:00.000Z');
  }
  const reopen = () => reopenJob(l.app.db, () => l.clock.now(), { changed: l.app.links.landingsChanged }).run();

  it('watches contracts near their quantity or behind pace, the landings caps hold closed, and the closings and reopenings', async () => {
    const capped = await contract(l.shopId, { name: '일 한도 계약', landingIds: [implant], dailyCap: 2, autoClose: true });
    // No lead yet: no pace, not watched.
    await contract(l.shopId, { name: '검진 계약', landingIds: [checkup] });
    const near = await contract(other, { name: '거의 다 찬 계약' });
    for (const [i, day] of ['2026-11-05', '2026-11-09', '2026-11-14', '2026-11-20'].entries()) await entered(`${day}T03:00:00.000Z`, `010-8000-000${i}`);
    await visitor('010-9000-0001');
    await visitor('010-9000-0002');

    const d = await dashboard();
    // 4 of 5 (80%): near; 2 of 5 in 21 days: the other 3 take 32 days more at that pace, to 23 Dec, past its end.
    expect(d.contracts.watch.map((c: { contract: { id: number }; shopName: string; counted: number; projectedOn: string; reasons: string[] }) =>
      [c.contract.id, c.shopName, c.counted, c.projectedOn, c.reasons])).toEqual([
      [near, '업체 other', 4, '2026-11-27', ['near']],
      [capped, '미소치과', 2, '2026-12-23', ['behind']],
    ]);
    for (const c of d.contracts.watch) {
      const s = await status(c.contract.shopId, c.contract.id);
      expect(c).toMatchObject({ counted: s.counted, quantity: s.quantity, remaining: s.remaining, todayCount: s.todayCount, projectedOn: s.projectedOn, lastDay: s.lastDay });
    }
    const closing = { shopId: l.shopId, shopName: '미소치과', landingId: implant, title: '임플란트 상담 이벤트', contractId: capped, contractName: '일 한도 계약' };
    expect(d.contracts.closedLandings).toEqual([{ ...closing, closedAt: '2026-11-21T01:00:00.000Z', reopenAt: '2026-11-21T15:00:00.000Z' }]);
    expect(d.contracts.watch[1].closedLandings).toEqual([{ id: implant, title: '임플란트 상담 이벤트', reopenAt: '2026-11-21T15:00:00.000Z' }]);
    expect(d.contracts.capEvents).toEqual([
      {
        id: expect.any(Number), kind: 'closed-daily', landingId: implant, landingTitle: '임플란트 상담 이벤트', count: 2, at: '2026-11-21T01:00:00.000Z',
        contractId: capped, contractName: '일 한도 계약', shopId: l.shopId, shopName: '미소치과',
      },
    ]);

    // Seoul midnight: open at once (before the job), and the job's reopening is listed.
    at('2026-11-21T15:00:01.000Z');
    expect((await dashboard()).contracts.closedLandings).toEqual([]);
    expect(await reopen()).toEqual([implant]);
    const after = await dashboard();
    expect(after.contracts.closedLandings).toEqual([]);
    expect(after.contracts.capEvents.map((e: { kind: string; shopName: string; at: string }) => [e.kind, e.shopName, e.at])).toEqual([
      ['reopened', '미소치과', '2026-11-21T15:00:01.000Z'],
      ['closed-daily', '미소치과', '2026-11-21T01:00:00.000Z'],
    ]);
  });

  it('adds this month’s ad spend and CPA across shops as each shop’s 광고 현황 shows it', async () => {
    await visitor('010-9000-0001');
    await visitor('010-9000-0002');
    await entered('2026-10-31T03:00:00.000Z', '010-8000-0001');
    await entered('2026-11-20T03:00:00.000Z', '010-8000-0002');
    const spend = async (shopId: number, rows: unknown[]) => expect((await l.admin.put(`/api/shops/${shopId}/ad-spend`, { rows })).statusCode).toBe(200);
    await spend(l.shopId, [{ day: '2026-11-20', mediaTypeId: media, impressions: 5000, clicks: 100, spend: 100_000 }]);
    await spend(other, [
      { day: '2026-10-31', mediaTypeId: media, impressions: 900, clicks: 9, spend: 99_000 },
      { day: '2026-11-21', mediaTypeId: media, impressions: 3000, clicks: 60, spend: 300_000 },
    ]);
    const month = async (shopId: number) => (await l.admin.get(`/api/shops/${shopId}/ad-spend`)).json().totals;
    const [a, b] = [await month(l.shopId), await month(other)];

    const d = await dashboard();
    expect(d.ad.from).toBe('2026-11-01');
    expect(d.ad.to).toBe('2026-11-21');
    expect(d.ad.byShop).toEqual([{ shopId: other, shopName: '업체 other', ...b }, { shopId: l.shopId, shopName: '미소치과', ...a }]);
    // The other shop's lead was entered by hand: not from an ad, so in no CPA, counted apart.
    expect(b).toMatchObject({ spend: 300_000, validLeads: 0, cpa: null, otherLeads: 1 });
    expect(a).toMatchObject({ spend: 100_000, validLeads: 2, cpa: 50_000, otherLeads: 0 });
    expect(d.ad.totals).toEqual({ impressions: 8000, clicks: 160, spend: 400_000, leads: 2, validLeads: 2, ctr: 2, cvr: 1.25, cpl: 200_000, cpa: 200_000, otherLeads: 1 });
  });

  it('leaves the money out for an account without 계약 현황 and 광고 현황', async () => {
    const type = await l.admin.post('/api/account-types', { name: '현황 보조', area: 'admin', dataScope: 'all' });
    expect(type.statusCode, type.body).toBe(201);
    const set = await l.admin.put(`/api/permissions/${type.json().id}`, { permissions: { dashboard: 'read' }, canUnmask: false, canExport: false });
    expect(set.statusCode, set.body).toBe(200);
    expect((await l.admin.post('/api/accounts', { loginId: 'viewer', password: TEST_PASSWORD, name: '현황 보조', accountTypeId: type.json().id })).statusCode).toBe(201);
    const d = await dashboard(await l.login('viewer', TEST_PASSWORD));
    expect(d.contracts).toBeNull();
    expect(d.ad).toBeNull();
    expect(d.delivery).toBeNull();
    expect(d.reservations).toBeNull();
    expect(d.leads.today).toBe(0);
  });
});

describe('delivery and system reservations on the dashboard', () => {
  let l: LandingTestApp;
  let landing: number;
  let other: number;
  let quiet: number;
  beforeEach(async () => {
    l = await landingTestApp(LONG_SESSIONS);
    landing = await openLanding(l);
    other = await createShop(l.admin, 'other');
    quiet = await createShop(l.admin, 'quiet');
  });
  afterEach(async () => {
    await l.close();
  });

  const NOW = '2026-11-21T01:00:00.000Z';
  const dashboard = async (c: Client = l.admin) => {
    const res = await c.get('/api/dashboard');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  async function channel(shopId: number, name: string, o: { enabled?: boolean; gone?: boolean } = {}): Promise<number> {
    return (await l.app.db
      .insertInto('delivery_channels')
      .values({
        shop_id: shopId, name, kind: 'webhook', enabled: o.enabled === false || o.gone ? 0 : 1, mode: 'instant', config: '{"url":"https://crm.example.com/hook"}', secret: 'whsec_test',
        disabled_reason: o.gone ? '수신 서버가 410 Gone으로 답했습니다.' : null, disabled_at: o.gone ? NOW : null, created_at: NOW, updated_at: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow()).id;
  }
  /** A job of a lead entered by hand in the shop, as it stands after `attempts` tries. */
  let entered = 0;
  async function job(shopId: number, channelId: number, status: 'pending' | 'succeeded' | 'failed' | 'cancelled', attempts: number): Promise<void> {
    const phone = `010-7300-${String(++entered).padStart(4, '0')}`;
    const res = await l.admin.post(`/api/shops/${shopId}/data-insertion/leads`, { name: '고객', phone, landingId: null, mediaTypeId: null, consentBasis: 'phone-verbal' });
    expect(res.statusCode, res.body).toBe(201);
    const lead = await l.app.db.selectFrom('leads').select('id').where('shop_id', '=', shopId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await l.app.db.insertInto('delivery_jobs').values({
      shop_id: shopId, channel_id: channelId, lead_id: lead.id, status, trigger: 'intake', attempts, next_attempt_at: NOW, idempotency_key: crypto.randomUUID(),
      last_error: status === 'failed' ? '수신 서버가 HTTP 503으로 답했습니다.' : null, created_at: NOW, updated_at: NOW,
    }).execute();
  }

  it('lists the shops whose delivery is in trouble, the most failed first, with totals', async () => {
    // 미소치과: one failed, one retrying, one waiting its first try, one delivered, one cancelled; a channel a 410 turned off.
    const crm = await channel(l.shopId, 'CRM');
    await channel(l.shopId, '문자', { gone: true });
    await job(l.shopId, crm, 'failed', 8);
    await job(l.shopId, crm, 'pending', 1);
    await job(l.shopId, crm, 'pending', 0);
    await job(l.shopId, crm, 'succeeded', 1);
    await job(l.shopId, crm, 'cancelled', 2);
    // other: two failed on channels since turned off by 410s; a channel paused by staff does not count.
    const gone1 = await channel(other, '본사 CRM', { gone: true });
    const gone2 = await channel(other, '지점 CRM', { gone: true });
    await channel(other, '쉬는 채널', { enabled: false });
    await job(other, gone1, 'failed', 8);
    await job(other, gone2, 'failed', 1);
    // quiet: only deliveries that went well.
    const fine = await channel(quiet, '정상 채널');
    await job(quiet, fine, 'succeeded', 1);
    await job(quiet, fine, 'succeeded', 2);

    const d = await dashboard();
    expect(d.delivery).toEqual({
      totals: { failed: 3, retrying: 1, channelsOff: 3 },
      byShop: [
        { shopId: other, shopName: '업체 other', failed: 2, retrying: 0, channelsOff: 2 },
        { shopId: l.shopId, shopName: '미소치과', failed: 1, retrying: 1, channelsOff: 1 },
      ],
    });
    // Each shop's own 대기·실패 중 counts the same failures.
    for (const row of d.delivery.byShop) {
      const summary = await l.admin.get(`/api/shops/${row.shopId}/deliveries/summary`);
      expect(summary.statusCode, summary.body).toBe(200);
      expect(summary.json().failed).toBe(row.failed);
    }
  });

  it('shows the next five system reservations under way or scheduled, the earliest first', async () => {
    const reserve = async (body: Record<string, unknown>) => {
      const res = await l.admin.post('/api/system-reservations', body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    };
    const announcement = await reserve({ kind: 'announcement', title: '12월 정산 안내', startsAt: NOW, endsAt: '2026-11-28T01:00:00.000Z', message: '정산서는 5일에 발행합니다.', accountTypeIds: [] });
    const maintenance = await reserve({ kind: 'maintenance', title: '정기 점검', startsAt: '2026-11-29T17:00:00.000Z', endsAt: '2026-11-29T19:00:00.000Z', message: '서버 점검' });
    const close = await reserve({ kind: 'landing-close', title: '이벤트 종료', startsAt: '2026-11-22T15:00:00.000Z', landingId: landing });
    const opens: number[] = [];
    for (const day of ['23', '24', '25']) opens.push(await reserve({ kind: 'landing-open', title: `${day}일 재게시`, startsAt: `2026-11-${day}T00:00:00.000Z`, landingId: landing }));
    const cancelled = await reserve({ kind: 'landing-close', title: '취소된 종료', startsAt: '2026-11-21T12:00:00.000Z', landingId: landing });
    expect((await l.admin.post(`/api/system-reservations/${cancelled}/cancel`, { reason: '일정 변경' })).statusCode).toBe(200);
    // The worker puts the announcement up.
    expect((await reservationsJob(l.app.db, l.clock.now, { setLandingStatus: l.app.links.setLandingStatus }).run()).map((r) => [r.id, r.status])).toEqual([[announcement, 'running']]);

    const d = await dashboard();
    expect(d.reservations).toEqual([
      { id: announcement, kind: 'announcement', title: '12월 정산 안내', startsAt: NOW, endsAt: '2026-11-28T01:00:00.000Z', status: 'running' },
      { id: close, kind: 'landing-close', title: '이벤트 종료', startsAt: '2026-11-22T15:00:00.000Z', endsAt: null, status: 'scheduled' },
      ...opens.map((id, i) => ({ id, kind: 'landing-open', title: `${23 + i}일 재게시`, startsAt: `2026-11-${23 + i}T00:00:00.000Z`, endsAt: null, status: 'scheduled' })),
    ]);

    // Once the closing ran it is history: the maintenance window comes into the five.
    l.clock.current = new Date('2026-11-22T15:00:10.000Z');
    await reservationsJob(l.app.db, l.clock.now, { setLandingStatus: l.app.links.setLandingStatus }).run();
    const later = await dashboard();
    expect(later.reservations.map((r: { id: number; status: string }) => [r.id, r.status])).toEqual([
      [announcement, 'running'], ...opens.map((id) => [id, 'scheduled']), [maintenance, 'scheduled'],
    ]);
  });
});
