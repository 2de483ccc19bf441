import { describe, expect, it } from 'vitest';
import { leadBody, shopAccount, submit, type LandingTestApp, eachLandingTest } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';
import { findPersonalData } from '../../test-personal-data.ts';
import { build } from '../../app.ts';
import { purgeDue, SCRUBBED } from './deletion.ts';
import { PURGED_NAME } from '../../../contracts/lead-deletion.ts';

let t: LandingTestApp;
let landingId: number;
eachLandingTest((app, landing) => ([t, landingId] = [app, landing]));

const shop = () => `/api/shops/${t.shopId}`;
const enc = encodeURIComponent;
const DAY_MINUTES = 24 * 60;

/** Submits a lead through the public form and answers its id. */
async function lead(extra: Record<string, unknown> = {}, o: { ip?: string; headers?: Record<string, string> } = {}): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, extra), o);
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}

const accountId = async (loginId: string) => (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow()).id;
const events = (leadId: number) =>
  t.app.db.selectFrom('lead_events').select(['action', 'account_id', 'before', 'after', 'ip']).where('lead_id', '=', leadId).orderBy('id').execute();
const remove = (c: Client, body: unknown) => c.post(`${shop()}/leads/delete`, body);
const restore = (c: Client, body: unknown) => c.post(`${shop()}/deleted-leads/restore`, body);
const purge = (c: Client, body: unknown) => c.post(`${shop()}/deleted-leads/purge`, body);
const destructionRows = () =>
  t.app.db.selectFrom('destructions').select(['shop_id', 'trigger', 'account_id', 'reason', 'lead_count', 'lead_ids']).orderBy('id').execute();
