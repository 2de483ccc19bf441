import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingInput, landingTestApp, leadBody, openLanding, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';
import { openpyxlMissing, readWithOpenpyxl } from '../../test-openpyxl.ts';

let t: LandingTestApp;
let implant: number;
let checkup: number;
let meta: number;
let naver: number;
beforeEach(async () => {
  // Sessions outlive the days the clock moves through.
  t = await landingTestApp({ sessionIdleMinutes: 1_000_000, sessionAbsoluteHours: 100_000 });
  phoneSeq = 0;
  meta = (await t.admin.post('/api/codes/media-type', { name: '메타', code: 'meta' })).json().id as number;
  naver = (await t.admin.post('/api/codes/media-type', { name: '네이버', code: 'naver' })).json().id as number;
  implant = await openLanding(t, { mediaTypeId: meta });
  checkup = await openLanding(t, { ...landingInput(), landingCode: 'checkup', title: '건강검진 이벤트' });
});
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/contracts`;
/** Sets the clock (times below are UTC; Seoul is 9 hours ahead). */
const at = (iso: string) => void (t.clock.current = new Date(iso));

let phoneSeq = 0;
/** Submits a lead through a landing's public form at the clock's time and answers its id. */
async function lead(landing: 'implant' | 'checkup' = 'implant', phone?: string): Promise<number> {
  const id = landing === 'implant' ? implant : checkup;
  const res = await submit(t, leadBody(t, id, { landingCode: landing, phone: phone ?? `010-7000-${String(++phoneSeq).padStart(4, '0')}` }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}
async function leads(n: number, landing: 'implant' | 'checkup' = 'implant'): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await lead(landing));
  return ids;
}

const contractBody = (extra: Record<string, unknown> = {}) => ({
  name: '11월 임플란트', startsOn: '2026-11-21', endsOn: '2026-11-30', quantity: 100, unitPrice: 10_000, dailyCap: null,
  landingIds: [], mediaTypeIds: [], returnWindowDays: 7, maxReturnRate: 50, autoClose: false, memo: '',
  ...extra,
});
async function contract(extra: Record<string, unknown> = {}, c: Client = t.admin): Promise<number> {
  const res = await c.post(base(), contractBody(extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
async function status(id: number, c: Client = t.admin) {
  const res = await c.get(`${base()}/status?contractId=${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().contracts[0];
}
async function leadIds(id: number, kind: string): Promise<number[]> {
  const res = await t.admin.get(`${base()}/${id}/leads?kind=${kind}&pageSize=100&sort=createdAt`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as Array<{ id: number }>).map((i) => i.id).sort((a, b) => a - b);
}
const patch = async (id: number, body: Record<string, unknown>) => {
  const res = await t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${id}`, body);
  expect(res.statusCode, res.body).toBe(200);
};
const remove = async (ids: number[]) => {
  const res = await t.admin.post(`/api/shops/${t.shopId}/leads/delete`, { ids, reason: '고객 요청' });
  expect(res.statusCode, res.body).toBe(200);
};
const requestReturn = (leadId: number, body: Record<string, unknown> = { reason: '결번' }, c: Client = t.admin) =>
  c.post(`/api/shops/${t.shopId}/leads/${leadId}/return`, body);
const decide = (returnId: number, body: Record<string, unknown>, c: Client = t.admin) => c.post(`${base()}/returns/${returnId}/decision`, body);
async function returned(leadId: number): Promise<number> {
  const req = await requestReturn(leadId);
  expect(req.statusCode, req.body).toBe(201);
  const ok = await decide(req.json().id, { approve: true });
  expect(ok.statusCode, ok.body).toBe(200);
  return req.json().id;
}

describe('contracts', () => {
  it('creates, lists, gets, updates, and refuses bad input in Korean', async () => {
    const id = await contract({ landingIds: [implant], mediaTypeIds: [meta], memo: '첫 계약' });
    const got = await t.admin.get(`${base()}/${id}`);
    expect(got.json()).toMatchObject({
      name: '11월 임플란트', startsOn: '2026-11-21', endsOn: '2026-11-30', quantity: 100, unitPrice: 10_000, dailyCap: null, autoClose: false,
      landingIds: [implant], landingTitles: ['임플란트 상담 이벤트'], mediaTypeIds: [meta], mediaTypeNames: ['메타'], status: 'active', counted: 0, memo: '첫 계약',
    });

    const updated = await t.admin.put(`${base()}/${id}`, contractBody({ name: '11월 계약', quantity: 50, landingIds: [] }));
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: '11월 계약', quantity: 50, landingIds: [], mediaTypeIds: [] });

    const list = await t.admin.get(`${base()}?status=active`);
    expect(list.json()).toMatchObject({ total: 1, items: [{ id, status: 'active' }] });
    expect((await t.admin.get(`${base()}?status=scheduled`)).json().total).toBe(0);

    const backwards = await t.admin.post(base(), contractBody({ startsOn: '2026-12-10', endsOn: '2026-12-01' }));
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.fields.endsOn).toBe('종료일은 시작일과 같거나 그 뒤여야 합니다.');
    const empty = await t.admin.post(base(), {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toMatchObject({ name: '계약명을 입력하세요.', quantity: '계약 수량을 입력하세요.', unitPrice: '단가를 입력하세요.' });

    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id as number;
    const foreign = await t.admin.post(`/api/shops/${other}/landings`, landingInput({ landingCode: 'x' }));
    const bad = await t.admin.post(base(), contractBody({ startsOn: '2027-01-01', endsOn: '2027-01-31', landingIds: [foreign.json().id] }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.landingIds).toBe('이 업체의 랜딩만 고를 수 있습니다.');
    const notMedia = await t.admin.post(base(), contractBody({ startsOn: '2027-01-01', endsOn: '2027-01-31', mediaTypeIds: [999] }));
    expect(notMedia.json().error.fields.mediaTypeIds).toBe('매체는 매체 유형 목록에서 고르세요.');

    const audit = await t.app.db.selectFrom('audit_events').select('action').where('target', '=', 'shop-contract').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['contract-create', 'contract-update']);
  });

  it('refuses overlapping contracts, naming the other one, and frees a stopped contract’s later days', async () => {
    const first = await contract({ name: '임플란트 11월', startsOn: '2026-11-01', endsOn: '2026-11-30', landingIds: [implant], mediaTypeIds: [meta] });

    const same = await t.admin.post(base(), contractBody({ startsOn: '2026-11-15', endsOn: '2026-12-15', landingIds: [implant] }));
    expect(same.statusCode).toBe(409);
    expect(same.json().error.message).toBe("'임플란트 11월' 계약(2026-11-01 ~ 2026-11-30)과 기간·랜딩·매체가 겹칩니다. 한 DB는 한 계약에만 집계되니 기간이나 랜딩·매체를 조정하세요.");
    // All landings (and all media) meet every landing.
    expect((await t.admin.post(base(), contractBody({ startsOn: '2026-11-30', endsOn: '2026-12-15' }))).statusCode).toBe(409);
    // Another landing, another medium, or the next day: no lead is counted twice.
    await contract({ name: '검진', startsOn: '2026-11-01', endsOn: '2026-11-30', landingIds: [checkup] });
    await contract({ name: '네이버', startsOn: '2026-11-01', endsOn: '2026-11-30', landingIds: [implant], mediaTypeIds: [naver] });
    await contract({ name: '임플란트 12월', startsOn: '2026-12-01', endsOn: '2026-12-31', landingIds: [implant] });
    // 네이버 covers implant's naver leads only; 메타 on implant is still 임플란트 11월's.
    expect((await t.admin.post(base(), contractBody({ startsOn: '2026-11-10', endsOn: '2026-11-12', landingIds: [implant], mediaTypeIds: [naver] }))).statusCode).toBe(409);
    expect((await t.admin.post(base(), contractBody({ startsOn: '2026-11-10', endsOn: '2026-11-12', landingIds: [implant], mediaTypeIds: [meta] }))).statusCode).toBe(409);

    // Stopped on 21 November (Seoul): it keeps that day, the days after are free.
    const stopped = await t.admin.post(`${base()}/${first}/stop`, { reason: '업체 요청' });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ status: 'stopped', stoppedOn: '2026-11-21' });
    expect((await t.admin.post(`${base()}/${first}/stop`, { reason: '다시' })).statusCode).toBe(409);
    expect((await t.admin.post(base(), contractBody({ name: '대체', startsOn: '2026-11-21', endsOn: '2026-11-30', landingIds: [implant], mediaTypeIds: [meta] }))).statusCode).toBe(409);
    await contract({ name: '대체', startsOn: '2026-11-22', endsOn: '2026-11-30', landingIds: [implant], mediaTypeIds: [meta] });
    // Resuming would count 대체's days twice.
    const resume = await t.admin.post(`${base()}/${first}/resume`);
    expect(resume.statusCode).toBe(409);
    expect(resume.json().error.message).toContain("'대체' 계약(2026-11-22 ~ 2026-11-30)");
  });

  it('deletes only a contract that never counted a lead', async () => {
    const unused = await contract({ startsOn: '2027-01-01', endsOn: '2027-01-31' });
    const used = await contract();
    await lead();
    const refused = await t.admin.del(`${base()}/${used}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('집계된 DB나 반품·마감 이력이 있는 계약은 삭제할 수 없습니다. 대신 중지하세요.');
    expect((await t.admin.del(`${base()}/${unused}`)).statusCode).toBe(204);
    expect((await t.admin.get(`${base()}/${unused}`)).statusCode).toBe(404);
  });
});

