import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { leadBody, openLanding, shopAccount, submit, type LandingTestApp, landingTestApp, LONG_SESSIONS, addMedium, openCheckup } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';
import { reopenJob } from '../../worker/reopen.ts';

let t: LandingTestApp;
let implant: number;
let checkup: number;
let media: number;
let counselor: Client;
beforeEach(async () => {
  t = await landingTestApp(LONG_SESSIONS);
  media = await addMedium(t, '메타', 'meta');
  implant = await openLanding(t, { mediaTypeId: media });
  checkup = await openCheckup(t);
  counselor = await shopAccount(t, 'csa1', 'counselor');
  await shopAccount(t, 'csb2', 'counselor');
});
afterEach(async () => {
  await t.close();
});

const url = () => `/api/shops/${t.shopId}/dashboard`;
const at = (iso: string) => void (t.clock.current = new Date(iso));

/** Submits a lead through a landing's public form at the clock's time and answers its id. */
async function lead(landing: 'implant' | 'checkup', phone: string): Promise<number> {
  const id = landing === 'implant' ? implant : checkup;
  const res = await submit(t, leadBody(t, id, { landingCode: landing, phone }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}
const patch = async (id: number, body: Record<string, unknown>) => {
  const res = await t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${id}`, body);
  expect(res.statusCode, res.body).toBe(200);
};
const assign = async (ids: number[], loginId: string) => {
  const account = await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow();
  await t.app.db.updateTable('leads').set({ assignee_id: account.id }).where('id', 'in', ids).execute();
};

/**
 * Leads from 21 November to 25 December 10:00 in Seoul (times below are Seoul's):
 * L1 implant, L2 checkup on 21 Nov 10:00; L3 implant 30 Nov 23:50; L4 implant 1 Dec 00:10 (30 Nov in UTC);
 * L5 implant, L6 checkup 24 Dec 09:00; L7 checkup 24 Dec 11:00; L8 implant, L9 implant (duplicates L5) 25 Dec 09:20;
 * L10 checkup 25 Dec 09:50. Implant's medium is 메타, checkup has none.
 */
async function story() {
  const L1 = await lead('implant', '010-4000-0001');
  const L2 = await lead('checkup', '010-4000-0002');
  at('2026-11-30T14:50:00.000Z');
  const L3 = await lead('implant', '010-4000-0003');
  at('2026-11-30T15:10:00.000Z');
  const L4 = await lead('implant', '010-4000-0004');
  at('2026-12-24T00:00:00.000Z');
  const L5 = await lead('implant', '010-4000-0005');
  const L6 = await lead('checkup', '010-4000-0006');
  at('2026-12-24T02:00:00.000Z');
  const L7 = await lead('checkup', '010-4000-0007');
  at('2026-12-25T00:20:00.000Z');
  const L8 = await lead('implant', '010-4000-0008');
  const L9 = await lead('implant', '010-4000-0005');
  at('2026-12-25T00:50:00.000Z');
  const L10 = await lead('checkup', '010-4000-0010');
  at('2026-12-25T01:00:00.000Z');
  await patch(L4, { csStatus: '상담예약', reservedAt: '2026-12-25T14:30:00.000Z' }); // 23:30 today
  await patch(L5, { csStatus: '부재' });
  await patch(L6, { csStatus: '상담예약', reservedAt: '2026-12-25T05:00:00.000Z' }); // 14:00 today
  await patch(L7, { csStatus: '통화완료' });
  await assign([L6, L8], 'csa1');
  await assign([L5], 'csb2');
  return { L1, L2, L3, L4, L5, L6, L7, L8, L9, L10 };
}

/** L5 came from an experiment's variant A, L8 and L9 (its duplicate) from B (the intake's attribution: experiments.test.ts). */
const fromVariants = ({ L5, L8, L9 }: Awaited<ReturnType<typeof story>>) =>
  Promise.all([[L5, 'A'], [L8, 'B'], [L9, 'B']].map(([id, variant]) =>
    t.app.db.updateTable('leads').set({ experiment_id: 1, variant: variant as string }).where('id', '=', id as number).execute()));

describe('the shop dashboard', () => {
  it('counts today and this month against the same stretch before, by medium, landing and status, what waits, and 30 days', async () => {
    await fromVariants(await story());
    const res = await t.admin.get(url());
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({ today: '2026-12-25', monthStart: '2026-12-01', backlogStart: '2026-09-27' });
    // Yesterday to 10:00 (L5, L6; not L7 at 11:00); November to the 25th at 10:00 (L1, L2; not L3).
    expect(d.leads).toEqual({ today: 3, yesterday: 2, month: 7, lastMonth: 2, duplicatesToday: 1, duplicatesMonth: 1 });
    expect(d.byMedium).toEqual([{ mediaTypeId: media, medium: '메타', count: 4, duplicates: 1 }, { mediaTypeId: null, medium: '미지정', count: 3, duplicates: 0 }]);
    expect(d.byLanding).toEqual([
      { landingId: implant, title: '임플란트 상담 이벤트', count: 4, duplicates: 1, variants: [{ key: 'A', count: 1, duplicates: 0 }, { key: 'B', count: 2, duplicates: 1 }] },
      { landingId: checkup, title: '건강검진 이벤트', count: 3, duplicates: 0, variants: [] },
    ]);
    expect(d.byStatus).toEqual([
      { status: '미처리', count: 2 }, { status: '부재', count: 1 }, { status: '통화완료', count: 1 }, { status: '상담예약', count: 2 }, { status: '중복', count: 1 },
    ]);
    // Not a duplicate, held by no one: L1, L2, L3, L4, L7, L10.
    expect(d.unassigned).toBe(6);
    // 미처리 for over 30 minutes: L1, L2, L3 and L8 (40 minutes), not L10 (10 minutes).
    expect(d).toMatchObject({ overdue: 4, overdueMinutes: 30, appointmentsToday: 2 });

    expect(d.daily).toHaveLength(30);
    expect(d.daily[0].day).toBe('2026-11-26');
    const day = (x: string) => d.daily.find((r: { day: string }) => r.day === x);
    expect(day('2026-11-30')).toEqual({ day: '2026-11-30', count: 1, duplicates: 0 });
    expect(day('2026-12-01')).toEqual({ day: '2026-12-01', count: 1, duplicates: 0 });
    expect(day('2026-12-24')).toEqual({ day: '2026-12-24', count: 3, duplicates: 0 });
    expect(d.daily.at(-1)).toEqual({ day: '2026-12-25', count: 3, duplicates: 1 });
    expect(d.daily.reduce((s: number, r: { count: number }) => s + r.count, 0)).toBe(8);
  });

  it('marks overdue by the shop’s own threshold, and the waiting figures look back 90 days', async () => {
    await story();
    await t.admin.put(`/api/shops/${t.shopId}/lead-settings`, { overdueMinutes: 5 });
    expect((await t.admin.get(url())).json()).toMatchObject({ overdue: 5, overdueMinutes: 5 });

    // 25 February: 21 November is more than 90 days back, 30 November is not.
    at('2027-02-25T01:00:00.000Z');
    const d = (await t.admin.get(url())).json();
    expect(d).toMatchObject({ backlogStart: '2026-11-28', unassigned: 4, overdue: 3 });
    expect(d.leads).toEqual({ today: 0, yesterday: 0, month: 0, lastMonth: 0, duplicatesToday: 0, duplicatesMonth: 0 });
    expect(d.byStatus).toEqual([]);
  });

  it('gives a counselor the figures of their own leads only', async () => {
    await fromVariants(await story());
    const d = (await counselor.get(url())).json();
    expect(d.leads).toEqual({ today: 1, yesterday: 1, month: 2, lastMonth: 0, duplicatesToday: 0, duplicatesMonth: 0 });
    expect(d).toMatchObject({ unassigned: null, overdue: 1, appointmentsToday: 1 });
    expect(d.byStatus).toEqual([{ status: '미처리', count: 1 }, { status: '상담예약', count: 1 }]);
    expect(d.byLanding.map((l: { title: string; count: number }) => [l.title, l.count])).toEqual([['임플란트 상담 이벤트', 1], ['건강검진 이벤트', 1]]);
    // 실험안별 too: only L8 (B) is theirs.
    expect(d.byLanding[0].variants).toEqual([{ key: 'B', count: 1, duplicates: 0 }]);
    expect(d.daily.slice(-2).map((r: { count: number }) => r.count)).toEqual([1, 1]);
  });

  it('refuses another shop', async () => {
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id;
    expect((await counselor.get(url())).statusCode).toBe(200);
    expect((await counselor.get(`/api/shops/${other}/dashboard`)).statusCode).toBe(403);
    expect((await t.anonymous.get(url())).statusCode).toBe(401);
  });
});

describe('the money on the shop dashboard', () => {
  const contractsUrl = () => `/api/shops/${t.shopId}/contracts`;
  async function contract(extra: Record<string, unknown>): Promise<number> {
    const res = await t.admin.post(contractsUrl(), {
      name: '11월 임플란트', startsOn: '2026-11-01', endsOn: '2026-11-30', quantity: 10, unitPrice: 30_000, dailyCap: null,
      landingIds: [implant], mediaTypeIds: [], returnWindowDays: 7, maxReturnRate: 10, autoClose: false, memo: '', ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  }
  const status = async (id: number) => {
    const res = await t.admin.get(`${contractsUrl()}/status?contractId=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().contracts[0];
  };
  const dashboard = async (c: Client = t.admin) => {
    const res = await c.get(url());
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const reopen = () => reopenJob(t.app.db, () => t.clock.now(), { changed: t.app.links.landingsChanged }).run();

  it('shows each running and lately ended contract as 계약 현황 counts it, and this month’s ad spend as 광고 현황 adds it', async () => {
    const november = await contract({});
    const checkups = await contract({ name: '검진 상반기', endsOn: '2026-11-15', quantity: 5, landingIds: [checkup] });
    // Ended three weeks ago: no longer on the dashboard.
    await contract({ name: '10월 임플란트', startsOn: '2026-10-01', endsOn: '2026-10-31', quantity: 5 });
    at('2026-10-31T01:00:00.000Z');
    await lead('implant', '010-5000-0000');
    at('2026-11-10T01:00:00.000Z');
    await lead('checkup', '010-5000-0001');
    at('2026-11-19T01:00:00.000Z');
    await lead('implant', '010-5000-0002');
    await lead('implant', '010-5000-0003');
    at('2026-11-20T01:00:00.000Z');
    await lead('implant', '010-5000-0004');
    at('2026-11-21T01:00:00.000Z');
    await lead('implant', '010-5000-0005');
    await lead('checkup', '010-5000-0006');
    const spend = (rows: unknown[]) => t.admin.put(`/api/shops/${t.shopId}/ad-spend`, { rows });
    expect((await spend([
      { day: '2026-10-31', mediaTypeId: media, impressions: 1000, clicks: 10, spend: 50_000 },
      { day: '2026-11-19', mediaTypeId: media, impressions: 2000, clicks: 100, spend: 120_000 },
      { day: '2026-11-21', mediaTypeId: media, impressions: 1000, clicks: 40, spend: 60_000 },
    ])).statusCode).toBe(200);

    const d = await dashboard();
    expect(d.contracts.items.map((c: { contract: { id: number; status: string } }) => [c.contract.id, c.contract.status])).toEqual([
      [november, 'active'], [checkups, 'completed'],
    ]);
    const [nov, chk] = d.contracts.items;
    // 계약 현황's own figures, to the count.
    for (const [shown, id] of [[nov, november], [chk, checkups]] as const) {
      const s = await status(id);
      expect(shown).toMatchObject({
        counted: s.counted, quantity: s.quantity, remaining: s.remaining, todayCount: s.todayCount, projectedOn: s.projectedOn,
        dailyAverage: s.dailyAverage, lastDay: s.lastDay, replacementsOwed: s.replacementsOwed,
      });
    }
    // 19th to today: four implant leads of ten; at 4 in 21 days the rest takes 32 days more.
    expect(nov).toMatchObject({
      counted: 4, quantity: 10, remaining: 6, todayCount: { valid: 1, billable: 1, dailyCap: null }, projectedOn: '2026-12-23', lastDay: '2026-11-30',
      closedLandings: [], contract: { name: '11월 임플란트', startsOn: '2026-11-01', endsOn: '2026-11-30', autoClose: false },
    });
    expect(chk).toMatchObject({ counted: 1, quantity: 5, remaining: 4, todayCount: { valid: 0, billable: 0, dailyCap: null }, lastDay: '2026-11-15' });
    expect(d.contracts.capEvents).toEqual([]);

    // This month to today, as 광고 현황 opens: October's spend and lead left out.
    const ads = await t.admin.get(`/api/shops/${t.shopId}/ad-spend`);
    expect(ads.statusCode, ads.body).toBe(200);
    expect(d.ad).toEqual({ from: '2026-11-01', to: '2026-11-21', totals: ads.json().totals, media: ads.json().media });
    // The checkup landing names no medium: its two leads are not set against any ad, and are counted apart.
    expect(d.ad.totals).toEqual({ impressions: 3000, clicks: 140, spend: 180_000, leads: 4, validLeads: 4, ctr: 4.67, cvr: 2.86, cpl: 45_000, cpa: 45_000, otherLeads: 2 });
    expect(d.ad.media.map((m: { mediaTypeName: string; spend: number; validLeads: number; cpa: number | null }) => [m.mediaTypeName, m.spend, m.validLeads, m.cpa])).toEqual([
      ['메타', 180_000, 4, 45_000],
    ]);
  });

  it('shows a daily cap’s closing and its reopening after Seoul midnight', async () => {
    const id = await contract({ name: '일 한도 계약', quantity: 100, dailyCap: 2, autoClose: true });
    await lead('implant', '010-6000-0001');
    let d = await dashboard();
    expect(d.contracts.items[0]).toMatchObject({ todayCount: { valid: 1, billable: 1, dailyCap: 2 }, closedLandings: [] });
    await lead('implant', '010-6000-0002');

    d = await dashboard();
    expect(d.contracts.items[0]).toMatchObject({
      contract: { id }, todayCount: { valid: 2, billable: 2, dailyCap: 2 },
      closedLandings: [{ id: implant, title: '임플란트 상담 이벤트', reopenAt: '2026-11-21T15:00:00.000Z' }],
    });
    expect(d.contracts.capEvents).toEqual([
      { id: expect.any(Number), kind: 'closed-daily', landingId: implant, landingTitle: '임플란트 상담 이벤트', count: 2, at: '2026-11-21T01:00:00.000Z', contractId: id, contractName: '일 한도 계약' },
    ]);
    // 계약 현황 says the same.
    expect((await status(id)).closedLandings).toEqual(d.contracts.items[0].closedLandings);

    // Past Seoul midnight the landing is open before the job runs; the job records the reopening.
    at('2026-11-21T15:00:01.000Z');
    d = await dashboard();
    expect(d.contracts.items[0]).toMatchObject({ todayCount: { valid: 0, billable: 0, dailyCap: 2 }, closedLandings: [] });
    expect(await reopen()).toEqual([implant]);
    d = await dashboard();
    expect(d.contracts.capEvents.map((e: { kind: string; count: number; at: string }) => [e.kind, e.count, e.at])).toEqual([
      ['reopened', 2, '2026-11-21T15:00:01.000Z'],
      ['closed-daily', 2, '2026-11-21T01:00:00.000Z'],
    ]);
  });

  it('sends no contract or advertising figures to a counselor, the contracts but not the spend to the shop owner, both to a marketer', async () => {
    await contract({});
    await lead('implant', '010-7000-0001');
    const d = await dashboard(counselor);
    expect(d.contracts).toBeNull();
    expect(d.ad).toBeNull();
    const owner = await dashboard(await shopAccount(t, 'owner1', 'shop-owner'));
    expect(owner.contracts.items).toHaveLength(1);
    expect(owner.ad).toBeNull();
    const marketer = await dashboard(await shopAccount(t, 'marketer1', 'marketer'));
    expect(marketer.ad.totals).toMatchObject({ leads: 1, validLeads: 1, spend: 0, cpa: 0 });
  });
});

describe('delivery on the shop dashboard', () => {
  const dashboard = async (c: Client = t.admin) => {
    const res = await c.get(url());
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** A lead through the public form, named, at the clock's time. */
  async function named(name: string, phone: string): Promise<number> {
    const res = await submit(t, leadBody(t, implant, { landingCode: 'implant', name, phone }));
    expect(res.statusCode, res.body).toBe(201);
    return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
  }
  /** A channel row as DB 전송 설정 stores it. */
  async function channel(shopId: number, name: string, kind: 'webhook' | 'email' | 'sms', o: { enabled?: boolean; gone?: string } = {}): Promise<number> {
    const now = t.clock.now().toISOString();
    const row = await t.app.db
      .insertInto('delivery_channels')
      .values({
        shop_id: shopId, name, kind, enabled: o.enabled === false ? 0 : 1, mode: 'instant', config: JSON.stringify({ url: 'https://crm.example.com/hook', timeoutMs: 5000 }),
        secret: 'whsec_test', disabled_reason: o.gone ?? null, disabled_at: o.gone ? now : null, created_at: now, updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const jobOf = async (leadId: number, channelId: number) =>
    (await t.app.db.selectFrom('delivery_jobs').select('id').where('lead_id', '=', leadId).where('channel_id', '=', channelId).executeTakeFirstOrThrow()).id;
  /** A job written as the outbox writes it (for a channel that was off when the lead came). */
  async function insertJob(shopId: number, leadId: number, channelId: number): Promise<number> {
    const now = t.clock.now().toISOString();
    const row = await t.app.db
      .insertInto('delivery_jobs')
      .values({
        shop_id: shopId, channel_id: channelId, lead_id: leadId, status: 'pending', trigger: 'intake', attempts: 0, next_attempt_at: now,
        idempotency_key: crypto.randomUUID(), created_at: now, updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  /** Attempts as the worker records them, and the job's state after the last. */
  async function tried(jobId: number, outcomes: Array<{ at: string; code: number | null; error?: string }>, after: { status: 'pending' | 'succeeded' | 'failed'; at: string }) {
    const job = await t.app.db.selectFrom('delivery_jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    await t.app.db.insertInto('delivery_attempts').values(outcomes.map((o, i) => ({
      job_id: jobId, shop_id: job.shop_id, channel_id: job.channel_id, lead_id: job.lead_id, attempt: i + 1, status: o.error ? 'failed' as const : 'succeeded' as const,
      response_code: o.code, error: o.error ?? null, response_excerpt: null, duration_ms: 120, worker: 'test', at: o.at,
    }))).execute();
    const last = outcomes.at(-1)!;
    await t.app.db.updateTable('delivery_jobs').set({
      status: after.status, attempts: outcomes.length, response_code: last.code, last_error: last.error ?? null, updated_at: after.at,
      ...(after.status === 'succeeded' ? { delivered_at: last.at } : {}), ...(after.status === 'pending' ? { next_attempt_at: '2026-11-21T02:00:00.000Z' } : {}),
    }).where('id', '=', jobId).execute();
  }
  const HTTP_503 = '수신 서버가 HTTP 503으로 답했습니다.';
  const GONE = '수신 서버가 410 Gone으로 답했습니다: 이 주소는 더 이상 받지 않습니다.';

  /**
   * 20 Nov 22:00 Seoul, five leads reach the enabled webhook 'CRM' (the outbox writes a job each);
   * the SMS channel '문자' is off by a 410, the mail '메일' paused by staff. At 21 Nov 10:00:
   * 홍길동 delivered today, 박민수 at Seoul midnight exactly, 최지훈 a second before it (yesterday);
   * 김영희 failed 8 times; 이수진 retrying after two failures; 정하나 not tried yet; 홍길동 also failed
   * on '문자' with its 410. Another shop has a failure of its own.
   */
  async function story() {
    at('2026-11-20T13:00:00.000Z');
    const crm = await channel(t.shopId, 'CRM', 'webhook');
    const sms = await channel(t.shopId, '문자', 'sms', { enabled: false, gone: GONE });
    await channel(t.shopId, '메일', 'email', { enabled: false });
    const hong = await named('홍길동', '010-7100-0001');
    const kim = await named('김영희', '010-7100-0002');
    const lee = await named('이수진', '010-7100-0003');
    const park = await named('박민수', '010-7100-0004');
    const choi = await named('최지훈', '010-7100-0005');
    const jung = await named('정하나', '010-7100-0006');
    // Only the enabled channel got jobs, one per lead.
    expect(await t.app.db.selectFrom('delivery_jobs').select('channel_id').execute()).toEqual(Array(6).fill({ channel_id: crm }));
    const smsJob = await insertJob(t.shopId, hong, sms);

    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id as number;
    const entered = await t.admin.post(`/api/shops/${other}/data-insertion/leads`, { name: '다른고객', phone: '010-7200-0001', landingId: null, mediaTypeId: media, consentBasis: 'phone-verbal' });
    expect(entered.statusCode, entered.body).toBe(201);
    const otherLead = (await t.app.db.selectFrom('leads').select('id').where('shop_id', '=', other).executeTakeFirstOrThrow()).id;
    const otherJob = await insertJob(other, otherLead, await channel(other, '다른 CRM', 'webhook', { enabled: false }));

    await tried(await jobOf(hong, crm), [{ at: '2026-11-21T00:30:00.000Z', code: 200 }], { status: 'succeeded', at: '2026-11-21T00:30:00.000Z' });
    await tried(await jobOf(park, crm), [{ at: '2026-11-20T14:59:50.000Z', code: 503, error: HTTP_503 }, { at: '2026-11-20T15:00:00.000Z', code: 200 }], {
      status: 'succeeded', at: '2026-11-20T15:00:00.000Z',
    });
    await tried(await jobOf(choi, crm), [{ at: '2026-11-20T14:59:59.000Z', code: 200 }], { status: 'succeeded', at: '2026-11-20T14:59:59.000Z' });
    const eight = Array.from({ length: 8 }, (_, i) => ({ at: new Date(Date.parse('2026-11-21T00:30:00.000Z') + i * 60_000).toISOString(), code: 503, error: HTTP_503 }));
    await tried(await jobOf(kim, crm), eight, { status: 'failed', at: '2026-11-21T00:37:00.000Z' });
    await tried(await jobOf(lee, crm), [{ at: '2026-11-21T00:50:00.000Z', code: null, error: '5,000ms 안에 응답이 없었습니다.' }, { at: '2026-11-21T00:51:00.000Z', code: 503, error: HTTP_503 }], {
      status: 'pending', at: '2026-11-21T00:51:00.000Z',
    });
    await tried(smsJob, [{ at: '2026-11-20T14:00:00.000Z', code: 410, error: GONE }], { status: 'failed', at: '2026-11-20T14:00:00.000Z' });
    await tried(otherJob, [{ at: '2026-11-21T00:10:00.000Z', code: 500, error: '다른 업체' }], { status: 'failed', at: '2026-11-21T00:10:00.000Z' });
    at('2026-11-21T01:00:00.000Z');
    return { crm, sms, hong, kim, lee, jung, smsJob, other };
  }

  it('counts failed jobs, retries waiting and today’s deliveries, names the channels a 410 turned off, and lists the latest failures without phones', async () => {
    const s = await story();
    const d = await dashboard();
    expect(d.delivery).toEqual({
      failed: 2,
      retrying: 1,
      // 홍길동 at 09:30 and 박민수 at 00:00:00 today; 최지훈 at 23:59:59 yesterday is not today's.
      deliveredToday: 2,
      channelsOff: [{ id: s.sms, name: '문자', kind: 'sms', reason: GONE, at: '2026-11-20T13:00:00.000Z' }],
      failures: [
        {
          jobId: await jobOf(s.kim, s.crm), leadId: s.kim, leadName: '김영희', channelId: s.crm, channelName: 'CRM', channelKind: 'webhook',
          at: '2026-11-21T00:37:00.000Z', attempts: 8, responseCode: 503, error: HTTP_503,
        },
        {
          jobId: s.smsJob, leadId: s.hong, leadName: '홍길동', channelId: s.sms, channelName: '문자', channelKind: 'sms',
          at: '2026-11-20T14:00:00.000Z', attempts: 1, responseCode: 410, error: GONE,
        },
      ],
    });
    expect(JSON.stringify(d.delivery)).not.toMatch(/7100/);
    // The other shop's failure is its own.
    const other = (await t.admin.get(`/api/shops/${s.other}/dashboard`)).json().delivery;
    expect(other).toMatchObject({ failed: 1, retrying: 0, deliveredToday: 0, channelsOff: [] });
    expect(other.failures.map((f: { leadName: string; error: string }) => [f.leadName, f.error])).toEqual([['다른고객', '다른 업체']]);

    // A failure retried by hand is no longer failed; a destroyed lead's name is not shown.
    await t.app.db.updateTable('delivery_jobs').set({ status: 'pending', next_attempt_at: '2026-11-21T01:00:00.000Z' }).where('id', '=', s.smsJob).execute();
    await t.app.db.updateTable('leads').set({ purged_at: '2026-11-21T00:59:00.000Z' }).where('id', '=', s.kim).execute();
    const after = (await dashboard()).delivery;
    expect(after).toMatchObject({ failed: 1, retrying: 2, deliveredToday: 2 });
    expect(after.failures.map((f: { leadName: string; attempts: number }) => [f.leadName, f.attempts])).toEqual([['파기됨', 8]]);
  });

  it('sends the delivery figures only to accounts that may read DB 전송 이력, counting an assigned-only account’s own leads', async () => {
    const s = await story();
    expect((await dashboard(counselor)).delivery).toBeNull();
    const owner = await dashboard(await shopAccount(t, 'owner1', 'shop-owner'));
    expect(owner.delivery).toMatchObject({ failed: 2, retrying: 1, deliveredToday: 2 });

    // A shop type that sees only its assigned leads, with DB 전송 이력: the jobs of its own leads.
    const type = await t.admin.post('/api/account-types', { name: '전송 담당', area: 'shop', dataScope: 'assigned' });
    expect(type.statusCode, type.body).toBe(201);
    const set = await t.admin.put(`/api/permissions/${type.json().id}`, {
      permissions: { 'shop-dashboard': 'read', 'shop-data-deliver-history': 'read' }, canUnmask: false, canExport: false,
    });
    expect(set.statusCode, set.body).toBe(200);
    const created = await t.admin.post('/api/accounts', { loginId: 'sender1', password: 'Shop-pass-2026', name: '전송 담당', accountTypeId: type.json().id });
    expect(created.statusCode, created.body).toBe(201);
    expect((await t.admin.put(`/api/shop-permissions/${created.json().id}`, { shopIds: [t.shopId] })).statusCode).toBe(200);
    await t.app.db.updateTable('leads').set({ assignee_id: created.json().id }).where('id', 'in', [s.kim, s.lee]).execute();
    const mine = await dashboard(await t.login('sender1', 'Shop-pass-2026'));
    expect(mine.delivery).toMatchObject({ failed: 1, retrying: 1, deliveredToday: 0 });
    expect(mine.delivery.failures.map((f: { leadName: string }) => f.leadName)).toEqual(['김영희']);
    // The channels are the shop's, whoever looks.
    expect(mine.delivery.channelsOff).toHaveLength(1);
  });

  it('shows nothing in trouble for a shop without channels', async () => {
    await named('홍길동', '010-7100-0001');
    expect((await dashboard()).delivery).toEqual({ failed: 0, retrying: 0, deliveredToday: 0, channelsOff: [], failures: [] });
  });
});
