import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leadBody, openLanding, shopAccount, submit, type LandingTestApp, landingTestApp, LONG_SESSIONS, addMedium, openCheckup } from '../../test-landings.ts';
import { billableDays } from '../../../contracts/money.ts';
import { billableRule } from './cpa.service.ts';
import { IMPORT_SOURCE } from '../../../contracts/data-insertion.ts';

let t: LandingTestApp;
/** 메타 (the implant landing's medium), 네이버 (the checkup landing's), 카카오 (no landing), 구글 (deactivated). */
let meta: number;
let naver: number;
let kakao: number;
let google: number;
let implant: number;
let checkup: number;

beforeEach(async () => {
  t = await landingTestApp(LONG_SESSIONS);
  meta = await addMedium(t, '메타', 'meta', { sortOrder: 1, active: true });
  naver = await addMedium(t, '네이버', 'naver', { sortOrder: 2, active: true });
  kakao = await addMedium(t, '카카오', 'kakao', { sortOrder: 3, active: true });
  google = await addMedium(t, '구글', 'google', { sortOrder: 4, active: false });
  implant = await openLanding(t, { mediaTypeId: meta });
  checkup = await openCheckup(t, { mediaTypeId: naver });
});
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/cpa`;
const at = (iso: string) => void (t.clock.current = new Date(iso));

/** Submits a lead through a landing's public form at `iso` and answers its id. */
async function lead(landing: 'implant' | 'checkup', phone: string, iso: string): Promise<number> {
  at(iso);
  const id = landing === 'implant' ? implant : checkup;
  const res = await submit(t, leadBody(t, id, { landingCode: landing, phone }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}
const invalidate = async (id: number) => {
  const res = await t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${id}`, { csStatus: '무효', reason: '결번' });
  expect(res.statusCode, res.body).toBe(200);
};
const remove = (id: number) => t.app.db.updateTable('leads').set({ deleted_at: t.clock.current.toISOString() }).where('id', '=', id).execute();

async function spend(day: string, mediaTypeId: number, amount: number, landingId = 0) {
  await t.app.db
    .insertInto('ad_spend')
    .values({ shop_id: t.shopId, day, media_type_id: mediaTypeId, landing_id: landingId, impressions: 1000, clicks: 10, spend: amount, updated_by: null, updated_at: '2026-11-01T00:00:00.000Z' })
    .execute();
}

