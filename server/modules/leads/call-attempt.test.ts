// A counselor's phone: the SLA countdown the list carries for each lead (working minutes left on
// the shop's calendar, from arrival or the last re-route; none without an SLA, once contacted, for
// a duplicate or an arrival before the SLA was on), and 통화 시도 — the number revealed and the call
// recorded with its time, the first call stopping the clock so escalation leaves the lead alone;
// a counselor calls only their own leads, an account without the reveal right none.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { escalateDue } from './sla.ts';
import { accountIdOf, LONG_SESSIONS, landingTestApp, leadBody, openLanding, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';

/** A Seoul wall-clock time ('2026-12-07 10:00') as an instant. 2026-12-07 is a Monday. */
const kst = (s: string) => new Date(`${s.replace(' ', 'T')}:00+09:00`);

const SLA = {
  enabled: true, minutes: 30, remindPercent: null, onDeadline: 'reroute', maxReroutes: 2,
  workDays: [1, 2, 3, 4, 5], workStart: '09:00', workEnd: '18:00', holidays: [],
};

let t: LandingTestApp;
let landingId: number;
const cs: Record<string, Client> = {};
const ids: Record<string, number> = {};
beforeEach(async () => {
  t = await landingTestApp(LONG_SESSIONS);
  landingId = await openLanding(t);
  for (const login of ['csa1', 'csb2']) {
    cs[login] = await shopAccount(t, login, 'counselor');
    ids[login] = await accountIdOf(t, login);
  }
});
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/leads`;
const at = (s: string) => {
  t.clock.current = kst(s);
};
let phone = 1000;
async function lead(o: { phone?: string } = {}): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, { phone: o.phone ?? `010-5555-${String(phone++).padStart(4, '0')}` }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}
const give = async (leadId: number, login: string) =>
  expect((await t.admin.post(`/api/shops/${t.shopId}/allocation/apply`, { mode: 'manual', leadIds: [leadId], counselorIds: [ids[login]] })).statusCode).toBe(200);
const listed = async (c: Client, id: number) => {
  const res = await c.get(`${base()}?from=2026-12-01&to=2026-12-31`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { slaMinutes: number | null; items: Array<{ id: number; slaDueAt: string | null; slaLeftMinutes: number | null; firstContactAt: string | null; overdue: boolean }> };
  return { slaMinutes: body.slaMinutes, item: body.items.find((i) => i.id === id) };
};
const callOf = (c: Client, id: number) => c.post(`${base()}/${id}/call`, {});
const events = async (leadId: number) =>
  (await t.app.db.selectFrom('lead_events').select(['action', 'account_id', 'at', 'after']).where('lead_id', '=', leadId).where('action', 'in', ['call', 'unmask', 'status']).orderBy('id').execute())
    .map((e) => ({ action: e.action, by: e.account_id, at: e.at, after: e.after ? JSON.parse(e.after) : null }));

describe('the SLA countdown in the lead list', () => {
  it('is the due time on the working calendar and the working minutes left, none without an SLA, once contacted, for a duplicate or an arrival before the SLA', async () => {
    at('2026-12-07 09:00');
    const before = await lead({ phone: '010-7777-0001' });
    expect(await listed(t.admin, before)).toMatchObject({ slaMinutes: null, item: { slaDueAt: null, slaLeftMinutes: null } });

    at('2026-12-07 17:50');
    expect((await t.admin.put(`/api/shops/${t.shopId}/lead-sla`, SLA)).statusCode).toBe(200);
    const id = await lead();
    const dup = await lead({ phone: '010-7777-0001' });
    at('2026-12-07 17:55');
    // 10 working minutes today from 17:50, 20 more from Tuesday 09:00: 5 gone, 25 left (the night does not count).
    const { slaMinutes, item } = await listed(t.admin, id);
    expect(slaMinutes).toBe(30);
    expect(item).toMatchObject({ slaDueAt: kst('2026-12-08 09:20').toISOString(), slaLeftMinutes: 25 });
    expect((await listed(t.admin, dup)).item).toMatchObject({ slaDueAt: null });
    expect((await listed(t.admin, before)).item).toMatchObject({ slaDueAt: null });

    // The drawer's reading carries it too; past the deadline nothing is left.
    at('2026-12-08 09:30');
    expect((await t.admin.get(`${base()}/${id}`)).json()).toMatchObject({ slaDueAt: kst('2026-12-08 09:20').toISOString(), slaLeftMinutes: 0 });

    // A status change is a contact: the countdown is gone.
    expect((await t.admin.request('PATCH', `${base()}/${id}`, { csStatus: '부재' })).statusCode).toBe(200);
    expect((await listed(t.admin, id)).item).toMatchObject({ slaDueAt: null, slaLeftMinutes: null });
  });

  it('runs from the last re-route, not from the arrival', async () => {
    at('2026-12-07 10:00');
    expect((await t.admin.put(`/api/shops/${t.shopId}/lead-sla`, SLA)).statusCode).toBe(200);
    const id = await lead();
    await give(id, 'csa1');
    at('2026-12-07 10:31');
    expect((await escalateDue(t.app.db, t.clock.now())).map((s) => [s.action, s.to])).toEqual([['sla-reroute', ids.csb2]]);
    at('2026-12-07 10:41');
    // The re-route restarted the clock at 10:31: due 11:01, 20 minutes left — and only its new holder sees it.
    expect((await listed(cs.csb2!, id)).item).toMatchObject({ slaDueAt: kst('2026-12-07 11:01').toISOString(), slaLeftMinutes: 20 });
    expect((await listed(cs.csa1!, id)).item).toBeUndefined();
  });
});

describe('통화 시도', () => {
  it('reveals the number, records the reveal and the call with its time, and the first call stops the SLA clock', async () => {
    at('2026-12-07 10:00');
    expect((await t.admin.put(`/api/shops/${t.shopId}/lead-sla`, SLA)).statusCode).toBe(200);
    const id = await lead({ phone: '010-2468-1357' });
    await give(id, 'csa1');
    expect((await listed(cs.csa1!, id)).item).toMatchObject({ slaLeftMinutes: 30, firstContactAt: null });

    at('2026-12-07 10:12');
    const res = await callOf(cs.csa1!, id);
    expect(res.statusCode, res.body).toBe(200);
    const called = kst('2026-12-07 10:12').toISOString();
    expect(res.json()).toEqual({ phone: '010-2468-1357', at: called });
    expect(await events(id)).toEqual([
      { action: 'unmask', by: ids.csa1, at: called, after: null },
      { action: 'call', by: ids.csa1, at: called, after: { at: called, firstContact: true } },
    ]);
    const { item } = await listed(cs.csa1!, id);
    // Contacted: the clock stopped, the status is still the counselor's to set.
    expect(item).toMatchObject({ firstContactAt: called, slaDueAt: null, slaLeftMinutes: null, overdue: false });
    expect((await t.app.db.selectFrom('leads').select('cs_status').where('id', '=', id).executeTakeFirstOrThrow()).cs_status).toBe('미처리');

    // Escalation no longer picks the lead up, however late it gets.
    at('2026-12-07 12:00');
    expect(await escalateDue(t.app.db, t.clock.now())).toEqual([]);
    expect((await t.app.db.selectFrom('leads').select('assignee_id').where('id', '=', id).executeTakeFirstOrThrow()).assignee_id).toBe(ids.csa1);
    // Two hours 미처리, past the 30-minute warning — but called: it no longer asks for a call.
    expect((await listed(cs.csa1!, id)).item).toMatchObject({ overdue: false });

    // A second call is recorded too; the first contact stays the first.
    at('2026-12-07 12:05');
    expect((await callOf(cs.csa1!, id)).statusCode).toBe(200);
    const later = kst('2026-12-07 12:05').toISOString();
    expect((await events(id)).slice(2)).toEqual([
      { action: 'unmask', by: ids.csa1, at: later, after: null },
      { action: 'call', by: ids.csa1, at: later, after: { at: later, firstContact: false } },
    ]);
    expect((await listed(cs.csa1!, id)).item?.firstContactAt).toBe(called);

    // The drawer's record names it.
    const history = (await cs.csa1!.get(`${base()}/${id}`)).json().history as Array<{ action: string }>;
    expect(history.filter((e) => e.action === 'call')).toHaveLength(2);
  });

  it('is refused on another counselor’s lead, to an account without the reveal right, and records nothing then', async () => {
    at('2026-12-07 10:00');
    const id = await lead();
    await give(id, 'csa1');
    const other = await callOf(cs.csb2!, id);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toBe('DB를 찾을 수 없습니다.');

    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    const denied = await callOf(marketer, id);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('전화번호 전체를 볼 권한이 없어 이 화면에서 전화를 걸 수 없습니다.');

    expect(await events(id)).toEqual([]);
    expect((await t.app.db.selectFrom('leads').select('first_contact_at').where('id', '=', id).executeTakeFirstOrThrow()).first_contact_at).toBeNull();
  });
});
