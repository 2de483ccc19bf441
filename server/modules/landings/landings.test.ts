import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prerenderLandings } from './public/prerender.ts';
import { pageRenderer } from './public/renderer.ts';
import { build } from '../../app.ts';
import { landingSecret } from '../../lib/render-stamp.ts';
import { landingInput, landingTestApp, leadBody, openLanding, publishPolicy, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';

let t: LandingTestApp;
beforeEach(async () => {
  t = await landingTestApp();
});
afterEach(async () => {
  await t.close();
});

const view = (url = '/view/smile/implant', headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/** The landing page as a second process over the same database and data directory serves it first. */
async function afterRestart(url = '/view/smile/implant'): Promise<string> {
  const other = await build({ config: t.app.config, database: { db: t.app.db, dialect: t.app.dialect, close: async () => {} }, clock: t.clock.now });
  try {
    return (await other.inject({ method: 'GET', url })).body;
  } finally {
    await other.close();
  }
}
const base = () => `/api/shops/${t.shopId}/landings`;

describe('landing editor API', () => {
  it('creates a draft, keeps landing codes unique in the shop, and validates content', async () => {
    const res = await t.admin.post(base(), landingInput());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      landingCode: 'implant', status: 'draft', state: 'draft', duplicateWindowDays: 30, url: '/view/smile/implant', hasScripts: false,
      content: { headline: '임플란트 무료 상담', colors: { primary: '#1263dc' }, hero: null },
      formFields: [{ key: 'area', type: 'select', required: true }, { key: 'time', type: 'radio', required: false }],
    });
    const dup = await t.admin.post(base(), landingInput());
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.fields).toHaveProperty('landingCode');

    const bad = await t.admin.post(base(), landingInput({
      landingCode: 'bad',
      thankYouUrl: 'javascript:alert(1)',
      content: { headline: 'x', colors: { primary: 'red;}</style><script>', background: '#ffffff', text: '#000000' }, hero: { url: 'data:image/png;base64,AAA', width: 10, height: 10 } },
      formFields: [{ key: 'name', label: '이름', type: 'short-text' }, { key: 'pick', label: '선택', type: 'radio', options: [] }],
    }));
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)).toEqual(expect.arrayContaining([
      'thankYouUrl', 'content.colors.primary', 'content.hero.url', 'formFields.0.key', 'formFields.1.options',
    ]));
  });

  it('refuses to publish without a published privacy policy, and keeps a published landing code', async () => {
    const other = await t.admin.post('/api/shops', { shopCode: 'nopolicy', name: '정책없는업체' });
    const created = await t.admin.post(`/api/shops/${other.json().id}/landings`, landingInput());
    const publish = await t.admin.post(`/api/shops/${other.json().id}/landings/${created.json().id}/publish`);
    expect(publish.statusCode).toBe(409);
    expect(publish.json().error.message).toContain('개인정보 처리방침');

    const id = await openLanding(t);
    const renamed = await t.admin.put(`${base()}/${id}`, landingInput({ landingCode: 'renamed' }));
    expect(renamed.statusCode).toBe(409);
  });

  it('counts a landing as use of its media and event types, so they cannot be deleted', async () => {
    const media = (await t.admin.post('/api/codes/media-type', { name: '메타', code: 'meta' })).json().id;
    const event = (await t.admin.post('/api/codes/event-type', { name: '상담 신청', code: 'consult' })).json().id;
    const created = await t.admin.post(base(), landingInput({ mediaTypeId: media, eventTypeId: event }));
    expect(created.json()).toMatchObject({ mediaTypeId: media, eventTypeId: event });
    expect((await t.admin.del(`/api/codes/media-type/${media}`)).statusCode).toBe(409);
    expect((await t.admin.del(`/api/codes/event-type/${event}`)).statusCode).toBe(409);
    const wrongKind = await t.admin.post(base(), landingInput({ landingCode: 'other', mediaTypeId: event }));
    expect(wrongKind.json().error.fields).toHaveProperty('mediaTypeId');
  });

  it('ignores script fields on the landing-status update', async () => {
    const id = await openLanding(t);
    const res = await t.admin.put(`${base()}/${id}`, { ...landingInput(), headScript: '<script>alert(1)</script>', bodyScript: '<script>1</script>' });
    expect(res.statusCode).toBe(200);
    expect(res.json().hasScripts).toBe(false);
    const row = await t.app.db.selectFrom('landings').select(['head_script', 'body_script']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ head_script: '', body_script: '' });
  });

  it('lists landings with visits, submissions and conversion for a period', async () => {
    const id = await openLanding(t);
    await t.admin.post(base(), landingInput({ landingCode: 'draft-one', title: '초안' }));
    for (let i = 0; i < 4; i++) {
      await t.app.inject({ method: 'POST', url: '/api/public/visits', payload: { shopCode: 'smile', landingCode: 'implant', source: 'meta' } });
    }
    await submit(t, leadBody(t, id, { phone: '01011112222' }));
    t.clock.advanceMinutes(24 * 60);
    await submit(t, leadBody(t, id, { phone: '01033334444' }));
    t.admin = await t.login();
    const res = await t.admin.get(`${base()}?from=2026-11-21&to=2026-11-22&sort=title`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(body.period).toEqual({ from: '2026-11-21', to: '2026-11-22' });
    expect(body.items.find((l: { id: number }) => l.id === id)).toMatchObject({ state: 'open', visits: 4, submissions: 2, conversionRate: 50, url: '/view/smile/implant' });
    const firstDay = (await t.admin.get(`${base()}?from=2026-11-22&to=2026-11-22&status=open`)).json();
    expect(firstDay.items).toEqual([expect.objectContaining({ visits: 0, submissions: 1, conversionRate: null })]);
    expect((await t.admin.get(`${base()}?from=2026-11-23&to=2026-11-22`)).statusCode).toBe(400);
  });

  it('uploads images checked by their bytes, stores their size and serves them', async () => {
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#0e7c86' } }).png().toBuffer();
    const upload = (data: Buffer, filename: string, type: string) => {
      const boundary = '----leadroom';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
        data, Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.admin.request('POST', `${base()}/uploads`, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    };
    const res = await upload(png, 'hero.png', 'image/png');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ mime: 'image/png', width: 640, height: 480, size: png.length, url: expect.stringMatching(/^\/uploads\/[\w-]+\.png$/) });
    const served = await t.app.inject({ method: 'GET', url: res.json().url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.equals(png)).toBe(true);

    const svg = await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'x.png', 'image/png');
    expect(svg.statusCode).toBe(415);
    expect(svg.json().error.message).toContain('이미지만');
    const huge = await upload(Buffer.concat([png, Buffer.alloc(3 * 1024 * 1024)]), 'big.png', 'image/png');
    expect(huge.statusCode).toBe(413);
  });

  it('previews saved and unsaved landings without scripts or a working form', async () => {
    const id = (await t.admin.post(base(), landingInput())).json().id;
    expect((await t.admin.put(`/api/shops/${t.shopId}/landings/${id}/scripts`, { trackingTags: [{ kind: 'meta-pixel', id: '123456789012345' }] })).statusCode).toBe(200);
    const saved = await t.admin.get(`${base()}/${id}/preview`);
    expect(saved.statusCode).toBe(200);
    expect(saved.headers['content-type']).toContain('text/html');
    expect(saved.headers['content-security-policy']).toContain("default-src 'none'");
    expect(saved.body).toContain('미리보기 화면입니다');
    expect(saved.body).toContain('임플란트 무료 상담');
    expect(saved.body).not.toMatch(/<script/i);
    expect(saved.body).not.toContain('action="/api/public/leads"');
    const unsaved = await t.admin.post(`${base()}/preview`, landingInput({ content: { headline: '저장 전 문구' } }));
    expect(unsaved.body).toContain('저장 전 문구');
  });

  it("never previews another shop's privacy policy: preview applies the rules saving does", async () => {
    const other = await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' });
    const otherPolicy = await publishPolicy(t.admin, other.json().id, { items: '다른 업체만의 수집 항목' });
    const marketer = await shopAccount(t, 'marketer1', 'marketer');
    const input = landingInput({ privacyPolicyVersionId: otherPolicy });
    const preview = await marketer.post(`${base()}/preview`, input);
    expect(preview.statusCode).toBe(400);
    expect(preview.json().error.fields).toEqual({ privacyPolicyVersionId: '게시된 개인정보 처리방침 버전을 선택하세요.' });
    expect(preview.body).not.toContain('다른 업체만의');
    const save = await marketer.post(base(), input);
    expect(save.statusCode).toBe(400);
    expect(save.json().error.fields).toEqual(preview.json().error.fields);
  });
});

