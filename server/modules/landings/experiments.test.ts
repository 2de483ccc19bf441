// Landing experiments end to end on the server: assignment (weights, stickiness, crawlers and
// prefetches), attribution of visits and leads, results with the SRM warning, promotion.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { addMedium, eachLandingTest, landingInput, landingTestApp, leadBody, openLanding, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import { addDays, seoulDay } from '../../../contracts/kst.ts';
import { assignVariant, notAVisitor } from './public/assignment.ts';
import { reservationsJob } from '../../worker/reservations.ts';
import { up as upgrade } from '../../db/migrations/2026-12-14-variant-attribution.ts';
import { deliveryJobsRepository } from '../delivery/delivery-jobs.repository.ts';
import { toLead } from '../delivery/sending.ts';
import { deliveredLead } from '../delivery/channel.ts';
import { chiSquareGoodnessOfFit } from '../../../contracts/experiment-stats.ts';

const UA = (n: number) => `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${n} like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148`;
const headlineOf = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
const variantFieldOf = (html: string) => /name="_x" value="([^"]+)"/.exec(html)?.[1] ?? null;

describe('weighted assignment', () => {
  const simulate = (weights: number[], visitors = 10_000) => {
    const keys = weights.map((_, i) => String.fromCharCode(65 + i));
    const counts = new Map(keys.map((k) => [k, 0]));
    for (let i = 0; i < visitors; i++) {
      const k = assignVariant({ experimentId: 7, keys, weights }, crypto.randomBytes(16).toString('base64url'));
      counts.set(k, counts.get(k)! + 1);
    }
    return keys.map((k) => counts.get(k)!);
  };

  it('splits 10,000 simulated visitors by the weights (chi-square within tolerance)', () => {
    for (const weights of [[50, 50], [70, 30], [20, 30, 50]]) {
      const observed = simulate(weights);
      const fit = chiSquareGoodnessOfFit(observed, weights);
      // p < 0.001 would happen by chance once in a thousand runs.
      expect(fit.pValue).toBeGreaterThan(0.001);
      const total = weights.reduce((s, w) => s + w, 0);
      observed.forEach((o, i) => expect(Math.abs(o / 10_000 - weights[i]! / total)).toBeLessThan(0.025));
    }
  });

  it('gives a visitor the same variant every time, and other experiments an independent draw', () => {
    const a = { experimentId: 1, keys: ['A', 'B'], weights: [50, 50] };
    const ids = Array.from({ length: 200 }, (_, i) => `visitor-${i}-abcdefghijkl`);
    const first = ids.map((id) => assignVariant(a, id));
    expect(ids.map((id) => assignVariant(a, id))).toEqual(first);
    const other = ids.map((id) => assignVariant({ ...a, experimentId: 2 }, id));
    expect(other).not.toEqual(first);
  });

  it('tells crawlers, link previews and prefetches from visitors', () => {
    expect(notAVisitor({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })).toBe(true);
    expect(notAVisitor({ 'user-agent': 'facebookexternalhit/1.1' })).toBe(true);
    expect(notAVisitor({ 'user-agent': UA(1), 'sec-purpose': 'prefetch' })).toBe(true);
    expect(notAVisitor({ 'user-agent': UA(1), purpose: 'prefetch' })).toBe(true);
    expect(notAVisitor({ 'user-agent': UA(1), 'sec-purpose': 'prefetch;prerender' })).toBe(true);
    expect(notAVisitor({})).toBe(true);
    expect(notAVisitor({ 'user-agent': UA(1) })).toBe(false);
  });
});

