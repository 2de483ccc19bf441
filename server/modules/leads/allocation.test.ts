import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { plan } from './allocation.ts';
import { accountIdOf, leadBody, openLanding, shopAccount, submit, type LandingTestApp, landingTestApp } from '../../test-landings.ts';
import { build } from '../../app.ts';
import { openDatabase } from '../../db/dialect.ts';
import type { CounselorLoad } from '../../../contracts/allocation.ts';

const c = (id: number, o: Partial<CounselorLoad> = {}): CounselorLoad => ({
  id, name: `c${id}`, loginId: `c${id}`, weight: 1, dailyCap: null, maxOpen: null, available: true, today: 0, open: 0, ...o,
});
const counts = (to: Array<number | null>) => to.reduce<Record<string, number>>((m, id) => ({ ...m, [String(id)]: (m[String(id)] ?? 0) + 1 }), {});

describe('the allocation planner', () => {
  it('goes round in turn after the last counselor served, skipping those without room', () => {
    expect(plan('round-robin', [c(1), c(2), c(3)], 5, 0)).toEqual({ to: [1, 2, 3, 1, 2], cursor: 2 });
    expect(plan('round-robin', [c(1), c(2), c(3)], 2, 2).to).toEqual([3, 1]);
    expect(plan('round-robin', [c(1), c(2, { available: false }), c(3, { dailyCap: 3, today: 2 })], 4, 0).to).toEqual([1, 3, 1, 1]);
    expect(plan('round-robin', [c(1, { maxOpen: 2, open: 1 }), c(2, { dailyCap: 1 })], 4, 0).to).toEqual([1, 2, null, null]);
  });

  it('shares by weight, counting what each already had today', () => {
    expect(counts(plan('weighted', [c(1, { weight: 2 }), c(2)], 30, 0).to)).toEqual({ 1: 20, 2: 10 });
    expect(counts(plan('weighted', [c(1, { today: 10 }), c(2)], 12, 0).to)).toEqual({ 1: 1, 2: 11 });
    expect(counts(plan('weighted', [c(1, { weight: 3, dailyCap: 4 }), c(2)], 10, 0).to)).toEqual({ 1: 4, 2: 6 });
  });

  it('gives manual allocations to the one counselor chosen, caps notwithstanding', () => {
    expect(plan('manual', [c(7, { dailyCap: 1 })], 3, 0).to).toEqual([7, 7, 7]);
  });
});

