import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countRows, formToken, landingInput, landingTestApp, leadBody, openLanding, publishPolicy, submit, type LandingTestApp } from '../../test-landings.ts';
import { INTAKE_BODY_LIMIT } from './intake.routes.ts';

let t: LandingTestApp;
let landingId: number;

const leads = () => t.app.db.selectFrom('leads').selectAll().orderBy('id').execute();

// Every case runs on the test dialect's database with batches committed on the event loop and,
// on SQLite, on a database file whose batches the writer thread commits (as `npm start` runs).
const setups = [
  { name: 'batches on the event loop', onDisk: false },
  ...(process.env.LR_TEST_DIALECT === 'postgres' ? [] : [{ name: 'SQLite file, batches on the writer thread', onDisk: true }]),
];

describe.each(setups)('intake ($name)', ({ onDisk }) => {
  beforeEach(async () => {
    t = await landingTestApp({}, { onDisk });
    landingId = await openLanding(t, { marketingConsentText: '이벤트·혜택 안내를 문자로 받겠습니다.' });
  });
  afterEach(async () => {
    await t.close();
  });

  it('records a marketing consent only where the form shows its box: a crafted post cannot add one', async () => {
    const plain = await openLanding(t, { landingCode: 'no-marketing' });
    expect((await submit(t, leadBody(t, plain, { landingCode: 'no-marketing', phone: '010-5555-0101', marketingConsent: true }))).statusCode).toBe(201);
    expect((await submit(t, leadBody(t, landingId, { phone: '010-5555-0102', marketingConsent: true }))).statusCode).toBe(201);
    const rows = await t.app.db.selectFrom('leads').select(['landing_id', 'marketing_consent']).orderBy('id').execute();
    expect(rows).toEqual([{ landing_id: plain, marketing_consent: 0 }, { landing_id: landingId, marketing_consent: 1 }]);
  });

  it('stores a JSON submission with everything it carries and answers 201 after the commit', async () => {
    const res = await submit(t, leadBody(t, landingId, {
      phone: '+82 10-9876-5432', marketingConsent: true, time: '오후', extra: 'ignored',
      utm_source: 'meta', utm_medium: 'cpc', utm_campaign: 'nov-implant', utm_content: 'video-a', utm_term: '임플란트', referrer: 'https://m.facebook.com/',
    }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ ok: true });
    const [lead] = await leads();
    expect(lead).toMatchObject({
      shop_id: t.shopId, landing_id: landingId, source: 'landing', name: '홍길동', phone: '01098765432', privacy_consent: 1, marketing_consent: 1,
      utm_source: 'meta', utm_medium: 'cpc', utm_campaign: 'nov-implant', utm_content: 'video-a', utm_term: '임플란트',
      referrer: 'https://m.facebook.com/', ip: '203.0.113.7', user_agent: 'Mozilla/5.0 (iPhone) test', cs_status: '미처리', duplicate_of: null,
      created_at: t.clock.current.toISOString(),
    });
    expect(JSON.parse(lead!.answers)).toEqual({ area: '서울', time: '오후' });
    expect(lead!.privacy_policy_id).toBeTypeOf('number');
    const events = await t.app.db.selectFrom('lead_events').selectAll().execute();
    expect(events).toEqual([expect.objectContaining({ lead_id: lead!.id, action: 'created', account_id: null, ip: '203.0.113.7' })]);
  });

  it('answers a plain form post with an HTML thank-you, or a 303 to the thank-you URL', async () => {
    const res = await submit(t, leadBody(t, landingId, { privacyConsent: '1' }), { form: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('신청이 접수되었습니다');
    expect(res.body).toContain('/view/smile/implant');

    await t.admin.put(`/api/shops/${t.shopId}/landings/${landingId}`, { ...(await landingOf()), thankYouUrl: 'https://smile.example/thanks' });
    const redirected = await submit(t, leadBody(t, landingId, { phone: '01011112222', privacyConsent: 'on' }), { form: true });
    expect(redirected.statusCode).toBe(303);
    expect(redirected.headers.location).toBe('https://smile.example/thanks');
    expect(await countRows(t, 'leads')).toBe(2);
  });

  it('takes UTM from the landing URL in Referer when a form post without JavaScript carries none', async () => {
    const referer = 'http://localhost/view/smile/implant?utm_source=naver&utm_medium=cpc&utm_campaign=winter';
    await submit(t, leadBody(t, landingId, { privacyConsent: '1' }), { form: true, headers: { referer } });
    // Values in the body win; a foreign referrer is never mined.
    await submit(t, leadBody(t, landingId, { phone: '01022223333', privacyConsent: '1', utm_source: 'kakao' }), { form: true, headers: { referer } });
    await submit(t, leadBody(t, landingId, { phone: '01044445555', privacyConsent: '1' }), { form: true, headers: { referer: 'https://evil.example/view/x?utm_source=spoof' } });
    const rows = await leads();
    expect(rows.map((r) => [r.utm_source, r.utm_medium, r.utm_campaign])).toEqual([
      ['naver', 'cpc', 'winter'],
      ['kakao', null, null],
      [null, null, null],
    ]);
  });

  it('takes the lead’s medium from a utm_source naming a media type, else from the landing', async () => {
    const code = async (name: string, c: string) => (await t.admin.post('/api/codes/media-type', { name, code: c })).json().id as number;
    const meta = await code('메타', 'meta');
    const naver = await code('네이버', 'naver');
    const landing = (await t.admin.get(`/api/shops/${t.shopId}/landings/${landingId}`)).json();
    expect((await t.admin.request('PUT', `/api/shops/${t.shopId}/landings/${landingId}`, { ...landingInput(), mediaTypeId: meta, landingCode: landing.landingCode })).statusCode).toBe(200);
    await submit(t, leadBody(t, landingId, { phone: '01011110001', utm_source: 'Naver' }));
    await submit(t, leadBody(t, landingId, { phone: '01011110002', utm_source: 'newsletter' }));
    await submit(t, leadBody(t, landingId, { phone: '01011110003' }));
    expect((await leads()).map((r) => r.media_type_id)).toEqual([naver, meta, meta]);
  });

  it('refuses bad submissions with the right status and a Korean message, storing nothing', async () => {
    const other = await openLanding(t, { landingCode: 'whitening' });
    const closed = await openLanding(t, { landingCode: 'closed' });
    await t.admin.post(`/api/shops/${t.shopId}/landings/${closed}/close`);
    await t.admin.post(`/api/shops/${t.shopId}/landings`, landingInput({ landingCode: 'draft' }));
    const ok = leadBody(t, landingId);
    const cases: Array<[string, number, Record<string, unknown> | string, string?]> = [
      ['malformed JSON', 400, '{"shopCode":'],
      ['no landing named', 400, { name: '홍길동', phone: '01012345678' }],
      ['unknown landing', 404, { ...ok, landingCode: 'nope' }],
      ['draft landing', 404, { ...ok, landingCode: 'draft' }],
      ['closed landing', 410, { ...ok, landingCode: 'closed', _t: formToken(t, closed) }],
      ['bad phone', 422, { ...ok, phone: '12345' }, 'phone'],
      ['no name', 422, { ...ok, name: '  ' }, 'name'],
      ['no consent', 422, { ...ok, privacyConsent: false }, 'privacyConsent'],
      ['required field missing', 422, { ...ok, area: '' }, 'area'],
      ['option not offered', 422, { ...ok, area: '부산' }, 'area'],
      ['honeypot filled', 400, { ...ok, website: 'http://spam.example' }],
      ['no token', 400, { ...ok, _t: undefined }],
      ['forged token', 400, { ...ok, _t: 'abc.def' }],
      ["another landing's token", 400, { ...ok, _t: formToken(t, other) }],
      ['filled too fast', 400, { ...ok, _t: formToken(t, landingId, 500) }],
    ];
    for (const [label, status, body, field] of cases) {
      const res =
        typeof body === 'string'
          ? await t.app.inject({ method: 'POST', url: '/api/public/leads', payload: body, headers: { 'content-type': 'application/json' } })
          : await submit(t, body);
      expect(res.statusCode, label).toBe(status);
      const error = res.json().error;
      expect(error.message, label).toMatch(/[가-힣]/);
      if (field) expect(error.fields, label).toHaveProperty(field);
    }
    const big = await submit(t, { ...ok, name: 'x'.repeat(INTAKE_BODY_LIMIT) });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toMatch(/[가-힣]/);
    expect(await countRows(t, 'leads')).toBe(0);
    expect(await countRows(t, 'lead_events')).toBe(0);
    // Bot traps are logged, not silently dropped.
    const blocked = await t.app.db.selectFrom('blocked_submissions').select('reason').orderBy('id').execute();
    expect(blocked.map((b) => b.reason)).toEqual(['honeypot', 'too-fast']);
  });

  it('drops control characters from every value alike on both engines, refusing a field left empty', async () => {
    const res = await submit(t, leadBody(t, landingId, {
      name: '홍\u0000길동', utm_source: 'meta\u0000', utm_campaign: '\u0000', time: '오\u0000후', referrer: 'https://m.facebook.com/\u0007',
    }));
    expect(res.statusCode).toBe(201);
    const [lead] = await leads();
    expect(lead).toMatchObject({ name: '홍길동', utm_source: 'meta', utm_campaign: null, referrer: 'https://m.facebook.com/' });
    expect(JSON.parse(lead!.answers)).toEqual({ area: '서울', time: '오후' });

    const empty = await submit(t, leadBody(t, landingId, { phone: '01055556666', name: '\u0000\u0000' }));
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.fields).toEqual({ name: '이름을 입력해 주세요.' });
    // A bot trap keeps what it caught, minus the control characters.
    expect((await submit(t, leadBody(t, landingId, { name: '봇\u0000', website: 'x' }))).statusCode).toBe(400);
    expect((await t.app.db.selectFrom('blocked_submissions').select('name').executeTakeFirstOrThrow()).name).toBe('봇');
    expect(await countRows(t, 'leads')).toBe(1);
  });

  it('accepts a form token for six hours, then asks the visitor to reload the page', async () => {
    const hour = 3_600_000;
    expect((await submit(t, leadBody(t, landingId, { _t: formToken(t, landingId, 6 * hour - 60_000) }))).statusCode).toBe(201);
    const old = formToken(t, landingId, 6 * hour + 60_000);
    const res = await submit(t, leadBody(t, landingId, { phone: '01022223333', _t: old }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'TOKEN_EXPIRED', message: expect.stringContaining('새로고침') });
    // The verified-token cache does not keep an old token alive either.
    expect((await submit(t, leadBody(t, landingId, { phone: '01022224444', _t: old }))).statusCode).toBe(400);
    expect(await countRows(t, 'leads')).toBe(1);
  });

  it('takes sensitive answers only with their own consent, and records that consent', async () => {
    await t.admin.put(`/api/shops/${t.shopId}/landings/${landingId}`, {
      ...(await landingOf()),
      formFields: [{ key: 'pain', label: '통증 부위', type: 'checkbox', options: ['잇몸', '어금니'], required: false, sensitive: true }],
    });
    const page = (await t.app.inject({ method: 'GET', url: '/view/smile/implant' })).body;
    expect(page).toContain('name="sensitiveConsent"');
    expect(page.replace(/<[^>]+>/g, '')).toContain('[민감정보를 입력한 경우 필수] 민감정보 처리 동의');

    const without = await submit(t, leadBody(t, landingId, { pain: ['잇몸'] }));
    expect(without.statusCode).toBe(422);
    expect(without.json().error.fields).toEqual({ sensitiveConsent: '민감정보 처리에 따로 동의해 주세요.' });
    expect((await submit(t, leadBody(t, landingId, { pain: ['잇몸'], sensitiveConsent: true }))).statusCode).toBe(201);
    // Leaving the sensitive field empty needs no such consent.
    expect((await submit(t, leadBody(t, landingId, { phone: '01099990000' }))).statusCode).toBe(201);
    const rows = await leads();
    expect(rows.map((r) => [JSON.parse(r.answers).pain ?? null, r.sensitive_consent])).toEqual([[['잇몸'], 1], [null, 0]]);
  });

  it('names a required extra field with the right particle', async () => {
    await t.admin.put(`/api/shops/${t.shopId}/landings/${landingId}`, {
      ...(await landingOf()),
      formFields: [
        { key: 'pain', label: '통증 부위', type: 'short-text', options: [], required: true },
        { key: 'visit', label: '방문 희망일', type: 'short-text', options: [], required: true },
      ],
    });
    const res = await submit(t, leadBody(t, landingId, { area: undefined }));
    expect(res.json().error.fields).toEqual({ pain: '통증 부위를 입력해 주세요.', visit: '방문 희망일을 입력해 주세요.' });
  });

  it('refuses letters in the phone number rather than dropping them', async () => {
    const res = await submit(t, leadBody(t, landingId, { phone: '010-1234-567a8' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.fields.phone).toContain('올바른 연락처');
  });

  it('shows a refused form post as an HTML page with the reasons and a way back', async () => {
    const res = await submit(t, { ...leadBody(t, landingId), phone: '1', privacyConsent: '' }, { form: true });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('올바른 연락처를 입력해 주세요');
    expect(res.body).toContain('개인정보 수집·이용에 동의해 주세요');
    expect(res.body).toContain('href="/view/smile/implant"');
  });

  it('flags the same phone in the same shop within the window as a duplicate, up to its edge', async () => {
    await submit(t, leadBody(t, landingId, { phone: '01011110000' }));
    await submit(t, leadBody(t, landingId, { phone: '01022220000' }));
    t.clock.advanceMinutes(30 * 24 * 60 - 1); // one minute inside the 30-day window
    await submit(t, leadBody(t, landingId, { phone: '010-1111-0000' }));
    t.clock.advanceMinutes(2); // one minute past the window of the second number
    await submit(t, leadBody(t, landingId, { phone: '01022220000' }));
    const [a, b, c, d] = await leads();
    expect(c).toMatchObject({ phone: '01011110000', duplicate_of: a!.id, cs_status: '중복' });
    expect(d).toMatchObject({ phone: '01022220000', duplicate_of: null, cs_status: '미처리' });
    expect(b!.duplicate_of).toBeNull();
    expect((await t.app.db.selectFrom('lead_events').select('after').where('lead_id', '=', c!.id).executeTakeFirstOrThrow()).after).toContain(`"duplicateOf":${a!.id}`);
  });

  it('decides duplicates among simultaneous submissions in one group commit', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => submit(t, leadBody(t, landingId, { phone: `0101234${String(i % 10).padStart(4, '0')}` }))),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(40).fill(201));
    const rows = await leads();
    expect(rows).toHaveLength(40);
    expect(rows.filter((r) => r.duplicate_of === null)).toHaveLength(10);
    for (const r of rows.filter((x) => x.duplicate_of !== null)) expect(rows.find((o) => o.id === r.duplicate_of)!.phone).toBe(r.phone);
  });

  it('refuses submissions matching each kind of deny rule, counting hits and logging them', async () => {
    const rules = [
      { kind: 'ip', value: '198.51.100.9' },
      { kind: 'cidr', value: '192.0.2.0/24' },
      { kind: 'phone', value: '010-6666-7777' },
      { kind: 'keyword', value: '테스트광고' },
    ];
    for (const r of rules) expect((await t.admin.post('/api/deny-rules', { ...r, scope: 'intake' })).statusCode).toBe(201);
    const attempts = [
      submit(t, leadBody(t, landingId), { ip: '198.51.100.9' }),
      submit(t, leadBody(t, landingId), { ip: '192.0.2.77' }),
      submit(t, leadBody(t, landingId, { phone: '01066667777' })),
      submit(t, leadBody(t, landingId, { name: '테스트광고 봇' })),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('접수가 제한되었습니다. 다른 방법으로 문의해 주세요.');
    }
    expect(await countRows(t, 'leads')).toBe(0);
    const stored = await t.app.db.selectFrom('deny_rules').select(['kind', 'hits']).orderBy('id').execute();
    expect(stored.map((r) => r.hits)).toEqual([1, 1, 1, 1]);
    const blocked = await t.app.db.selectFrom('blocked_submissions').selectAll().orderBy('id').execute();
    expect(blocked).toHaveLength(4);
    expect(blocked.every((b) => b.reason === 'deny-rule' && b.deny_rule_id && b.landing_id === landingId)).toBe(true);
    // A clean submission still passes.
    expect((await submit(t, leadBody(t, landingId))).statusCode).toBe(201);
  });

  it('stores the privacy policy version in force; a newly published version applies to new submissions', async () => {
    await submit(t, leadBody(t, landingId, { phone: '01011112222' }));
    const v2 = await publishPolicy(t.admin, t.shopId, { retentionDays: 365 });
    await submit(t, leadBody(t, landingId, { phone: '01033334444' }));
    const [first, second] = await leads();
    expect(second!.privacy_policy_id).toBe(v2);
    expect(first!.privacy_policy_id).not.toBe(v2);
  });

  it('limits submissions per IP and landing per minute', async () => {
    await t.close();
    t = await landingTestApp({ intakeRateLimit: 2 }, { onDisk });
    landingId = await openLanding(t);
    const other = await openLanding(t, { landingCode: 'other' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await submit(t, leadBody(t, landingId, { phone: `0101000000${i}` }))).statusCode);
    expect(statuses).toEqual([201, 201, 429]);
    const limited = await submit(t, leadBody(t, landingId, { phone: '01010000009' }));
    expect(limited.json().error.message).toContain('잠시 후 다시 시도해 주세요');
    expect((await submit(t, leadBody(t, landingId), { ip: '203.0.113.8' })).statusCode).toBe(201);
    expect((await submit(t, { ...leadBody(t, other), landingCode: 'other' })).statusCode).toBe(201);
    t.clock.advanceMinutes(1);
    expect((await submit(t, leadBody(t, landingId))).statusCode).toBe(201);
    expect(await countRows(t, 'leads')).toBe(5);
  });

  it('counts visit beacons per landing, Seoul day and source', async () => {
    const beacon = (source: string) =>
      t.app.inject({
        method: 'POST', url: '/api/public/visits', payload: `shopCode=smile&landingCode=implant&source=${source}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    for (const s of ['meta', 'meta', 'naver.com', '']) expect((await beacon(s)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'POST', url: '/api/public/visits', payload: 'shopCode=smile&landingCode=nope' })).statusCode).toBe(204);
    await t.app.links.flushVisits();
    const rows = await t.app.db.selectFrom('visits').selectAll().orderBy('source').execute();
    expect(rows).toEqual([
      { landing_id: landingId, day: '2026-11-21', source: 'direct', count: 1 },
      { landing_id: landingId, day: '2026-11-21', source: 'meta', count: 2 },
      { landing_id: landingId, day: '2026-11-21', source: 'naver.com', count: 1 },
    ]);
  });

  it('does not count crawlers, nor more than ten visits a minute from one IP to one landing', async () => {
    const beacon = (ip: string, userAgent = 'Mozilla/5.0 (iPhone) test') =>
      t.app.inject({
        method: 'POST', url: '/api/public/visits', payload: 'shopCode=smile&landingCode=implant&source=meta', remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
      });
    for (let i = 0; i < 25; i++) expect((await beacon('198.51.100.20')).statusCode).toBe(204);
    await beacon('198.51.100.21');
    await beacon('198.51.100.22', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    await beacon('198.51.100.23', 'Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd) spider');
    t.clock.advanceMinutes(1);
    await beacon('198.51.100.20');
    await t.app.links.flushVisits();
    const rows = await t.app.db.selectFrom('visits').select(['source', 'count']).execute();
    expect(rows).toEqual([{ source: 'meta', count: 10 + 1 + 1 }]);
  });
});

async function landingOf() {
  const l = (await t.admin.get(`/api/shops/${t.shopId}/landings/${landingId}`)).json();
  const { landingCode, title, openAt, closeAt, mediaTypeId, eventTypeId, content, formFields, privacyConsentText, marketingConsentText, thankYouMessage, thankYouUrl, duplicateWindowDays, privacyPolicyVersionId } = l;
  return { landingCode, title, openAt, closeAt, mediaTypeId, eventTypeId, content, formFields, privacyConsentText, marketingConsentText, thankYouMessage, thankYouUrl, duplicateWindowDays, privacyPolicyVersionId };
}
