// The JSON intake hot path answers before Fastify: over a real socket it must give the
// same answers, and store the same rows, as the route does through inject().
import { describe, expect, it } from 'vitest';
import { countRows, eachLandingTest, leadBody, submit, type LandingTestApp } from '../../test-landings.ts';
import { INTAKE_BODY_LIMIT } from './intake.routes.ts';

let t: LandingTestApp;
let landingId: number;
let base: string;
eachLandingTest((app, landing, address) => ([t, landingId, base] = [app, landing, address]), { listen: true });

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/public/leads`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('JSON intake over HTTP', () => {
  it('stores a valid submission and answers 201 like the route', async () => {
    const res = await post(JSON.stringify(leadBody(t, landingId, { utm_source: 'meta' })), { referer: `${base}/view/x/y?utm_source=ignored` });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const [lead] = await t.app.db.selectFrom('leads').selectAll().execute();
    expect(lead).toMatchObject({ phone: '01012345678', utm_source: 'meta', ip: '127.0.0.1', duplicate_of: null });
    await t.app.links.leadFollowUps();
    expect(await countRows(t, 'lead_events')).toBe(1);
  });

  it('gives the same refusals as the route, storing nothing', async () => {
    const bad = leadBody(t, landingId, { phone: '12345', privacyConsent: false });
    const fast = await post(JSON.stringify(bad));
    const routed = await submit(t, bad);
    expect(fast.status).toBe(422);
    expect(await fast.json()).toEqual(routed.json());

    const unknown = await post(JSON.stringify(leadBody(t, landingId, { landingCode: 'nope' })));
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toMatch(/[가-힣]/);

    expect((await post('{"shopCode":')).status).toBe(400);
    expect((await post('{"__proto__":{"admin":true}}')).status).toBe(400);
    const huge = await post(JSON.stringify({ ...leadBody(t, landingId), name: 'x'.repeat(INTAKE_BODY_LIMIT) }));
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await countRows(t, 'leads')).toBe(0);
  });

  it('takes a visitor named constructor, and JSON whatever the case of its media type', async () => {
    const named = await post(JSON.stringify(leadBody(t, landingId, { name: 'constructor' })));
    expect(named.status).toBe(201);
    const upper = await post(JSON.stringify(leadBody(t, landingId, { phone: '01099998888' })), { 'content-type': 'Application/JSON; Charset=UTF-8' });
    expect(upper.status).toBe(201);
    expect(upper.headers.get('content-type')).toContain('application/json');
    expect((await post('{"constructor":{"prototype":{"admin":true}}}')).status).toBe(400);
    expect((await t.app.db.selectFrom('leads').select('name').orderBy('id').execute()).map((r) => r.name)).toEqual(['constructor', '홍길동']);
  });

  it('answers with the same security headers as the route', async () => {
    const fast = await post(JSON.stringify(leadBody(t, landingId)));
    const routed = await submit(t, leadBody(t, landingId, { phone: '01077776666' }));
    const pick = (get: (k: string) => string | null) =>
      Object.fromEntries(['strict-transport-security', 'cross-origin-opener-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cache-control'].map((k) => [k, get(k)]));
    const fromRoute = pick((k) => (routed.headers[k] as string | undefined) ?? null);
    expect(pick((k) => fast.headers.get(k))).toEqual(fromRoute);
    expect(fromRoute['cache-control']).toBe('no-store');
    expect(fromRoute['strict-transport-security']).toContain('max-age=');
  });

  it('leaves form posts without JavaScript to the route (HTML thank-you)', async () => {
    const form = new URLSearchParams(Object.entries(leadBody(t, landingId, { privacyConsent: '1' })).map(([k, v]) => [k, String(v)]));
    const res = await fetch(`${base}/api/public/leads`, { method: 'POST', body: form, redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await countRows(t, 'leads')).toBe(1);
  });
});