const leadRow = (id: number) => t.app.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** What every screen that shows leads answers the administrator (the counselor's own view of allocation too). */
async function views(admin: Client) {
  const get = async (url: string) => {
    const res = await admin.get(url);
    expect(res.statusCode, `${url} ${res.body}`).toBe(200);
    return res.json();
  };
  const s = shop();
  return {
    list: await get(`${s}/leads`),
    byName: await get(`${s}/leads?q=${enc('사라질')}`),
    byPhone: await get(`${s}/leads?q=3333-4444`),
    calendarMonth: await get(`${s}/calendar?month=2026-11`),
    calendarDay: await get(`${s}/calendar/2026-11-21`),
    csStats: await get(`${s}/cs-stats?from=2026-11-21&to=2026-11-21`),
    adminCsStats: await get('/api/cs-stats?from=2026-11-21&to=2026-11-21'),
    shopDashboard: await get(`${s}/dashboard`),
    dashboard: await get('/api/dashboard'),
    allocation: await get(`${s}/allocation`),
    allocationHistory: await get(`${s}/allocation/history`),
    landings: await get(`${s}/landings`),
    globalSearch: await get(`/api/global-search?q=${enc('사라질가나')}`),
  };
}

describe('deleting leads', () => {
  it('takes a deleted lead out of every list, search, statistic, calendar, dashboard and allocation; a restore brings back exactly what was', async () => {
    await shopAccount(t, 'csa1', 'counselor');
    const counselor = await accountId('csa1');
    const keep = await lead({ name: '남는사람', phone: '010-1111-2222' });
    const gone = await lead({ name: '사라질가나', phone: '010-3333-4444' });
    const held = await lead({ name: '배정된다라', phone: '010-5555-6666' });
    const booked = await t.admin.request('PATCH', `${shop()}/leads/${gone}`, { csStatus: '상담예약', reservedAt: '2026-11-21T15:00:00+09:00' });
    expect(booked.statusCode, booked.body).toBe(200);
    const given = await t.admin.post(`${shop()}/allocation/apply`, { mode: 'manual', leadIds: [held], counselorIds: [counselor] });
    expect(given.statusCode, given.body).toBe(200);

    const before = await views(t.admin);
    expect(before.list.total).toBe(3);
    expect(before.byName.total).toBe(1);
    expect(JSON.stringify(before)).toContain('사라질가나');
    expect((await t.admin.get(`${shop()}/leads/${gone}`)).statusCode).toBe(200);

    const deleted = await remove(t.admin, { ids: [gone, held], reason: '고객 요청으로 삭제' });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ deleted: 2 });

    const after = await views(t.admin);
    const text = JSON.stringify(after);
    expect(text).not.toContain('사라질가나');
    expect(text).not.toContain('배정된다라');
    expect(after.list.items.map((i: { id: number }) => i.id)).toEqual([keep]);
    expect(after.list.total).toBe(1);
    expect(after.byName.total).toBe(0);
    expect(after.byPhone.total).toBe(0);
    const day = (m: { days: Array<{ day: string; received: number; appointments: number }> }) => m.days.find((d) => d.day === '2026-11-21');
    expect(day(before.calendarMonth)).toMatchObject({ received: 3, appointments: 1 });
    expect(day(after.calendarMonth)).toMatchObject({ received: 1, appointments: 0 });
    expect(after.calendarMonth.appointments).toEqual([]);
    expect(after.calendarDay).toMatchObject({ receivedTotal: 1, appointments: [] });
    expect(before.csStats.totals.total).toBe(3);
    expect(after.csStats.totals.total).toBe(1);
    expect(after.adminCsStats.totals.total).toBe(1);
    expect(before.shopDashboard.leads.today).toBe(3);
    expect(after.shopDashboard.leads).toMatchObject({ today: 1, month: 1 });
    expect(after.shopDashboard.unassigned).toBe(1);
    expect(before.dashboard.leads).toMatchObject({ today: 3, unassigned: 2 });
    expect(after.dashboard.leads).toMatchObject({ today: 1, month: 1, unassigned: 1 });
    expect(before.allocation.unassigned).toBe(2);
    expect(after.allocation.unassigned).toBe(1);
    expect(before.allocation.counselors[0]).toMatchObject({ id: counselor, today: 1, open: 1 });
    expect(after.allocation.counselors[0]).toMatchObject({ id: counselor, today: 0, open: 0 });
    expect(before.allocationHistory.total).toBe(1);
    expect(after.allocationHistory.total).toBe(0);
    expect(before.landings.items[0].submissions).toBe(3);
    expect(after.landings.items[0].submissions).toBe(1);
    // Nor can it be opened, changed or handed out.
    expect((await t.admin.get(`${shop()}/leads/${gone}`)).statusCode).toBe(404);
    expect((await t.admin.request('PATCH', `${shop()}/leads/${gone}`, { memo: 'x' })).statusCode).toBe(404);
    expect((await t.admin.post(`${shop()}/leads/bulk-status`, { ids: [gone], csStatus: '부재' })).statusCode).toBe(404);
    expect((await t.admin.post(`${shop()}/leads/${gone}/unmask`)).statusCode).toBe(404);

    const back = await restore(t.admin, { ids: [gone, held], reason: '삭제 취소' });
    expect(back.json()).toEqual({ restored: 2 });
    expect(await views(t.admin)).toEqual(before);

    const admin = await accountId('admin');
    const trail = (await events(gone)).filter((e) => e.action === 'delete' || e.action === 'restore');
    expect(trail.map((e) => [e.action, e.account_id, JSON.parse(e.before!), JSON.parse(e.after!)])).toEqual([
      ['delete', admin, { deleted: false }, { deleted: true, reason: '고객 요청으로 삭제' }],
      ['restore', admin, { deleted: true }, { deleted: false, reason: '삭제 취소' }],
    ]);
    expect(await leadRow(gone)).toMatchObject({ deleted_at: null, deleted_by: null, delete_reason: null, purged_at: null, name: '사라질가나' });
  });

  it('deletes every lead the list’s filter finds, and says what is missing or not there', async () => {
    const a = await lead({ phone: '010-2000-0001', utm_source: 'meta' });
    const b = await lead({ phone: '010-2000-0002', utm_source: 'meta' });
    const c = await lead({ phone: '010-2000-0003', utm_source: 'naver' });
    const filter = { from: '2026-11-21', to: '2026-11-21', utmSource: 'meta' };

    const noReason = await remove(t.admin, { filter });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBe('삭제 사유를 입력하세요.');
    expect((await remove(t.admin, { reason: '정리' })).json().error.fields.ids).toBe('삭제할 DB를 선택하세요.');
    expect((await remove(t.admin, { ids: [], reason: '정리' })).json().error.fields.ids).toBe('삭제할 DB를 선택하세요.');
    expect((await remove(t.admin, { ids: Array.from({ length: 501 }, (_, i) => i + 1), reason: '정리' })).json().error.fields.ids).toBe('한 번에 500건까지 삭제할 수 있습니다.');

    const res = await remove(t.admin, { filter, reason: '광고 테스트 유입' });
    expect(res.json()).toEqual({ deleted: 2 });
    expect((await t.admin.get(`${shop()}/leads`)).json().items.map((i: { id: number }) => i.id)).toEqual([c]);
    for (const id of [a, b]) expect((await events(id)).map((e) => e.action)).toEqual(['created', 'delete']);
    // Nothing left that matches, nor a lead of another shop.
    expect((await remove(t.admin, { filter, reason: '다시' })).statusCode).toBe(404);
    const other = await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' });
    const elsewhere = await t.admin.post(`/api/shops/${other.json().id}/leads/delete`, { ids: [c], reason: '다른 업체에서' });
    expect(elsewhere.statusCode).toBe(404);
    expect((await leadRow(c)).deleted_at).toBeNull();
  });
});