describe('counting', () => {
  it('counts valid leads: a duplicate, a 무효, a deleted lead and an approved return each drop out', async () => {
    const id = await contract({ quantity: 100, maxReturnRate: 50 });
    const [a1, a2, a3, a4, a5] = await leads(5);
    const dup = await lead('implant', '010-7000-0001'); // a1's phone: a duplicate
    // A lead outside the period, and one the day before: not in scope.
    at('2026-11-20T14:59:00.000Z');
    await lead();
    at('2026-11-21T03:00:00.000Z');

    let s = await status(id);
    expect(s).toMatchObject({ counted: 5, over: 0, remaining: 95, excluded: { duplicates: 1, invalid: 0, returned: 0, deleted: 0 }, amount: 50_000, vat: 5_000, total: 55_000 });
    expect(s.todayCount).toEqual({ valid: 5, billable: 5, dailyCap: null });

    await patch(a2!, { csStatus: '무효', reason: '장난 신청' });
    s = await status(id);
    expect(s).toMatchObject({ counted: 4, excluded: { duplicates: 1, invalid: 1, returned: 0, deleted: 0 } });

    await remove([a3!]);
    s = await status(id);
    expect(s).toMatchObject({ counted: 3, excluded: { duplicates: 1, invalid: 1, returned: 0, deleted: 1 } });

    const req = await requestReturn(a4!, { reason: '결번' });
    expect(req.statusCode, req.body).toBe(201);
    s = await status(id);
    expect(s).toMatchObject({ counted: 3, returns: { requested: 1, approved: 0, rejected: 0 }, delivered: 3, returnRate: 33.3, replacementsOwed: 0 });

    expect((await decide(req.json().id, { approve: true })).statusCode).toBe(200);
    s = await status(id);
    expect(s).toMatchObject({
      counted: 2, amount: 20_000, vat: 2_000, total: 22_000, excluded: { duplicates: 1, invalid: 1, returned: 1, deleted: 1 },
      returns: { requested: 0, approved: 1, rejected: 0 }, delivered: 3, replacementsOwed: 1,
    });
    expect(s.days[0]).toEqual({ day: '2026-11-21', valid: 2, billable: 2, over: 0, cumulative: 2 });
    expect(s.days).toHaveLength(1);
    expect(s.contract.counted).toBe(2);

    // The leads behind each figure, phones masked.
    expect(await leadIds(id, 'counted')).toEqual([a1, a5]);
    expect(await leadIds(id, 'duplicate')).toEqual([dup]);
    expect(await leadIds(id, 'invalid')).toEqual([a2]);
    expect(await leadIds(id, 'deleted')).toEqual([a3]);
    expect(await leadIds(id, 'returned')).toEqual([a4]);
    expect(await leadIds(id, 'today')).toEqual([a1, a5]);
    const page = (await t.admin.get(`${base()}/${id}/leads?kind=returned`)).json();
    expect(page.items[0]).toMatchObject({ id: a4, phone: '010-****-0004', validity: 'returned', returnStatus: 'approved', landingTitle: '임플란트 상담 이벤트', mediaTypeName: '메타' });
    // Viewing names and phones of leads is in the access record.
    const access = await t.app.db.selectFrom('access_events').select(['action', 'row_count', 'detail']).where('shop_id', '=', t.shopId).orderBy('id').execute();
    expect(access.length).toBe(7);
    expect(access.at(-1)).toMatchObject({ action: 'search', row_count: 1 });
    expect(JSON.parse(access.at(-1)!.detail!)).toMatchObject({ screen: 'contract-status', contractId: id, kind: 'returned' });
  });

  it('bills at most the daily cap a day and the quantity in all; the rest is over', async () => {
    const id = await contract({ quantity: 5, dailyCap: 2 });
    const day1 = await leads(3);
    at('2026-11-22T01:00:00.000Z');
    const day2 = await leads(2);
    at('2026-11-23T01:00:00.000Z');
    const day3 = await leads(3);

    const s = await status(id);
    expect(s).toMatchObject({ counted: 5, over: 3, remaining: 0, amount: 50_000, projectedOn: null, contract: { status: 'completed' } });
    expect(s.todayCount).toEqual({ valid: 3, billable: 1, dailyCap: 2 });
    expect(s.days).toEqual([
      { day: '2026-11-21', valid: 3, billable: 2, over: 1, cumulative: 2 },
      { day: '2026-11-22', valid: 2, billable: 2, over: 0, cumulative: 4 },
      { day: '2026-11-23', valid: 3, billable: 1, over: 2, cumulative: 5 },
    ]);
    expect(await leadIds(id, 'counted')).toEqual([day1[0], day1[1], day2[0], day2[1], day3[0]]);
    expect(await leadIds(id, 'over')).toEqual([day1[2], day3[1], day3[2]]);
    // Pages run across days, newest first by default.
    const page = async (query: string) => {
      const res = (await t.admin.get(`${base()}/${id}/leads?${query}`)).json();
      return { total: res.total, ids: (res.items as Array<{ id: number }>).map((i) => i.id) };
    };
    expect(await page('kind=counted&pageSize=2&page=2')).toEqual({ total: 5, ids: [day2[0], day1[1]] });
    expect(await page('kind=counted&pageSize=2&page=3')).toEqual({ total: 5, ids: [day1[0]] });
    expect(await page('kind=counted&pageSize=2&page=2&sort=createdAt')).toEqual({ total: 5, ids: [day2[0], day2[1]] });
    expect(await page('kind=over&pageSize=2&page=1&sort=-createdAt')).toEqual({ total: 3, ids: [day3[2], day3[1]] });
    expect(await page('kind=over&pageSize=2&page=3')).toEqual({ total: 3, ids: [] });
    expect((await t.admin.get(`${base()}?status=completed`)).json().total).toBe(1);

    // The day's first lead is billed (its rank is the day's, not the contract's).
    expect((await t.admin.get(`/api/shops/${t.shopId}/leads/${day3[0]}/return`)).json()).toMatchObject({ allowed: true });
    // An over lead was never billed: nothing to return.
    const over = (await t.admin.get(`/api/shops/${t.shopId}/leads/${day3[2]}/return`)).json();
    expect(over).toMatchObject({ allowed: false, reason: '한도를 넘어 정산되지 않은 DB는 반품할 수 없습니다.' });
  });

  it('projects the end at the pace so far', async () => {
    const id = await contract({ quantity: 10, endsOn: '2026-12-31' });
    await leads(2);
    at('2026-11-22T01:00:00.000Z');
    const s = await status(id);
    // 2 in 2 days: 1 a day, 8 more → 8 days after today.
    expect(s).toMatchObject({ counted: 2, dailyAverage: 1, projectedOn: '2026-11-30' });
    expect(s.days).toHaveLength(2);
  });
});

