// Speed to lead: a shop's SLA settings (agency staff set them, the shop reads them, no other shop
// sees them) and escalation on the test clock — the holder reminded once, the deadline re-routing
// to the next counselor with room (never one who let the lead lapse, is on leave or at a cap), the
// manager notified, the manager's queue after the last re-route, time paused outside working
// hours — and every step once with two workers racing on one database.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { escalateDue, type SlaStep } from './sla.ts';
import { slaJob } from '../../worker/sla.ts';
import { accountIdOf, LONG_SESSIONS, landingTestApp, leadBody, openLanding, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import { createShop } from '../../test-helpers.ts';
import { sharedDatabase, type SharedDatabase } from '../../test-databases.ts';
import { openDatabase, type DbHandle } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import type { LeadChange } from '../../../contracts/leads.ts';

/** A Seoul wall-clock time ('2026-12-07 10:00') as an instant. 2026-12-04 is a Friday, 12-07 a Monday. */
const kst = (s: string) => new Date(`${s.replace(' ', 'T')}:00+09:00`);

const SLA = {
  enabled: true, minutes: 30, remindPercent: 80, onDeadline: 'reroute', maxReroutes: 2,
  workDays: [1, 2, 3, 4, 5], workStart: '09:00', workEnd: '18:00', holidays: [],
};

let t: LandingTestApp;
let landingId: number;
const ids: Record<string, number> = {};
beforeEach(async () => {
  t = await landingTestApp(LONG_SESSIONS);
  landingId = await openLanding(t);
  for (const login of ['csa1', 'csb2', 'csc3', 'csd4']) {
    await shopAccount(t, login, 'counselor');
    ids[login] = await accountIdOf(t, login);
  }
});
afterEach(async () => {
  await t.close();
});

const sla = (shopId = t.shopId) => `/api/shops/${shopId}/lead-sla`;
const allocation = () => `/api/shops/${t.shopId}/allocation`;
let phone = 1000;
async function lead(): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, { phone: `010-4444-${String(phone++).padStart(4, '0')}` }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}
const give = async (leadId: number, login: string) =>
  expect((await t.admin.post(`${allocation()}/apply`, { mode: 'manual', leadIds: [leadId], counselorIds: [ids[login]] })).statusCode).toBe(200);
const counselor = (login: string, o: Record<string, unknown>) =>
  t.admin.put(`${allocation()}/counselors/${ids[login]}`, { weight: 1, dailyCap: null, maxOpen: null, available: true, ...o });
const holder = async (leadId: number) => (await t.app.db.selectFrom('leads').select('assignee_id').where('id', '=', leadId).executeTakeFirstOrThrow()).assignee_id;
const at = (s: string) => {
  t.clock.current = kst(s);
};
const escalate = () => escalateDue(t.app.db, t.clock.now());
const slaEvents = async (leadId: number) =>
  (await t.app.db.selectFrom('lead_events').select(['action', 'account_id', 'at', 'before', 'after']).where('lead_id', '=', leadId).where('action', 'like', 'sla-%').orderBy('id').execute())
    .map((e) => ({ action: e.action, by: e.account_id, at: e.at, before: e.before ? JSON.parse(e.before) : null, after: JSON.parse(e.after!) }));

