// TRUST_PROXY: behind our proxies the client is the right-most X-Forwarded-For address that is
// not one of them. What a client writes to the left of it changes nothing: not the rate-limit
// buckets, not the deny rules, not the address in the access record — on the routes and on the
// JSON intake hot path alike.
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { landingTestApp, leadBody, openLanding, submit, type LandingTestApp } from './test-landings.ts';
import { ADMIN_PASSWORD } from './test-helpers.ts';
import { loadConfig } from './config.ts';
import type { Config } from './config.ts';
import { parseTrustProxy } from './lib/trust-proxy.ts';

const PROXY = '10.0.0.2';
const CLIENT = '203.0.113.9';
/** What nginx appends to (or sets as) X-Forwarded-For, behind whatever the client wrote itself. */
const forged = (n: number) => `198.51.100.${n}, ${CLIENT}`;

let t: LandingTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function behindProxy(config: Partial<Config>) {
  t = await landingTestApp({ trustProxy: 1, ...config });
  return { t, landingId: await openLanding(t) };
}

const login = (t: LandingTestApp, xff: string, password = ADMIN_PASSWORD, from = PROXY) =>
  t.app.inject({
    method: 'POST', url: '/api/auth/login', remoteAddress: from, payload: { loginId: 'admin', password },
    headers: { host: 'localhost', origin: 'http://localhost', 'x-forwarded-for': xff },
  });

describe('TRUST_PROXY', () => {
  it('takes a number of proxies or their addresses; refuses true and anything unclear', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy(' 2 ')).toBe(2);
    expect(parseTrustProxy('10.0.0.5, 10.0.1.0/24,loopback')).toEqual(['10.0.0.5', '10.0.1.0/24', 'loopback']);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY=true/);
    expect(() => parseTrustProxy('nginx.local')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('10.0.0.0/99')).toThrow(/TRUST_PROXY/);
  });
});

