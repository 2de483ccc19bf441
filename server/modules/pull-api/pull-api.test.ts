// GET /api/v1/leads: the shop's own leads in feed order, page after page from an opaque cursor;
// phones masked unless the key was granted them; deleted and purged leads never; every page that
// hands out leads in the access record; per-key rate limits; and the OpenAPI document and docs
// page generated from the same schemas — on both engines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingTestApp, leadBody, openLanding, submit, type LandingTestApp } from '../../test-landings.ts';
import { commitBatch, type PendingLead } from '../intake/intake-batch.ts';
import { assignFeedSeq, insertAccepted } from '../leads/leads.entry.ts';
import { decodeCursor, encodeCursor, INVALID_CURSOR_MESSAGE, PULL_RATE_LIMIT, pulledLead } from '../../../contracts/pull-api.ts';

interface Page {
  leads: Array<{ id: number; name: string; phone: string } & Record<string, unknown>>;
  nextCursor: string;
  hasMore: boolean;
}

/** A lead as another shop's intake commits it. */
function pending(shopId: number, phone: string, name = '김다른'): PendingLead {
  return {
    kind: 'lead', duplicateWindowDays: 0, text: name,
    lead: {
      shop_id: shopId, landing_id: null, source: 'landing', name, phone, answers: '{}', privacy_consent: 1, marketing_consent: 0,
      sensitive_consent: 0, privacy_policy_id: null, utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null,
      media_type_id: null, referrer: null, ip: '203.0.113.9', user_agent: 'test', cs_status: '미처리',
    },
  };
}