let t: LandingTestApp;
let landingId: number;
const ids: Record<string, number> = {};
beforeEach(async () => {
  t = await landingTestApp();
  landingId = await openLanding(t);
  for (const login of ['csa1', 'csb2', 'csc3']) {
    await shopAccount(t, login, 'counselor');
    ids[login] = await accountIdOf(t, login);
  }
});
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/allocation`;
let phone = 1000;
async function leads(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await submit(t, leadBody(t, landingId, { phone: `010-4444-${String(phone++).padStart(4, '0')}` }));
    expect(res.statusCode, res.body).toBe(201);
    out.push((await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id);
  }
  return out;
}
const holders = async (leadIds: number[]) =>
  (await t.app.db.selectFrom('leads').select(['id', 'assignee_id']).where('id', 'in', leadIds).orderBy('id').execute()).map((r) => r.assignee_id);

describe('allocating leads', () => {
  it('previews who gets how many, then applies it in one go with a record per lead', async () => {
    const chosen = await leads(6);
    expect((await t.admin.put(`${base()}/counselors/${ids.csb2}`, { weight: 1, dailyCap: null, maxOpen: null, available: false })).statusCode).toBe(200);
    expect((await t.admin.put(`${base()}/counselors/${ids.csc3}`, { weight: 1, dailyCap: 1, maxOpen: null, available: true })).json()).toMatchObject({ dailyCap: 1, today: 0 });
    const state = (await t.admin.get(base())).json();
    expect(state).toMatchObject({ autoMode: 'off', unassigned: 6 });
    expect(state.counselors.map((x: { loginId: string }) => x.loginId)).toEqual(['csa1', 'csb2', 'csc3']);

    const body = { mode: 'round-robin', leadIds: chosen, counselorIds: [ids.csa1, ids.csb2, ids.csc3] };
    const preview = (await t.admin.post(`${base()}/preview`, body)).json();
    expect(preview.total).toBe(6);
    expect(preview.unplaced).toBe(0);
    expect(preview.rows.map((r: { name: string; count: number }) => [r.name, r.count])).toEqual([['csa1', 5], ['csb2', 0], ['csc3', 1]]);
    expect(await holders(chosen)).toEqual([null, null, null, null, null, null]);

    const applied = (await t.admin.post(`${base()}/apply`, body)).json();
    expect(applied.rows.map((r: { count: number }) => r.count)).toEqual([5, 0, 1]);
    expect(await holders(chosen)).toEqual([ids.csa1, ids.csc3, ids.csa1, ids.csa1, ids.csa1, ids.csa1]);
    const events = await t.app.db.selectFrom('lead_events').select(['after']).where('action', '=', 'assign').execute();
    expect(events).toHaveLength(6);
    expect(JSON.parse(events[0]!.after!)).toMatchObject({ assigneeId: ids.csa1, mode: 'round-robin' });
    expect((await t.admin.get(base())).json().counselors.find((x: { id: number }) => x.id === ids.csc3)).toMatchObject({ today: 1, open: 1 });
    // The same leads again: nothing is left unassigned to take.
    expect((await t.admin.post(`${base()}/apply`, body)).json().total).toBe(0);
  });

  it('refuses what makes no sense: no leads, another shop’s account, a manual allocation to a counselor on leave', async () => {
    const [lead] = await leads(1);
    const manager = await accountIdOf(t, 'admin');
    expect((await t.admin.post(`${base()}/apply`, { mode: 'round-robin', counselorIds: [ids.csa1] })).json().error.fields.leadIds).toBe('배분할 DB를 고르세요.');
    expect((await t.admin.post(`${base()}/apply`, { mode: 'round-robin', leadIds: [lead], counselorIds: [manager] })).statusCode).toBe(400);
    expect((await t.admin.post(`${base()}/apply`, { mode: 'manual', leadIds: [lead], counselorIds: [ids.csa1, ids.csb2] })).json().error.fields.counselorIds).toBe('배분받을 상담원을 고르세요.');
    await t.admin.put(`${base()}/counselors/${ids.csa1}`, { weight: 1, dailyCap: null, maxOpen: null, available: false });
    expect((await t.admin.post(`${base()}/apply`, { mode: 'manual', leadIds: [lead], counselorIds: [ids.csa1] })).json().error.message).toContain('휴무');
    expect((await t.admin.put(`${base()}/counselors/${manager}`, { weight: 1, dailyCap: null, maxOpen: null, available: true })).statusCode).toBe(404);
    expect((await t.admin.put(`${base()}/counselors/${ids.csa1}`, { weight: 0, dailyCap: 0, maxOpen: null, available: true })).json().error.fields).toMatchObject({
      weight: '가중치는 1 이상입니다.', dailyCap: '1 이상으로 정하세요.',
    });
  });

  it('allocates on intake by the shop’s rule, within caps, leaving duplicates and full counselors’ leads unassigned', async () => {
    await t.admin.put(`${base()}/rule`, { autoMode: 'round-robin' });
    await t.admin.put(`${base()}/counselors/${ids.csc3}`, { weight: 1, dailyCap: null, maxOpen: null, available: false });
    await t.admin.put(`${base()}/counselors/${ids.csb2}`, { weight: 1, dailyCap: 1, maxOpen: null, available: true });
    const got = await leads(4);
    expect(await holders(got)).toEqual([ids.csa1, ids.csb2, ids.csa1, ids.csa1]);
    const first = await t.app.db.selectFrom('leads').select('phone').where('id', '=', got[0]!).executeTakeFirstOrThrow();
    const dup = await submit(t, leadBody(t, landingId, { phone: first.phone }));
    expect(dup.statusCode).toBe(201);
    const dupId = (await t.app.db.selectFrom('leads').select(['id', 'assignee_id', 'duplicate_of']).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow());
    expect(dupId).toMatchObject({ assignee_id: null, duplicate_of: got[0] });
    const auto = await t.app.db.selectFrom('lead_events').select('after').where('action', '=', 'assign').execute();
    expect(JSON.parse(auto[0]!.after!)).toMatchObject({ mode: 'auto-round-robin' });

    await t.admin.put(`${base()}/counselors/${ids.csa1}`, { weight: 1, dailyCap: null, maxOpen: 3, available: true });
    const [late] = await leads(1);
    expect(await holders([late!])).toEqual([null]);
  });

  it('takes leads back or hands them over with a reason, and keeps the history', async () => {
    const [a, b] = await leads(2);
    await t.admin.post(`${base()}/apply`, { mode: 'manual', leadIds: [a, b], counselorIds: [ids.csa1] });
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const noReason = await owner.post(`${base()}/reassign`, { leadIds: [a], to: ids.csb2, reason: ' ' });
    expect(noReason.json().error.fields.reason).toBe('사유를 입력하세요.');
    expect((await owner.post(`${base()}/reassign`, { leadIds: [a], to: ids.csb2, reason: '휴가' })).json()).toEqual({ moved: 1 });
    expect((await owner.post(`${base()}/reassign`, { leadIds: [b], to: null, reason: '재배분 예정' })).json()).toEqual({ moved: 1 });
    expect(await holders([a!, b!])).toEqual([ids.csb2, null]);
    expect((await owner.post(`${base()}/reassign`, { leadIds: [a], to: ids.csb2, reason: '다시' })).statusCode).toBe(404);

    const history = (await owner.get(`${base()}/history`)).json();
    expect(history.total).toBe(4);
    expect(history.items[0]).toMatchObject({ leadId: b, fromName: 'csa1', toName: null, mode: 'return', reason: '재배분 예정', byName: 'owner1' });
    expect(history.items[1]).toMatchObject({ leadId: a, fromName: 'csa1', toName: 'csb2', mode: 'reassign', reason: '휴가' });
    expect(history.items[3]).toMatchObject({ fromName: null, toName: 'csa1', mode: 'manual', byName: '최고관리자' });
    const counselor = await t.login('csa1', 'Shop-pass-2026');
    expect((await counselor.get(`${base()}/history`)).statusCode).toBe(403);
  });
});

/** Counselors' assignments today, by id. */
async function assignedPerCounselor(app: LandingTestApp): Promise<Record<number, number>> {
  const rows = await app.app.db.selectFrom('leads').select(['assignee_id', sql<number>`count(*)`.as('n')]).where('assignee_id', 'is not', null).groupBy('assignee_id').execute();
  return Object.fromEntries(rows.map((r) => [r.assignee_id!, Number(r.n)]));
}

describe('concurrent writers', () => {
  it.runIf(process.env.LR_TEST_DIALECT !== 'postgres')('never exceed a cap on SQLite, intake on its writer thread and an allocation at once', async () => {
    const disk = await landingTestApp({}, { onDisk: true });
    try {
      const landing = await openLanding(disk);
      const a = await shopAccount(disk, 'csa1', 'counselor');
      void a;
      const csa1 = (await disk.app.db.selectFrom('accounts').select('id').where('login_id', '=', 'csa1').executeTakeFirstOrThrow()).id;
      const url = `/api/shops/${disk.shopId}/allocation`;
      // Unassigned leads waiting, then the rule turned on with a cap of 5 a day.
      await Promise.all(Array.from({ length: 6 }, (_, i) => submit(disk, leadBody(disk, landing, { phone: `010-7000-${String(i).padStart(4, '0')}` }))));
      await disk.admin.put(`${url}/counselors/${csa1}`, { weight: 1, dailyCap: 5, maxOpen: null, available: true });
      await disk.admin.put(`${url}/rule`, { autoMode: 'round-robin' });
      const waiting = (await disk.app.db.selectFrom('leads').select('id').execute()).map((r) => r.id);
      const [results] = await Promise.all([
        Promise.all(Array.from({ length: 10 }, (_, i) => submit(disk, leadBody(disk, landing, { phone: `010-7001-${String(i).padStart(4, '0')}` })))),
        disk.admin.post(`${url}/apply`, { mode: 'round-robin', leadIds: waiting, counselorIds: [csa1] }),
      ]);
      expect(results.every((r) => r.statusCode === 201)).toBe(true);
      expect(await assignedPerCounselor(disk)).toEqual({ [csa1]: 5 });
    } finally {
      await disk.close();
    }
  });

  it.runIf(process.env.LR_TEST_DIALECT === 'postgres')('never exceed a cap on PostgreSQL with two app instances taking leads at once', async () => {
    const url = base();
    await t.admin.put(`${url}/counselors/${ids.csa1}`, { weight: 1, dailyCap: 4, maxOpen: null, available: true });
    await t.admin.put(`${url}/counselors/${ids.csb2}`, { weight: 1, dailyCap: 3, maxOpen: null, available: true });
    await t.admin.put(`${url}/counselors/${ids.csc3}`, { weight: 1, dailyCap: null, maxOpen: null, available: false });
    await t.admin.put(`${url}/rule`, { autoMode: 'weighted' });
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(t.app.db)).rows[0]!.s;
    const database = await openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: schema, poolSize: 4 });
    const second = await build({ config: { logLevel: 'silent', seedDemo: false, distDir: '/nonexistent', dataDir: t.dataDir, intakeRateLimit: 0 }, database, clock: t.clock.now });
    try {
      const post = (app: typeof second, i: number) =>
        app.inject({
          method: 'POST', url: '/api/public/leads', remoteAddress: `203.0.113.${i}`, headers: { 'content-type': 'application/json', host: 'localhost' },
          payload: JSON.stringify(leadBody(t, landingId, { phone: `010-8000-${String(i).padStart(4, '0')}` })),
        });
      const results = await Promise.all(Array.from({ length: 16 }, (_, i) => post(i % 2 ? second : t.app, i)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(16).fill(201));
      expect(await assignedPerCounselor(t)).toEqual({ [ids.csa1!]: 4, [ids.csb2!]: 3 });
    } finally {
      await second.close();
      await database.close();
    }
  });
});