describe('escalation', () => {
  it('reminds the holder once, re-routes past those who let it lapse, are on leave or at a cap, and hands the lead to the manager after the last re-route', async () => {
    at('2026-12-07 10:00');
    expect((await t.admin.put(sla(), SLA)).statusCode).toBe(200);
    // csb2 is on leave; csc3 took one lead today and that is their cap; csd4 has room.
    await counselor('csb2', { available: false });
    await counselor('csc3', { dailyCap: 1 });
    const other = await lead();
    await give(other, 'csc3');
    expect((await t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${other}`, { csStatus: '부재' })).statusCode).toBe(200);
    const id = await lead();
    await give(id, 'csa1');
    // Intake and allocation wrote nothing for the SLA: the clock is the lead's arrival.
    expect(await t.app.db.selectFrom('lead_sla_state').selectAll().execute()).toEqual([]);

    at('2026-12-07 10:23');
    expect(await escalate()).toEqual([]);
    at('2026-12-07 10:24');
    expect(await escalate()).toEqual([{ shopId: t.shopId, leadId: id, action: 'sla-remind', from: ids.csa1, to: ids.csa1 }]);
    expect(await escalate()).toEqual([]);

    at('2026-12-07 10:30');
    expect(await escalate()).toEqual([{ shopId: t.shopId, leadId: id, action: 'sla-reroute', from: ids.csa1, to: ids.csd4 }]);
    expect(await holder(id)).toBe(ids.csd4);
    expect(await escalate()).toEqual([]);

    // The new holder's clock started at the re-route: reminded at 10:54, due at 11:00. csb2 is back by then.
    at('2026-12-07 10:53');
    expect(await escalate()).toEqual([]);
    at('2026-12-07 10:54');
    expect((await escalate()).map((s) => [s.action, s.to])).toEqual([['sla-remind', ids.csd4]]);
    await counselor('csb2', { available: true });
    at('2026-12-07 11:00');
    expect((await escalate()).map((s) => [s.action, s.from, s.to])).toEqual([['sla-reroute', ids.csd4, ids.csb2]]);

    // Two re-routes were the most: the third lapse goes to the manager's queue.
    at('2026-12-07 11:24');
    expect((await escalate()).map((s) => [s.action, s.to])).toEqual([['sla-remind', ids.csb2]]);
    at('2026-12-07 11:30');
    expect((await escalate()).map((s) => [s.action, s.from, s.to])).toEqual([['sla-manager', ids.csb2, null]]);
    expect(await holder(id)).toBeNull();
    at('2026-12-07 15:00');
    expect(await escalate()).toEqual([]);

    const events = await slaEvents(id);
    expect(events.map((e) => e.action)).toEqual(['sla-remind', 'sla-reroute', 'sla-remind', 'sla-reroute', 'sla-remind', 'sla-manager']);
    expect(events.every((e) => e.by === null)).toBe(true);
    expect(events[0]).toMatchObject({ at: kst('2026-12-07 10:24').toISOString(), after: { assigneeId: ids.csa1, assigneeName: 'csa1', reason: 'reminder', percent: 80, dueAt: kst('2026-12-07 10:30').toISOString() } });
    expect(events[1]).toMatchObject({
      before: { assigneeId: ids.csa1, assigneeName: 'csa1' },
      after: { assigneeId: ids.csd4, assigneeName: 'csd4', reason: 'deadline', reroute: 1, lapsedBy: [ids.csa1], clockFrom: kst('2026-12-07 10:00').toISOString() },
    });
    expect(events[3]!.after).toMatchObject({ assigneeId: ids.csb2, reroute: 2, lapsedBy: [ids.csa1, ids.csd4], clockFrom: kst('2026-12-07 10:30').toISOString() });
    expect(events[5]).toMatchObject({ before: { assigneeId: ids.csb2 }, after: { assigneeId: null, reason: 'max-reroutes', reroutes: 2, lapsedBy: [ids.csa1, ids.csd4, ids.csb2] } });
    expect(await t.app.db.selectFrom('lead_sla_state').select(['stage', 'reroutes', 'version']).where('lead_id', '=', id).executeTakeFirstOrThrow())
      .toEqual({ stage: 'manager', reroutes: 2, version: 6 });
  });

  it('pauses outside working hours and on holidays: a lead of Friday evening is reminded and notified on Tuesday after a Monday holiday', async () => {
    at('2026-12-04 17:50');
    expect((await t.admin.put(sla(), { ...SLA, onDeadline: 'notify', holidays: ['2026-12-07'] })).statusCode).toBe(200);
    const id = await lead();
    await give(id, 'csa1');
    for (const when of ['2026-12-04 18:30', '2026-12-05 12:00', '2026-12-07 11:00', '2026-12-08 09:13']) {
      at(when);
      expect(await escalate(), when).toEqual([]);
    }
    at('2026-12-08 09:14');
    expect((await escalate()).map((s) => s.action)).toEqual(['sla-remind']);
    at('2026-12-08 09:20');
    expect(await escalate()).toEqual([{ shopId: t.shopId, leadId: id, action: 'sla-notify', from: ids.csa1, to: ids.csa1 }]);
    // Notified once; the lead stays with its holder and nothing more happens.
    at('2026-12-09 12:00');
    expect(await escalate()).toEqual([]);
    expect(await holder(id)).toBe(ids.csa1);
    expect((await slaEvents(id))[1]).toMatchObject({ action: 'sla-notify', after: { assigneeId: ids.csa1, reason: 'deadline', dueAt: kst('2026-12-08 09:20').toISOString() } });
  });

  it('notifies and re-routes unassigned leads too (both), and sends to the manager’s queue when nobody has room', async () => {
    at('2026-12-07 10:00');
    expect((await t.admin.put(sla(), { ...SLA, onDeadline: 'both', remindPercent: null })).statusCode).toBe(200);
    for (const login of ['csb2', 'csc3', 'csd4']) await counselor(login, { available: false });
    await counselor('csa1', { maxOpen: 1 });
    const [a, b] = [await lead(), await lead()];
    at('2026-12-07 10:30');
    const changes: LeadChange[] = [];
    const steps = await escalateDue(t.app.db, t.clock.now(), { announce: (c) => changes.push(c) });
    // One counselor with room for one: the older lead goes to csa1, the other to the manager's queue.
    expect(steps.map((s) => [s.leadId, s.action, s.to])).toEqual([[a, 'sla-notify', null], [a, 'sla-reroute', ids.csa1], [b, 'sla-notify', null], [b, 'sla-manager', null]]);
    expect((await slaEvents(b))[1]!.after).toMatchObject({ reason: 'no-counselor', reroutes: 0 });
    expect([await holder(a), await holder(b)]).toEqual([ids.csa1, null]);
    // The lead that moved is announced (lists and the new holder's stream hear of it); the one left unassigned did not move.
    expect(changes).toEqual([{ shopId: t.shopId, kind: 'changed', cause: 'sla', leads: [{ id: a, assigneeId: ids.csa1, previousAssigneeId: null }] }]);
  });

  it('leaves alone contacted, deleted and duplicate leads, and leads of a shop whose SLA is off or was turned on after they came', async () => {
    at('2026-12-07 09:00');
    expect((await t.admin.put(sla(), SLA)).statusCode).toBe(200);
    at('2026-12-07 10:00');
    const contacted = await lead();
    const deleted = await lead();
    const original = await lead();
    const dup = await submit(t, leadBody(t, landingId, { phone: `010-4444-${String(phone - 1).padStart(4, '0')}` }));
    expect(dup.statusCode).toBe(201);
    at('2026-12-07 10:10');
    expect((await t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${contacted}`, { csStatus: '통화완료' })).statusCode).toBe(200);
    expect((await t.admin.post(`/api/shops/${t.shopId}/leads/delete`, { ids: [deleted], reason: '테스트' })).statusCode).toBe(200);
    at('2026-12-07 12:00');
    expect((await escalate()).map((s) => [s.leadId, s.action])).toEqual([[original, 'sla-reroute']]);

    // Off: nothing is escalated. On again: the leads that came meanwhile are not reached back for.
    expect((await t.admin.put(sla(), { ...SLA, enabled: false })).statusCode).toBe(200);
    const whileOff = await lead();
    at('2026-12-07 13:00');
    expect(await escalate()).toEqual([]);
    expect((await t.admin.put(sla(), SLA)).statusCode).toBe(200);
    at('2026-12-07 13:05');
    const afterOn = await lead();
    // Saving it again while on keeps the time it was turned on.
    at('2026-12-07 13:10');
    expect((await t.admin.put(sla(), { ...SLA, maxReroutes: 3 })).statusCode).toBe(200);
    at('2026-12-07 14:00');
    const steps = await escalate();
    expect(steps.map((s) => s.leadId)).toEqual([afterOn]);
    expect(steps.map((s) => s.leadId)).not.toContain(whileOff);
  });

});

