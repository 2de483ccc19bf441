// Kept past days (past-days.ts): after every kind of change the figures equal those counted
// afresh — on 계약 현황 (the routes' service) and on the dashboards (links.contractProgress) —
// and a change the feed did not tell of shows that the days before today are in fact kept.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingTestApp, leadBody, openLanding, submit, type LandingTestApp } from '../../test-landings.ts';
import { shopContractsService } from './shop-contracts.service.ts';
import { DASHBOARD_CONTRACT_RECENT_DAYS } from '../../../contracts/shop-dashboard.ts';
import type { ContractFigures } from '../../../contracts/shop-contracts.ts';
import type { LeadChange } from '../../../contracts/leads.ts';

let t: LandingTestApp;
let implant: number;
let meta: number;
beforeEach(async () => {
  t = await landingTestApp({ sessionIdleMinutes: 1_000_000, sessionAbsoluteHours: 100_000 });
  phoneSeq = 0;
  meta = (await t.admin.post('/api/codes/media-type', { name: '메타', code: 'meta' })).json().id as number;
  implant = await openLanding(t, { mediaTypeId: meta });
});
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/contracts`;
const at = (iso: string) => void (t.clock.current = new Date(iso));
let phoneSeq = 0;

async function lead(): Promise<number> {
  const res = await submit(t, leadBody(t, implant, { landingCode: 'implant', phone: `010-7100-${String(++phoneSeq).padStart(4, '0')}` }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}

const contractBody = (extra: Record<string, unknown> = {}) => ({
  name: '11월 임플란트', startsOn: '2026-11-18', endsOn: '2026-11-30', quantity: 100, unitPrice: 10_000, dailyCap: 3,
  landingIds: [], mediaTypeIds: [], returnWindowDays: 30, maxReturnRate: 100, autoClose: false, memo: '', ...extra,
});

/** Figures as JSON carries them (the status route's answer). */
const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

/** The figures counted afresh: a service of its own, nothing kept yet. */
const fresh = () =>
  shopContractsService(t.app.db, t.app.clock, { landingsChanged: async () => {}, watchAllLeads: () => () => {} }).progress([t.shopId], DASHBOARD_CONTRACT_RECENT_DAYS);

/** The dashboards' figures and 계약 현황's, both from what the app keeps. */
async function kept(id: number): Promise<{ progress: ContractFigures[]; status: unknown }> {
  const progress = await t.app.links.contractProgress([t.shopId]);
  const res = await t.admin.get(`${base()}/status?contractId=${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return { progress, status: res.json().contracts[0] };
}

/** Kept figures equal fresh ones, on both screens. */
async function same(id: number): Promise<ContractFigures> {
  const want = await fresh();
  const got = await kept(id);
  expect(plain(got.progress)).toEqual(plain(want));
  expect(got.status).toEqual(plain(want.find((f) => f.contract.id === id)));
  return want.find((f) => f.contract.id === id)!;
}

/** Runs a change and waits until the lead feed delivered one of the shop's changes (at once on SQLite, a notification on PostgreSQL). */
async function afterFeed<T>(change: () => Promise<T>): Promise<T> {
  let heard!: () => void;
  const got = new Promise<void>((resolve) => (heard = resolve));
  const off = t.app.links.watchAllLeads((c: LeadChange) => c.shopId === t.shopId && heard());
  try {
    const out = await change();
    await Promise.race([got, new Promise((_, reject) => setTimeout(() => reject(new Error('the lead feed did not deliver the change')), 5000))]);
    return out;
  } finally {
    off();
  }
}

const ok = (res: { statusCode: number; body: string }, code = 200) => expect(res.statusCode, res.body).toBe(code);

