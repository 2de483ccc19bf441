// The live lead stream over real HTTP (server-sent events): what intake accepts reaches open
// lists within two seconds, a counselor's stream carries only their own leads, and on
// PostgreSQL a lead taken by one app instance reaches the browsers of another.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eachLandingTest, leadBody, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import { build } from '../../app.ts';
import { openDatabase } from '../../db/dialect.ts';
import type { Client } from '../../test-helpers.ts';
import { LEAD_STREAM_EVENT, type LeadStreamEvent } from '../../../contracts/leads.ts';
import { readStream } from '../../test-streams.ts';

let t: LandingTestApp;
let landingId: number;
let base: string;
eachLandingTest((app, landing, address) => ([t, landingId, base] = [app, landing, address]), { listen: true });

/** Reads a lead stream over HTTP and collects its events. */
const listen = (origin: string, client: Client, shopId: number) =>
  readStream<LeadStreamEvent>(`${origin}/api/shops/${shopId}/leads/stream`, client, LEAD_STREAM_EVENT);

const lastLead = async () => (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;

describe('the lead stream', () => {
  it('carries a lead intake accepts to an open list within two seconds', async () => {
    const stream = await listen(base, t.admin, t.shopId);
    expect((await submit(t, leadBody(t, landingId))).statusCode).toBe(201);
    const [event] = await stream.until(1);
    expect(event).toEqual({ kind: 'created', ids: [await lastLead()], mine: [] });
    await stream.close();
  });

  it('tells a counselor only of their own leads, and of a lead taken from them', async () => {
    const mine = await shopAccount(t, 'csa1', 'counselor');
    await shopAccount(t, 'csb2', 'counselor');
    const ids = Object.fromEntries(
      (await t.app.db.selectFrom('accounts').select(['id', 'login_id']).where('login_id', 'in', ['csa1', 'csb2']).execute()).map((a) => [a.login_id, a.id]),
    );
    const stream = await listen(base, mine, t.shopId);
    const everyone = await listen(base, t.admin, t.shopId);
    await submit(t, leadBody(t, landingId, { phone: '010-3333-0001' }));
    const unassigned = await lastLead();
    await submit(t, leadBody(t, landingId, { phone: '010-3333-0002' }));
    const theirs = await lastLead();
    await submit(t, leadBody(t, landingId, { phone: '010-3333-0003' }));
    const own = await lastLead();
    await t.app.db.updateTable('leads').set({ assignee_id: ids.csb2 }).where('id', '=', theirs).execute();
    await t.app.db.updateTable('leads').set({ assignee_id: ids.csa1 }).where('id', '=', own).execute();
    await t.admin.post(`/api/shops/${t.shopId}/leads/bulk-status`, { ids: [unassigned, theirs, own], csStatus: '부재' });
    t.app.links.leadsChanged({ shopId: t.shopId, kind: 'changed', leads: [{ id: theirs, assigneeId: ids.csb2!, previousAssigneeId: ids.csa1! }] });
    t.app.links.leadsChanged({ shopId: t.shopId, kind: 'changed', leads: [{ id: unassigned, assigneeId: ids.csa1!, previousAssigneeId: null }] });

    const all = await everyone.until(6);
    expect(all.slice(0, 3).map((e) => e.kind)).toEqual(['created', 'created', 'created']);
    // Instead of waiting a while for anything more: a marker (no lead has id 0), announced once the
    // admin's stream had every change above — so each was already sent to the counselor's stream
    // too, and one stream's events arrive in the order they were sent. Once the marker is there,
    // nothing of the above is still on its way.
    const marker: LeadStreamEvent = { kind: 'changed', ids: [0], mine: [] };
    t.app.links.leadsChanged({ shopId: t.shopId, kind: 'changed', leads: [{ id: 0, assigneeId: ids.csa1! }] });
    await vi.waitFor(() => expect(stream.events).toContainEqual(marker), { timeout: 10_000 });
    expect(stream.events.at(-1)).toEqual(marker);
    // Announcements from different connections: their order is not fixed. A status change of
    // one's own lead is not news of an assignment; a lead handed to the counselor is.
    expect(stream.events.slice(0, -1).sort((a, b) => a.ids[0]! - b.ids[0]!)).toEqual([
      { kind: 'changed', ids: [unassigned], mine: [unassigned] },
      { kind: 'changed', ids: [theirs], mine: [] },
      { kind: 'changed', ids: [own], mine: [] },
    ]);
    await stream.close();
    await everyone.close();
  });

  it('is refused without the screen, and for a shop the account may not enter', async () => {
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id as number;
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const res = await fetch(`${base}/api/shops/${other}/leads/stream`, { headers: { cookie: owner.cookie } });
    expect(res.status).toBe(403);
    expect((await fetch(`${base}/api/shops/${t.shopId}/leads/stream`)).status).toBe(401);
  });
});

describe('an open lead stream', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends at its next check once the account has lost the shop, while others go on', async () => {
    // Only the streams' own intervals run on the test's time; everything else keeps real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const ownerId = (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', 'owner1').executeTakeFirstOrThrow()).id;
    const revoked = await listen(base, owner, t.shopId);
    const everyone = await listen(base, t.admin, t.shopId);
    expect((await t.admin.put(`/api/shop-permissions/${ownerId}`, { shopIds: [] })).statusCode).toBeLessThan(300);

    vi.advanceTimersByTime(60_000);
    expect(await revoked.ended()).toBe(true);
    expect((await submit(t, leadBody(t, landingId))).statusCode).toBe(201);
    expect(await everyone.until(1)).toEqual([{ kind: 'created', ids: [await lastLead()], mine: [] }]);
    expect(revoked.events).toEqual([]);
    await revoked.close();
    await everyone.close();
  });
});

describe.runIf(process.env.LR_TEST_DIALECT === 'postgres')('two app instances on PostgreSQL', () => {
  it('carries a lead one instance accepts to a browser of the other', async () => {
    const schema = (await t.app.db.selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('s')).executeTakeFirstOrThrow()).s;
    const database = await openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: schema, poolSize: 2 });
    const second = await build({ config: { logLevel: 'silent', seedDemo: false, distDir: '/nonexistent', dataDir: t.dataDir, intakeRateLimit: 0 }, database, clock: t.clock.now });
    const secondBase = await second.listen({ host: '127.0.0.1', port: 0 });
    try {
      const stream = await listen(secondBase, t.admin, t.shopId);
      expect((await submit(t, leadBody(t, landingId))).statusCode).toBe(201);
      const [event] = await stream.until(1);
      expect(event).toMatchObject({ kind: 'created', ids: [await lastLead()] });
      await stream.close();
    } finally {
      await second.close();
      await database.close();
    }
  });
});