async function contract(c: {
  startsOn: string; endsOn: string; quantity: number; unitPrice: number; dailyCap?: number | null; stoppedAt?: string | null; media?: number[]; landings?: number[];
}): Promise<number> {
  const { id } = await t.app.db
    .insertInto('shop_contracts')
    .values({
      shop_id: t.shopId, name: '계약', starts_on: c.startsOn, ends_on: c.endsOn, quantity: c.quantity, unit_price: c.unitPrice, daily_cap: c.dailyCap ?? null,
      stopped_at: c.stoppedAt ?? null, memo: null, created_by: null, created_at: '2026-10-01T00:00:00.000Z', updated_at: '2026-10-01T00:00:00.000Z',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const m of c.media ?? []) await t.app.db.insertInto('shop_contract_media').values({ contract_id: id, media_type_id: m }).execute();
  for (const l of c.landings ?? []) await t.app.db.insertInto('shop_contract_landings').values({ contract_id: id, landing_id: l }).execute();
  return id;
}

const saveTargets = (month: string, targets: Array<{ mediaTypeId: number; targetCpa: number | null }>) => t.admin.put(`${base()}/targets`, { month, targets });

interface Row { mediaTypeId: number | null; [k: string]: unknown }
const rowOf = (rows: Row[], id: number | null) => rows.find((r) => r.mediaTypeId === id);
const noRevenue = { billableLeads: 0, overCapLeads: 0, revenue: 0 };

describe('CPA by medium', () => {
  it('divides spend by valid leads (duplicates, 무효 and deleted left out), against the target', async () => {
    // 메타 in November (Seoul): L1, L2 valid; L3 a duplicate of L1; L4 무효; L5 deleted.
    await lead('implant', '010-5000-0001', '2026-11-02T01:00:00.000Z');
    await lead('implant', '010-5000-0002', '2026-11-02T02:00:00.000Z');
    await lead('implant', '010-5000-0001', '2026-11-03T01:00:00.000Z');
    await invalidate(await lead('implant', '010-5000-0004', '2026-11-04T01:00:00.000Z'));
    await remove(await lead('implant', '010-5000-0005', '2026-11-05T01:00:00.000Z'));
    // 네이버: one valid lead and no spend: a CPA of 0.
    await lead('checkup', '010-5000-0006', '2026-11-06T01:00:00.000Z');
    // 메타's spend: the medium's own row and a landing's row add up; October and December stay out.
    await spend('2026-11-01', meta, 30_000);
    await spend('2026-11-20', meta, 20_000, implant);
    await spend('2026-10-31', meta, 10_000);
    await spend('2026-12-01', meta, 70_000);
    // 구글 (deactivated) spent without leads: no CPA.
    await spend('2026-11-05', google, 15_000);
    expect((await saveTargets('2026-11', [{ mediaTypeId: meta, targetCpa: 20_000 }, { mediaTypeId: naver, targetCpa: 10_000 }, { mediaTypeId: kakao, targetCpa: 40_000 }])).statusCode).toBe(200);

    at('2026-11-21T01:00:00.000Z');
    const res = await t.admin.get(`${base()}?month=2026-11`);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d.month).toBe('2026-11');
    expect(d.currentMonth).toBe('2026-11');
    expect(d.rows.map((r: Row) => r.mediaTypeId)).toEqual([meta, naver, kakao, google]);
    expect(rowOf(d.rows, meta)).toEqual({
      mediaTypeId: meta, name: '메타', active: true, targetCpa: 20_000, spend: 50_000, leads: 4, validLeads: 2, actualCpa: 25_000,
      variance: { diff: 5_000, percent: 25 }, ...noRevenue, outsideLeads: 2, margin: -50_000, marginRate: null,
    });
    expect(rowOf(d.rows, naver)).toMatchObject({ targetCpa: 10_000, spend: 0, leads: 1, validLeads: 1, actualCpa: 0, variance: { diff: -10_000, percent: -100 } });
    expect(rowOf(d.rows, kakao)).toMatchObject({ targetCpa: 40_000, spend: 0, leads: 0, validLeads: 0, actualCpa: null, variance: null });
    expect(rowOf(d.rows, google)).toMatchObject({ name: '구글', active: false, targetCpa: null, spend: 15_000, validLeads: 0, actualCpa: null, variance: null, margin: -15_000 });
    // 65,000 over 3 valid leads; the target is the targets weighted by valid leads: (20,000×2 + 10,000×1 + 40,000×0) / 3.
    expect(d.totals).toEqual({
      targetCpa: 16_667, spend: 65_000, leads: 5, validLeads: 3, actualCpa: 21_667, variance: { diff: 5_000, percent: 30 },
      ...noRevenue, outsideLeads: 3, margin: -65_000, marginRate: null,
    });

    // December: only 메타's spend, no lead yet; no target.
    const dec = (await t.admin.get(`${base()}?month=2026-12&months=1`)).json();
    expect(dec.rows).toEqual([expect.objectContaining({ mediaTypeId: meta, spend: 70_000, leads: 0, validLeads: 0, actualCpa: null, targetCpa: null, variance: null })]);
    expect(dec.totals).toMatchObject({ targetCpa: null, actualCpa: null, variance: null, margin: -70_000 });
    expect(dec.trend.months).toEqual(['2026-12']);
  });

  it('answers an empty month and refuses a wrong one', async () => {
    const d = (await t.admin.get(base())).json();
    expect(d).toMatchObject({ month: '2026-11', currentMonth: '2026-11', rows: [] });
    expect(d.totals).toMatchObject({ targetCpa: null, spend: 0, validLeads: 0, actualCpa: null, variance: null, revenue: 0, margin: 0, marginRate: null });
    expect(d.trend.months).toEqual(['2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11']);
    expect(d.trend.media).toEqual([]);
    expect(d.trend.total).toHaveLength(6);

    const bad = await t.admin.get(`${base()}?month=2026-13`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ month: '달은 YYYY-MM 형식으로 입력하세요.' });
    expect((await t.admin.get(`${base()}?months=0`)).json().error.fields).toEqual({ months: '개월 수는 1 이상으로 입력하세요.' });
    expect((await t.admin.get(`${base()}?months=25`)).statusCode).toBe(400);
  });
});