describe('returns', () => {
  it('accepts a return within the window and the rate, and refuses past the window, over the rate, and twice', async () => {
    const id = await contract({ maxReturnRate: 20, returnWindowDays: 7 });
    const [l1, l2, l3] = await leads(5);

    const before = (await t.admin.get(`/api/shops/${t.shopId}/leads/${l1}/return`)).json();
    expect(before).toMatchObject({
      contract: { id, name: '11월 임플란트', returnWindowDays: 7, maxReturnRate: 20 }, allowed: true, reason: null,
      deadline: '2026-11-28T01:00:00.000Z', returnsSoFar: 0, delivered: 5, rateUsed: 0, current: null,
    });

    // 7 days are 7 × 24 hours from receipt: a minute before is still within.
    at('2026-11-28T00:59:00.000Z');
    const ok = await requestReturn(l1!, { reason: '기타', note: '상담 거부' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ leadId: l1, reason: '기타', note: '상담 거부', status: 'requested', leadPhone: '010-****-0001', contractId: id });

    const twice = await requestReturn(l1!);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe('이미 반품을 요청한 DB입니다. 처리 결과를 기다려 주세요.');

    // 1 of 5 is 20%: a second return would pass the rate.
    const rate = await requestReturn(l2!);
    expect(rate.statusCode).toBe(409);
    expect(rate.json().error.message).toBe('최대 반품률 20%를 넘어 더 반품할 수 없습니다. (반품 1건 / 공급 5건)');

    at('2026-11-28T01:00:00.000Z');
    const late = await requestReturn(l3!);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe('접수 후 7일이 지나 반품할 수 없습니다.');

    const noteMissing = await requestReturn(l3!, { reason: '기타' });
    expect(noteMissing.statusCode).toBe(400);
    expect(noteMissing.json().error.fields.note).toBe('기타를 고르면 반품 사유를 메모에 적어 주세요.');

    const list = (await t.admin.get(`${base()}/returns?status=requested`)).json();
    expect(list).toMatchObject({ total: 1, items: [{ leadId: l1, requestedByName: expect.any(String), decidedAt: null }] });
  });

  it('approval takes the lead out of the count and owes a replacement; rejection keeps it counted; both are in the lead’s history', async () => {
    const id = await contract({ quantity: 3, maxReturnRate: 50 });
    const [l1, l2, l3, l4] = await leads(4);
    expect(await status(id)).toMatchObject({ counted: 3, over: 1 });

    const r1 = await requestReturn(l1!, { reason: '결번' });
    const r2 = await requestReturn(l2!, { reason: '허위' });
    const noReason = await decide(r2.json().id, { approve: false });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.note).toBe('반려 사유를 입력하세요.');
    const rejected = await decide(r2.json().id, { approve: false, note: '통화 기록 확인됨' });
    expect(rejected.json()).toMatchObject({ status: 'rejected', decisionNote: '통화 기록 확인됨', decidedByName: expect.any(String) });
    expect((await decide(r2.json().id, { approve: true })).statusCode).toBe(409);

    const approved = await decide(r1.json().id, { approve: true, note: '결번 확인' });
    expect(approved.json()).toMatchObject({ status: 'approved', decisionNote: '결번 확인' });
    // The quantity's fourth lead takes l1's place: still 3 billed, the replacement delivered.
    let s = await status(id);
    expect(s).toMatchObject({ counted: 3, over: 0, returns: { requested: 0, approved: 1, rejected: 1 }, replacementsOwed: 0, excluded: { returned: 1 } });
    expect(await leadIds(id, 'counted')).toEqual([l2, l3, l4]);

    // Without a lead to take its place, a replacement is owed.
    const r3 = await requestReturn(l3!, { reason: '연락두절' });
    expect((await decide(r3.json().id, { approve: true })).statusCode).toBe(200);
    s = await status(id);
    expect(s).toMatchObject({ counted: 2, remaining: 1, replacementsOwed: 1, returns: { approved: 2, rejected: 1 } });

    const history = (await t.admin.get(`/api/shops/${t.shopId}/leads/${l1}`)).json().history as Array<{ action: string; after: Record<string, unknown> | null }>;
    expect(history.filter((e) => e.action.startsWith('return-')).map((e) => e.action)).toEqual(['return-approve', 'return-request']);
    expect(history.find((e) => e.action === 'return-approve')!.after).toMatchObject({ validity: 'returned', note: '결번 확인', reason: '결번' });
    const l2History = (await t.admin.get(`/api/shops/${t.shopId}/leads/${l2}`)).json().history as Array<{ action: string; after: Record<string, unknown> | null }>;
    expect(l2History.find((e) => e.action === 'return-reject')!.after).toMatchObject({ note: '통화 기록 확인됨' });
    const lead1 = (await t.admin.get(`/api/shops/${t.shopId}/leads/${l1}`)).json();
    expect(lead1.validity).toBe('returned');
    // A later call outcome does not bring a returned lead back into the count.
    await patch(l1!, { csStatus: '부재' });
    expect(await status(id)).toMatchObject({ counted: 2, replacementsOwed: 1, excluded: { returned: 2 } });

    const audit = await t.app.db.selectFrom('audit_events').select('action').where('target', '=', 'lead-return').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['return-request', 'return-request', 'return-reject', 'return-approve', 'return-request', 'return-approve']);

    // A rejected lead may be asked about again; an approved one not.
    expect((await t.admin.get(`/api/shops/${t.shopId}/leads/${l1}/return`)).json()).toMatchObject({ allowed: false, reason: '이미 반품이 승인된 DB입니다.', current: { status: 'approved' } });
  });

  it('refuses a lead no contract covers, a duplicate and a 무효 lead', async () => {
    await contract({ landingIds: [implant] });
    const outside = await lead('checkup');
    const a = await lead('implant', '010-7100-0001');
    const dup = await lead('implant', '010-7100-0001');
    await patch(a, { csStatus: '무효', reason: '장난' });
    const reason = async (id: number) => (await t.admin.get(`/api/shops/${t.shopId}/leads/${id}/return`)).json().reason;
    expect(await reason(outside)).toBe('이 DB를 집계하는 계약이 없어 반품할 수 없습니다.');
    expect(await reason(dup)).toBe('중복 DB는 이미 정산에서 빠져 있어 반품할 수 없습니다.');
    expect(await reason(a)).toBe('무효 처리된 DB는 이미 정산에서 빠져 있어 반품할 수 없습니다.');
    expect((await requestReturn(outside)).statusCode).toBe(409);
  });
});

