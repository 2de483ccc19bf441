import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingInput, landingTestApp, openLanding, publishPolicy, shopAccount, type LandingTestApp, LONG_SESSIONS, addMedium, openCheckup } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';
import { adFigures } from './ad-spend.service.ts';
import { LANDING_SOURCE } from '../../db/valid-leads.ts';
import { parseDay, parseFigure, UNKNOWN_HEADERS } from './ad-spend-import.ts';
import { AD_IMPORT_EXPECTED, CLICKS_OVER_IMPRESSIONS } from '../../../contracts/ad-spend.ts';
import { IMPORT_SOURCE } from '../../../contracts/data-insertion.ts';
import { emptyRowBomb, servingWhile, sharedStringsBomb } from '../../test-sheets.ts';

let t: LandingTestApp;
let marketer: Client;
let naver: number;
let meta: number;
let kakao: number;
let implant: number;
let checkup: number;

beforeEach(async () => {
  t = await landingTestApp(LONG_SESSIONS);
  naver = await addMedium(t, '네이버', 'naver', { sortOrder: 1 });
  meta = await addMedium(t, '메타', 'meta', { sortOrder: 2 });
  kakao = await addMedium(t, '카카오', 'kakao', { sortOrder: 3 });
  implant = await openLanding(t);
  checkup = await openCheckup(t);
  marketer = await shopAccount(t, 'marketer1', 'marketer');
});
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/ad-spend`;
const at = (iso: string) => void (t.clock.current = new Date(iso));
const TODAY = '2026-11-21T01:00:00.000Z'; // 21 November, 10:00 in Seoul

/**
 * A lead at `when` (UTC) with its medium and landing: entered by hand, then marked as sent
 * through a landing's form (the figures read only the stored source) unless `byHand`.
 */
async function lead(when: string, phone: string, mediaTypeId: number | null, landingId: number | null = null, shopId = t.shopId, byHand = false): Promise<number> {
  at(when);
  const res = await t.admin.post(`/api/shops/${shopId}/data-insertion/leads`, { name: '고객', phone, landingId, mediaTypeId, consentBasis: 'phone-verbal' });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  if (!byHand) await t.app.db.updateTable('leads').set({ source: LANDING_SOURCE }).where('id', '=', id).execute();
  return id;
}

const row = (day: string, mediaTypeId: number, impressions: number, clicks: number, spend: number, landingId?: number) => ({
  day, mediaTypeId, impressions, clicks, spend, ...(landingId === undefined ? {} : { landingId }),
});

async function save(c: Client, rows: unknown[]) {
  return c.put(base(), { rows });
}

const entries = () => t.app.db.selectFrom('ad_spend').selectAll().orderBy('day').orderBy('media_type_id').orderBy('landing_id').execute();
const figures = async (query = '') => {
  const res = await marketer.get(`${base()}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const find = (rows: Array<{ day: string; mediaTypeId: number; landingId: number }>, day: string, mediaTypeId: number, landingId = 0) =>
  rows.find((r) => r.day === day && r.mediaTypeId === mediaTypeId && r.landingId === landingId);

/**
 * Leads (Seoul times): A, B on 19 Nov (네이버, implant); C 19 Nov 23:59 (네이버, checkup); D at 15:30Z
 * on the 19th = 20 Nov 00:30 in Seoul (네이버, implant); A again on the 20th (a duplicate); E 메타
 * deleted; F 메타 무효; G entered by hand without a medium (not from an ad); H 카카오 (no spend entered).
 */
async function story() {
  await lead('2026-11-19T01:00:00.000Z', '010-1000-0001', naver, implant);
  await lead('2026-11-19T03:00:00.000Z', '010-1000-0002', naver, implant);
  await lead('2026-11-19T14:59:00.000Z', '010-1000-0003', naver, checkup);
  await lead('2026-11-19T15:30:00.000Z', '010-1000-0004', naver, implant);
  await lead('2026-11-20T01:00:00.000Z', '010-1000-0001', naver, implant);
  const e = await lead('2026-11-20T02:00:00.000Z', '010-1000-0005', meta, implant);
  const f = await lead('2026-11-20T03:00:00.000Z', '010-1000-0006', meta, checkup);
  await lead('2026-11-20T04:00:00.000Z', '010-1000-0007', null, null, t.shopId, true);
  await lead('2026-11-20T05:00:00.000Z', '010-1000-0008', kakao);
  // Set straight in the table: the figures only read the flags (deleting and 무효 have tests of their own).
  await t.app.db.updateTable('leads').set({ deleted_at: '2026-11-20T06:00:00.000Z' }).where('id', '=', e).execute();
  await t.app.db.updateTable('leads').set({ validity: 'invalid' }).where('id', '=', f).execute();
  at(TODAY);
  const saved = await save(marketer, [
    row('2026-11-19', naver, 10_000, 200, 300_000),
    row('2026-11-20', naver, 8_000, 0, 50_000),
    row('2026-11-20', meta, 5_000, 100, 0),
    row('2026-11-21', naver, 1_000, 10, 7_000),
  ]);
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json()).toEqual({ saved: 4, deleted: 0 });
}