describe('삭제 DB 관리', () => {
  it('lists deleted leads with masked phones, who and why, and when each will be destroyed; filters and sorts on the server', async () => {
    await t.app.db.updateTable('privacy_policies').set({ retention_days: 20 }).execute();
    const a = await lead({ name: '가나다', phone: '010-3000-0001' });
    const b = await lead({ name: '라마바', phone: '010-3000-0002' });
    const live = await lead({ name: '살아있음', phone: '010-3000-0003' });
    expect((await t.admin.put(`${shop()}/purge-settings`, { graceDays: 7 })).json()).toMatchObject({ graceDays: 7 });
    t.clock.advanceMinutes(30);
    await remove(t.admin, { ids: [a], reason: '중복 문의' });
    t.clock.advanceMinutes(30);
    await remove(t.admin, { ids: [b], reason: '본인 요청' });

    const list = (await t.admin.get(`${shop()}/deleted-leads`)).json();
    expect(list.total).toBe(2);
    expect(list.graceDays).toBe(7);
    expect(list.items.map((i: { id: number }) => i.id)).toEqual([b, a]);
    expect(list.items[1]).toMatchObject({
      id: a, name: '가나다', phone: '010-****-0001', deletedAt: '2026-11-21T01:30:00.000Z', deletedByName: '최고관리자', reason: '중복 문의',
      destroyAt: '2026-11-28T01:30:00.000Z', destroyTrigger: 'grace', landingTitle: '임플란트 상담 이벤트',
    });
    expect(JSON.stringify(list)).not.toContain('3000-0001');

    const ids = async (query: string) => ((await t.admin.get(`${shop()}/deleted-leads?${query}`)).json().items as Array<{ id: number }>).map((i) => i.id);
    expect(await ids(`q=${enc('라마')}`)).toEqual([b]);
    expect(await ids('q=3000-0001')).toEqual([a]);
    expect(await ids('sort=deletedAt')).toEqual([a, b]);
    expect(await ids('sort=name')).toEqual([a, b]);
    expect(await ids(`deletedBy=${await accountId('admin')}`)).toEqual([b, a]);
    expect(await ids('from=2026-11-22&to=2026-11-22')).toEqual([]);
    expect(await ids('from=2026-11-21&to=2026-11-21')).toEqual([b, a]);
    expect((await t.admin.get(`${shop()}/deleted-leads/deleters`)).json().items).toEqual([{ id: await accountId('admin'), name: expect.any(String) }]);
    expect(await ids(`q=${enc('살아있음')}`)).toEqual([]);
    expect(live).toBeGreaterThan(0);

    // A longer grace period than the policy's retention: the retention ends it first.
    await t.admin.put(`${shop()}/purge-settings`, { graceDays: 30 });
    const later = (await t.admin.get(`${shop()}/deleted-leads?sort=deletedAt`)).json().items[0];
    expect(later).toMatchObject({ id: a, destroyAt: '2026-12-11T01:00:00.000Z', destroyTrigger: 'retention' });
  });

  it('counts the destructions of the next 30 days per day and trigger, each lead once', async () => {
    await t.app.db.updateTable('privacy_policies').set({ retention_days: 20 }).execute();
    const deleted = await lead({ phone: '010-3100-0001' });
    await lead({ phone: '010-3100-0002' });
    await t.admin.put(`${shop()}/purge-settings`, { graceDays: 7 });
    await remove(t.admin, { ids: [deleted], reason: '정리' });

    const upcoming = (await t.admin.get(`${shop()}/destructions/upcoming`)).json();
    expect(upcoming.days).toHaveLength(30);
    expect(upcoming.days[0].day).toBe('2026-11-21');
    expect(upcoming.graceDays).toBe(7);
    expect(upcoming.totals).toEqual({ grace: 1, retention: 1 });
    const on = (d: string) => upcoming.days.find((x: { day: string }) => x.day === d);
    expect(on('2026-11-28')).toEqual({ day: '2026-11-28', grace: 1, retention: 0 });
    expect(on('2026-12-11')).toEqual({ day: '2026-12-11', grace: 0, retention: 1 });

    await t.admin.put(`${shop()}/purge-settings`, { graceDays: 30 });
    const longer = (await t.admin.get(`${shop()}/destructions/upcoming`)).json();
    expect(longer.totals).toEqual({ grace: 0, retention: 2 });
    expect(longer.days.find((x: { day: string }) => x.day === '2026-12-11').retention).toBe(2);
  });

  it('destroys a deleted lead for good: no trace of its personal data in any table, its events scrubbed, the destruction recorded', async () => {
    const NAME = '파기대상가나';
    const PHONE = '01077773131';
    const IP = '198.51.100.77';
    const AGENT = 'PurgeProbe/9.9';
    const id = await lead({ name: NAME, phone: '010-7777-3131', utm_source: 'meta' }, { ip: IP, headers: { 'user-agent': AGENT } });
    const kept = await lead({ name: '남는고객', phone: '010-7777-0000' });
    const patch = (body: unknown) => t.admin.request('PATCH', `${shop()}/leads/${id}`, body);
    expect((await patch({ memo: `${NAME} 님 임플란트 문의, 010-7777-3131로 저녁 통화` })).statusCode).toBe(200);
    expect((await patch({ csStatus: '무효', reason: `${NAME} 본인이 아니라고 함` })).statusCode).toBe(200);
    await shopAccount(t, 'csa1', 'counselor');
    const moved = await t.admin.post(`${shop()}/allocation/reassign`, { leadIds: [id], to: await accountId('csa1'), reason: `${NAME} 고객 담당 변경` });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await t.admin.get(`${shop()}/leads/${id}`)).statusCode).toBe(200);
    expect((await remove(t.admin, { ids: [id], reason: `${NAME} 요청으로 삭제` })).statusCode).toBe(200);

    const needles = [NAME, PHONE, IP, AGENT];
    const found = await findPersonalData(t.app.db, needles);
    expect(found).toEqual(expect.arrayContaining([
      expect.stringMatching(/^leads\.name /), expect.stringMatching(/^leads\.phone /), expect.stringMatching(/^leads\.ip /),
      expect.stringMatching(/^leads\.user_agent /), expect.stringMatching(/^lead_events\.after /), expect.stringMatching(/^lead_events\.ip /),
    ]));

    const noReason = await purge(t.admin, { ids: [id] });
    expect(noReason.json().error.fields.reason).toBe('파기 사유를 입력하세요.');
    const res = await purge(t.admin, { ids: [id], reason: '보유 필요 없음' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ purged: 1 });

    expect(await findPersonalData(t.app.db, needles)).toEqual([]);
    const row = await leadRow(id);
    expect(row).toMatchObject({ name: PURGED_NAME, phone: '', phone_last4: null, answers: '{}', memo: null, invalid_reason: null, delete_reason: null, ip: null });
    expect(row.purged_at).toBe('2026-11-21T01:00:00.000Z');
    expect((await leadRow(kept)).name).toBe('남는고객');

    const admin = await accountId('admin');
    expect(await destructionRows()).toEqual([
      { shop_id: t.shopId, trigger: 'manual', account_id: admin, reason: '보유 필요 없음', lead_count: 1, lead_ids: JSON.stringify([id]) },
    ]);
    const trail = await events(id);
    expect(trail.map((e) => e.action)).toEqual(['created', 'memo', 'status', 'assign', 'view', 'delete', 'purge']);
    expect(trail[0]!.ip).toBeNull();
    expect(trail.filter((e) => e.account_id === admin).every((e) => e.ip !== null)).toBe(true);
    expect(JSON.parse(trail[1]!.after!)).toEqual({ memo: SCRUBBED });
    expect(JSON.parse(trail[2]!.after!)).toEqual({ csStatus: '무효', reason: SCRUBBED });
    expect(JSON.parse(trail[3]!.after!)).toMatchObject({ assigneeName: 'csa1', reason: SCRUBBED });
    expect(JSON.parse(trail[5]!.after!)).toEqual({ deleted: true, reason: SCRUBBED });
    expect(trail[6]).toMatchObject({ account_id: admin, before: null, after: JSON.stringify({ trigger: 'manual' }) });

    // Out of the deleted list, in the destruction log; neither restored nor destroyed again.
    expect((await t.admin.get(`${shop()}/deleted-leads`)).json().total).toBe(0);
    const log = (await t.admin.get(`${shop()}/destructions`)).json();
    expect(log.items).toEqual([{ id: expect.any(Number), at: '2026-11-21T01:00:00.000Z', trigger: 'manual', accountName: '최고관리자', reason: '보유 필요 없음', leadCount: 1 }]);
    expect((await restore(t.admin, { ids: [id], reason: '되돌리기' })).statusCode).toBe(404);
    expect((await purge(t.admin, { ids: [id], reason: '다시' })).statusCode).toBe(404);
    // A live lead is not destroyed by hand: it must be deleted first.
    expect((await purge(t.admin, { ids: [kept], reason: '바로 파기' })).statusCode).toBe(404);
    expect((await leadRow(kept)).purged_at).toBeNull();
  });
});