describe('settlement', () => {
  it('adds up to what 계약 현황 shows, per month, and downloads as an XLSX 정산서', async () => {
    const id = await contract({ name: '연말 계약', endsOn: '2026-12-31', quantity: 100, unitPrice: 12_345, maxReturnRate: 50, returnWindowDays: 30 });
    const [first] = await leads(3);
    at('2026-11-30T14:50:00.000Z'); // 30 Nov 23:50 in Seoul
    await lead();
    at('2026-11-30T15:10:00.000Z'); // 1 Dec 00:10 in Seoul
    await leads(2);
    at('2026-12-02T01:00:00.000Z');
    await returned(first!);

    const s = await status(id);
    expect(s).toMatchObject({ counted: 5, amount: 61_725, vat: 6_172, total: 67_897 });

    const nov = (await t.admin.get(`${base()}/${id}/settlement?month=2026-11`)).json();
    expect(nov).toMatchObject({ month: '2026-11', from: '2026-11-21', to: '2026-11-30' });
    expect(nov.days).toHaveLength(10);
    expect(nov.days[0]).toEqual({ day: '2026-11-21', valid: 2, billable: 2, over: 0, returned: 1 });
    expect(nov.days[9]).toEqual({ day: '2026-11-30', valid: 1, billable: 1, over: 0, returned: 0 });
    expect(nov.totals).toEqual({ valid: 3, billable: 3, over: 0, returned: 1, returnsApprovedInMonth: 0, unitPrice: 12_345, amount: 37_035, vat: 3_703, total: 40_738 });
    const dec = (await t.admin.get(`${base()}/${id}/settlement`)).json();
    expect(dec).toMatchObject({ month: '2026-12', from: '2026-12-01', to: '2026-12-31' });
    expect(dec.totals).toMatchObject({ valid: 2, billable: 2, returnsApprovedInMonth: 1, amount: 24_690 });
    expect(nov.totals.billable + dec.totals.billable).toBe(s.counted);
    expect(nov.totals.amount + dec.totals.amount).toBe(s.amount);
    expect((await t.admin.get(`${base()}/${id}/settlement?month=2027-01`)).json()).toMatchObject({ from: null, to: null, days: [], totals: { billable: 0, amount: 0 } });
    expect((await t.admin.get(`${base()}/${id}/settlement?month=2026-13`)).statusCode).toBe(400);

    const file = await t.admin.get(`${base()}/${id}/settlement.xlsx?month=2026-11`);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(decodeURIComponent(String(file.headers['content-disposition']))).toContain('정산서_미소치과_연말_계약_2026-11.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('정산서')!;
    const rows = new Map<string, ExcelJS.Row>();
    sheet.eachRow((row) => {
      const first = row.getCell(1).value;
      rows.set(first instanceof Date ? first.toISOString().slice(0, 10) : String(first), row);
    });
    expect(String(sheet.getRow(1).getCell(1).value)).toBe('2026년 11월 정산서');
    expect(rows.get('수신 (업체)')!.getCell(2).value).toBe('미소치과의원');
    expect(rows.get('수신 (업체)')!.getCell(5).value).toBe('(주)테스트애드');
    expect(rows.get('사업자등록번호')!.getCell(2).value).toBe('107-86-16321');
    expect(rows.get('단가 (원, VAT 별도)')!.getCell(2).value).toBe(12_345);
    expect(rows.get('2026-11-21')!.values).toEqual([undefined, new Date('2026-11-21T00:00:00.000Z'), 2, 2, 0, 1, 2 * 12_345]);
    const sum = rows.get('합계')!;
    expect([sum.getCell(2).value, sum.getCell(3).value, sum.getCell(4).value, sum.getCell(5).value, sum.getCell(6).value]).toEqual([3, 3, 0, 1, nov.totals.amount]);
    expect(sum.getCell(3).numFmt).toBe('#,##0');
    expect(rows.get('공급가액 (원)')!.getCell(2).value).toBe(nov.totals.amount);
    expect(rows.get('부가세 (원)')!.getCell(2).value).toBe(nov.totals.vat);
    expect(rows.get('합계 금액 (원)')!.getCell(2).value).toBe(nov.totals.total);
    expect(rows.get('합계 금액 (원)')!.getCell(2).numFmt).toBe('#,##0');
  });

  it.skipIf(openpyxlMissing)('sends a 정산서 that Excel reads as typed cells, with every column of the screen (read by openpyxl)', async () => {
    const id = await contract({ name: '엑셀 계약', unitPrice: 12_345 });
    await leads(2);
    at('2026-11-23T01:00:00.000Z');
    await leads(1);
    const file = await t.admin.get(`${base()}/${id}/settlement.xlsx?month=2026-11`);
    expect(file.statusCode, file.body).toBe(200);
    const [sheet] = readWithOpenpyxl(file.rawPayload);
    const cells = Object.entries(sheet!.cells);
    const headRow = cells.find(([, c]) => c.value === '일자')![0].slice(1);
    const head = ['A', 'B', 'C', 'D', 'E', 'F'].map((col) => sheet!.cells[`${col}${headRow}`]?.value);
    // The screen's columns: 일자, 유효, 청구, 초과, 반품, 공급가.
    expect(head).toEqual(['일자', '유효 DB', '정산 DB', '한도 초과', '반품 승인', '공급가 (원)']);
    const first = Number(headRow) + 1;
    expect(sheet!.cells[`A${first}`]).toEqual({ type: 'd', format: 'yyyy-mm-dd', value: '2026-11-21T00:00:00' });
    expect(sheet!.cells[`B${first}`]).toEqual({ type: 'n', format: '#,##0', value: 2 });
    expect(sheet!.cells[`F${first}`]).toEqual({ type: 'n', format: '#,##0', value: 24_690 });
    expect(sheet!.cells[`F${first + 2}`]).toMatchObject({ type: 'n', value: 12_345 });
    // Ten days (21–30 Nov) under the header: the filter spans them, not the sum below.
    const last = first + 9;
    expect(sheet!.cells[`A${last}`]).toMatchObject({ type: 'd', value: '2026-11-30T00:00:00' });
    expect(sheet!.autoFilter).toBe(`A${headRow}:F${last}`);
    expect(sheet!.cells[`A${last + 1}`]!.value).toBe('합계');
    expect(sheet!.cells[`F${last + 1}`]).toEqual({ type: 'n', format: '#,##0', value: 3 * 12_345 });
    expect(sheet!.freezePanes).toBe(`A${first}`);
  });

  it('equals the status for a contract within one month', async () => {
    const id = await contract({ quantity: 4, dailyCap: 2, unitPrice: 33_333 });
    await leads(3);
    at('2026-11-25T01:00:00.000Z');
    await leads(3);
    const s = await status(id);
    const m = (await t.admin.get(`${base()}/${id}/settlement?month=2026-11`)).json();
    expect(m.totals).toMatchObject({ billable: s.counted, over: s.over, amount: s.amount, vat: s.vat, total: s.total });
    expect(m.totals).toMatchObject({ billable: 4, over: 2, amount: 133_332, vat: 13_333, total: 146_665 });
  });
});

describe('access', () => {
  it('keeps counselors out, lets the shop owner request but not decide, and the marketer decide', async () => {
    const id = await contract();
    const [l1] = await leads(2);
    const counselor = await shopAccount(t, 'csa1', 'counselor');
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const marketer = await shopAccount(t, 'mkt1', 'marketer');

    expect((await counselor.get(`${base()}/status`)).statusCode).toBe(403);
    expect((await counselor.get(base())).statusCode).toBe(403);
    expect((await requestReturn(l1!, { reason: '결번' }, counselor)).statusCode).toBe(403);

    expect((await owner.get(`${base()}/status`)).statusCode).toBe(200);
    expect((await owner.post(base(), contractBody({ startsOn: '2027-01-01', endsOn: '2027-01-31' }))).statusCode).toBe(403);
    const req = await requestReturn(l1!, { reason: '결번' }, owner);
    expect(req.statusCode, req.body).toBe(201);
    expect(req.json().requestedByName).toBe('owner1');
    expect((await decide(req.json().id, { approve: true }, owner)).statusCode).toBe(403);

    const ok = await decide(req.json().id, { approve: true }, marketer);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().decidedByName).toBe('mkt1');
    expect((await status(id, marketer)).counted).toBe(1);
  });
});