describe('kept past days of contract figures', () => {
  it('equal figures counted afresh after each kind of change, and keep the past days between changes', async () => {
    const id = (await t.admin.post(base(), contractBody())).json().id as number;
    const days: number[][] = [];
    for (const day of ['2026-11-18', '2026-11-19', '2026-11-20']) {
      at(`${day}T02:00:00.000Z`);
      days.push([await lead(), await lead(), await lead(), await lead()]); // one over the daily cap
    }
    at('2026-11-21T01:00:00.000Z');
    await lead();
    const first = await same(id);
    expect(first.counted).toBe(10);

    // A past lead changed behind the feed's back: the kept days do not see it — they are kept — until the feed tells.
    await t.app.db.updateTable('leads').set({ validity: 'invalid' }).where('id', '=', days[0]![0]!).execute();
    expect((await kept(id)).progress[0]!.days).toEqual(first.days);
    expect((await fresh())[0]!.days[0]).toMatchObject({ day: '2026-11-18', valid: 3, billable: 3, over: 0 });
    await afterFeed(async () => t.app.links.leadsChanged({ shopId: t.shopId, kind: 'changed', leads: [{ id: days[0]![0]!, assigneeId: null }] }));
    await same(id);

    // 무효 (status) of a past lead.
    await afterFeed(async () => ok(await t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${days[1]![0]}`, { csStatus: '무효', reason: '장난 신청' })));
    expect((await same(id)).days[1]).toMatchObject({ day: '2026-11-19', valid: 3, billable: 3, over: 0 });

    // Deletion and restore.
    await afterFeed(async () => ok(await t.admin.post(`/api/shops/${t.shopId}/leads/delete`, { ids: [days[2]![1]], reason: '고객 요청' })));
    expect((await same(id)).excluded.deleted).toBe(1);
    await afterFeed(async () => ok(await t.admin.post(`/api/shops/${t.shopId}/deleted-leads/restore`, { ids: [days[2]![1]], reason: '잘못 삭제' })));
    expect((await same(id)).excluded.deleted).toBe(0);

    // An approved return.
    const req = await t.admin.post(`/api/shops/${t.shopId}/leads/${days[2]![0]}/return`, { reason: '결번' });
    ok(req, 201);
    await afterFeed(async () => ok(await t.admin.post(`${base()}/returns/${req.json().id}/decision`, { approve: true })));
    expect((await same(id)).excluded.returned).toBe(1);

    // Contract edits: a smaller cap, then a later start, then 중지 — no feed, the contract's row says it.
    ok(await t.admin.put(`${base()}/${id}`, contractBody({ dailyCap: 2 })));
    await same(id);
    ok(await t.admin.put(`${base()}/${id}`, contractBody({ dailyCap: 2, startsOn: '2026-11-19' })));
    expect((await same(id)).days[0]!.day).toBe('2026-11-19');
    ok(await t.admin.post(`${base()}/${id}/stop`, { reason: '광고 중단' }));
    await same(id);
    ok(await t.admin.post(`${base()}/${id}/resume`, {}));
    await same(id);

    // A lead created today counts at once, and leaves the kept past days alone (a change behind the feed's back stays unseen).
    await t.app.db.updateTable('leads').set({ validity: 'invalid' }).where('id', '=', days[1]![2]!).execute();
    const before = (await kept(id)).progress[0]!;
    await afterFeed(() => lead());
    const after = (await kept(id)).progress[0]!;
    expect(after.days.slice(0, -1)).toEqual(before.days.slice(0, -1));
    expect(after.todayCount.valid).toBe(before.todayCount.valid + 1);
    expect((await fresh())[0]!.days[0]!.valid).toBe(before.days[0]!.valid - 1);
    await afterFeed(async () => t.app.links.leadsChanged({ shopId: t.shopId, kind: 'changed', leads: [{ id: days[1]![2]!, assigneeId: null }] }));
    await same(id);

    // A new lead dated back (an import's 접수일): its day is counted again.
    const row = await t.app.db.selectFrom('leads').selectAll().where('id', '=', days[1]![3]!).executeTakeFirstOrThrow();
    const { id: _old, feed_seq: _seq, ...copy } = row;
    const imported = (await t.app.db.insertInto('leads').values({ ...copy, phone: '010-7199-0001', created_at: '2026-11-19T05:00:00.000Z' })
      .returning('id').executeTakeFirstOrThrow()).id;
    await afterFeed(async () => t.app.links.leadsChanged({ shopId: t.shopId, kind: 'created', leads: [{ id: imported, assigneeId: null }] }));
    expect((await same(id)).days[0]).toMatchObject({ day: '2026-11-19', valid: 3 });

    // The next day: yesterday joins the kept days.
    at('2026-11-22T01:00:00.000Z');
    await lead();
    await same(id);
    await afterFeed(async () => ok(await t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${days[2]![3]}`, { csStatus: '무효', reason: '장난 신청' })));
    await same(id);
  });
});