describe('the worker’s job', () => {
  it('escalates on the clock it is given, and reports what it did', async () => {
    at('2026-12-07 10:00');
    expect((await t.admin.put(sla(), { ...SLA, remindPercent: null })).statusCode).toBe(200);
    const id = await lead();
    const runs: SlaStep[][] = [];
    const changes: LeadChange[] = [];
    const job = slaJob(t.app.db, t.clock.now, { announce: (c) => changes.push(c), onRun: (steps) => runs.push(steps) });
    expect(job.everyMs).toBe(5_000);
    expect(await job.run()).toEqual([]);
    at('2026-12-07 10:30');
    expect((await job.run()).map((s) => s.action)).toEqual(['sla-reroute']);
    expect(await job.run()).toEqual([]);
    expect(runs.map((r) => r.map((s) => s.leadId))).toEqual([[id]]);
    expect(changes.map((c) => c.leads[0]!.id)).toEqual([id]);
  });
});

describe('the SLA settings', () => {
  it('reads the defaults, saves what the agency sets and records who changed it', async () => {
    expect((await t.admin.get(sla())).json()).toMatchObject({ enabled: false, minutes: 30, remindPercent: 80, onDeadline: 'both', workDays: [1, 2, 3, 4, 5], updatedAt: null });
    const saved = await t.admin.put(sla(), { ...SLA, workDays: [5, 1, 1, 2], holidays: ['2026-12-25', '2026-12-24', '2026-12-25'] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ enabled: true, workDays: [1, 2, 5], holidays: ['2026-12-24', '2026-12-25'], updatedAt: expect.any(String) });
    expect((await t.admin.get(sla())).json()).toEqual(saved.json());
    const audit = await t.app.db.selectFrom('audit_events').select(['target_id']).where('action', '=', 'lead-sla-update').execute();
    expect(audit).toEqual([{ target_id: String(t.shopId) }]);
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    expect((await marketer.put(sla(), { ...SLA, minutes: 45 })).json()).toMatchObject({ minutes: 45 });
  });

  it('refuses what makes no sense, in Korean, on the fields', async () => {
    const fields = async (body: unknown) => (await t.admin.put(sla(), body)).json().error.fields;
    expect(await fields({})).toMatchObject({ enabled: '사용 여부를 고르세요.', minutes: '첫 연락 기한(분)을 입력하세요.', onDeadline: '기한이 지나면 할 일을 고르세요.' });
    expect(await fields({ ...SLA, workStart: '18:00', workEnd: '09:00' })).toEqual({ workEnd: '종료 시각은 시작 시각보다 늦어야 합니다.' });
    expect(await fields({ ...SLA, workStart: '9시', workDays: [] })).toMatchObject({ workStart: '시각은 HH:mm 형식으로 입력하세요.', workDays: '근무 요일을 하나 이상 고르세요.' });
    expect(await fields({ ...SLA, holidays: ['2026-02-30'] })).toEqual({ 'holidays.0': '없는 날짜입니다.' });
    expect(await fields({ ...SLA, workDays: [6], workStart: '10:00', workEnd: '12:00', minutes: 121 })).toEqual({ minutes: '한 주의 근무 시간(120분) 이하로 정하세요.' });
    expect(await fields({ ...SLA, remindPercent: 100, maxReroutes: -1 })).toMatchObject({ remindPercent: '95% 이하로 정하세요.', maxReroutes: '0 이상으로 정하세요.' });
  });

  it('lets the shop read but not change it, and keeps other shops out', async () => {
    expect((await t.admin.put(sla(), SLA)).statusCode).toBe(200);
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.get(sla())).json()).toMatchObject({ enabled: true });
    const refused = await owner.put(sla(), { ...SLA, enabled: false });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain('대행사 전용');
    const cs = await t.login('csa1', 'Shop-pass-2026');
    expect((await cs.put(sla(), SLA)).statusCode).toBe(403);
    // Another shop: its SLA is its own, and this shop's accounts cannot reach it.
    const other = await createShop(t.admin, 'other');
    expect((await t.admin.get(sla(other))).json()).toMatchObject({ enabled: false });
    for (const c of [owner, cs]) {
      expect((await c.get(sla(other))).statusCode).toBe(403);
      expect((await c.put(sla(other), SLA)).statusCode).toBe(403);
    }
    expect((await t.admin.get(sla())).json()).toMatchObject({ enabled: true });
  });
});