describe('public landing pages', () => {
  it('serves a published landing from the cache with CDN headers, precompressed bodies and 304s', async () => {
    expect((await view()).statusCode).toBe(404);
    const id = await openLanding(t);
    const res = await view();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toMatch(/max-age=\d+, stale-while-revalidate=\d+/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'sha256-[\w+/=]+'/);
    expect(res.body).toContain('<h1>임플란트 무료 상담</h1>');
    expect(res.body).toContain('action="/api/public/leads"');
    expect(res.body).toContain('href="/view/smile/implant/privacy"');
    expect(res.body.match(/<script/g)).toHaveLength(1);
    const etag = res.headers.etag as string;
    expect((await view(undefined, { 'if-none-match': etag })).statusCode).toBe(304);
    const br = await view(undefined, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(res.body);
    const gz = await view(undefined, { 'accept-encoding': 'gzip' });
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(res.body);
    // Written atomically under the data directory.
    expect(fs.readFileSync(path.join(t.dataDir, 'pages/smile/implant/index.html'), 'utf8')).toBe(res.body);
    void id;
  });

  it('answers cached pages over real HTTP before Fastify with the same bytes and headers', async () => {
    await openLanding(t);
    const injected = await view(undefined, { 'accept-encoding': 'br' });
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${origin}/view/smile/implant?utm_source=meta`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(zlib.brotliDecompressSync(injected.rawPayload).toString());
    const security = ['strict-transport-security', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'x-frame-options', 'referrer-policy', 'x-content-type-options'];
    for (const h of ['etag', 'cache-control', 'content-security-policy', 'content-type', 'vary', ...security]) {
      expect(res.headers.get(h), h).toBe(String(injected.headers[h]));
    }
    expect((await fetch(`${origin}/view/smile/implant`, { headers: { 'if-none-match': res.headers.get('etag')! } })).status).toBe(304);
    const head = await fetch(`${origin}/view/smile/implant`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${origin}/view/smile/unknown`)).status).toBe(404);
  });

  it('renders the page anew before its form token gets old, in memory and on disk', async () => {
    await openLanding(t);
    const tokenOf = (html: string) => /name="_t" value="([^"]+)"/.exec(html)![1];
    const first = tokenOf((await view()).body);
    t.clock.advanceMinutes(2 * 60);
    expect(tokenOf((await view()).body)).toBe(first);
    t.clock.advanceMinutes(61); // past half of the six hours a token is accepted
    const second = tokenOf((await view()).body);
    expect(second).not.toBe(first);
    // After a restart the file on disk is reused only while its token is fresh.
    expect(tokenOf(await afterRestart())).toBe(second);
    t.clock.advanceMinutes(3 * 60);
    expect(tokenOf(await afterRestart())).not.toBe(second);
  });

  it('changes what it serves when a landing is saved, and answers 410 once closed', async () => {
    const id = await openLanding(t);
    const before = await view();
    await t.admin.put(`${base()}/${id}`, landingInput({ content: { headline: '12월 새 이벤트' } }));
    const after = await view();
    expect(after.body).toContain('12월 새 이벤트');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    await t.admin.post(`${base()}/${id}/close`);
    const closed = await view();
    expect(closed.statusCode).toBe(410);
    expect(closed.body).toContain('마감된 이벤트입니다');
    // The policy visitors agreed to stays readable.
    expect((await view('/view/smile/implant/privacy')).statusCode).toBe(200);
    const reopened = await t.admin.post(`${base()}/${id}/publish`);
    expect(reopened.json().state).toBe('open');
    expect((await view()).statusCode).toBe(200);
  });

  it('ends a landing at its close time and answers small Korean 404 pages for anything unknown', async () => {
    await openLanding(t, { closeAt: new Date(t.clock.current.getTime() + 60_000).toISOString() });
    expect((await view()).statusCode).toBe(200);
    t.clock.advanceMinutes(2);
    expect((await view()).statusCode).toBe(410);
    const slash = await view('/view/smile/implant/?utm_source=naver');
    expect(slash.statusCode).toBe(301);
    expect(slash.headers.location).toBe('/view/smile/implant?utm_source=naver');
    for (const url of ['/view/smile/nope', '/view/nope/implant', '/view/smile/implant/other', '/view/SMILE/implant', '/view/..%2f..%2fetc/passwd']) {
      const res = await view(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('페이지를 찾을 수 없습니다');
      expect(res.body.length, url).toBeLessThan(2000);
    }
  });

  it('names the agency as collector and the shop as recipient, with everything the form collects', async () => {
    await openLanding(t);
    const res = await view('/view/smile/implant/privacy');
    expect(res.statusCode).toBe(200);
    const text = res.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('(주)테스트애드는 「개인정보 보호법」에 따라');
    // The page's public title (its headline), never the staff's internal name for the landing.
    expect(text).toContain('개인정보 처리방침 임플란트 무료 상담 신청');
    expect(text).not.toContain('임플란트 상담 이벤트');
    expect(text).toContain('1. 개인정보를 수집하는 자 상호 (주)테스트애드 대표자 정대행 사업자등록번호 214-88-12345');
    expect(text).toContain('3. 수집 항목 이름, 연락처, 지역, 통화 가능 시간');
    expect(text).toContain('제공받는 자 제공 목적 제공 항목 보유·이용 기간 미소치과의원 상담 신청 접수 및 안내 이름, 연락처, 지역, 통화 가능 시간 제공일로부터 180일');
    expect(text).toContain('개인정보 보호책임자 윤보안 · privacy@test-ad.kr');
    expect(text).not.toContain('처리의 위탁');
    expect(res.body).not.toMatch(/<script/i);
    // The landing's consent box says the same.
    expect((await view()).body.replace(/<[^>]+>/g, '')).toContain('수집하는 자: (주)테스트애드 / 수집 항목: 이름, 연락처, 지역, 통화 가능 시간 / 보유 기간: 180일');
  });

  it('lists only what this landing collects, not the items the shop-wide policy names for its other landings', async () => {
    // One policy for the shop's every landing: it names 관심 진료 and 불편한 증상 that this form never asks.
    await publishPolicy(t.admin, t.shopId, { items: '이름, 연락처, 관심 진료, 불편한 증상, 지역' });
    await openLanding(t);
    const text = (await view('/view/smile/implant/privacy')).body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('3. 수집 항목 이름, 연락처, 지역, 통화 가능 시간 자동으로 수집되는 항목: 접속 IP 주소, 브라우저 정보, 유입 경로');
    expect(text).not.toContain('관심 진료');
    expect(text).not.toContain('불편한 증상');
    const consent = (await view()).body.replace(/<[^>]+>/g, '');
    expect(consent).toContain('수집 항목: 이름, 연락처, 지역, 통화 가능 시간 / 보유 기간');
    expect(consent).not.toContain('불편한 증상');
  });

  it('names the shop as collector and the agency as its processor when the shop collects for itself', async () => {
    await publishPolicy(t.admin, t.shopId, { collector: 'shop', thirdParties: [{ recipient: '미소치과의원', purpose: '상담', items: '이름', period: '1년' }] });
    await openLanding(t);
    const text = (await view('/view/smile/implant/privacy')).body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('미소치과의원은 「개인정보 보호법」에 따라');
    expect(text).toContain('상호 미소치과의원 대표자 김미소');
    // No odd provision of the shop's data to itself.
    expect(text).toContain('개인정보를 제3자에게 제공하지 않습니다.');
    expect(text).toContain('개인정보 처리의 위탁 수탁자 위탁 업무 (주)테스트애드');
    expect(text).toContain('개인정보 보호책임자 이보호 · privacy@smile.kr');
  });

  it('names the form fields its privacy policy does not cover, so publishing can warn', async () => {
    const input = landingInput({ formFields: [
      { key: 'area', label: '지역', type: 'select', options: ['서울'], required: true },
      { key: 'pain', label: '통증 부위', type: 'short-text', required: false, sensitive: true },
    ] });
    const created = (await t.admin.post(base(), input)).json();
    expect(created.uncoveredFields).toEqual(['지역', '통증 부위']);
    const v2 = await publishPolicy(t.admin, t.shopId, { items: '이름, 연락처, 지역, 통증 부위' });
    expect((await t.admin.get(`${base()}/${created.id}`)).json().uncoveredFields).toEqual([]);
    expect((await t.admin.get(base())).json().items[0].uncoveredFields).toEqual([]);
    void v2;
  });

  it('refuses to publish while the agency that collects is not named, and says who can fix it', async () => {
    await t.app.db.deleteFrom('operator_settings').execute();
    const id = (await t.admin.post(base(), landingInput())).json().id;
    const res = await t.admin.post(`${base()}/${id}/publish`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain('최고관리자에게 업체 관리 › 운영사 정보');
  });

  it('never turns staff-written text into executable markup', async () => {
    const attacks = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>', "javascript:alert('x')"];
    const evil = attacks.join(' ');
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>', '//evil.example/x.png', 'https://ok.example/" onerror="alert(1)']) {
      const res = await t.admin.post(base(), landingInput({ landingCode: 'url-test', thankYouUrl: url, content: { headline: 'x', hero: { url, width: 1, height: 1 } } }));
      expect(res.statusCode, url).toBe(400);
    }
    await t.admin.put(`/api/shops/${t.shopId}/base-information`, { name: `미소${evil}`.slice(0, 60), address: evil.slice(0, 200) });
    const policy = await t.admin.post(`/api/shops/${t.shopId}/privacy-policies`, {
      purpose: evil, items: evil, retentionDays: 30, thirdParties: [{ recipient: evil.slice(0, 60), purpose: evil, items: evil, period: evil.slice(0, 100) }],
      officerName: evil.slice(0, 30), officerContact: evil.slice(0, 60), body: evil,
    });
    await t.admin.post(`/api/shops/${t.shopId}/privacy-policies/${policy.json().id}/publish`);
    const id = await openLanding(t, {
      title: evil.slice(0, 60),
      content: {
        headline: evil.slice(0, 80), subheadline: evil.slice(0, 160), body: `${evil}\n\n${evil}`, bullets: attacks, ctaLabel: evil.slice(0, 20),
        hero: { url: '/uploads/abcdefgh12345678.png', width: 10, height: 10, alt: evil },
        images: [{ url: 'https://img.example/a.png', width: 10, height: 10, alt: evil }],
      },
      formFields: [
        { key: 'q1', label: evil.slice(0, 40), type: 'short-text' },
        { key: 'q2', label: 'x', type: 'checkbox', options: attacks },
        { key: 'q3', label: 'y', type: 'select', options: attacks },
      ],
      privacyConsentText: evil, marketingConsentText: evil, thankYouMessage: evil,
    });
    const pages = [
      (await view()).body,
      (await view('/view/smile/implant/privacy')).body,
      (await t.admin.get(`${base()}/${id}/preview`)).body,
      (await submit(t, leadBody(t, id, { area: undefined, q2: attacks[0] }), { form: true })).body,
      (await submit(t, leadBody(t, id, { area: undefined, name: evil.slice(0, 30), phone: evil.slice(0, 20) }), { form: true })).body,
    ];
    for (const [i, html] of pages.entries()) {
      const withoutInline = html.replace(/<script>\(function\(d\)\{[\s\S]*?<\/script>/, '');
      expect(withoutInline).not.toMatch(/<script/i);
      for (const { tag, attrs } of tagsOf(withoutInline)) {
        expect(tag).not.toMatch(/^(script|svg|iframe|object|embed)$/i);
        for (const [name, value] of attrs) {
          expect(name, tag).not.toMatch(/^on/i);
          if (/^(href|src|action|formaction)$/i.test(name)) expect(value.trim(), tag).not.toMatch(/^javascript:/i);
        }
      }
      // The staff's text is shown, escaped (the refusal page echoes nothing the visitor typed).
      if (i < 4) expect(html).toContain('&lt;script&gt;');
    }
  });
});

describe('prerender', () => {
  it('writes every open landing and its privacy page, with the images they show, and nothing else', async () => {
    await openLanding(t, { content: { headline: '정적 페이지', hero: { url: '/uploads/aaaaaaaabbbbbbbb.png', width: 640, height: 480 } } });
    await t.app.db.insertInto('uploads').values({
      key: 'aaaaaaaabbbbbbbb', shop_id: t.shopId, mime: 'image/png', width: 640, height: 480, size: 3, data: Buffer.from('png'), created_by: null, created_at: 'x',
    }).execute();
    const closed = await openLanding(t, { landingCode: 'closed' });
    await t.admin.post(`${base()}/${closed}/close`);
    await t.admin.post(base(), landingInput({ landingCode: 'draft' }));
    const outDir = path.join(t.dataDir, 'out');
    const result = await prerenderLandings({
      db: t.app.db, renderer: await pageRenderer(t.app.config.distDir), secret: landingSecret(t.dataDir), freeScripts: false, outDir, now: t.clock.now(),
    });
    expect(result).toEqual({ pages: ['/view/smile/implant', '/view/smile/implant/privacy'], uploads: 1 });
    const html = fs.readFileSync(path.join(outDir, 'view/smile/implant/index.html'), 'utf8');
    expect(html).toContain('<h1>정적 페이지</h1>');
    expect(html).toContain('<form id="f" action="/api/public/leads" method="post">');
    expect(html).toContain('<img class="hero" src="/uploads/aaaaaaaabbbbbbbb.png" alt="" width="640" height="480"');
    expect(html).toContain('<link rel="preload" as="image" href="/uploads/aaaaaaaabbbbbbbb.png"/><style>');
    expect(fs.readFileSync(path.join(outDir, 'view/smile/implant/privacy/index.html'), 'utf8')).toContain('미소치과의원');
    expect(fs.readFileSync(path.join(outDir, 'uploads/aaaaaaaabbbbbbbb.png'), 'utf8')).toBe('png');
    expect(fs.existsSync(path.join(outDir, 'view/smile/closed'))).toBe(false);
    expect(fs.existsSync(path.join(outDir, 'view/smile/draft'))).toBe(false);
  });
});

/** Every start tag with its attributes, as a browser would tokenise our (escaped) markup. */
function tagsOf(html: string): Array<{ tag: string; attrs: Array<[string, string]> }> {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => ({
    tag: m[1]!,
    attrs: [...m[2]!.matchAll(/\s([^\s=>/]+)(?:=("[^"]*"|'[^']*'|[^\s>]+))?/g)].map((a) => [a[1]!, (a[2] ?? '').replace(/^["']|["']$/g, '')] as [string, string]),
  }));
}