const zero = { ctr: null, cvr: null, cpl: null, cpa: null };

describe('advertising figures', () => {
  it('sets spend against the leads of the same Seoul day and medium, with CTR, CVR, CPL and CPA (null, never NaN, when nothing divides)', async () => {
    await story();
    const d = await figures();
    expect(d).toMatchObject({ period: { from: '2026-11-01', to: '2026-11-21' }, today: '2026-11-21', byLanding: false });
    const base = { landingId: 0, landingTitle: '매체 전체', split: false };
    expect(d.rows).toEqual([
      // A, B, C (23:59 in Seoul still the 19th): 200 / 10,000 = 2%; 3 / 200 = 1.5%; 300,000 / 3.
      { ...base, day: '2026-11-19', mediaTypeId: naver, mediaTypeName: '네이버', entered: true, source: 'manual', impressions: 10_000, clicks: 200, spend: 300_000, leads: 3, validLeads: 3, ctr: 2, cvr: 1.5, cpl: 100_000, cpa: 100_000 },
      // D (00:30 in Seoul) and A's duplicate: two received, one valid; no clicks → no CVR.
      { ...base, day: '2026-11-20', mediaTypeId: naver, mediaTypeName: '네이버', entered: true, source: 'manual', impressions: 8_000, clicks: 0, spend: 50_000, leads: 2, validLeads: 1, ctr: 0, cvr: null, cpl: 25_000, cpa: 50_000 },
      // E deleted, F 무효: one received, none valid → no CPA; nothing spent → CPL 0.
      { ...base, day: '2026-11-20', mediaTypeId: meta, mediaTypeName: '메타', entered: true, source: 'manual', impressions: 5_000, clicks: 100, spend: 0, leads: 1, validLeads: 0, ctr: 2, cvr: 1, cpl: 0, cpa: null },
      // Leads without an entry still show.
      { ...base, day: '2026-11-20', mediaTypeId: kakao, mediaTypeName: '카카오', entered: false, source: null, impressions: 0, clicks: 0, spend: 0, leads: 1, validLeads: 1, ctr: null, cvr: null, cpl: 0, cpa: 0 },
      // Spend without leads.
      { ...base, day: '2026-11-21', mediaTypeId: naver, mediaTypeName: '네이버', entered: true, source: 'manual', impressions: 1_000, clicks: 10, spend: 7_000, leads: 0, validLeads: 0, ctr: 1, cvr: 0, cpl: null, cpa: null },
    ].map((r) => ({ ...r, otherLeads: 0 })));
    expect(d.media).toEqual([
      // 210 / 19,000 = 1.105…%; 5 / 210 = 2.380…%; 357,000 / 5; 357,000 / 4.
      { mediaTypeId: naver, mediaTypeName: '네이버', impressions: 19_000, clicks: 210, spend: 357_000, leads: 5, validLeads: 4, ctr: 1.11, cvr: 2.38, cpl: 71_400, cpa: 89_250 },
      { mediaTypeId: meta, mediaTypeName: '메타', impressions: 5_000, clicks: 100, spend: 0, leads: 1, validLeads: 0, ctr: 2, cvr: 1, cpl: 0, cpa: null },
      { mediaTypeId: kakao, mediaTypeName: '카카오', impressions: 0, clicks: 0, spend: 0, leads: 1, validLeads: 1, ctr: null, cvr: null, cpl: 0, cpa: 0 },
    ].map((m) => ({ ...m, otherLeads: 0 })));
    // G is not from an ad: counted apart, in no ratio. 310 / 24,000 = 1.291…%; 7 / 310 = 2.258…%; 357,000 / 7; 357,000 / 5.
    expect(d.totals).toEqual({ impressions: 24_000, clicks: 310, spend: 357_000, leads: 7, validLeads: 5, ctr: 1.29, cvr: 2.26, cpl: 51_000, cpa: 71_400, otherLeads: 1 });

    expect(d.days).toHaveLength(21);
    expect(d.days[0]).toEqual({ day: '2026-11-01', impressions: 0, clicks: 0, spend: 0, leads: 0, validLeads: 0, ...zero, otherLeads: 0 });
    const day = (x: string) => d.days.find((r: { day: string }) => r.day === x);
    expect(day('2026-11-19')).toMatchObject({ spend: 300_000, leads: 3, validLeads: 3, cpa: 100_000 });
    // The day's ad leads: D, A's duplicate, F, H received; D, H valid; G apart. 50,000 / 2 = 25,000.
    expect(day('2026-11-20')).toEqual({ day: '2026-11-20', impressions: 13_000, clicks: 100, spend: 50_000, leads: 4, validLeads: 2, ctr: 0.77, cvr: 4, cpl: 12_500, cpa: 25_000, otherLeads: 1 });
    expect(day('2026-11-21')).toEqual({ day: '2026-11-21', impressions: 1_000, clicks: 10, spend: 7_000, leads: 0, validLeads: 0, ctr: 1, cvr: 0, cpl: null, cpa: null, otherLeads: 0 });

    // Nothing is NaN or infinite anywhere.
    const numbers = JSON.stringify(d).match(/-?\d+(\.\d+)?(e[+-]?\d+)?|NaN|Infinity/g) ?? [];
    expect(numbers.filter((x) => !Number.isFinite(Number(x)))).toEqual([]);
    expect(d.mediaTypes.map((m: { name: string }) => m.name)).toEqual(['네이버', '메타', '카카오']);
    expect(d.landings.map((l: { title: string }) => l.title)).toEqual(['건강검진 이벤트', '임플란트 상담 이벤트']);
  });

  it('leaves leads entered by hand or imported out of CTR, CVR, CPL and CPA, even with a medium, and counts them apart', async () => {
    await story();
    const before = await figures();
    // A trade fair's leads: two entered by hand and one imported, all named 네이버 on the 19th.
    await lead('2026-11-19T05:00:00.000Z', '010-3000-0001', naver, implant, t.shopId, true);
    await lead('2026-11-19T06:00:00.000Z', '010-3000-0002', naver, null, t.shopId, true);
    const imported = await lead('2026-11-19T07:00:00.000Z', '010-3000-0003', naver, null, t.shopId, true);
    await t.app.db.updateTable('leads').set({ source: IMPORT_SOURCE }).where('id', '=', imported).execute();
    at(TODAY);
    const after = await figures();
    const strip = (x: { otherLeads: number }) => ({ ...x, otherLeads: 0 });
    // Every ratio, row and medium as before; only the count apart grows.
    expect(after.rows.map(strip)).toEqual(before.rows.map(strip));
    expect(after.media).toEqual(before.media);
    expect(strip(after.totals)).toEqual(strip(before.totals));
    expect(after.totals.otherLeads).toBe(before.totals.otherLeads + 3);
    expect(after.days.find((x: { day: string }) => x.day === '2026-11-19')).toMatchObject({ leads: 3, validLeads: 3, cpa: 100_000, otherLeads: 3 });
  });

  it('keeps the Seoul day boundary: a lead at 15:30Z counts on the next day, and a period ends at its Seoul midnight', async () => {
    await story();
    const d = await figures('?from=2026-11-19&to=2026-11-19');
    expect(d.days).toHaveLength(1);
    expect(d.rows).toEqual([expect.objectContaining({ day: '2026-11-19', mediaTypeId: naver, leads: 3, validLeads: 3 })]);
    expect(d.totals).toMatchObject({ spend: 300_000, leads: 3 });
    const next = await figures('?from=2026-11-20&to=2026-11-20');
    expect(find(next.rows, '2026-11-20', naver)).toMatchObject({ leads: 2, validLeads: 1 });
    expect(next.totals).toMatchObject({ spend: 50_000, leads: 4, validLeads: 2, otherLeads: 1 });
  });

  it('splits by landing on request, the medium’s whole entries at 매체 전체, and adds landing entries up per medium otherwise', async () => {
    await story();
    expect((await save(marketer, [row('2026-11-20', meta, 2_000, 40, 20_000, implant)])).statusCode).toBe(200);

    const whole = await figures();
    // 메타 on the 20th: the whole medium's entry and implant's added up, flagged as split.
    expect(find(whole.rows, '2026-11-20', meta)).toMatchObject({ impressions: 7_000, clicks: 140, spend: 20_000, leads: 1, validLeads: 0, split: true, cpl: 20_000, cpa: null });

    const d = await figures('?byLanding=1');
    expect(d.byLanding).toBe(true);
    const pick = (r: Record<string, unknown>) => [r.day, r.mediaTypeName, r.landingTitle, r.entered, r.spend, r.leads, r.validLeads];
    expect(d.rows.map(pick)).toEqual([
      ['2026-11-19', '네이버', '매체 전체', true, 300_000, 0, 0],
      ['2026-11-19', '네이버', '건강검진 이벤트', false, 0, 1, 1],
      ['2026-11-19', '네이버', '임플란트 상담 이벤트', false, 0, 2, 2],
      ['2026-11-20', '네이버', '매체 전체', true, 50_000, 0, 0],
      ['2026-11-20', '네이버', '임플란트 상담 이벤트', false, 0, 2, 1],
      ['2026-11-20', '메타', '매체 전체', true, 0, 0, 0],
      ['2026-11-20', '메타', '건강검진 이벤트', false, 0, 1, 0],
      ['2026-11-20', '메타', '임플란트 상담 이벤트', true, 20_000, 0, 0],
      // H has no landing: its leads sit with the medium as a whole.
      ['2026-11-20', '카카오', '매체 전체', false, 0, 1, 1],
      ['2026-11-21', '네이버', '매체 전체', true, 7_000, 0, 0],
    ]);
    // The medium and the period come to the same either way.
    expect(d.media).toEqual(whole.media);
    expect(d.totals).toEqual(whole.totals);
  });

  it('answers several shops at once without one’s leads or spend reaching another', async () => {
    await story();
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' })).json().id as number;
    await publishPolicy(t.admin, other);
    await lead('2026-11-19T02:00:00.000Z', '010-2000-0001', naver, null, other);
    await lead('2026-11-19T03:00:00.000Z', '010-2000-0002', naver, null, other);
    at(TODAY);
    expect((await t.admin.put(`/api/shops/${other}/ad-spend`, { rows: [row('2026-11-19', naver, 500, 50, 40_000)] })).statusCode).toBe(200);

    const mine = await figures();
    expect(find(mine.rows, '2026-11-19', naver)).toMatchObject({ spend: 300_000, leads: 3 });
    expect(mine.totals).toMatchObject({ spend: 357_000, leads: 7 });

    const both = await adFigures(t.app.db, { shopIds: [other, t.shopId], from: '2026-11-01', to: '2026-11-30' });
    expect(both.shops.map((s) => s.shopId)).toEqual([other, t.shopId]);
    expect(both.shops[0]!.rows).toEqual([
      expect.objectContaining({ day: '2026-11-19', mediaTypeId: naver, impressions: 500, clicks: 50, spend: 40_000, leads: 2, validLeads: 2, ctr: 10, cvr: 4, cpl: 20_000, cpa: 20_000 }),
    ]);
    expect(both.shops[0]!.days).toHaveLength(30);
    expect(both.shops[1]!.totals).toEqual(mine.totals);
    expect(both.totals).toMatchObject({ impressions: 24_500, clicks: 360, spend: 397_000, leads: 9, validLeads: 7, cpa: 56_714, otherLeads: 1 });
    expect(await adFigures(t.app.db, { shopIds: [], from: '2026-11-01', to: '2026-11-30' })).toEqual({ shops: [], totals: expect.objectContaining({ spend: 0, cpa: null }) });
  });

  it('refuses a reversed or over-long period', async () => {
    const reversed = await marketer.get(`${base()}?from=2026-11-10&to=2026-11-01`);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error.fields).toEqual({ from: '시작일이 종료일보다 늦습니다.' });
    expect((await marketer.get(`${base()}?from=2025-10-01&to=2026-11-01`)).json().error.message).toBe('기간은 1년 이내로 정하세요.');
    expect((await marketer.get(`${base()}?from=2026-02-31`)).json().error.fields).toEqual({ from: '없는 날짜입니다.' });
  });
});