describe('two workers', () => {
  let shared: SharedDatabase | undefined;
  let second: DbHandle | undefined;
  afterEach(async () => {
    await second?.close();
    await shared?.close();
    shared = second = undefined;
  });

  it('take each step once, racing on one database', async () => {
    shared = await sharedDatabase([4, 4]);
    const pg = !shared.file;
    // PostgreSQL: two pools, as two processes; SQLite: a second connection to the file, as a second process.
    second = pg ? undefined : await openDatabase({ url: shared.file! });
    const [a, b] = [shared.handle(0).db, pg ? shared.handle(1).db : second!.db];
    const n = pg ? 300 : 120;
    const { shopId, counselors, leadIds } = await seedRace(a, n, kst('2026-12-07 10:00'));
    const race = (now: Date) => Promise.all([escalateDue(a, now), escalateDue(b, now), escalateDue(a, now), escalateDue(b, now)]);

    const reminded = (await race(kst('2026-12-07 10:25'))).flat();
    expect(reminded).toHaveLength(n);
    expect(new Set(reminded.map((s) => s.leadId)).size).toBe(n);
    const rerouted = (await race(kst('2026-12-07 10:31'))).flat();
    expect(rerouted).toHaveLength(n);
    expect(rerouted.every((s) => s.action === 'sla-reroute' && s.from === counselors[0] && s.to === counselors[1])).toBe(true);

    const events = await a.selectFrom('lead_events').select(['lead_id', 'action']).where('shop_id', '=', shopId).where('action', 'like', 'sla-%').execute();
    expect(events).toHaveLength(2 * n);
    const perLead = new Map<number, string[]>();
    for (const e of events) perLead.set(e.lead_id, [...(perLead.get(e.lead_id) ?? []), e.action].sort());
    expect(leadIds.every((id) => JSON.stringify(perLead.get(id)) === '["sla-remind","sla-reroute"]')).toBe(true);
    const held = await a.selectFrom('leads').select('assignee_id').where('shop_id', '=', shopId).execute();
    expect(held.every((l) => l.assignee_id === counselors[1])).toBe(true);
    const states = await a.selectFrom('lead_sla_state').select(['reroutes', 'version']).execute();
    expect(states.every((s) => s.reroutes === 1 && s.version === 2)).toBe(true);
  }, 60_000);
});