describe('the pull API', () => {
  let t: LandingTestApp;
  let landingId: number;
  let otherShopId: number;
  const phoneOf = (n: number) => `0105555${String(n).padStart(4, '0')}`;
  const visitor = async (n: number, extra: Record<string, unknown> = {}) => {
    const res = await submit(t, leadBody(t, landingId, { name: `고객${n}`, phone: phoneOf(n), ...extra }));
    expect(res.statusCode, res.body).toBeLessThan(300);
  };
  const newKey = async (fullPhone = false, shopId = t.shopId) => {
    const res = await t.admin.post(`/api/shops/${shopId}/api-keys`, { name: fullPhone ? '전체 번호 키' : '가린 번호 키', fullPhone });
    expect(res.statusCode).toBe(201);
    return res.json() as { key: string; id: number; prefix: string };
  };
  const get = (key: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/v1/leads${query}`, headers: { authorization: `Bearer ${key}` }, remoteAddress: '198.51.100.20' });
  const page = async (key: string, query = ''): Promise<Page> => {
    const res = await get(key, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const leadIds = async (shopId: number) =>
    (await t.app.db.selectFrom('leads').select('id').where('shop_id', '=', shopId).orderBy('id').execute()).map((r) => r.id);

  beforeEach(async () => {
    t = await landingTestApp();
    landingId = await openLanding(t);
    otherShopId = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' })).json().id;
  });
  afterEach(async () => {
    await t.close();
  });

  it('hands out every field of a lead, the phone in full only to a key granted it', async () => {
    const medium = await t.admin.post('/api/codes/media-type', { name: '네이버', code: 'naver' });
    expect(medium.statusCode).toBe(201);
    await visitor(1, { name: '홍길동', phone: '010-1234-5678', area: '경기', time: '오후', utm_source: 'naver', utm_medium: 'cpc', utm_campaign: 'implant_11' });
    const [id] = await leadIds(t.shopId);
    const expected = {
      id, receivedAt: '2026-11-21T01:00:00.000Z', source: 'landing', name: '홍길동',
      landing: { id: landingId, code: 'implant', title: '임플란트 상담 이벤트' },
      medium: '네이버',
      answers: [{ label: '지역', value: '경기' }, { label: '통화 가능 시간', value: '오후' }],
      utm: { source: 'naver', medium: 'cpc', campaign: 'implant_11', content: null, term: null },
      csStatus: '미처리', memo: null,
    };

    const masked = await page((await newKey(false)).key);
    expect(masked).toEqual({ leads: [{ ...expected, phone: '010-****-5678' }], nextCursor: encodeCursor(1), hasMore: false });
    const full = await page((await newKey(true)).key);
    expect(full.leads).toEqual([{ ...expected, phone: '01012345678' }]);
    // Exactly the fields the contract declares (the OpenAPI document's Lead).
    expect(Object.keys(full.leads[0]!).sort()).toEqual(Object.keys(pulledLead.shape).sort());
  });

  it('pages through the shop’s own leads in feed order, the same cursor giving the same page', async () => {
    for (let n = 1; n <= 7; n++) await visitor(n);
    await commitBatch(t.app.db, [pending(otherShopId, phoneOf(90)), pending(otherShopId, phoneOf(91))], t.clock.now());
    const mine = await leadIds(t.shopId);
    expect(mine).toHaveLength(7);
    const { key } = await newKey();
    const theirs = await newKey(false, otherShopId);

    const first = await page(key, '?limit=3');
    expect(first.leads.map((l) => l.id)).toEqual(mine.slice(0, 3));
    expect(first.hasMore).toBe(true);
    // Feed numbers follow commit order: here the shop's leads came first (1–7), the other shop's after.
    expect(decodeCursor(first.nextCursor)).toBe(3);
    expect(await page(key, `?limit=3&since=${first.nextCursor}`)).toEqual(await page(key, `?limit=3&since=${first.nextCursor}`));
    const second = await page(key, `?limit=3&since=${first.nextCursor}`);
    expect(second.leads.map((l) => l.id)).toEqual(mine.slice(3, 6));
    expect(second.hasMore).toBe(true);
    const third = await page(key, `?limit=3&since=${second.nextCursor}`);
    expect(third).toMatchObject({ hasMore: false, nextCursor: encodeCursor(7) });
    expect(third.leads.map((l) => l.id)).toEqual(mine.slice(6));
    // Caught up: nothing more, and the cursor stays where it was.
    expect(await page(key, `?since=${third.nextCursor}`)).toEqual({ leads: [], nextCursor: third.nextCursor, hasMore: false });

    // A lead arriving later is the next page, and only it.
    await visitor(8);
    const later = await page(key, `?since=${third.nextCursor}`);
    expect(later.leads.map((l) => l.name)).toEqual(['고객8']);
    expect(decodeCursor(later.nextCursor)).toBe(10);

    // The other shop's key sees its two leads and nothing of this shop's.
    const other = await page(theirs.key, '?limit=500');
    expect(other.leads.map((l) => l.name)).toEqual(['김다른', '김다른']);
    expect(other.leads.map((l) => l.phone)).toEqual(['010-****-0090', '010-****-0091']);
    expect(other.nextCursor).toBe(encodeCursor(9));
    // Nor does a cursor taken from this shop reach any of them.
    expect((await page(theirs.key, `?since=${encodeCursor(0)}&limit=1`)).leads.map((l) => l.phone)).toEqual(['010-****-0090']);
    expect((await page(theirs.key, `?since=${later.nextCursor}`)).leads).toEqual([]);
  });

  it('never hands out deleted or purged leads', async () => {
    for (let n = 1; n <= 5; n++) await visitor(n);
    const [a, b, c, d, e] = await leadIds(t.shopId);
    const { key } = await newKey();
    // b deleted before anyone pulled it, d deleted and purged.
    expect((await t.admin.post(`/api/shops/${t.shopId}/leads/delete`, { ids: [b, d], reason: '중복 등록' })).statusCode).toBe(200);
    expect((await t.admin.post(`/api/shops/${t.shopId}/deleted-leads/purge`, { ids: [d], reason: '요청에 따른 파기' })).statusCode).toBe(200);
    const all = await page(key);
    expect(all.leads.map((l) => l.id)).toEqual([a, c, e]);
    expect(decodeCursor(all.nextCursor)).toBe(5);
    // A page of limit 1 after a skips b: the deleted lead takes no place on a page.
    expect((await page(key, `?limit=1&since=${encodeCursor(1)}`)).leads.map((l) => l.id)).toEqual([c]);
    // A lead deleted after it was pulled is gone from a re-read of the same page.
    await t.admin.post(`/api/shops/${t.shopId}/leads/delete`, { ids: [c], reason: '허위 신청' });
    expect((await page(key)).leads.map((l) => l.id)).toEqual([a, e]);
    // A lead restored after the reader passed its place comes again at the end of the feed.
    expect((await t.admin.post(`/api/shops/${t.shopId}/deleted-leads/restore`, { ids: [b], reason: '삭제 실수' })).statusCode).toBe(200);
    const restored = await page(key, `?since=${all.nextCursor}`);
    expect(restored.leads.map((l) => l.id)).toEqual([b]);
    expect(decodeCursor(restored.nextCursor)).toBe(6);
  });

  it('refuses a cursor or limit it did not hand out with 400, but only after the key', async () => {
    const { key } = await newKey();
    const bad = async (query: string, field: string, message: string) => {
      const res = await get(key, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION', message, fields: { [field]: message } });
    };
    const limitMessage = 'limit은 1부터 500까지의 정수로 입력하세요. (limit must be an integer from 1 to 500.)';
    await bad('?since=abc!', 'since', INVALID_CURSOR_MESSAGE);
    await bad(`?since=${btoa('12x')}`, 'since', INVALID_CURSOR_MESSAGE);
    await bad(`?since=${btoa('-1').replace(/=+$/, '')}`, 'since', INVALID_CURSOR_MESSAGE);
    await bad(`?since=${btoa('007').replace(/=+$/, '')}`, 'since', INVALID_CURSOR_MESSAGE);
    await bad(`?since=${encodeCursor(5)}=`, 'since', INVALID_CURSOR_MESSAGE);
    await bad(`?since=${'A'.repeat(60)}`, 'since', INVALID_CURSOR_MESSAGE);
    await bad('?limit=0', 'limit', limitMessage);
    await bad('?limit=501', 'limit', limitMessage);
    await bad('?limit=2.5', 'limit', limitMessage);
    await bad('?limit=many', 'limit', limitMessage);
    // An empty since is the start; the largest limit is fine.
    expect((await get(key, '?since=&limit=500')).statusCode).toBe(200);
    // Without a key, the input rules are not even looked at.
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/leads?since=abc!' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('records every page that handed out leads in the shop’s access record, once per request', async () => {
    for (let n = 1; n <= 3; n++) await visitor(n);
    const { key, id, prefix } = await newKey(true);
    t.clock.current = new Date('2026-11-21T01:10:00.000Z');
    const first = await page(key, '?limit=2');
    await page(key, `?since=${first.nextCursor}`);
    await page(key, `?since=${encodeCursor(3)}`); // nothing new: nothing recorded
    const rows = await t.app.db.selectFrom('access_events').select(['shop_id', 'account_id', 'action', 'row_count', 'detail', 'ip', 'at']).where('action', '=', 'api-pull').orderBy('id').execute();
    const detail = { keyId: id, keyName: '전체 번호 키', keyPrefix: prefix, fullPhone: true };
    expect(rows.map((r) => ({ ...r, detail: JSON.parse(r.detail!) }))).toEqual([
      { shop_id: t.shopId, account_id: null, action: 'api-pull', row_count: 2, detail, ip: '198.51.100.20', at: '2026-11-21T01:10:00.000Z' },
      { shop_id: t.shopId, account_id: null, action: 'api-pull', row_count: 1, detail, ip: '198.51.100.20', at: '2026-11-21T01:10:00.000Z' },
    ]);
    // The shop's 개인정보 접근 기록 shows them.
    const record = await t.admin.get(`/api/shops/${t.shopId}/access-record?action=api-pull&from=2026-11-21&to=2026-11-21`);
    expect(record.statusCode).toBe(200);
    expect(record.json().items.map((i: { action: string; rowCount: number; accountId: number | null }) => [i.action, i.rowCount, i.accountId])).toEqual([
      ['api-pull', 1, null], ['api-pull', 2, null],
    ]);
  });

  it('limits each key to its own rate, with the limit in the headers', async () => {
    const a = await newKey();
    const b = await newKey();
    const first = await get(a.key);
    expect(first.headers['x-ratelimit-limit']).toBe(String(PULL_RATE_LIMIT.max));
    for (let i = 1; i < PULL_RATE_LIMIT.max; i++) expect((await get(a.key)).statusCode).toBe(200);
    const limited = await get(a.key);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(limited.json().error.message).toMatch(/^요청이 너무 많습니다: 키마다 분당 60회까지입니다\. .+ \(Rate limit exceeded: retry after .+\.\)$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another key of the same shop has its own allowance.
    expect((await get(b.key)).statusCode).toBe(200);
  });

  it('numbers leads as they are written, and leads left waiting (an import’s) once after their commit, in id order', async () => {
    for (let n = 1; n <= 3; n++) await visitor(n);
    expect(await assignFeedSeq(t.app.db)).toBe(0);
    // An import's leads wait for their numbers until its long transaction has committed …
    await t.app.db.transaction().execute((trx) =>
      insertAccepted(trx, [pending(otherShopId, phoneOf(90)), pending(t.shopId, phoneOf(91)), pending(t.shopId, phoneOf(92))], t.clock.now(), { numberFeed: false }));
    // … while intake goes on taking the next numbers at once.
    await visitor(4);
    // Batches of two: a full one, then the rest.
    expect(await assignFeedSeq(t.app.db, 2)).toBe(3);
    expect(await assignFeedSeq(t.app.db)).toBe(0);
    const rows = await t.app.db.selectFrom('leads').select(['id', 'feed_seq']).orderBy('id').execute();
    expect(rows.map((r) => r.feed_seq)).toEqual([1, 2, 3, 5, 6, 7, 4]);
  });
});

describe('the pull API’s documents', () => {
  let t: LandingTestApp;
  beforeEach(async () => {
    t = await landingTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('serves an OpenAPI 3.1 document of the public API only, generated from the schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { host: 'leads.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = JSON.parse(res.body);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://leads.example.com', description: '이 서버 (this server)' }]);
    expect(Object.keys(doc.paths)).toEqual(['/api/v1/leads']);
    const op = doc.paths['/api/v1/leads'].get;
    expect(op.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    expect(op.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required])).toEqual([['since', 'query', false], ['limit', 'query', false]]);
    expect(op.parameters[1].schema).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
    expect(Object.keys(op.responses)).toEqual(['200', '400', '401', '403', '429', '500']);
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LeadPage' });
    expect(op.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });

    const { Lead, LeadPage, Error: ErrorSchema } = doc.components.schemas;
    expect(Object.keys(Lead.properties).sort()).toEqual(Object.keys(pulledLead.shape).sort());
    expect(Lead.required.sort()).toEqual(Object.keys(pulledLead.shape).sort());
    expect(Lead.properties.id).toEqual({ type: 'integer', description: 'DB 번호 (lead id): 업체 안에서 한 DB를 가리키는 고유 번호' });
    expect(Lead.properties.memo).toEqual({ type: ['string', 'null'], description: '메모 (memo)' });
    expect(Lead.properties.answers.items.required).toEqual(['label', 'value']);
    expect(LeadPage.properties.leads.items).toEqual({ $ref: '#/components/schemas/Lead' });
    expect(LeadPage.required).toEqual(['leads', 'nextCursor', 'hasMore']);
    expect(ErrorSchema.properties.error.required).toEqual(['code', 'message']);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(res.body).not.toContain('$schema');
    // Nothing of the back office.
    expect(res.body).not.toMatch(/\/api\/shops|\/api\/auth/);
  });

  it('serves a docs page without any script, its tables from the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/docs', headers: { host: 'leads.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).not.toMatch(/<script/i);
    expect(res.body).not.toMatch(/\son[a-z]+=/i);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    for (const heading of ['인증 (Authentication)', '커서 반복 (The cursor loop)', 'DB 필드 (Lead fields)', '오류 (Errors)', '속도 제한 (Rate limits)']) expect(res.body).toContain(heading);
    // Every field and parameter of the document, each in its table.
    for (const field of [...Object.keys(pulledLead.shape), 'landing.code', 'answers[].label', 'utm.campaign', 'nextCursor', 'hasMore', 'since', 'limit']) {
      expect(res.body, field).toContain(`<code>${field}</code>`);
    }
    for (const code of ['VALIDATION', 'UNAUTHENTICATED', 'RATE_LIMITED']) expect(res.body).toContain(`<code>${code}</code>`);
    // The examples name this server and the key header; a curl and a fetch example.
    expect(res.body).toContain('curl -sS &quot;http://leads.example.com/api/v1/leads?limit=100&quot;');
    expect(res.body).toContain('Authorization: Bearer $LEADROOM_API_KEY');
    expect(res.body).toContain('await fetch(url, { headers: { Authorization: `Bearer ${KEY}` } })');
  });
});