describe('with one trusted hop, a forged left-most X-Forwarded-For', () => {
  it('does not change the intake rate-limit bucket, on the route', async () => {
    const { t, landingId } = await behindProxy({ intakeRateLimit: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await submit(t, leadBody(t, landingId, { phone: `0101000000${i}` }), { ip: PROXY, headers: { 'x-forwarded-for': forged(i) } });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([201, 201, 429]);
    // Another client behind the same proxy has a bucket of its own.
    const other = await submit(t, leadBody(t, landingId, { phone: '01010000009' }), { ip: PROXY, headers: { 'x-forwarded-for': `${CLIENT}, 203.0.113.10` } });
    expect(other.statusCode).toBe(201);
    const rows = await t.app.db.selectFrom('leads').select('ip').orderBy('id').execute();
    expect(rows.map((r) => r.ip)).toEqual([CLIENT, CLIENT, '203.0.113.10']);
  });

  it('does not change the intake rate-limit bucket or the stored address, on the JSON hot path', async () => {
    const { t, landingId } = await behindProxy({ intakeRateLimit: 2 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/public/leads`;
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(url, {
        method: 'POST', body: JSON.stringify(leadBody(t, landingId, { phone: `0102000000${i}` })),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forged(i) },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 429]);
    const leads = await t.app.db.selectFrom('leads').select(['id', 'ip']).execute();
    expect(leads.map((l) => l.ip)).toEqual([CLIENT, CLIENT]);
    await t.app.links.leadFollowUps();
    const events = await t.app.db.selectFrom('lead_events').select('ip').where('action', '=', 'created').execute();
    expect(events.map((e) => e.ip)).toEqual([CLIENT, CLIENT]);
  });

  it('neither escapes an intake deny rule nor falls under one meant for the forged address', async () => {
    const { t, landingId } = await behindProxy({});
    expect((await t.admin.post('/api/deny-rules', { kind: 'ip', value: CLIENT, scope: 'intake' })).statusCode).toBe(201);
    expect((await t.admin.post('/api/deny-rules', { kind: 'ip', value: '198.51.100.1', scope: 'intake' })).statusCode).toBe(201);
    const denied = await submit(t, leadBody(t, landingId), { ip: PROXY, headers: { 'x-forwarded-for': forged(7) } });
    expect(denied.statusCode).toBe(403);
    const blocked = await t.app.db.selectFrom('blocked_submissions').select('ip').execute();
    expect(blocked).toEqual([{ ip: CLIENT }]);
    // 198.51.100.1 written by some other client on the left is not that client's address.
    const innocent = await submit(t, leadBody(t, landingId), { ip: PROXY, headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.10' } });
    expect(innocent.statusCode).toBe(201);
  });

  it('neither escapes a login deny rule nor the login limit, and the access record names the real address', async () => {
    const { t } = await behindProxy({ loginRateLimit: 3 });
    const ok = await login(t, forged(1));
    expect(ok.statusCode).toBe(200);
    const audit = await t.app.db.selectFrom('audit_events').select('ip').where('action', '=', 'login').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.ip).toBe(CLIENT);
    const sessions = await t.app.db.selectFrom('sessions').select('ip').execute();
    expect(sessions.map((s) => s.ip).sort()).toEqual(['127.0.0.1', CLIENT]); // the set-up's login, and this one
    // The limit (3 a minute; the set-up's own login came from elsewhere) counts this client whatever it writes.
    expect((await login(t, forged(2), 'wrong-pass-1')).statusCode).toBe(401);
    expect((await login(t, forged(3), 'wrong-pass-1')).statusCode).toBe(401);
    expect((await login(t, forged(4))).statusCode).toBe(429);
    expect((await login(t, `${CLIENT}, 203.0.113.10`)).statusCode).toBe(200);
  });

  it('cannot step around a login deny rule', async () => {
    const { t } = await behindProxy({});
    expect((await t.admin.post('/api/deny-rules', { kind: 'cidr', value: '203.0.113.0/24', scope: 'backoffice-login' })).statusCode).toBe(201);
    const denied = await login(t, '192.0.2.1, 203.0.113.50');
    expect(denied.statusCode).toBe(403);
    const record = await t.app.db.selectFrom('audit_events').select('ip').where('action', '=', 'login-denied').executeTakeFirstOrThrow();
    expect(record.ip).toBe('203.0.113.50');
    expect((await login(t, '203.0.113.50, 192.0.2.1')).statusCode).toBe(200);
  });
});

describe('trusted proxies by address', () => {
  it('takes X-Forwarded-* only from a listed proxy, skipping every listed hop', async () => {
    const { t, landingId } = await behindProxy({ trustProxy: [PROXY, '10.1.0.0/16'] });
    await submit(t, leadBody(t, landingId, { phone: '01030000001' }), { ip: PROXY, headers: { 'x-forwarded-for': `198.51.100.1, ${CLIENT}, 10.1.2.3` } });
    // A client that reaches the app directly: its X-Forwarded-For is its own writing.
    await submit(t, leadBody(t, landingId, { phone: '01030000002' }), { ip: '192.0.2.44', headers: { 'x-forwarded-for': CLIENT } });
    const rows = await t.app.db.selectFrom('leads').select('ip').orderBy('id').execute();
    expect(rows.map((r) => r.ip)).toEqual([CLIENT, '192.0.2.44']);
  });

  it('counts hops from the app: with two, the address the outer proxy saw', async () => {
    const { t, landingId } = await behindProxy({ trustProxy: 2 });
    await submit(t, leadBody(t, landingId), { ip: PROXY, headers: { 'x-forwarded-for': `198.51.100.1, ${CLIENT}, 10.9.9.9` } });
    expect((await t.app.db.selectFrom('leads').select('ip').executeTakeFirstOrThrow()).ip).toBe(CLIENT);
  });
});