describe('landing experiments', () => {
  let t: LandingTestApp;
  let landingId: number;
  let base: string;
  eachLandingTest((app, id, url) => ([t, landingId, base] = [app, id, url]), { listen: true });

  const api = (p = '') => `/api/shops/${t.shopId}/landings/${landingId}/experiments${p}`;

  /** A running experiment: B with another headline, at the given weights. */
  async function runExperiment(weights = [50, 50]) {
    const created = await t.admin.post(api(), { name: '헤드라인 실험' });
    expect(created.statusCode).toBe(201);
    const e = created.json();
    expect(e.variants.map((v: { key: string }) => v.key)).toEqual(['A', 'B']);
    const content = { ...landingInput().content, headline: '지금 신청하면 검진 무료', ctaLabel: '무료 검진 받기' };
    const updated = await t.admin.put(api(`/${e.id}`), {
      name: '헤드라인 실험', stopAt: null,
      variants: [{ key: 'A', weight: weights[0], content: null }, { key: 'B', weight: weights[1], content }],
    });
    expect(updated.statusCode).toBe(200);
    const started = await t.admin.post(api(`/${e.id}/start`));
    expect(started.statusCode).toBe(200);
    expect(started.json().status).toBe('running');
    return e.id as number;
  }

  const get = (headers: Record<string, string>) => fetch(`${base}/view/smile/implant`, { headers: { 'accept-encoding': 'identity', ...headers } });

  it('serves each visitor one variant, kept by the lr_v cookie; crawlers and prefetches get the canonical landing page', async () => {
    const experimentId = await runExperiment();
    const seen = new Map<string, number>();
    for (let n = 0; n < 30; n++) {
      const first = await get({ 'user-agent': UA(n) });
      const cookie = first.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^lr_v=[A-Za-z0-9_-]{22}; Path=\/view\/smile\/implant; Max-Age=7776000; SameSite=Lax; HttpOnly$/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      const html = await first.text();
      const headline = headlineOf(html)!;
      seen.set(headline, (seen.get(headline) ?? 0) + 1);
      expect(variantFieldOf(html)).toBe(`${experimentId}:${headline === '임플란트 무료 상담' ? 'A' : 'B'}`);
      // Reloads, with the cookie (the fast path answers from the cache), keep the variant and set no new cookie.
      for (let r = 0; r < 3; r++) {
        const again = await get({ 'user-agent': UA(n), cookie: cookie.split(';')[0]! });
        expect(again.headers.get('set-cookie')).toBeNull();
        expect(headlineOf(await again.text())).toBe(headline);
      }
      // Without cookies (refused): the fallback (address, browser, day) gives the same variant.
      expect(headlineOf(await (await get({ 'user-agent': UA(n) })).text())).toBe(headline);
    }
    expect([...seen.keys()].sort()).toEqual(['임플란트 무료 상담', '지금 신청하면 검진 무료']);

    const notVisitors: Array<Record<string, string>> = [
      { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      { 'user-agent': UA(1), 'sec-purpose': 'prefetch' },
      { 'user-agent': 'facebookexternalhit/1.1' },
    ];
    for (const headers of notVisitors) {
      const res = await get(headers);
      expect(res.headers.get('set-cookie')).toBeNull();
      const html = await res.text();
      expect(headlineOf(html)).toBe('임플란트 무료 상담');
      expect(variantFieldOf(html)).toBeNull();
    }
  });

  it('counts visits per variant from the beacon (never a crawler’s or the unassigned page’s) and attributes leads', async () => {
    const experimentId = await runExperiment();
    const beacon = (x: string, ua = UA(2)) =>
      t.app.inject({ method: 'POST', url: '/api/public/visits', headers: { 'user-agent': ua }, payload: { shopCode: 'smile', landingCode: 'implant', source: 'meta', _x: x } });
    for (let i = 0; i < 3; i++) await beacon(`${experimentId}:A`);
    for (let i = 0; i < 2; i++) await beacon(`${experimentId}:B`);
    await beacon(`${experimentId}:B`, 'Mozilla/5.0 (compatible; bingbot/2.0)');
    await beacon('');
    await beacon(`${experimentId + 1}:B`); // another experiment's page: not this one's
    await beacon(`${experimentId}:Z`);
    await t.app.links.flushVisits();
    const visits = await t.app.db.selectFrom('visit_variants').select(['variant', sql<number>`sum(count)`.as('n')]).groupBy('variant').orderBy('variant').execute();
    expect(visits.map((v) => [v.variant, Number(v.n)])).toEqual([['A', 3], ['B', 2]]);
    // The landing's own visit count is still every visitor's.
    const total = await t.app.db.selectFrom('visits').select(sql<number>`sum(count)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(8);

    expect((await submit(t, leadBody(t, landingId, { _x: `${experimentId}:B`, phone: '010-2222-0001' }))).statusCode).toBe(201);
    expect((await submit(t, leadBody(t, landingId, { _x: `${experimentId}:A`, phone: '010-2222-0002' }), { form: true })).statusCode).toBe(200);
    expect((await submit(t, leadBody(t, landingId, { _x: `${experimentId}:Q`, phone: '010-2222-0003' }))).statusCode).toBe(201);
    expect((await submit(t, leadBody(t, landingId, { phone: '010-2222-0004' }))).statusCode).toBe(201);
    const leads = await t.app.db.selectFrom('leads').select(['id', 'phone', 'experiment_id', 'variant']).orderBy('phone').execute();
    expect(leads.map((l) => [l.phone, l.experiment_id, l.variant])).toEqual([
      ['01022220001', experimentId, 'B'], ['01022220002', experimentId, 'A'], ['01022220003', null, null], ['01022220004', null, null],
    ]);

    // Webhooks (and the pull API's same row) carry the variant in `landing`; leads outside an experiment carry none.
    const rows = await deliveryJobsRepository(t.app.db).leads(leads.map((l) => l.id));
    const delivered = rows.sort((a, b) => a.phone.localeCompare(b.phone)).map((r) => deliveredLead(toLead(r), ['landing'], false).landing);
    expect(delivered.map((l) => l?.variant ?? null)).toEqual(['B', 'A', null, null]);
    expect(delivered[0]).toEqual({ id: landingId, code: 'implant', title: '임플란트 상담 이벤트', variant: 'B' });
    // The pull API answers it too, and its documented schema names it.
    const key = (await t.admin.post(`/api/shops/${t.shopId}/api-keys`, { name: '실험 키', fullPhone: false })).json().key as string;
    const pulled = await t.app.inject({ method: 'GET', url: '/api/v1/leads', headers: { authorization: `Bearer ${key}` } });
    expect(pulled.json().leads.map((l: { landing: { variant?: string } }) => l.landing.variant ?? null)).toEqual(['B', 'A', null, null]);
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(JSON.stringify(doc)).toContain('A/B 실험의 변형');
    // DB 현황's list and drawer show it; the export has a 실험안 column.
    const listed = (await t.admin.get(`/api/shops/${t.shopId}/leads?pageSize=50`)).json();
    const byPhone = new Map(leads.map((l) => [l.id, l.phone]));
    expect(listed.items.map((l: { id: number; variant: string | null }) => [byPhone.get(l.id), l.variant]).sort()).toEqual([
      ['01022220001', 'B'], ['01022220002', 'A'], ['01022220003', null], ['01022220004', null],
    ]);
    expect((await t.admin.get(`/api/shops/${t.shopId}/leads/${leads[0]!.id}`)).json().variant).toBe('B');
    const csv = await t.admin.request('POST', `/api/shops/${t.shopId}/leads/export`, { format: 'csv', reason: '실험 확인' });
    const lines = csv.rawPayload.toString('utf8').replace(/^\uFEFF/, '').split('\r\n').filter(Boolean).map((l) => l.split(','));
    const at = lines[0]!.indexOf('실험안');
    expect(lines[0]!.slice(2, 5)).toEqual(['랜딩', '실험안', '매체']);
    expect(lines.slice(1).map((r) => r[at])).toEqual(['B', 'A', '', '']);

    const list = await t.admin.get(api());
    const results = list.json().items[0].results;
    expect(results.variants.map((v: { key: string; visits: number; leads: number; validLeads: number }) => [v.key, v.visits, v.leads, v.validLeads])).toEqual([
      ['A', 3, 1, 1], ['B', 2, 1, 1],
    ]);
    expect(results.enoughData).toBe(false);
    expect(results.summary[0]).toContain('아직 데이터가 부족합니다');

    // 랜딩 관리 splits the period's figures by variant (for the client's accounts too); a period before the experiment has no split.
    const owner = await shopAccount(t, 'owner-split', 'shop-owner');
    for (const who of [t.admin, owner]) {
      const row = (await who.get(`/api/shops/${t.shopId}/landings`)).json().items.find((l: { id: number }) => l.id === landingId);
      expect(row).toMatchObject({ visits: 8, submissions: 4 });
      expect(row.variants).toEqual([
        { experimentId, experimentName: '헤드라인 실험', key: 'A', visits: 3, submissions: 1, conversionRate: 33.3 },
        { experimentId, experimentName: '헤드라인 실험', key: 'B', visits: 2, submissions: 1, conversionRate: 50 },
      ]);
    }
    const before = (await t.admin.get(`/api/shops/${t.shopId}/landings?from=2026-10-01&to=2026-10-31`)).json().items.find((l: { id: number }) => l.id === landingId);
    expect(before.variants).toEqual([]);
    // A period the experiment runs in but has counted nothing yet (tomorrow): no rows of zeros.
    const tomorrow = addDays(seoulDay(t.clock.now()), 1);
    const ahead = (await t.admin.get(`/api/shops/${t.shopId}/landings?from=${tomorrow}&to=${tomorrow}`)).json().items.find((l: { id: number }) => l.id === landingId);
    expect(ahead.variants).toEqual([]);
  });

  it('gives B its own form, colours and hero: pre-rendered for B’s visitors, and intake checks their answers against B’s fields', async () => {
    const created = (await t.admin.post(api(), { name: '양식 실험' })).json();
    // B starts as the live landing: its copy and its form.
    expect(created.variants[1].content.formFields.map((f: { key: string }) => f.key)).toEqual(['area', 'time']);
    expect(created.variants.map((v: { uncoveredFields: string[] }) => v.uncoveredFields)).toEqual([['지역', '통화 가능 시간'], ['지역', '통화 가능 시간']]);
    const hero = { url: 'https://cdn.example.com/b-hero.jpg', width: 1200, height: 600, alt: 'B안 대표 이미지' };
    const bForm = [
      { key: 'time', label: '통화 가능 시간', type: 'radio', options: ['오전', '오후'], required: false },
      { key: 'branch', label: '희망 지점', type: 'select', options: ['강남점', '잠실점'], required: true },
    ];
    const body = (formFields: unknown[]) => ({
      name: '양식 실험', stopAt: null,
      variants: [
        { key: 'A', weight: 50, content: null },
        { key: 'B', weight: 50, content: { ...landingInput().content, headline: 'B안 양식', hero, colors: { primary: '#aa0044', background: '#ffffff', text: '#111111' }, formFields } },
      ],
    });
    // Validated as a landing's form: a key the fixed fields use is refused on its field.
    const refused = await t.admin.put(api(`/${created.id}`), body([{ key: 'phone', label: '전화', type: 'short-text' }]));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields['variants.1.content.formFields.0.key']).toBe('기본 항목이 쓰는 키입니다. 다른 키를 입력하세요.');
    const saved = await t.admin.put(api(`/${created.id}`), body(bForm));
    expect(saved.statusCode).toBe(200);
    // The warning publishing gives, per variant: B's new field is not in the policy's items either.
    expect(saved.json().variants[1].uncoveredFields).toEqual(['통화 가능 시간', '희망 지점']);
    expect((await t.admin.post(api(`/${created.id}/start`))).statusCode).toBe(200);

    const pages: Record<string, string> = {};
    for (let n = 0; n < 40 && Object.keys(pages).length < 2; n++) {
      const html = await (await get({ 'user-agent': UA(n) })).text();
      pages[variantFieldOf(html)!.split(':')[1]!] = html;
    }
    const a = pages.A!;
    const b = pages.B!;
    expect(headlineOf(b)).toBe('B안 양식');
    // B's fields in B's order, its colour and its hero; A keeps the landing's.
    expect([...b.matchAll(/name="(area|time|branch)"/g)].map((m) => m[1])).toEqual(['time', 'time', 'branch']);
    expect(b).toContain('#aa0044');
    expect(b).toContain('https://cdn.example.com/b-hero.jpg');
    expect(b).toContain('희망 지점');
    expect(a).toContain('name="area"');
    expect(a).not.toContain('name="branch"');
    expect(a).not.toContain('#aa0044');
    // Cached like any page: a reload answers B's page again without rendering anew.
    const cookie = (await get({ 'user-agent': UA(99) })).headers.get('set-cookie')!.split(';')[0]!;
    const again = await get({ 'user-agent': UA(99), cookie });
    expect(again.headers.get('etag')).toBeTruthy();
    expect((await get({ 'user-agent': UA(99), cookie })).headers.get('etag')).toBe(again.headers.get('etag'));

    // A B visitor: 희망 지점 is accepted and kept; 지역 (required in A, not in B's form) is not asked.
    const x = (key: string) => `${created.id}:${key}`;
    const fromB = await submit(t, { ...leadBody(t, landingId, { _x: x('B'), phone: '010-5555-0001', branch: '잠실점' }), area: undefined });
    expect(fromB.statusCode).toBe(201);
    const noBranch = await submit(t, { ...leadBody(t, landingId, { _x: x('B'), phone: '010-5555-0002' }), area: undefined });
    expect(noBranch.statusCode).toBe(422);
    expect(noBranch.json().error.fields).toEqual({ branch: '희망 지점을 선택해 주세요.' });
    // An A visitor still answers A's form: 지역 is required, and a 희망 지점 sent along is not kept.
    const noArea = await submit(t, { ...leadBody(t, landingId, { _x: x('A'), phone: '010-5555-0003', branch: '잠실점' }), area: undefined });
    expect(noArea.statusCode).toBe(422);
    expect(noArea.json().error.fields).toEqual({ area: '지역을 선택해 주세요.' });
    expect((await submit(t, leadBody(t, landingId, { _x: x('A'), phone: '010-5555-0004', branch: '잠실점' }))).statusCode).toBe(201);
    const leads = await t.app.db.selectFrom('leads').select(['phone', 'variant', 'answers']).orderBy('phone').execute();
    expect(leads.map((l) => [l.phone, l.variant, JSON.parse(l.answers)])).toEqual([
      ['01055550001', 'B', { branch: '잠실점' }],
      ['01055550004', 'A', { area: '서울' }],
    ]);
    // B's answers carry B's labels wherever they go: the lead drawer, webhooks and the pull API.
    const bLead = await t.app.db.selectFrom('leads').select('id').where('phone', '=', '01055550001').executeTakeFirstOrThrow();
    const detail = await t.admin.get(`/api/shops/${t.shopId}/leads/${bLead.id}`);
    expect(detail.json().answers).toEqual([{ label: '희망 지점', value: '잠실점' }]);
    const [row] = await deliveryJobsRepository(t.app.db).leads([bLead.id]);
    expect(toLead(row!).answers).toEqual([{ label: '희망 지점', value: '잠실점' }]);

    // The privacy page lists what B's form collects too.
    const privacy = await (await fetch(`${base}/view/smile/implant/privacy`)).text();
    expect(privacy).toContain('희망 지점');

    // Promoting B: its form becomes the landing's with its copy.
    expect((await t.admin.post(api(`/${created.id}/stop`), { promote: 'B' })).statusCode).toBe(200);
    const landing = (await t.admin.get(`/api/shops/${t.shopId}/landings/${landingId}`)).json();
    expect(landing.formFields.map((f: { key: string }) => f.key)).toEqual(['time', 'branch']);
    expect(landing.content).toMatchObject({ headline: 'B안 양식', hero, colors: { primary: '#aa0044' } });
    expect(landing.content.formFields).toBeUndefined();
  });

  it('refuses to start a variant that could not be published as a landing', async () => {
    const created = (await t.admin.post(api(), { name: '실험' })).json();
    // A draft stored before a rule tightened, say: its headline is no longer valid.
    const content = JSON.stringify({ ...landingInput().content, headline: '' });
    await t.app.db.updateTable('landing_experiment_variants').set({ content }).where('experiment_id', '=', created.id).where('key', '=', 'B').execute();
    const started = await t.admin.post(api(`/${created.id}/start`));
    expect(started.statusCode).toBe(400);
    expect(started.json().error.message).toBe('B안을 랜딩으로 게시할 수 없습니다: 대표 문구를 입력하세요.');
    expect(started.json().error.fields).toEqual({ 'variants.1.content.headline': '대표 문구를 입력하세요.' });
    expect((await t.app.db.selectFrom('landing_experiments').select('status').executeTakeFirstOrThrow()).status).toBe('draft');
  });

  it('warns of a sample-ratio mismatch when visits stray from the weights', async () => {
    const experimentId = await runExperiment();
    await t.app.db.insertInto('visit_variants').values([
      { experiment_id: experimentId, variant: 'A', day: '2026-12-01', count: 5000 },
      { experiment_id: experimentId, variant: 'B', day: '2026-12-01', count: 5600 },
    ]).execute();
    const results = (await t.admin.get(api())).json().items[0].results;
    expect(results.srm.warning).toBe(true);
    expect(results.srm.pValue).toBeLessThan(0.001);
    expect(results.summary.join(' ')).toContain('배분 이상 경고');
  });

  it('promotes a variant: its content becomes the landing’s at the same URL, with its history; results are archived', async () => {
    const experimentId = await runExperiment();
    expect((await submit(t, leadBody(t, landingId, { _x: `${experimentId}:B`, phone: '010-3333-0001' }))).statusCode).toBe(201);
    const before = await t.app.db.selectFrom('landings').select(['id', 'landing_code', 'version']).where('id', '=', landingId).executeTakeFirstOrThrow();
    const stopped = await t.admin.post(api(`/${experimentId}/stop`), { promote: 'B' });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({ status: 'stopped', winner: 'B' });
    expect(stopped.json().results.variants[1]).toMatchObject({ key: 'B', leads: 1 });

    const after = await t.app.db.selectFrom('landings').select(['id', 'landing_code', 'version', 'content']).where('id', '=', landingId).executeTakeFirstOrThrow();
    expect([after.id, after.landing_code]).toEqual([before.id, before.landing_code]);
    expect(after.version).toBeGreaterThan(before.version);
    expect(JSON.parse(after.content).headline).toBe('지금 신청하면 검진 무료');
    // The page every visitor gets now is B's, without a variant, publicly cacheable again.
    const page = await get({ 'user-agent': UA(9) });
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.headers.get('cache-control')).toContain('public');
    const html = await page.text();
    expect(headlineOf(html)).toBe('지금 신청하면 검진 무료');
    expect(variantFieldOf(html)).toBeNull();
    // The leads stay the landing's, with their variant.
    const lead = await t.app.db.selectFrom('leads').select(['landing_id', 'variant']).executeTakeFirstOrThrow();
    expect(lead).toEqual({ landing_id: landingId, variant: 'B' });
    // Archived: visits counted later do not change the stopped experiment's figures; the decision is audited.
    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'detail']).where('action', 'like', 'landing-experiment-%').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['landing-experiment-create', 'landing-experiment-update', 'landing-experiment-start', 'landing-experiment-stop']);
    expect(JSON.parse(audit[3]!.detail!)).toMatchObject({ experimentId, promoted: 'B' });
    // Stopped is final; a new experiment may start.
    expect((await t.admin.post(api(`/${experimentId}/stop`), { promote: null })).statusCode).toBe(409);
    expect((await t.admin.post(api(), { name: '두 번째' })).statusCode).toBe(201);
  });

  it('stops at its scheduled time without promoting, and refuses changes to a running experiment’s variants', async () => {
    const experimentId = await runExperiment();
    const current = (await t.admin.get(api())).json().items[0];
    const changed = await t.admin.put(api(`/${experimentId}`), { name: current.name, stopAt: null, variants: current.variants.map((v: { weight: number }) => ({ ...v, weight: 10 })) });
    expect(changed.statusCode).toBe(409);
    const stopAt = new Date(t.clock.current.getTime() + 3_600_000).toISOString();
    expect((await t.admin.put(api(`/${experimentId}`), { name: current.name, stopAt, variants: current.variants })).statusCode).toBe(200);
    // The 종료 예약 is a 시스템 예약 (실험 종료), listed and changed there like the others.
    const listed = (await t.admin.get('/api/system-reservations?kind=experiment-stop')).json().items;
    expect(listed).toHaveLength(1);
    const reservation = listed[0];
    expect(reservation).toMatchObject({
      kind: 'experiment-stop', status: 'scheduled', startsAt: stopAt, landingId, experimentId, experimentName: '헤드라인 실험', title: '임플란트 상담 이벤트 · 헤드라인 실험 종료',
    });
    const later = new Date(t.clock.current.getTime() + 2 * 3_600_000).toISOString();
    const body = { kind: 'experiment-stop', title: '헤드라인 실험 마감', startsAt: later, landingId, experimentId };
    expect((await t.admin.put(`/api/system-reservations/${reservation.id}`, body)).statusCode).toBe(200);
    expect((await t.admin.get(api())).json().items[0].stopAt).toBe(later);
    // Made only from the experiment (one per experiment); another experiment's cannot be slipped in.
    expect((await t.admin.post('/api/system-reservations', body)).statusCode).toBe(400);
    expect((await t.admin.put(`/api/system-reservations/${reservation.id}`, { ...body, experimentId: experimentId + 1 })).statusCode).toBe(400);

    const job = reservationsJob(t.app.db, t.clock.now, { setLandingStatus: t.app.links.setLandingStatus, stopExperiment: t.app.links.stopExperiment });
    t.clock.advanceMinutes(61);
    expect(await job.run()).toEqual([]);
    t.clock.advanceMinutes(60);
    const [run, again] = await Promise.all([job.run(), job.run()]);
    expect([...run, ...again].map((x) => [x.id, x.kind, x.status])).toEqual([[reservation.id, 'experiment-stop', 'done']]);
    const done = await t.app.db.selectFrom('system_reservations').select(['status', 'result']).where('id', '=', reservation.id).executeTakeFirstOrThrow();
    expect(done).toEqual({ status: 'done', result: '‘헤드라인 실험’ 실험을 채택 없이 종료했습니다. 결과는 보관되었습니다.' });
    const stopAudit = await t.app.db.selectFrom('audit_events').select(['account_id', 'detail']).where('action', '=', 'landing-experiment-stop').executeTakeFirstOrThrow();
    expect(stopAudit.account_id).toBeNull();
    expect(JSON.parse(stopAudit.detail!)).toMatchObject({ experimentId, promoted: null, reservationId: reservation.id, reason: `시스템 예약 #${reservation.id} 헤드라인 실험 마감` });
    const e = await t.app.db.selectFrom('landing_experiments').select(['status', 'winner', 'results', 'stopped_by']).executeTakeFirstOrThrow();
    expect(e).toMatchObject({ status: 'stopped', winner: null, stopped_by: null });
    expect(JSON.parse(e.results!).variants).toHaveLength(2);
    const html = await (await get({ 'user-agent': UA(3) })).text();
    expect(headlineOf(html)).toBe('임플란트 무료 상담');
  });

  it('cancels its 시스템 예약 when the schedule is cleared, cancelled on 시스템 예약, or the experiment stopped by hand first', async () => {
    const experimentId = await runExperiment();
    const current = (await t.admin.get(api())).json().items[0];
    const schedule = (stopAt: string | null) => t.admin.put(api(`/${experimentId}`), { name: current.name, stopAt, variants: current.variants });
    const reservations = async () => (await t.admin.get('/api/system-reservations?kind=experiment-stop')).json().items as Array<{ id: number; status: string; result: string | null }>;
    const hour = (n: number) => new Date(t.clock.current.getTime() + n * 3_600_000).toISOString();

    expect((await schedule(hour(1))).statusCode).toBe(200);
    expect((await schedule(hour(3))).statusCode).toBe(200);
    expect((await reservations()).map((r) => r.status)).toEqual(['scheduled']);
    expect((await schedule(null)).statusCode).toBe(200);
    expect((await reservations()).map((r) => r.status)).toEqual(['cancelled']);

    expect((await schedule(hour(2))).statusCode).toBe(200);
    const second = (await reservations()).find((r) => r.status === 'scheduled');
    expect((await t.admin.post(`/api/system-reservations/${second!.id}/cancel`, { reason: '실험 연장' })).statusCode).toBe(200);
    expect((await t.admin.get(api())).json().items[0].stopAt).toBeNull();

    expect((await schedule(hour(4))).statusCode).toBe(200);
    expect((await t.admin.post(api(`/${experimentId}/stop`), { promote: 'B' })).statusCode).toBe(200);
    const all = await reservations();
    expect(all.every((r) => r.status === 'cancelled')).toBe(true);
    expect(all.filter((r) => r.result === '실험이 먼저 종료되어 취소되었습니다.')).toHaveLength(1);
  });

  it('gives a stop scheduled before the 시스템 예약 existed its reservation on upgrade (2026-12-14-variant-attribution), which then runs it', async () => {
    const experimentId = await runExperiment();
    const stopAt = new Date(t.clock.current.getTime() + 3_600_000).toISOString();
    // As the previous release left it: stop_at on the experiment, no reservation.
    await t.app.db.updateTable('landing_experiments').set({ stop_at: stopAt }).where('id', '=', experimentId).execute();
    await upgrade(t.app.db);
    const rows = await t.app.db.selectFrom('system_reservations').select(['kind', 'title', 'starts_at', 'payload', 'status']).execute();
    expect(rows).toEqual([{ kind: 'experiment-stop', title: '임플란트 상담 이벤트 · 헤드라인 실험 종료', starts_at: stopAt, payload: JSON.stringify({ landingId, experimentId }), status: 'scheduled' }]);
    t.clock.advanceMinutes(61);
    const runs = await reservationsJob(t.app.db, t.clock.now, { setLandingStatus: t.app.links.setLandingStatus, stopExperiment: t.app.links.stopExperiment }).run();
    expect(runs.map((r) => r.status)).toEqual(['done']);
    expect((await t.app.db.selectFrom('landing_experiments').select('status').executeTakeFirstOrThrow()).status).toBe('stopped');
  });

  it('names the landing’s URL as every variant’s canonical page on the public origin', async () => {
    const p = await landingTestApp({ publicOrigin: 'https://lp.example.com' });
    try {
      const id = await openLanding(p);
      const api2 = `/api/shops/${p.shopId}/landings/${id}/experiments`;
      const e = (await p.admin.post(api2, { name: '실험' })).json();
      expect((await p.admin.post(`${api2}/${e.id}/start`)).statusCode).toBe(200);
      const headlines = new Set<string>();
      for (let n = 0; n < 12; n++) {
        const res = await p.app.inject({ method: 'GET', url: '/view/smile/implant', headers: { host: 'lp.example.com', 'user-agent': UA(n) } });
        expect(res.body).toContain('<link rel="canonical" href="https://lp.example.com/view/smile/implant">');
        headlines.add(variantFieldOf(res.body)!);
      }
      expect([...headlines].sort()).toEqual([`${e.id}:A`, `${e.id}:B`]);
    } finally {
      await p.close();
    }
  });

  it('shares the landing’s ad spend over the experiment’s days out by visits: CPA per variant, for the agency’s side only', async () => {
    const experimentId = await runExperiment();
    const today = seoulDay(t.clock.current);
    await t.app.db.insertInto('visit_variants').values([
      { experiment_id: experimentId, variant: 'A', day: today, count: 300 },
      { experiment_id: experimentId, variant: 'B', day: today, count: 100 },
    ]).execute();
    for (let i = 0; i < 4; i++) expect((await submit(t, leadBody(t, landingId, { _x: `${experimentId}:A`, phone: `010-4444-000${i}` }))).statusCode).toBe(201);
    for (let i = 0; i < 2; i++) expect((await submit(t, leadBody(t, landingId, { _x: `${experimentId}:B`, phone: `010-5555-000${i}` }))).statusCode).toBe(201);
    await t.app.db.updateTable('leads').set({ validity: 'invalid', invalid_reason: '결번' }).where('phone', '=', '01055550000').execute();
    const medium = await addMedium(t, '메타', 'meta');
    const spend = (day: string, landing: number, won: number) =>
      ({ shop_id: t.shopId, day, media_type_id: medium, landing_id: landing, impressions: 0, clicks: 0, spend: won, updated_by: null, updated_at: t.clock.current.toISOString() });
    // Before the experiment didn't buy its traffic; a medium's whole (landing 0) is no landing's.
    await t.app.db.insertInto('ad_spend').values([spend(today, landingId, 400_000), spend(addDays(today, -1), landingId, 999_999), spend(today, 0, 1_000_000)]).execute();

    const figures = (body: { items: Array<{ results: { variants: Array<{ key: string; spend?: number | null; validLeads: number; cpa: number | null }> } }> }) =>
      body.items[0]!.results.variants.map((v) => [v.key, v.spend ?? null, v.validLeads, v.cpa]);
    // 300 : 100 visits → 300,000 and 100,000 won; ÷ 4 and 1 valid leads.
    expect(figures((await t.admin.get(api())).json())).toEqual([['A', 300_000, 4, 75_000], ['B', 100_000, 1, 100_000]]);
    const owner = await shopAccount(t, 'owner-cpa', 'shop-owner');
    const seen = await owner.get(api());
    expect(figures(seen.json())).toEqual([['A', null, 4, null], ['B', null, 1, null]]);
    expect(seen.body).not.toContain('300000');
    // Archived at the stop, still the agency's.
    expect((await t.admin.post(api(`/${experimentId}/stop`), { promote: null })).statusCode).toBe(200);
    expect(figures((await t.admin.get(api())).json())).toEqual([['A', 300_000, 4, 75_000], ['B', 100_000, 1, 100_000]]);
    expect(figures((await owner.get(api())).json())).toEqual([['A', null, 4, null], ['B', null, 1, null]]);
  });

  it('is the agency’s to decide: a client account reads the results but cannot create, start or stop; an agency marketer can', async () => {
    const experimentId = await runExperiment();
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.get(api())).statusCode).toBe(200);
    expect((await owner.post(api(`/${experimentId}/stop`), { promote: 'B' })).statusCode).toBe(403);
    expect((await t.admin.post(api(`/${experimentId}/stop`), { promote: null })).statusCode).toBe(200);
    expect((await owner.post(api(), { name: '실험' })).statusCode).toBe(403);
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    expect((await marketer.post(api(), { name: '실험' })).statusCode).toBe(201);
  });
});