describe('the automatic purge', () => {
  it('destroys deleted leads once the shop’s grace period is over, recorded without an account', async () => {
    await t.admin.put(`${shop()}/purge-settings`, { graceDays: 7 });
    const a = await lead({ phone: '010-4000-0001' });
    const b = await lead({ phone: '010-4000-0002' });
    await remove(t.admin, { ids: [a], reason: '정리' });

    t.clock.advanceMinutes(6 * DAY_MINUTES);
    expect(await purgeDue(t.app.db, t.clock.now())).toEqual({ grace: 0, retention: 0 });
    t.clock.advanceMinutes(DAY_MINUTES + 1);
    expect(await purgeDue(t.app.db, t.clock.now())).toEqual({ grace: 1, retention: 0 });
    expect(await purgeDue(t.app.db, t.clock.now())).toEqual({ grace: 0, retention: 0 });

    expect((await leadRow(a)).name).toBe(PURGED_NAME);
    expect((await leadRow(b)).purged_at).toBeNull();
    expect(await destructionRows()).toEqual([{ shop_id: t.shopId, trigger: 'grace', account_id: null, reason: null, lead_count: 1, lead_ids: JSON.stringify([a]) }]);
    expect((await events(a)).at(-1)).toMatchObject({ action: 'purge', account_id: null, ip: null, after: JSON.stringify({ trigger: 'grace' }) });
    // The session idled out while the clock moved.
    const admin = await t.login();
    expect((await admin.get(`${shop()}/destructions?trigger=grace`)).json().items[0]).toMatchObject({ trigger: 'grace', accountName: null, leadCount: 1 });
  });

  it('destroys any lead, deleted or not, once its privacy policy’s retention period is over, and it leaves the lists', async () => {
    await t.app.db.updateTable('privacy_policies').set({ retention_days: 20 }).execute();
    const live = await lead({ phone: '010-5000-0001', name: '보유만료' });
    const deleted = await lead({ phone: '010-5000-0002' });
    await remove(t.admin, { ids: [deleted], reason: '정리' });

    t.clock.advanceMinutes(20 * DAY_MINUTES - 1);
    expect(await purgeDue(t.app.db, t.clock.now())).toEqual({ grace: 0, retention: 0 });
    t.clock.advanceMinutes(2);
    expect(await purgeDue(t.app.db, t.clock.now())).toEqual({ grace: 0, retention: 2 });

    expect(await findPersonalData(t.app.db, ['01050000001', '보유만료'])).toEqual([]);
    expect(await leadRow(live)).toMatchObject({ name: PURGED_NAME, deleted_at: t.clock.now().toISOString(), deleted_by: null });
    const admin = await t.login();
    expect((await admin.get(`${shop()}/leads?from=2026-11-21&to=2026-12-11`)).json().total).toBe(0);
    expect((await admin.get(`${shop()}/deleted-leads`)).json().total).toBe(0);
    const rows = await destructionRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ trigger: 'retention', account_id: null, reason: null, lead_count: 2 });
    expect((JSON.parse(rows[0]!.lead_ids) as number[]).sort()).toEqual([live, deleted].sort());
  });

  it('writes one destruction record per shop and trigger however many batches a run takes', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await lead({ phone: `010-6000-000${i}` }));
    await remove(t.admin, { ids, reason: '정리' });
    t.clock.advanceMinutes(31 * DAY_MINUTES);
    expect(await purgeDue(t.app.db, t.clock.now(), { batchSize: 2 })).toEqual({ grace: 5, retention: 0 });
    const rows = await destructionRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ trigger: 'grace', lead_count: 5 });
    expect(JSON.parse(rows[0]!.lead_ids)).toEqual(ids);
  });

  it('never destroys a lead twice when two runs go at once', async () => {
    const ids = [];
    for (let i = 0; i < 7; i++) ids.push(await lead({ phone: `010-6100-000${i}` }));
    await remove(t.admin, { ids, reason: '정리' });
    t.clock.advanceMinutes(31 * DAY_MINUTES);
    const runs = await Promise.all([purgeDue(t.app.db, t.clock.now(), { batchSize: 2 }), purgeDue(t.app.db, t.clock.now(), { batchSize: 2 })]);
    expect(runs[0]!.grace + runs[1]!.grace).toBe(7);
    const rows = await destructionRows();
    const destroyed = rows.flatMap((r) => JSON.parse(r.lead_ids) as number[]);
    expect(destroyed.sort((x, y) => x - y)).toEqual(ids);
    expect(rows.reduce((n, r) => n + r.lead_count, 0)).toBe(7);
    const purgeEvents = await t.app.db.selectFrom('lead_events').select('lead_id').where('action', '=', 'purge').execute();
    expect(purgeEvents.map((e) => e.lead_id).sort((x, y) => x - y)).toEqual(ids);
  });

  it('runs when the app starts with the worker on, on the app’s clock', async () => {
    const id = await lead({ phone: '010-6200-0001' });
    await remove(t.admin, { ids: [id], reason: '정리' });
    t.clock.advanceMinutes(31 * DAY_MINUTES);
    const worker = await build({
      config: { ...t.app.config, workerEnabled: true },
      database: { db: t.app.db, dialect: t.app.dialect, close: async () => {} },
      clock: t.clock.now,
    });
    await worker.ready();
    // Closing waits for the run in progress.
    await worker.close();
    expect((await leadRow(id)).purged_at).toBe(t.clock.now().toISOString());
    expect((await destructionRows()).map((r) => r.trigger)).toEqual(['grace']);
  });
});