describe('revenue and margin', () => {
  it('keeps leads entered by hand or imported out of CPA and margin, names them apart, and bills them as the contract says', async () => {
    // A contract over every landing and medium: 10,000 a valid lead.
    await contract({ startsOn: '2026-11-01', endsOn: '2026-11-30', quantity: 100, unitPrice: 10_000 });
    await lead('implant', '010-6100-0001', '2026-11-20T01:00:00.000Z');
    await lead('implant', '010-6100-0002', '2026-11-20T02:00:00.000Z');
    await spend('2026-11-20', meta, 50_000);
    const before = (await t.admin.get(`${base()}?month=2026-11`)).json();
    // A trade fair's leads: one entered by hand naming 메타, one without a medium; a third imported.
    const byHand = async (phone: string, mediaTypeId: number | null) => {
      const res = await t.admin.post(`/api/shops/${t.shopId}/data-insertion/leads`, { name: '박람회', phone, landingId: null, mediaTypeId, consentBasis: 'phone-verbal' });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    };
    at('2026-11-21T01:00:00.000Z');
    await byHand('010-6100-0003', meta);
    await byHand('010-6100-0004', null);
    const imported = await byHand('010-6100-0005', null);
    await t.app.db.updateTable('leads').set({ source: IMPORT_SOURCE }).where('id', '=', imported).execute();

    const d = (await t.admin.get(`${base()}?month=2026-11`)).json();
    // 50,000 over the two ad leads, as before the fair; their revenue only.
    expect(rowOf(d.rows, meta)).toMatchObject({ leads: 2, validLeads: 2, actualCpa: 25_000, billableLeads: 2, revenue: 20_000, margin: -30_000 });
    expect(d.rows).toEqual(before.rows);
    expect(d.totals).toEqual(before.totals);
    // Billed under the contract as ever, and shown apart.
    expect(d.other).toEqual({ leads: 3, validLeads: 3, billableLeads: 3, revenue: 30_000 });
    expect(before.other).toEqual({ leads: 0, validLeads: 0, billableLeads: 0, revenue: 0 });
  });

  it('earns the unit price on billable valid leads; past the daily cap and outside the contract earn nothing', async () => {
    // 30,000 a valid 메타 lead, at most 2 a day, in November.
    await contract({ startsOn: '2026-11-01', endsOn: '2026-11-30', quantity: 100, unitPrice: 30_000, dailyCap: 2, media: [meta] });
    // 20 Nov: two valid, and a duplicate that takes no place under the cap.
    await lead('implant', '010-6000-0001', '2026-11-20T01:00:00.000Z');
    await lead('implant', '010-6000-0002', '2026-11-20T01:05:00.000Z');
    await lead('implant', '010-6000-0001', '2026-11-20T01:10:00.000Z');
    // 21 Nov: a 무효 one first, then three valid: the third is over the cap.
    await invalidate(await lead('implant', '010-6000-0003', '2026-11-21T00:50:00.000Z'));
    await lead('implant', '010-6000-0004', '2026-11-21T01:00:00.000Z');
    await lead('implant', '010-6000-0005', '2026-11-21T01:05:00.000Z');
    await lead('implant', '010-6000-0006', '2026-11-21T01:10:00.000Z');
    // 네이버 is not the contract's medium.
    await lead('checkup', '010-6000-0007', '2026-11-21T02:00:00.000Z');
    // December: the contract has ended.
    await lead('implant', '010-6000-0008', '2026-12-02T01:00:00.000Z');
    await spend('2026-11-10', meta, 100_000);
    await spend('2026-11-10', naver, 10_000);

    const d = (await t.admin.get(`${base()}?month=2026-11&months=2`)).json();
    expect(rowOf(d.rows, meta)).toMatchObject({
      spend: 100_000, leads: 7, validLeads: 5, actualCpa: 20_000, billableLeads: 4, overCapLeads: 1, outsideLeads: 0, revenue: 120_000, margin: 20_000, marginRate: 16.7,
    });
    expect(rowOf(d.rows, naver)).toMatchObject({
      spend: 10_000, validLeads: 1, billableLeads: 0, overCapLeads: 0, outsideLeads: 1, revenue: 0, margin: -10_000, marginRate: null,
    });
    expect(d.totals).toMatchObject({ spend: 110_000, validLeads: 6, billableLeads: 4, overCapLeads: 1, outsideLeads: 1, revenue: 120_000, margin: 10_000, marginRate: 8.3 });

    const dec = (await t.admin.get(`${base()}?month=2026-12&months=2`)).json();
    expect(rowOf(dec.rows, meta)).toMatchObject({ validLeads: 1, billableLeads: 0, outsideLeads: 1, revenue: 0, margin: 0 });
    expect(dec.trend.total.map((p: { month: string; revenue: number; margin: number }) => [p.month, p.revenue, p.margin])).toEqual([
      ['2026-11', 120_000, 10_000], ['2026-12', 0, 0],
    ]);
  });

  it('bills a capped day’s earliest arrivals whatever their medium, and nothing past the quantity', async () => {
    // Every medium and landing, 10,000 a lead, 2 a day, 3 in all.
    await contract({ startsOn: '2026-11-21', endsOn: '2026-12-31', quantity: 3, unitPrice: 10_000, dailyCap: 2 });
    // 21 Nov: 네이버 first, then 메타 twice: 네이버 and the first 메타 are billed.
    await lead('checkup', '010-7000-0001', '2026-11-21T01:00:00.000Z');
    await lead('implant', '010-7000-0002', '2026-11-21T01:05:00.000Z');
    await lead('implant', '010-7000-0003', '2026-11-21T01:10:00.000Z');
    // 22 Nov: one left of the quantity: the earlier (메타) takes it.
    await lead('implant', '010-7000-0004', '2026-11-22T01:00:00.000Z');
    await lead('checkup', '010-7000-0005', '2026-11-22T01:05:00.000Z');
    // 23 Nov: the quantity is met.
    await lead('implant', '010-7000-0006', '2026-11-23T01:00:00.000Z');
    // Before the contract began: outside it.
    await lead('implant', '010-7000-0007', '2026-11-20T01:00:00.000Z');

    const d = (await t.admin.get(`${base()}?month=2026-11`)).json();
    expect(rowOf(d.rows, meta)).toMatchObject({ validLeads: 5, billableLeads: 2, overCapLeads: 2, outsideLeads: 1, revenue: 20_000 });
    expect(rowOf(d.rows, naver)).toMatchObject({ validLeads: 2, billableLeads: 1, overCapLeads: 1, outsideLeads: 0, revenue: 10_000 });
    expect(d.totals).toMatchObject({ billableLeads: 3, revenue: 30_000, margin: 30_000, marginRate: 100 });

    // A later month's figures still know the quantity was met in November.
    await lead('implant', '010-7000-0008', '2026-12-02T01:00:00.000Z');
    const dec = (await t.admin.get(`${base()}?month=2026-12`)).json();
    expect(rowOf(dec.rows, meta)).toMatchObject({ validLeads: 1, billableLeads: 0, overCapLeads: 1, revenue: 0 });
  });

  it('turns billableDays into the rule SQL applies by rank', () => {
    const days = billableDays([{ day: '2026-11-21', count: 3 }, { day: '2026-11-22', count: 2 }, { day: '2026-11-23', count: 1 }], 3, 2);
    expect(billableRule(days, 3, 2)).toEqual({ cap: 2, cutoffDay: '2026-11-22', cutoffCount: 1 });
    expect(billableRule(billableDays([{ day: '2026-11-21', count: 3 }], 10, null), 10, null)).toEqual({ cap: null, cutoffDay: null, cutoffCount: 0 });
  });
});