describe('saving the grid', () => {
  it('replaces an entry, deletes one saved all zero, and records who did it', async () => {
    await story();
    const res = await save(marketer, [row('2026-11-19', naver, 12_000, 240, 360_000), row('2026-11-20', meta, 0, 0, 0)]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ saved: 1, deleted: 1 });
    const stored = await entries();
    expect(stored.map((e) => [e.day, e.media_type_id, e.landing_id, e.impressions, e.clicks, e.spend, e.source])).toEqual([
      ['2026-11-19', naver, 0, 12_000, 240, 360_000, 'manual'],
      ['2026-11-20', naver, 0, 8_000, 0, 50_000, 'manual'],
      ['2026-11-21', naver, 0, 1_000, 10, 7_000, 'manual'],
    ]);
    const d = await figures();
    expect(find(d.rows, '2026-11-19', naver)).toMatchObject({ spend: 360_000, cpa: 120_000 });
    // The deleted entry's leads stay.
    expect(find(d.rows, '2026-11-20', meta)).toMatchObject({ entered: false, spend: 0, leads: 1 });

    // Deleting what is not there changes nothing.
    expect((await save(marketer, [row('2026-11-18', kakao, 0, 0, 0)])).json()).toEqual({ saved: 0, deleted: 0 });

    const audit = await t.app.db.selectFrom('audit_events').selectAll().where('action', '=', 'ad-spend.save').orderBy('id').execute();
    expect(audit).toHaveLength(3);
    const marketerId = (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', 'marketer1').executeTakeFirstOrThrow()).id;
    expect(audit[1]).toMatchObject({ account_id: marketerId, target: 'shop', target_id: String(t.shopId) });
    expect(JSON.parse(audit[1]!.detail!)).toEqual({ rows: 2, from: '2026-11-19', to: '2026-11-20', saved: 1, deleted: 1 });
  });

  it('refuses rows in Korean, each under rows.N.field, and writes none of them', async () => {
    const empty = await save(marketer, []);
    expect(empty.json().error.fields).toEqual({ rows: '저장할 행이 없습니다. 바꾼 칸이 있는지 확인하세요.' });
    const missing = await marketer.put(base(), {});
    expect(missing.json().error.fields).toEqual({ rows: '저장할 행을 보내세요.' });

    const shape = await save(marketer, [
      row('2026-11-19', naver, 100, 10, 1_000),
      row('2026-11-19', meta, -1, 0, 1_000),
      row('2026-11-19', kakao, 100, 10, 1_000.5),
      row('2026-11-20', naver, 100, 101, 1_000),
      { mediaTypeId: naver, impressions: 1, clicks: 1, spend: 1 },
      row('2026-11-31', naver, 1, 1, 1),
    ]);
    expect(shape.statusCode).toBe(400);
    expect(shape.json().error.fields).toEqual({
      'rows.1.impressions': '노출수는 0 이상으로 입력하세요.',
      'rows.2.spend': '광고비는 정수로 입력하세요.',
      'rows.3.clicks': CLICKS_OVER_IMPRESSIONS,
      'rows.4.day': '날짜를 입력하세요.',
      'rows.5.day': '없는 날짜입니다.',
    });

    // Deactivated media, another shop's landing, a day to come, the same key twice.
    const google = (await t.admin.post('/api/codes/media-type', { name: '구글', code: 'google', active: false })).json().id as number;
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' })).json().id as number;
    await publishPolicy(t.admin, other);
    const foreign = (await t.admin.post(`/api/shops/${other}/landings`, landingInput({ landingCode: 'foreign' }))).json().id as number;
    at(TODAY);
    const rules = await save(marketer, [
      row('2026-11-20', naver, 100, 10, 1_000),
      row('2026-11-20', google, 100, 10, 1_000),
      row('2026-11-20', naver, 100, 10, 1_000, foreign),
      row('2026-11-22', naver, 100, 10, 1_000),
      row('2026-11-20', naver, 5, 1, 50, 0),
      row('2026-11-20', naver, 100, 10, 1_000, implant),
    ]);
    expect(rules.statusCode).toBe(400);
    expect(rules.json().error).toEqual({
      code: 'VALIDATION',
      message: '4개 행을 저장할 수 없습니다. 표시된 칸을 고쳐 주세요.',
      fields: {
        'rows.1.mediaTypeId': '사용 중인 매체를 목록에서 고르세요.',
        'rows.2.landingId': '이 업체의 랜딩을 목록에서 고르세요.',
        'rows.3.day': '오늘 이후 날짜의 광고비는 입력할 수 없습니다.',
        'rows.4.day': '같은 날짜·매체·랜딩의 행이 이미 있습니다.',
      },
    });
    expect(await entries()).toEqual([]);
  });

  it('lets a marketer save, and neither the shop owner (a client: spend is the agency’s) nor a counselor read', async () => {
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const counselor = await shopAccount(t, 'counselor1', 'counselor');
    expect((await owner.get(base())).statusCode).toBe(403);
    expect((await save(owner, [row('2026-11-20', naver, 1, 1, 1)])).statusCode).toBe(403);
    expect((await upload(owner, Buffer.from('일,비용\n2026-11-20,1000\n'), 'a.csv', { mediaTypeId: naver })).statusCode).toBe(403);
    expect((await owner.post(`${base()}/imports/commit`, { token: '0'.repeat(32) })).statusCode).toBe(403);
    expect((await counselor.get(base())).statusCode).toBe(403);
    expect((await save(counselor, [row('2026-11-20', naver, 1, 1, 1)])).statusCode).toBe(403);
    expect((await save(marketer, [row('2026-11-20', naver, 1, 1, 1)])).statusCode).toBe(200);
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' })).json().id as number;
    expect((await marketer.get(`/api/shops/${other}/ad-spend`)).statusCode).toBe(403);
    expect((await t.anonymous.get(base())).statusCode).toBe(401);
  });
});

