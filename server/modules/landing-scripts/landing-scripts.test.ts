import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingTestApp, leadBody, openLanding, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import type { Config } from '../../config.ts';
import { ADMIN_PASSWORD } from '../../test-helpers.ts';

let t: LandingTestApp;
let landingId: number;
async function start(config: Partial<Config> = {}) {
  t = await landingTestApp(config);
  landingId = await openLanding(t);
}
afterEach(async () => {
  await t.close();
});

const url = () => `/api/shops/${t.shopId}/landings/${landingId}/scripts`;
const page = (host = 'localhost') => t.app.inject({ method: 'GET', url: '/view/smile/implant', headers: { host } });
const cspOf = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy']);
const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `))!;
const NO_SCRIPTS = { headScript: '', bodyScript: '', conversionScript: '' };
const TAGS = [
  { kind: 'meta-pixel', id: '123456789012345' },
  { kind: 'google-tag', id: 'G-AB12CD34EF' },
];
const ATTACK = `<script>fetch('/api/accounts',{method:'POST',headers:{'content-type':'application/json'},body:'{}'})</script>`;

describe('tracking tags from templates', () => {
  beforeEach(() => start());

  it('writes the tags’ script, the conversion events and a CSP naming exactly their hosts', async () => {
    const marketer = await shopAccount(t, 'marketer1', 'marketer');
    const res = await marketer.put(url(), { trackingTags: TAGS, ...NO_SCRIPTS });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ trackingTags: [{ ...TAGS[0], conversionLabel: '' }, { ...TAGS[1], conversionLabel: '' }], freeScriptsEnabled: false });

    const html = (await page()).body;
    const csp = cspOf(await page());
    expect(html).toContain("fbq('init',\"123456789012345\")");
    expect(html).toContain('https://www.googletagmanager.com/gtag/js?id=G-AB12CD34EF');
    expect(html).toContain("fbq('track','Lead')");
    expect(html).toContain('gtag(\'event\',\'generate_lead\'');
    expect(html).toContain('https://www.facebook.com/tr?id=123456789012345&amp;ev=PageView&amp;noscript=1');
    // Our own two scripts, by hash; the tags' hosts by name; nothing else may run.
    const scriptSrc = directive(csp, 'script-src');
    expect(scriptSrc.match(/'sha256-/g)).toHaveLength(2);
    expect(scriptSrc).toContain('https://connect.facebook.net');
    expect(scriptSrc).toContain('https://www.googletagmanager.com');
    expect(scriptSrc).not.toMatch(/nonce|strict-dynamic|https:(?!\/\/)|unsafe/);
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://www.facebook.com https://connect.facebook.net https://*.google-analytics.com https://*.analytics.google.com https://www.googletagmanager.com");
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('checks each ID by its kind and refuses duplicates, with the message on the field', async () => {
    const res = await t.admin.put(url(), {
      trackingTags: [
        { kind: 'meta-pixel', id: 'abc' },
        { kind: 'tiktok-pixel', id: 'C4ABCDEFGHIJ12345678' },
        { kind: 'tiktok-pixel', id: 'C4ABCDEFGHIJ12345678' },
        { kind: 'google-tag', id: 'G-AB12CD34EF', conversionLabel: 'abcd1234' },
        { kind: 'naver', id: "s_1a2b');alert(1);//" },
      ],
      ...NO_SCRIPTS,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      'trackingTags.0.id': 'Meta 픽셀 ID는 15~16자리 숫자입니다.',
      'trackingTags.2.id': '같은 태그가 이미 있습니다.',
      'trackingTags.3.conversionLabel': '전환 라벨은 Google Ads 태그(AW-)에만 씁니다.',
      'trackingTags.4.id': expect.stringContaining('네이버 공통 인증키'),
    });
  });

  it('sends a Google Ads conversion with its label, and names the Ads hosts', async () => {
    await t.admin.put(url(), { trackingTags: [{ kind: 'google-tag', id: 'AW-123456789', conversionLabel: 'AbC-123_x' }], ...NO_SCRIPTS });
    const res = await page();
    expect(res.body).toContain('send_to:"AW-123456789/AbC-123_x"');
    expect(directive(cspOf(res), 'script-src')).toContain('https://www.googleadservices.com');
    expect(directive(cspOf(res), 'frame-src')).toContain('https://td.doubleclick.net');
  });

  it('fires the conversions on the thank-you page of a form posted without JavaScript', async () => {
    await t.admin.put(url(), { trackingTags: TAGS, ...NO_SCRIPTS });
    const res = await submit(t, leadBody(t, landingId, { privacyConsent: '1' }), { form: true });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("addEventListener('load',function(){lrcv()})");
    expect(res.body).toContain('ev=Lead&amp;noscript=1');
    expect(directive(cspOf(res), 'script-src')).toMatch(/^script-src 'sha256-[^']+' https:\/\/connect\.facebook\.net https:\/\/www\.googletagmanager\.com$/);
  });

  it('records every change with what it was before and after', async () => {
    await t.admin.put(url(), { trackingTags: [TAGS[0]], ...NO_SCRIPTS });
    await t.admin.put(url(), { trackingTags: TAGS, ...NO_SCRIPTS });
    const rows = await t.app.db.selectFrom('audit_events').select('detail').where('action', '=', 'landing-scripts-update').orderBy('id').execute();
    const last = JSON.parse(rows.at(-1)!.detail!);
    expect(last.before.trackingTags).toEqual([{ ...TAGS[0], conversionLabel: '' }]);
    expect(last.after.trackingTags).toHaveLength(2);
  });

  it('lets only accounts with write on the screen change tags', async () => {
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const put = await owner.put(url(), { trackingTags: TAGS, ...NO_SCRIPTS });
    expect(put.statusCode).toBe(403);
    expect((await owner.get(url())).statusCode).toBe(403);
    // Nor can landing-status write slip tags or scripts in through the landing update.
    const marketer = await shopAccount(t, 'marketer2', 'marketer');
    const landing = (await marketer.get(`/api/shops/${t.shopId}/landings/${landingId}`)).json();
    await marketer.put(`/api/shops/${t.shopId}/landings/${landingId}`, { ...landing, trackingTags: TAGS, headScript: ATTACK });
    expect((await t.admin.get(url())).json()).toMatchObject({ trackingTags: [], ...NO_SCRIPTS });
  });
});

describe('free-form scripts on the back office’s origin', () => {
  beforeEach(() => start());

  it('are refused with the reason and the way to enable them', async () => {
    const marketer = await shopAccount(t, 'marketer1', 'marketer');
    const res = await marketer.put(url(), { trackingTags: [], headScript: ATTACK, bodyScript: '', conversionScript: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('PUBLIC_ORIGIN');
    expect(Object.keys(res.json().error.fields)).toEqual(['headScript']);
    expect((await page()).body).not.toContain('/api/accounts');
  });

  it('stop being served when stored earlier, may stay stored unchanged, and may be cleared', async () => {
    await t.app.db.updateTable('landings').set({ head_script: ATTACK, version: 99 }).where('id', '=', landingId).execute();
    await t.app.links.landingsChanged([landingId]);
    const served = await page();
    expect(served.body).not.toContain('/api/accounts');
    expect(served.body.match(/<script/g)).toHaveLength(1);
    expect(cspOf(served)).not.toContain('nonce');

    const stored = (await t.admin.get(url())).json();
    expect(stored).toMatchObject({ headScript: ATTACK, freeScriptsEnabled: false });
    // Saving tags beside an unchanged stored script is fine; clearing it is too.
    expect((await t.admin.put(url(), { trackingTags: TAGS, headScript: ATTACK, bodyScript: '', conversionScript: '' })).statusCode).toBe(200);
    expect((await t.admin.put(url(), { trackingTags: TAGS, ...NO_SCRIPTS })).json().headScript).toBe('');
  });
});

describe('with public pages on an origin of their own (PUBLIC_ORIGIN)', () => {
  beforeEach(() => start({ publicOrigin: 'https://lp.example.com' }));

  it('serves free-form scripts there, under a nonce', async () => {
    const res = await t.admin.put(url(), { trackingTags: [], headScript: '<script>window.x=1</script>', bodyScript: '', conversionScript: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().freeScriptsEnabled).toBe(true);
    const served = await page('lp.example.com');
    expect(served.statusCode).toBe(200);
    const nonce = /'nonce-([\w-]+)'/.exec(cspOf(served))![1];
    expect(served.body).toContain(`<script nonce="${nonce}">window.x=1</script>`);
  });

  it('sends landing visitors on the back office’s host to the public origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/view/smile/implant?utm_source=meta', headers: { host: 'localhost' } });
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe('https://lp.example.com/view/smile/implant?utm_source=meta');
  });

  it('answers nothing of the back office on the public host', async () => {
    const admin = await t.login();
    const onPublic = (method: string, path: string) =>
      t.app.inject({ method: method as 'GET', url: path, headers: { host: 'lp.example.com', cookie: admin.cookie, origin: 'https://lp.example.com' } });
    expect((await onPublic('GET', '/api/auth/me')).statusCode).toBe(404);
    expect((await onPublic('POST', '/api/accounts')).statusCode).toBe(404);
    expect((await onPublic('GET', '/bclog')).statusCode).toBe(404);
    expect((await onPublic('GET', '/api/health')).statusCode).toBe(200);
    const lead = await t.app.inject({
      method: 'POST', url: '/api/public/leads', payload: leadBody(t, landingId), headers: { host: 'lp.example.com', 'content-type': 'application/json' },
    });
    expect(lead.statusCode).toBe(201);
  });

  it('refuses back-office requests sent from the public origin, even with a session', async () => {
    const admin = await t.login();
    const res = await admin.request('POST', '/api/accounts', { loginId: 'intruder', password: ADMIN_PASSWORD, name: 'x', accountTypeId: 1 }, { origin: 'https://lp.example.com' });
    expect(res.statusCode).toBe(403);
    expect((await t.admin.get('/api/accounts?q=intruder')).json().total).toBe(0);
  });
});