describe('the trend', () => {
  it('buckets by Seoul month, stops a stopped contract on the day it stopped, and lists every medium of the months', async () => {
    // 메타 at 20,000 a lead from October, stopped at 00:30 on 6 December (Seoul): 6 December still counts.
    await contract({ startsOn: '2026-10-01', endsOn: '2026-12-31', quantity: 100, unitPrice: 20_000, stoppedAt: '2026-12-05T15:30:00.000Z', media: [meta] });
    await lead('implant', '010-8000-0001', '2026-10-31T14:30:00.000Z'); // 31 Oct 23:30 Seoul
    await lead('implant', '010-8000-0002', '2026-10-31T15:30:00.000Z'); // 1 Nov 00:30 Seoul
    await lead('implant', '010-8000-0003', '2026-12-06T01:00:00.000Z');
    await lead('implant', '010-8000-0004', '2026-12-07T01:00:00.000Z');
    await spend('2026-10-31', meta, 40_000);
    await spend('2026-11-01', meta, 30_000);
    await spend('2026-12-06', meta, 10_000);
    await saveTargets('2026-10', [{ mediaTypeId: meta, targetCpa: 15_000 }]);
    await saveTargets('2026-11', [{ mediaTypeId: meta, targetCpa: 20_000 }]);
    await saveTargets('2026-12', [{ mediaTypeId: naver, targetCpa: 12_000 }]);

    const d = (await t.admin.get(`${base()}?month=2026-12&months=3`)).json();
    expect(d.currentMonth).toBe('2026-12');
    expect(d.trend.months).toEqual(['2026-10', '2026-11', '2026-12']);
    expect(d.trend.media.map((m: { name: string }) => m.name)).toEqual(['메타', '네이버']);
    expect(d.trend.media[0].points).toEqual([
      { month: '2026-10', targetCpa: 15_000, actualCpa: 40_000, spend: 40_000, validLeads: 1, revenue: 20_000, margin: -20_000 },
      { month: '2026-11', targetCpa: 20_000, actualCpa: 30_000, spend: 30_000, validLeads: 1, revenue: 20_000, margin: -10_000 },
      { month: '2026-12', targetCpa: null, actualCpa: 5_000, spend: 10_000, validLeads: 2, revenue: 20_000, margin: 10_000 },
    ]);
    expect(d.trend.media[1].points.map((p: { targetCpa: number | null; validLeads: number }) => [p.targetCpa, p.validLeads])).toEqual([[null, 0], [null, 0], [12_000, 0]]);
    // The total's target in December: 네이버's alone (no valid leads to weigh by).
    expect(d.trend.total).toEqual([
      { month: '2026-10', targetCpa: 15_000, actualCpa: 40_000, spend: 40_000, validLeads: 1, revenue: 20_000, margin: -20_000 },
      { month: '2026-11', targetCpa: 20_000, actualCpa: 30_000, spend: 30_000, validLeads: 1, revenue: 20_000, margin: -10_000 },
      { month: '2026-12', targetCpa: 12_000, actualCpa: 5_000, spend: 10_000, validLeads: 2, revenue: 20_000, margin: 10_000 },
    ]);
    expect(d.rows.map((r: Row) => [r.mediaTypeId, r.validLeads, r.billableLeads, r.outsideLeads])).toEqual([[meta, 2, 1, 1], [naver, 0, 0, 0]]);
  });
});