/** A shop with an SLA, two counselors (the second with room for every lead) and `n` leads of the first, written straight to the database. */
async function seedRace(db: Kysely<Database>, n: number, created: Date) {
  const now = created.toISOString();
  const stamp = { created_at: now, updated_at: now };
  const shopId = (await db.insertInto('shops').values({
    shop_code: 'race', name: '경주치과', client_type_id: null, status: 'active', company_name: null, representative: null, business_number: null, phone: null,
    address: null, privacy_officer_name: null, privacy_officer_contact: null, ...stamp,
  }).returning('id').executeTakeFirstOrThrow()).id;
  const type = (await db.insertInto('account_types').values({
    name: '상담원', area: 'shop', side: 'client', data_scope: 'assigned', permissions: '{}', can_unmask: 0, can_export: 0, builtin_key: null, sort_order: 1, active: 1, ...stamp,
  }).returning('id').executeTakeFirstOrThrow()).id;
  const counselors: number[] = [];
  for (const login of ['race1', 'race2']) {
    const id = (await db.insertInto('accounts').values({
      login_id: login, name: login, phone: null, email: null, account_type_id: type, status: 'active', password_hash: 'x', failed_logins: 0,
      locked_until: null, last_login_at: null, last_login_ip: null, password_changed_at: null, ...stamp,
    }).returning('id').executeTakeFirstOrThrow()).id;
    await db.insertInto('shop_permissions').values({ account_id: id, shop_id: shopId, created_at: now }).execute();
    counselors.push(id);
  }
  await db.insertInto('lead_sla_settings').values({
    shop_id: shopId, enabled: 1, enabled_at: now, minutes: 30, remind_percent: 80, on_deadline: 'reroute', max_reroutes: 2, work_days: '[1,2,3,4,5]',
    work_start: '09:00', work_end: '18:00', holidays: '[]', updated_by: null, updated_at: now,
  }).execute();
  const rows = Array.from({ length: n }, (_, i) => ({
    shop_id: shopId, landing_id: null, name: `경주${i}`, phone: `0107777${String(i).padStart(4, '0')}`, answers: '{}', privacy_consent: 1, marketing_consent: 0,
    sensitive_consent: 0, privacy_policy_id: null, utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null, media_type_id: null,
    referrer: null, ip: null, user_agent: null, cs_status: '미처리', assignee_id: counselors[0]!, reserved_at: null, memo: null, duplicate_of: null,
    invalid_reason: null, deleted_at: null, purged_at: null, deleted_by: null, delete_reason: null, phone_last4: String(i).padStart(4, '0'),
    first_contact_at: null, assigned_at: now, ...stamp,
  }));
  const leadIds: number[] = [];
  for (let i = 0; i < rows.length; i += 100) leadIds.push(...(await db.insertInto('leads').values(rows.slice(i, i + 100)).returning('id').execute()).map((r) => r.id));
  return { shopId, counselors, leadIds };
}