function upload(c: Client, data: Buffer, filename: string, query: { mediaTypeId?: number; landingId?: number } = {}) {
  const boundary = '----leadroom-ad-spend';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return c.request('POST', `${base()}/imports${qs ? `?${qs}` : ''}`, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}

const commit = (c: Client, token: string, skipErrors?: boolean) => c.post(`${base()}/imports/commit`, { token, ...(skipErrors === undefined ? {} : { skipErrors }) });

/** 네이버 검색광고's 일별 보고서 as it downloads: a title line, CP949, quoted numbers with commas, a 합계 row. */
const NAVER = [
  '일별 보고서(2026.11.01.~2026.11.20.)',
  '일별,노출수,클릭수,클릭률(%),"평균클릭비용(VAT포함,원)","총비용(VAT포함,원)"',
  '2026.11.19.,"10,000",200,2.00,"1,500","300,000"',
  '2026.11.20.,"8,000",0,0.00,0,"50,000"',
  '2026. 11. 20.,"1,000",10,1.00,"1,000","10,000"',
  '합계,"19,000",210,1.11,"1,714","360,000"',
  '',
].join('\r\n');

describe('CSV import', () => {
  it('reads a Naver report in CP949, adds up a day’s rows, skips the 합계 row, previews what it replaces, then writes it as csv', async () => {
    at(TODAY);
    await save(marketer, [row('2026-11-19', naver, 1, 1, 1), row('2026-11-18', naver, 5, 5, 5)]);
    const res = await upload(marketer, iconv.encode(NAVER, 'cp949'), '네이버_일별.csv', { mediaTypeId: naver });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      fileName: '네이버_일별.csv', format: 'csv', encoding: 'cp949', totalRows: 3, skippedTotals: 1, errors: [], period: { from: '2026-11-19', to: '2026-11-20' },
      columns: [
        { field: 'day', header: '일별' }, { field: 'impressions', header: '노출수' }, { field: 'clicks', header: '클릭수' }, { field: 'spend', header: '총비용(VAT포함,원)' },
      ],
    });
    expect(p.token).toMatch(/^[0-9a-f]{32}$/);
    expect(p.rows).toEqual([
      {
        day: '2026-11-19', mediaTypeId: naver, mediaTypeName: '네이버', landingId: 0, landingTitle: '매체 전체', impressions: 10_000, clicks: 200, spend: 300_000,
        fileRows: [3], blocked: false, existing: { impressions: 1, clicks: 1, spend: 1 },
      },
      {
        day: '2026-11-20', mediaTypeId: naver, mediaTypeName: '네이버', landingId: 0, landingTitle: '매체 전체', impressions: 9_000, clicks: 10, spend: 60_000,
        fileRows: [4, 5], blocked: false, existing: null,
      },
    ]);
    // A preview writes nothing.
    expect((await entries()).map((e) => e.spend)).toEqual([5, 1]);

    const done = await commit(marketer, p.token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ saved: 2, deleted: 0, skipped: 0, period: { from: '2026-11-19', to: '2026-11-20' } });
    expect((await entries()).map((e) => [e.day, e.impressions, e.clicks, e.spend, e.source])).toEqual([
      ['2026-11-18', 5, 5, 5, 'manual'],
      ['2026-11-19', 10_000, 200, 300_000, 'csv'],
      ['2026-11-20', 9_000, 10, 60_000, 'csv'],
    ]);
    expect(find((await figures()).rows, '2026-11-20', naver)).toMatchObject({ source: 'csv', spend: 60_000 });
    const audit = await t.app.db.selectFrom('audit_events').selectAll().where('action', '=', 'ad-spend.import').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.detail!)).toEqual({
      fileName: '네이버_일별.csv', rows: 2, skipped: 0, errorRows: 0, mediaTypeIds: [naver], landingId: 0, from: '2026-11-19', to: '2026-11-20', saved: 2, deleted: 0,
    });
    // A preview is committed once.
    expect((await commit(marketer, p.token)).statusCode).toBe(410);
  });

  it('reads a Meta export with English headers, UTF-8 with a BOM, link clicks before all clicks, ₩ and 원 amounts, for a landing', async () => {
    at(TODAY);
    const csv = [
      'Campaign name,Day,Impressions,Clicks (all),Link clicks,Amount spent (KRW),Reporting starts,Reporting ends',
      '캠페인A,2026-11-19,5000,120,80,"₩45,000",2026-11-01,2026-11-20',
      '"캠페인B, 리타겟",2026-11-19,3000,40,20,15000원,2026-11-01,2026-11-20',
      '캠페인A,2026-11-20,4000,70,50,30000.4,2026-11-01,2026-11-20',
    ].join('\n');
    const res = await upload(marketer, Buffer.from(`\ufeff${csv}`), 'meta.csv', { mediaTypeId: meta, landingId: implant });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({ encoding: 'utf-8', totalRows: 3, skippedTotals: 0, errors: [] });
    expect(p.columns).toEqual([
      { field: 'day', header: 'Day' }, { field: 'impressions', header: 'Impressions' }, { field: 'clicks', header: 'Link clicks' }, { field: 'spend', header: 'Amount spent (KRW)' },
    ]);
    expect(p.rows.map((r: Record<string, unknown>) => [r.day, r.mediaTypeName, r.landingTitle, r.impressions, r.clicks, r.spend, r.fileRows])).toEqual([
      ['2026-11-19', '메타', '임플란트 상담 이벤트', 8_000, 100, 60_000, [2, 3]],
      ['2026-11-20', '메타', '임플란트 상담 이벤트', 4_000, 50, 30_000, [4]],
    ]);
    expect((await commit(marketer, p.token)).json()).toMatchObject({ saved: 2 });
    expect((await entries()).map((e) => [e.day, e.media_type_id, e.landing_id, e.spend])).toEqual([
      ['2026-11-19', meta, implant, 60_000],
      ['2026-11-20', meta, implant, 30_000],
    ]);
  });

  it('takes the medium from a 매체 column when none is chosen, Kakao’s and Google’s headers, and UTF-16 text with tabs', async () => {
    at(TODAY);
    const kakaoCsv = '매체,일,노출수,클릭수,비용\n카카오,20261119,"2,000",30,"12,000"\nNAVER,2026/11/20,100,1,500\n';
    const k = (await upload(marketer, Buffer.from(kakaoCsv), 'kakao.csv')).json();
    expect(k.rows.map((r: Record<string, unknown>) => [r.day, r.mediaTypeName, r.spend])).toEqual([['2026-11-19', '카카오', 12_000], ['2026-11-20', '네이버', 500]]);

    const googleTsv = 'Campaign report\nNovember 1, 2026 - November 20, 2026\nDay\tCampaign\tImpr.\tClicks\tCost\n2026-11-20\tBrand\t900\t45\t"27,000"\nTotal: Account\t\t900\t45\t27000\n';
    const g = await upload(marketer, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(googleTsv, 'utf16le')]), 'google.csv', { mediaTypeId: kakao });
    expect(g.statusCode, g.body).toBe(200);
    expect(g.json()).toMatchObject({ encoding: 'utf-16le', skippedTotals: 1, totalRows: 1 });
    expect(g.json().rows.map((r: Record<string, unknown>) => [r.day, r.impressions, r.clicks, r.spend])).toEqual([['2026-11-20', 900, 45, 27_000]]);

    const none = await upload(marketer, Buffer.from('일,비용\n2026-11-20,1000\n'), 'x.csv');
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('매체를 고르세요. 파일에 매체 열이 없으면 어느 매체의 광고비인지 올릴 때 골라야 합니다.');
  });

  it('reads the first worksheet of an .xlsx export, its dates and numbers as Excel keeps them', async () => {
    at(TODAY);
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('보고서');
    sheet.addRow(['캠페인 보고서']);
    sheet.addRow(['일', '캠페인', '노출수', '클릭수', '비용']);
    sheet.addRow([new Date(Date.UTC(2026, 10, 19)), '브랜드', 1_200, 30, 15_000]);
    sheet.addRow(['2026-11-19', '일반', 800, 10, '₩5,000']);
    sheet.addRow(['합계', '', 2_000, 40, 20_000]);
    const data = Buffer.from(await book.xlsx.writeBuffer());
    const res = await upload(marketer, data, '구글.xlsx', { mediaTypeId: kakao });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ format: 'xlsx', encoding: null, totalRows: 2, skippedTotals: 1, errors: [] });
    expect(res.json().rows.map((r: Record<string, unknown>) => [r.day, r.impressions, r.clicks, r.spend, r.fileRows])).toEqual([['2026-11-19', 2_000, 40, 20_000, [3, 4]]]);
  });

  it('reports each bad row with its number, column and reason, writes nothing unless told to leave them out, then only the good days', async () => {
    at(TODAY);
    const csv = [
      '날짜,노출수,클릭수,비용',
      '2026-11-15,100,10,"1,000"', // 2: good
      '2026-13-01,100,10,1000', // 3: no such day
      '2026-11-16,-5,0,1000', // 4: negative
      '2026-11-17,10,20,1000', // 5: clicks over impressions
      '2026-11-17,10,5,500', // 6: good, but its day has a bad row
      '2026-11-25,10,5,500', // 7: a day to come
      '2026-11-18,10,5,abc', // 8: not a number
      '',
      '※ 비용은 부가세 포함', // a note: not a row
    ].join('\n');
    const res = await upload(marketer, Buffer.from(csv), 'bad.csv', { mediaTypeId: naver });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json();
    expect(p.errors).toEqual([
      { row: 3, column: '날짜', message: "날짜를 읽을 수 없습니다: '2026-13-01'. 2026-11-01, 2026.11.01, 20261101 형식으로 적어 주세요." },
      { row: 4, column: '노출수', message: '음수는 가져올 수 없습니다. 0 이상인지 확인해 주세요.' },
      { row: 5, column: '클릭수', message: '클릭수(20)가 노출수(10)보다 큽니다.' },
      { row: 7, column: '날짜', message: '오늘 이후 날짜입니다. 지난 날짜의 광고비만 가져올 수 있습니다.' },
      { row: 8, column: '비용', message: "숫자가 아닙니다: 'abc'" },
    ]);
    expect(p.totalRows).toBe(7);
    expect(p.rows.map((r: Record<string, unknown>) => [r.day, r.blocked, r.fileRows])).toEqual([
      ['2026-11-15', false, [2]],
      ['2026-11-16', true, [4]],
      ['2026-11-17', true, [5, 6]],
      ['2026-11-18', true, [8]],
      ['2026-11-25', true, [7]],
    ]);

    const refused = await commit(marketer, p.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('5개 행에 오류가 있어 가져오지 않았습니다. 파일을 고쳐 다시 올리거나, 오류 행을 빼고 가져오세요.');
    expect(await entries()).toEqual([]);

    // The same preview, now leaving the bad rows (and the days they belong to) out.
    const partial = await commit(marketer, p.token, true);
    expect(partial.statusCode, partial.body).toBe(200);
    expect(partial.json()).toEqual({ saved: 1, deleted: 0, skipped: 4, period: { from: '2026-11-15', to: '2026-11-15' } });
    expect((await entries()).map((e) => [e.day, e.spend])).toEqual([['2026-11-15', 1_000]]);
  });

  it('names the columns it expects when it recognises none, and refuses what it cannot read', async () => {
    at(TODAY);
    const unknown = await upload(marketer, Buffer.from('이름,전화번호\n홍길동,01012345678\n'), 'leads.csv', { mediaTypeId: naver });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe(UNKNOWN_HEADERS);
    expect(UNKNOWN_HEADERS).toContain(AD_IMPORT_EXPECTED);
    expect(AD_IMPORT_EXPECTED).toContain('일별');
    expect(AD_IMPORT_EXPECTED).toContain('총비용(VAT포함,원)');

    const noSpend = await upload(marketer, Buffer.from('일,노출수,클릭수\n2026-11-20,1,1\n'), 'x.csv', { mediaTypeId: naver });
    expect(noSpend.json().error.message).toBe(`광고비 열을 찾을 수 없습니다. ${AD_IMPORT_EXPECTED}`);
    const onlyHeader = await upload(marketer, Buffer.from('일,비용\n합계,0\n'), 'x.csv', { mediaTypeId: naver });
    expect(onlyHeader.json().error.message).toBe('열 이름 아래에 가져올 행이 없습니다.');
    const xls = await upload(marketer, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'old.xls', { mediaTypeId: naver });
    expect(xls.statusCode).toBe(415);
    expect((await upload(marketer, Buffer.from('일,비용\n2026-11-20,1\n'), 'x.csv', { mediaTypeId: 99_999 })).json().error.fields).toEqual({ mediaTypeId: '사용 중인 매체를 목록에서 고르세요.' });
    expect((await commit(marketer, 'f'.repeat(32))).statusCode).toBe(410);
  });

  it('keeps a preview to the person and shop that made it', async () => {
    at(TODAY);
    const p = (await upload(marketer, Buffer.from('일,비용\n2026-11-20,1000\n'), 'x.csv', { mediaTypeId: naver })).json();
    expect((await commit(t.admin, p.token)).statusCode).toBe(410);
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' })).json().id as number;
    const mine = (await upload(t.admin, Buffer.from('일,비용\n2026-11-20,2000\n'), 'x.csv', { mediaTypeId: naver })).json();
    expect((await t.admin.post(`/api/shops/${other}/ad-spend/imports/commit`, { token: mine.token })).statusCode).toBe(410);
    expect(await entries()).toEqual([]);
    expect((await commit(marketer, p.token)).json()).toMatchObject({ saved: 1 });
    expect((await commit(t.admin, mine.token)).json()).toMatchObject({ saved: 1 });
    const adminId = (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', 'admin').executeTakeFirstOrThrow()).id;
    expect((await entries()).map((e) => [e.day, e.spend, e.updated_by])).toEqual([['2026-11-20', 2000, adminId]]);
  });
});