describe('targets', () => {
  const targetsOf = async (month: string) => {
    const res = await t.admin.get(`${base()}/targets?month=${month}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const audits = () => t.app.db.selectFrom('audit_events').select(['action', 'target', 'target_id', 'detail']).where('action', 'like', 'cpa-target.%').orderBy('id').execute();

  it('saves, replaces, deletes and copies targets, each change audited', async () => {
    let d = await targetsOf('2026-11');
    // Active media only (구글 is deactivated and has no target).
    expect(d.items.map((i: { name: string; targetCpa: number | null }) => [i.name, i.targetCpa])).toEqual([['메타', null], ['네이버', null], ['카카오', null]]);
    expect(d.previousMonthTargets).toBe(0);

    let res = await saveTargets('2026-11', [{ mediaTypeId: meta, targetCpa: 20_000 }, { mediaTypeId: naver, targetCpa: 10_000 }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ month: '2026-11', changed: 2 });
    expect(res.json().items[0]).toMatchObject({ mediaTypeId: meta, targetCpa: 20_000, updatedAt: '2026-11-21T01:00:00.000Z', updatedByName: expect.any(String) });

    res = await saveTargets('2026-11', [{ mediaTypeId: meta, targetCpa: 25_000 }, { mediaTypeId: naver, targetCpa: 10_000 }]);
    expect(res.json().changed).toBe(1);
    res = await saveTargets('2026-11', [{ mediaTypeId: naver, targetCpa: null }, { mediaTypeId: google, targetCpa: null }]);
    expect(res.json().changed).toBe(1);
    d = await targetsOf('2026-11');
    expect(d.items.map((i: { name: string; targetCpa: number | null }) => [i.name, i.targetCpa])).toEqual([['메타', 25_000], ['네이버', null], ['카카오', null]]);

    // December already has 카카오's: copying November brings 메타's and leaves 카카오's.
    await saveTargets('2026-12', [{ mediaTypeId: kakao, targetCpa: 40_000 }]);
    expect((await targetsOf('2026-12')).previousMonthTargets).toBe(1);
    res = await t.admin.post(`${base()}/targets/copy`, { from: '2026-11', to: '2026-12' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().changed).toBe(1);
    expect(res.json().items.map((i: { name: string; targetCpa: number | null }) => [i.name, i.targetCpa])).toEqual([['메타', 25_000], ['네이버', null], ['카카오', 40_000]]);
    // Again: nothing changes, nothing is recorded.
    expect((await t.admin.post(`${base()}/targets/copy`, { from: '2026-11', to: '2026-12' })).json().changed).toBe(0);

    const trail = await audits();
    expect(trail.map((a) => a.action)).toEqual(['cpa-target.save', 'cpa-target.save', 'cpa-target.save', 'cpa-target.save', 'cpa-target.copy']);
    expect(trail.every((a) => a.target === 'shop' && a.target_id === String(t.shopId))).toBe(true);
    expect(JSON.parse(trail[1]!.detail!)).toEqual({ month: '2026-11', changes: [{ mediaTypeId: meta, before: 20_000, after: 25_000 }] });
    expect(JSON.parse(trail[2]!.detail!)).toEqual({ month: '2026-11', changes: [{ mediaTypeId: naver, before: 10_000, after: null }] });
    expect(JSON.parse(trail[4]!.detail!)).toEqual({ from: '2026-11', month: '2026-12', changes: [{ mediaTypeId: meta, before: null, after: 25_000 }] });
  });

  it('refuses wrong targets in Korean, on the field', async () => {
    const fieldsOf = async (body: unknown, path = `${base()}/targets`, method: 'PUT' | 'POST' = 'PUT') => {
      const res = await t.admin.request(method, path, body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().error.fields;
    };
    expect(await fieldsOf({})).toEqual({ month: '목표를 정할 달을 고르세요.', targets: '저장할 목표를 입력하세요.' });
    expect(await fieldsOf({ month: '2026-11', targets: [{ mediaTypeId: meta, targetCpa: 0 }] })).toEqual({ 'targets.0.targetCpa': '목표 CPA는 0원보다 커야 합니다.' });
    expect(await fieldsOf({ month: '2026-11', targets: [{ mediaTypeId: meta, targetCpa: 10_000_001 }] })).toEqual({ 'targets.0.targetCpa': '목표 CPA는 10,000,000원 이하로 입력하세요.' });
    expect(await fieldsOf({ month: '2026-11', targets: [{ mediaTypeId: meta, targetCpa: 1500.5 }] })).toEqual({ 'targets.0.targetCpa': '목표 CPA는 원 단위 정수로 입력하세요.' });
    expect(await fieldsOf({ month: '2026-11', targets: [{ mediaTypeId: meta }] })).toEqual({ 'targets.0.targetCpa': '목표 CPA를 숫자로 입력하세요.' });
    expect(await fieldsOf({ month: '11월', targets: [{ mediaTypeId: meta, targetCpa: 1000 }] })).toEqual({ month: '달은 YYYY-MM 형식으로 입력하세요.' });
    expect(await fieldsOf({ month: '2026-11', targets: [{ mediaTypeId: meta, targetCpa: 1000 }, { mediaTypeId: meta, targetCpa: 2000 }] })).toEqual({
      'targets.1.mediaTypeId': '메타 매체가 두 번 들어 있습니다.',
    });
    expect(await fieldsOf({ month: '2026-11', targets: [{ mediaTypeId: 99_999, targetCpa: 1000 }] })).toEqual({ 'targets.0.mediaTypeId': '목록에 없는 매체입니다.' });
    expect(await fieldsOf({ month: '2026-11', targets: [{ mediaTypeId: google, targetCpa: 1000 }] })).toEqual({
      'targets.0.targetCpa': '구글 매체는 사용하지 않아 목표를 정할 수 없습니다.',
    });
    // Exactly 10,000,000 is allowed.
    expect((await saveTargets('2026-11', [{ mediaTypeId: meta, targetCpa: 10_000_000 }])).statusCode).toBe(200);

    const copy = `${base()}/targets/copy`;
    expect(await fieldsOf({ from: '2026-11', to: '2026-11' }, copy, 'POST')).toEqual({ to: '복사할 달과 받을 달이 같습니다.' });
    expect(await fieldsOf({ from: '2026-09', to: '2026-10' }, copy, 'POST')).toEqual({ from: '복사할 목표가 없습니다.' });
    expect(await fieldsOf({}, copy, 'POST')).toEqual({ from: '복사할 달을 고르세요.', to: '목표를 받을 달을 고르세요.' });
    expect((await t.app.db.selectFrom('audit_events').select('id').where('action', 'like', 'cpa-target.%').execute()).length).toBe(1);
  });
});

describe('access', () => {
  it('lets a marketer write, keeps the shop owner (a client), counselors and other shops out', async () => {
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    const owner = await shopAccount(t, 'own1', 'shop-owner');
    const counselor = await shopAccount(t, 'csa1', 'counselor');
    const body = { month: '2026-11', targets: [{ mediaTypeId: meta, targetCpa: 20_000 }] };

    expect((await marketer.put(`${base()}/targets`, body)).statusCode).toBe(200);
    expect((await marketer.get(`${base()}/targets?month=2026-11`)).json().items[0].targetCpa).toBe(20_000);
    // Targets, CPA and margin are the agency's books.
    expect((await owner.get(`${base()}?month=2026-11`)).statusCode).toBe(403);
    expect((await owner.get(`${base()}/targets?month=2026-11`)).statusCode).toBe(403);
    expect((await owner.put(`${base()}/targets`, body)).statusCode).toBe(403);
    expect((await owner.post(`${base()}/targets/copy`, { from: '2026-11', to: '2026-12' })).statusCode).toBe(403);
    expect((await counselor.get(base())).statusCode).toBe(403);
    expect((await counselor.get(`${base()}/targets`)).statusCode).toBe(403);
    expect((await t.anonymous.get(base())).statusCode).toBe(401);

    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id;
    expect((await marketer.get(`/api/shops/${other}/cpa`)).statusCode).toBe(403);
  });
});