describe('the grace period setting', () => {
  it("shows when the grace period itself last changed, not when another setting of its row did", async () => {
    const changed = (await t.admin.put(`${shop()}/purge-settings`, { graceDays: 14 })).json().updatedAt;
    t.clock.advanceMinutes(20);
    expect((await t.admin.put(`${shop()}/lead-settings`, { overdueMinutes: 45 })).statusCode).toBe(200);
    expect((await t.admin.get(`${shop()}/purge-settings`)).json()).toEqual({ graceDays: 14, updatedAt: changed });
  });
});

describe('who may delete, restore and destroy', () => {
  it('says what is missing, in Korean, on every form', async () => {
    expect((await restore(t.admin, {})).json().error.fields).toMatchObject({ ids: '복구할 DB를 선택하세요.', reason: '복구 사유를 입력하세요.' });
    expect((await purge(t.admin, { ids: [] })).json().error.fields).toMatchObject({ ids: '파기할 DB를 선택하세요.', reason: '파기 사유를 입력하세요.' });
    const settings = (body: unknown) => t.admin.put(`${shop()}/purge-settings`, body);
    expect((await settings({})).json().error.fields.graceDays).toBe('유예 기간을 입력하세요.');
    expect((await settings({ graceDays: 0 })).json().error.fields.graceDays).toBe('유예 기간은 1일 이상으로 정하세요.');
    expect((await settings({ graceDays: 366 })).json().error.fields.graceDays).toBe('유예 기간은 365일 이하로 정하세요.');
    expect((await settings({ graceDays: 1.5 })).json().error.fields.graceDays).toBe('유예 기간은 일 단위 정수로 입력하세요.');
    expect((await t.admin.get(`${shop()}/purge-settings`)).json()).toEqual({ graceDays: 30, updatedAt: null });
    expect((await settings({ graceDays: 14 })).statusCode).toBe(200);
    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'target_id', 'detail']).where('action', '=', 'purge-settings-update').execute();
    expect(audit).toEqual([{ action: 'purge-settings-update', target_id: String(t.shopId), detail: JSON.stringify({ graceDays: 14 }) }]);
  });

  it('keeps counselors and types without the screens out; a shop owner reads 삭제 DB 관리 but changes nothing; no one reaches another shop', async () => {
    const id = await lead();
    await remove(t.admin, { ids: [id], reason: '정리' });
    const counselor = await shopAccount(t, 'csa1', 'counselor');
    await t.app.db.updateTable('leads').set({ assignee_id: await accountId('csa1') }).execute();
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    const owner = await shopAccount(t, 'owner1', 'shop-owner');

    for (const c of [counselor, marketer]) {
      expect((await remove(c, { ids: [id], reason: '정리' })).statusCode).toBe(403);
      expect((await c.get(`${shop()}/deleted-leads`)).statusCode).toBe(403);
      expect((await restore(c, { ids: [id], reason: '복구' })).statusCode).toBe(403);
      expect((await purge(c, { ids: [id], reason: '파기' })).statusCode).toBe(403);
      expect((await c.get(`${shop()}/destructions`)).statusCode).toBe(403);
      expect((await c.put(`${shop()}/purge-settings`, { graceDays: 3 })).statusCode).toBe(403);
    }
    expect((await owner.get(`${shop()}/deleted-leads`)).json().total).toBe(1);
    expect((await owner.get(`${shop()}/destructions`)).statusCode).toBe(200);
    expect((await owner.get(`${shop()}/destructions/upcoming`)).statusCode).toBe(200);
    expect((await owner.get(`${shop()}/purge-settings`)).statusCode).toBe(200);
    expect((await restore(owner, { ids: [id], reason: '복구' })).statusCode).toBe(403);
    expect((await purge(owner, { ids: [id], reason: '파기' })).statusCode).toBe(403);
    expect((await owner.put(`${shop()}/purge-settings`, { graceDays: 3 })).statusCode).toBe(403);
    expect((await remove(owner, { ids: [id], reason: '정리' })).statusCode).toBe(403);

    // A type that sees only its own leads may not delete even when given the screens.
    const type = await t.app.db.selectFrom('account_types').select(['id', 'permissions']).where('builtin_key', '=', 'counselor').executeTakeFirstOrThrow();
    await t.app.db.updateTable('account_types')
      .set({ permissions: JSON.stringify({ ...JSON.parse(type.permissions), 'data-deletion': 'write', 'deleted-data-management': 'write' }) })
      .where('id', '=', type.id).execute();
    expect((await restore(counselor, { ids: [id], reason: '복구' })).statusCode).toBe(403);
    expect((await remove(counselor, { filter: { from: '2026-11-21' }, reason: '정리' })).statusCode).toBe(403);

    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id as number;
    expect((await owner.get(`/api/shops/${other}/deleted-leads`)).statusCode).toBe(403);
    expect((await t.admin.post(`/api/shops/${other}/deleted-leads/restore`, { ids: [id], reason: '복구' })).statusCode).toBe(404);
    expect((await t.admin.post(`/api/shops/${other}/deleted-leads/purge`, { ids: [id], reason: '파기' })).statusCode).toBe(404);
    expect((await leadRow(id))).toMatchObject({ purged_at: null });
    expect((await leadRow(id)).deleted_at).not.toBeNull();
  });
});