describe('files past the reader’s limits (issue 19)', () => {
  it('refuses the shared-strings bomb and the sheet of empty rows with their reasons while the service keeps answering', async () => {
    at(TODAY);
    const bomb = await servingWhile(t.app, upload(marketer, sharedStringsBomb(100_000, 4000), '보고서.xlsx', { mediaTypeId: naver }));
    expect(bomb.statusCode).toBe(413);
    expect(bomb.json().error.message).toBe('엑셀 파일의 압축을 푼 크기가 200MB를 넘어 읽지 않았습니다. 파일을 나눠서 올려 주세요.');
    const empty = await servingWhile(t.app, upload(marketer, emptyRowBomb(150_000), '보고서.xlsx', { mediaTypeId: naver }));
    expect(empty.statusCode).toBe(413);
    expect(empty.json().error.message).toBe('빈 행을 포함해 100,000행을 넘는 파일은 읽지 않습니다. 빈 행을 지우거나 파일을 나눠서 올려 주세요.');
    expect(await entries()).toEqual([]);
  });
});

describe('import values', () => {
  it('reads the days and numbers the platforms write', () => {
    for (const s of ['2026-11-01', '2026.11.01', '2026.11.01.', '2026. 11. 1.', '2026/11/1', '20261101', '2026년 11월 1일', '2026-11-01 00:00:00', '2026.11.01.(일)', ' 2026-11-01 ']) {
      expect(parseDay(s), s).toBe('2026-11-01');
    }
    for (const s of ['2026-02-30', '11/01/2026', '2026-11', 'abc', '']) expect(parseDay(s), s).toBeNull();
    expect(parseFigure('1,234', 'count')).toEqual({ value: 1234 });
    expect(parseFigure('₩1,234', 'amount')).toEqual({ value: 1234 });
    expect(parseFigure('1,234원', 'amount')).toEqual({ value: 1234 });
    expect(parseFigure('1234.6', 'amount')).toEqual({ value: 1235 });
    expect(parseFigure('--', 'count')).toEqual({ value: 0 });
    expect(parseFigure('', 'count')).toEqual({ value: 0 });
    expect(parseFigure('12.5', 'count')).toEqual({ error: "정수가 아닙니다: '12.5'" });
    expect(parseFigure('-3', 'count')).toEqual({ error: '음수는 가져올 수 없습니다. 0 이상인지 확인해 주세요.' });
  });
});
