import { describe, expect, it } from 'vitest';
import { eachTestApp, ADMIN_PASSWORD, type Client, type TestApp } from '../../test-helpers.ts';

let t: TestApp;
let admin: Client;
eachTestApp((app, client) => {
  t = app;
  admin = client;
});

const rule = (extra: Record<string, unknown>) => admin.post('/api/deny-rules', { kind: 'ip', scope: 'intake', value: '198.51.100.1', ...extra });
const loginFrom = (remoteAddress: string) =>
  t.app.inject({
    method: 'POST', url: '/api/auth/login', remoteAddress,
    headers: { host: 'localhost:80', origin: 'http://localhost:80' },
    payload: { loginId: 'admin', password: ADMIN_PASSWORD },
  });

describe('deny rules', () => {
  it('creates rules, normalising phones and expiry, recording the creator', async () => {
    const res = await rule({ kind: 'phone', value: '010-1234-5678', reason: '장난 접수', expiresAt: '2026-12-01T09:00:00+09:00' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      kind: 'phone', value: '01012345678', scope: 'intake', reason: '장난 접수', expiresAt: '2026-12-01T00:00:00.000Z', hits: 0, createdBy: 'admin',
    });
  });

  it('answers 400 with fields for invalid rules', async () => {
    const bad = await admin.post('/api/deny-rules', { kind: 'ip', value: '300.1.1.1', scope: 'intake' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('value');
    expect((await rule({ kind: 'cidr', value: '10.0.0.0/40' })).json().error.fields).toHaveProperty('value');
    const keywordLogin = await rule({ kind: 'keyword', value: '광고', scope: 'backoffice-login' });
    expect(keywordLogin.statusCode).toBe(400);
    expect(keywordLogin.json().error.fields).toHaveProperty('scope');
    const missing = await admin.post('/api/deny-rules', {});
    expect(Object.keys(missing.json().error.fields)).toEqual(expect.arrayContaining(['kind', 'value', 'scope']));
    const past = await rule({ expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.fields).toHaveProperty('expiresAt');
  });

  it('answers 409 for the same kind, value and scope', async () => {
    await rule({});
    const dup = await rule({ reason: '다시' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.fields).toEqual({ value: expect.any(String) });
    expect((await rule({ scope: 'backoffice-login' })).statusCode).toBe(201);
    const other = (await rule({ value: '198.51.100.2' })).json().id;
    expect((await admin.put(`/api/deny-rules/${other}`, { kind: 'ip', scope: 'intake', value: '198.51.100.1' })).statusCode).toBe(409);
  });

  it('lists with paging, filters and sorting', async () => {
    await rule({ value: '198.51.100.1', reason: '스팸' });
    t.clock.advanceMinutes(1);
    await rule({ kind: 'cidr', value: '203.0.113.0/24', scope: 'backoffice-login' });
    t.clock.advanceMinutes(1);
    await rule({ kind: 'keyword', value: '대출' });
    const all = (await admin.get('/api/deny-rules')).json();
    expect(all.total).toBe(3);
    expect(all.items.map((r: { value: string }) => r.value)).toEqual(['대출', '203.0.113.0/24', '198.51.100.1']);
    expect((await admin.get('/api/deny-rules?page=2&pageSize=2')).json().items.map((r: { value: string }) => r.value)).toEqual(['198.51.100.1']);
    expect((await admin.get('/api/deny-rules?kind=cidr')).json().total).toBe(1);
    expect((await admin.get('/api/deny-rules?scope=intake')).json().total).toBe(2);
    expect((await admin.get(`/api/deny-rules?q=${encodeURIComponent('스팸')}`)).json().items[0].value).toBe('198.51.100.1');
    expect((await admin.get('/api/deny-rules?sort=kind')).json().items.map((r: { kind: string }) => r.kind)).toEqual(['cidr', 'ip', 'keyword']);
    await loginFrom('203.0.113.50');
    expect((await admin.get('/api/deny-rules?sort=-hits')).json().items[0]).toMatchObject({ value: '203.0.113.0/24', hits: 1 });
  });

  it('updates and deletes', async () => {
    const id = (await rule({})).json().id;
    const res = await admin.put(`/api/deny-rules/${id}`, { kind: 'cidr', value: '198.51.100.0/24', scope: 'intake', reason: '대역 차단' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'cidr', value: '198.51.100.0/24', reason: '대역 차단', createdBy: 'admin' });
    expect((await admin.del(`/api/deny-rules/${id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/deny-rules/${id}`)).statusCode).toBe(404);
    expect((await admin.del(`/api/deny-rules/${id}`)).statusCode).toBe(404);
  });

  it('refuses a login rule that would shut out the administrator’s own IP', async () => {
    const res = await rule({ value: '127.0.0.1', scope: 'backoffice-login' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.fields).toHaveProperty('value');
  });
});

describe('back-office login deny', () => {
  it('refuses a login from a denied IP or CIDR and counts the hit', async () => {
    expect((await rule({ kind: 'cidr', value: '203.0.113.0/24', scope: 'backoffice-login' })).statusCode).toBe(201);
    const ipRule = (await rule({ kind: 'ip', value: '198.51.100.7', scope: 'backoffice-login' })).json().id;

    const denied = await loginFrom('203.0.113.9');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toContain('차단');
    expect(denied.cookies.find((c) => c.name === 'lr_session')).toBeUndefined();
    expect((await loginFrom('198.51.100.7')).statusCode).toBe(403);
    expect((await loginFrom('198.51.100.8')).statusCode).toBe(200);

    const ruleNow = (await admin.get(`/api/deny-rules/${ipRule}`)).json();
    expect(ruleNow).toMatchObject({ hits: 1, lastHitAt: t.clock.now().toISOString() });
    const cidr = (await admin.get('/api/deny-rules?kind=cidr')).json().items[0];
    expect(cidr.hits).toBe(1);
  });

  it('stops refusing once the rule expires, and an intake rule never refuses logins', async () => {
    await rule({ value: '198.51.100.7', scope: 'intake' });
    expect((await loginFrom('198.51.100.7')).statusCode).toBe(200);
    await rule({ kind: 'ip', value: '198.51.100.9', scope: 'backoffice-login', expiresAt: '2026-11-21T02:00:00Z' });
    expect((await loginFrom('198.51.100.9')).statusCode).toBe(403);
    t.clock.advanceMinutes(61);
    expect((await loginFrom('198.51.100.9')).statusCode).toBe(200);
  });
});
