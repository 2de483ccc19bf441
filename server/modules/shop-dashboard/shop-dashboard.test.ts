import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingInput, leadBody, openLanding, shopAccount, submit, type LandingTestApp, landingTestApp } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';

let t: LandingTestApp;
let implant: number;
let checkup: number;
let media: number;
let counselor: Client;
beforeEach(async () => {
  // Sessions outlive the weeks the clock moves through.
  t = await landingTestApp({ sessionIdleMinutes: 1_000_000, sessionAbsoluteHours: 100_000 });
  media = (await t.admin.post('/api/codes/media-type', { name: '메타', code: 'meta' })).json().id as number;
  implant = await openLanding(t, { mediaTypeId: media });
  checkup = await openLanding(t, { ...landingInput(), landingCode: 'checkup', title: '건강검진 이벤트' });
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

describe('the shop dashboard', () => {
  it('counts today and this month against the same stretch before, by medium, landing and status, what waits, and 30 days', async () => {
    await story();
    const res = await t.admin.get(url());
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({ today: '2026-12-25', monthStart: '2026-12-01', backlogStart: '2026-09-27' });
    // Yesterday to 10:00 (L5, L6; not L7 at 11:00); November to the 25th at 10:00 (L1, L2; not L3).
    expect(d.leads).toEqual({ today: 3, yesterday: 2, month: 7, lastMonth: 2, duplicatesToday: 1, duplicatesMonth: 1 });
    expect(d.byMedium).toEqual([{ mediaTypeId: media, medium: '메타', count: 4, duplicates: 1 }, { mediaTypeId: null, medium: '미지정', count: 3, duplicates: 0 }]);
    expect(d.byLanding).toEqual([
      { landingId: implant, title: '임플란트 상담 이벤트', count: 4, duplicates: 1 },
      { landingId: checkup, title: '건강검진 이벤트', count: 3, duplicates: 0 },
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
    await story();
    const d = (await counselor.get(url())).json();
    expect(d.leads).toEqual({ today: 1, yesterday: 1, month: 2, lastMonth: 0, duplicatesToday: 0, duplicatesMonth: 0 });
    expect(d).toMatchObject({ unassigned: null, overdue: 1, appointmentsToday: 1 });
    expect(d.byStatus).toEqual([{ status: '미처리', count: 1 }, { status: '상담예약', count: 1 }]);
    expect(d.byLanding.map((l: { title: string; count: number }) => [l.title, l.count])).toEqual([['임플란트 상담 이벤트', 1], ['건강검진 이벤트', 1]]);
    expect(d.daily.slice(-2).map((r: { count: number }) => r.count)).toEqual([1, 1]);
  });

  it('refuses another shop', async () => {
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id;
    expect((await counselor.get(url())).statusCode).toBe(200);
    expect((await counselor.get(`/api/shops/${other}/dashboard`)).statusCode).toBe(403);
    expect((await t.anonymous.get(url())).statusCode).toBe(401);
  });
});
