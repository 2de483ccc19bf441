// Speed to lead, measured: SLA met, missed and pending, the median and p90 of the working minutes
// to first contact (across an evening, a weekend and a holiday), per holder, landing and hour of
// arrival, the distribution, escalation's re-routes and why — as 상담 통계 and 업체 대시보드 read
// them — and who may read them: a shop's own accounts (a counselor their own leads), no other
// shop's, and the ranking of shops by agency staff only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { escalateDue } from './sla.ts';
import { outcomeOf, medianAndP90 } from './sla-figures.ts';
import { accountIdOf, LONG_SESSIONS, landingTestApp, leadBody, openLanding, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import { createShop } from '../../test-helpers.ts';

/** A Seoul wall-clock time ('2026-12-07 10:00') as an instant. 2026-12-04 is a Friday, 12-07 a Monday, 12-08 (a holiday here) a Tuesday. */
const kst = (s: string) => new Date(`${s.replace(' ', 'T')}${s.length > 16 ? '' : ':00'}+09:00`);
const SLA = {
  enabled: true, minutes: 30, remindPercent: null, onDeadline: 'reroute', maxReroutes: 1,
  workDays: [1, 2, 3, 4, 5], workStart: '09:00', workEnd: '18:00', holidays: ['2026-12-08'],
};

let t: LandingTestApp;
let landingId: number;
const ids: Record<string, number> = {};
beforeEach(async () => {
  t = await landingTestApp(LONG_SESSIONS);
  landingId = await openLanding(t);
  for (const login of ['csa1', 'csb2']) {
    await shopAccount(t, login, 'counselor');
    ids[login] = await accountIdOf(t, login);
  }
});
afterEach(async () => {
  await t.close();
});

const at = (s: string) => void (t.clock.current = kst(s));
let phone = 1000;
async function lead(arrival: string, o: { phone?: string; holder?: string; contact?: string } = {}): Promise<number> {
  at(arrival);
  const res = await submit(t, leadBody(t, landingId, { phone: o.phone ?? `010-4444-${String(phone++).padStart(4, '0')}` }));
  expect(res.statusCode, res.body).toBe(201);
  const id = (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
  if (o.holder) await t.app.db.updateTable('leads').set({ assignee_id: ids[o.holder]! }).where('id', '=', id).execute();
  if (o.contact) await t.app.db.updateTable('leads').set({ first_contact_at: kst(o.contact).toISOString() }).where('id', '=', id).execute();
  return id;
}
const figures = (query = 'from=2026-12-01&to=2026-12-09', client = t.admin) => client.get(`/api/shops/${t.shopId}/cs-stats/sla?${query}`);
const turnOn = async (s: string, settings: Record<string, unknown> = SLA) => {
  at(s);
  expect((await t.admin.put(`/api/shops/${t.shopId}/lead-sla`, settings)).statusCode).toBe(200);
};

/**
 * SLA 30 working minutes, Mon–Fri 09:00–18:00 Seoul, 12-08 a holiday; on from Fri 12-04 08:00. Now Wed 12-09 10:00.
 *   before  Thu 12-03 10:00  contacted 10:05          arrived before the SLA: not counted
 *   A  Fri 12-04 10:00  csa1  contacted 10:05 (by 부재)  5      met
 *   H  Fri 12-04 10:01  csa1  duplicate of A             —      not counted
 *   C  Fri 12-04 12:00  csb2  contacted 12:45            45     missed
 *   B  Fri 12-04 17:50  csa1  contacted Mon 09:10       10+10  met   (evening and weekend)
 *   J  Sat 12-05 03:00  csa1  contacted Mon 09:30       30     met   (exactly the SLA)
 *   E  Mon 12-07 11:00  csa1  contacted 11:00:30        0.5    met
 *   D  Mon 12-07 17:30  csb2  contacted Wed 09:20       30+20  missed (the holiday between)
 *   I  Mon 12-07 12:00  csa1  deleted                    —      not counted
 *   F  Wed 12-09 09:00  —     not contacted, due 09:30         missed
 *   G  Wed 12-09 09:50  —     not contacted, due 10:20         pending
 */
async function measuredShop() {
  await lead('2026-12-03 10:00', { holder: 'csa1', contact: '2026-12-03 10:05' });
  await turnOn('2026-12-04 08:00');
  const a = await lead('2026-12-04 10:00', { phone: '010-5555-0001', holder: 'csa1' });
  at('2026-12-04 10:05');
  expect((await t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${a}`, { csStatus: '부재' })).statusCode).toBe(200);
  const h = await lead('2026-12-04 10:01', { phone: '010-5555-0001', holder: 'csa1', contact: '2026-12-04 10:02' });
  expect((await t.app.db.selectFrom('leads').select('duplicate_of').where('id', '=', h).executeTakeFirstOrThrow()).duplicate_of).toBe(a);
  await lead('2026-12-04 12:00', { holder: 'csb2', contact: '2026-12-04 12:45' });
  await lead('2026-12-04 17:50', { holder: 'csa1', contact: '2026-12-07 09:10' });
  await lead('2026-12-05 03:00', { holder: 'csa1', contact: '2026-12-07 09:30' });
  await lead('2026-12-07 11:00', { holder: 'csa1', contact: '2026-12-07 11:00:30' });
  await lead('2026-12-07 17:30', { holder: 'csb2', contact: '2026-12-09 09:20' });
  const i = await lead('2026-12-07 12:00', { holder: 'csa1' });
  await t.app.db.updateTable('leads').set({ deleted_at: kst('2026-12-07 12:10').toISOString() }).where('id', '=', i).execute();
  await lead('2026-12-09 09:00');
  await lead('2026-12-09 09:50');
  at('2026-12-09 10:00');
}

const group = (o: Record<string, unknown>) => ({ rerouted: 0, ...o });

describe('the SLA figures', () => {
  it('counts met, missed and pending in working minutes, with the median and p90, per holder, landing and hour, and the distribution', async () => {
    await measuredShop();
    const res = await figures();
    expect(res.statusCode, res.body).toBe(200);
    const f = res.json();
    expect(f.period).toEqual({ from: '2026-12-01', to: '2026-12-09' });
    expect(f.sla).toEqual({ minutes: 30, workDays: [1, 2, 3, 4, 5], workStart: '09:00', workEnd: '18:00', holidays: 1, enabledAt: kst('2026-12-04 08:00').toISOString() });
    // Contacted: 0.5, 5, 20, 30, 45, 50 — the median the mean of 20 and 30, p90 the sixth of six.
    expect(f.totals).toEqual(group({ leads: 8, met: 4, missed: 3, pending: 1, metRate: 4 / 7, contacted: 6, medianMinutes: 25, p90Minutes: 50 }));
    expect(Object.fromEntries(f.distribution.map((d: { bucket: string; count: number }) => [d.bucket, d.count]))).toEqual({
      1: 1, 5: 1, 15: 0, 30: 2, 60: 2, over: 0, 'open-missed': 1, 'open-pending': 1,
    });
    expect(f.byCounselor).toEqual([
      group({ key: ids.csa1, name: 'csa1', leads: 4, met: 4, missed: 0, pending: 0, metRate: 1, contacted: 4, medianMinutes: 12.5, p90Minutes: 30 }),
      group({ key: ids.csb2, name: 'csb2', leads: 2, met: 0, missed: 2, pending: 0, metRate: 0, contacted: 2, medianMinutes: 47.5, p90Minutes: 50 }),
      group({ key: null, name: '미배분', leads: 2, met: 0, missed: 1, pending: 1, metRate: 0, contacted: 0, medianMinutes: null, p90Minutes: null }),
    ]);
    expect(f.byLanding).toHaveLength(1);
    expect(f.byLanding[0]).toMatchObject({ key: landingId, leads: 8, met: 4 });
    expect(f.byMedium).toEqual([expect.objectContaining({ key: null, name: '미지정', leads: 8, metRate: 4 / 7 })]);
    const hours = Object.fromEntries(f.byHour.filter((h: { leads: number }) => h.leads).map((h: { hour: number; leads: number; met: number; pending: number }) => [h.hour, [h.leads, h.met, h.pending]]));
    expect(hours).toEqual({ 3: [1, 1, 0], 9: [2, 0, 1], 10: [1, 1, 0], 11: [1, 1, 0], 12: [1, 0, 0], 17: [2, 1, 0] });
    expect(f.byHour).toHaveLength(24);
    expect(f.reroutes).toEqual([]);

    // The shop dashboard reads the same figures over its last 30 days.
    const dash = (await t.admin.get(`/api/shops/${t.shopId}/dashboard/sla`)).json();
    expect(dash.period).toEqual({ from: '2026-11-10', to: '2026-12-09' });
    expect(dash.totals).toEqual(f.totals);
    // A period before the SLA was on counts nothing.
    expect((await figures('from=2026-12-01&to=2026-12-03')).json().totals).toMatchObject({ leads: 0, metRate: null, medianMinutes: null });
  });

  it('judges the clock in working minutes: evenings, weekends and holidays do not run, and the deadline is the last working minute', () => {
    const rule = { minutes: 30, calendar: { days: SLA.workDays, start: SLA.workStart, end: SLA.workEnd, holidays: SLA.holidays } };
    const now = kst('2026-12-09 12:00');
    expect(outcomeOf(rule, kst('2026-12-07 17:45').toISOString(), kst('2026-12-09 09:15').toISOString(), now)).toEqual({ state: 'met', minutes: 30, bucket: '30' });
    expect(outcomeOf(rule, kst('2026-12-07 17:45').toISOString(), kst('2026-12-09 09:16').toISOString(), now)).toEqual({ state: 'missed', minutes: 31, bucket: '60' });
    expect(outcomeOf(rule, kst('2026-12-09 11:31').toISOString(), null, now)).toEqual({ state: 'pending', minutes: null, bucket: 'open-pending' });
    expect(outcomeOf(rule, kst('2026-12-09 11:30').toISOString(), null, now)).toEqual({ state: 'missed', minutes: null, bucket: 'open-missed' });
    expect(outcomeOf(rule, kst('2026-12-04 09:00').toISOString(), kst('2026-12-04 11:00').toISOString(), now)).toMatchObject({ minutes: 120, bucket: 'over' });
    expect(medianAndP90([])).toEqual({ median: null, p90: null });
    expect(medianAndP90([7])).toEqual({ median: 7, p90: 7 });
    expect(medianAndP90(Array.from({ length: 20 }, (_, i) => i + 1))).toEqual({ median: 10.5, p90: 18 });
  });

  it('counts escalation’s re-routes and why: a lapse re-routed, the last re-route spent, no counselor with room, the manager notified', async () => {
    await turnOn('2026-12-07 09:00', { ...SLA, onDeadline: 'both' });
    const x = await lead('2026-12-07 10:00', { holder: 'csa1' });
    at('2026-12-07 10:30');
    expect((await escalateDue(t.app.db, t.clock.now())).map((s) => [s.leadId, s.action, s.to])).toEqual([[x, 'sla-notify', ids.csa1], [x, 'sla-reroute', ids.csb2]]);
    await lead('2026-12-07 10:40');
    for (const login of ['csa1', 'csb2']) {
      const res = await t.admin.put(`/api/shops/${t.shopId}/allocation/counselors/${ids[login]}`, { weight: 1, dailyCap: null, maxOpen: null, available: false });
      expect(res.statusCode, res.body).toBe(200);
    }
    at('2026-12-07 11:10');
    expect((await escalateDue(t.app.db, t.clock.now())).map((s) => s.action)).toEqual(['sla-notify', 'sla-manager', 'sla-notify', 'sla-manager']);
    const f = (await figures('from=2026-12-07&to=2026-12-07')).json();
    expect(f.reroutes).toEqual([
      { reason: 'reroute', leads: 1, events: 1 },
      { reason: 'max-reroutes', leads: 1, events: 1 },
      { reason: 'no-counselor', leads: 1, events: 1 },
      { reason: 'notify', leads: 2, events: 3 },
    ]);
    expect(f.totals).toMatchObject({ leads: 2, met: 0, missed: 2, rerouted: 1 });
    // Both leads wait in the manager's queue now: 미배분, one of them re-routed on its way.
    expect(f.byCounselor).toEqual([expect.objectContaining({ key: null, leads: 2, rerouted: 1 })]);
  });

  it('says the SLA is off rather than showing figures', async () => {
    await lead('2026-12-07 10:00', { holder: 'csa1', contact: '2026-12-07 10:05' });
    const f = (await figures()).json();
    expect(f.sla).toBeNull();
    expect(f.totals).toMatchObject({ leads: 0, metRate: null });
    expect(f.byHour).toHaveLength(24);
  });

  it('shows a counselor their own leads, no shop another shop’s figures, and the ranking of shops to agency staff only', async () => {
    await measuredShop();
    const counselor = await t.login('csa1', 'Shop-pass-2026');
    const mine = (await figures(undefined, counselor)).json();
    expect(mine.scope).toBe('assigned');
    expect(mine.totals).toMatchObject({ leads: 4, met: 4, metRate: 1 });
    expect(mine.byCounselor.map((c: { name: string }) => c.name)).toEqual(['csa1']);
    expect((await counselor.get(`/api/shops/${t.shopId}/dashboard/sla`)).json().totals).toMatchObject({ leads: 4 });

    // Shop B with the SLA on: shop A's owner reads A's figures, never B's.
    const other = await createShop(t.admin, 'other', { name: '나중한의원' });
    expect((await t.admin.put(`/api/shops/${other}/lead-sla`, SLA)).statusCode).toBe(200);
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await figures(undefined, owner)).statusCode).toBe(200);
    expect((await owner.get(`/api/shops/${other}/cs-stats/sla`)).statusCode).toBe(403);
    expect((await owner.get(`/api/shops/${other}/dashboard/sla`)).statusCode).toBe(403);
    expect((await counselor.get(`/api/shops/${other}/cs-stats/sla`)).statusCode).toBe(403);

    // The ranking: every shop with the SLA on, the best first; B has nothing decided yet and comes last.
    const ranking = await t.admin.get('/api/dashboard/sla-ranking');
    expect(ranking.statusCode, ranking.body).toBe(200);
    expect(ranking.json().items.map((r: { shopId: number; leads: number; metRate: number | null }) => [r.shopId, r.leads, r.metRate])).toEqual([[t.shopId, 8, 4 / 7], [other, 0, null]]);
    // A client account never reads it, even with the dashboard granted to its type.
    const type = await t.app.db.selectFrom('account_types').select(['id', 'permissions']).where('builtin_key', '=', 'shop-owner').executeTakeFirstOrThrow();
    await t.app.db.updateTable('account_types').set({ permissions: JSON.stringify({ ...JSON.parse(type.permissions), dashboard: 'read' }) }).where('id', '=', type.id).execute();
    expect((await owner.get('/api/dashboard/sla-ranking')).statusCode).toBe(403);
    expect((await counselor.get('/api/dashboard/sla-ranking')).statusCode).toBe(403);
    expect((await t.anonymous.get('/api/dashboard/sla-ranking')).statusCode).toBe(401);
  });
});
