// A live database is the normal case: a database as an earlier release left it is brought to this
// code by its migrations and start, on both engines — each migration's corrections, the screens
// built-in types gain, and every release's own database working as the product.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { MIGRATION_NAMES, migrateToLatest, migrateUpTo } from './migrate.ts';
import type { DbHandle } from './dialect.ts';
import { openReleaseFixture, releaseFixtures } from './release-fixtures.ts';
import { grantNewScreens } from './seed.ts';
import { freshDatabase, testApp, type Client, type TestApp } from '../test-helpers.ts';
import type { RouteAccess } from '../plugins/route.ts';
import { landingSecret, signRenderStamp } from '../lib/render-stamp.ts';
import { deliveryWorker } from '../worker/delivery.ts';
import { importsSettled } from '../modules/data-insertion/data-insertion.service.ts';
import { allows, BUILTIN_ACCOUNT_TYPES, matrixForSide, type PermissionMatrix } from '../../contracts/permissions.ts';
import { withNewScreens } from '../../contracts/account-types.ts';
import { SCREENS } from '../../contracts/screens.ts';
import type { Endpoint } from '../../contracts/endpoint.ts';
import type { SessionAccount } from '../../contracts/auth.ts';
import { formatJobIds } from '../../contracts/delivery-history.ts';
import { addDays, seoulDay } from '../../contracts/kst.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of the previous release, not today's (as migrations see it)
type OldDb = Kysely<any>;

let handle: DbHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

const NOW = '2026-11-30T03:00:00.000Z';
/** The shop area's screens as the previous release's built-in 업체관리자 held them (read on all, CPA 관리 and 광고 현황 too). */
const OLD_OWNER = {
  'shop-dashboard': 'read', 'database-status': 'write', 'contract-status': 'read', 'contract-management': 'read',
  'cpa-management': 'read', 'advertising-status': 'read', 'landing-script-management': 'none', 'landing-status': 'read',
};

async function insertType(db: OldDb, name: string, area: 'admin' | 'shop', builtinKey: string | null, permissions: Record<string, string>) {
  await db
    .insertInto('account_types')
    .values({
      name, area, data_scope: 'all', permissions: JSON.stringify(permissions), can_unmask: 0, can_export: 0, builtin_key: builtinKey,
      sort_order: 0, active: 1, created_at: NOW, updated_at: NOW,
    })
    .execute();
}

describe('2026-12-01-agency-side on a database of the previous release', () => {
  it('gives every type its side and takes the agency’s screens from client types, custom ones included', async () => {
    handle = await freshDatabase();
    const db = handle.db as OldDb;
    await migrateUpTo(db, '2026-11-30-shared-state');
    await insertType(db, '최고관리자', 'admin', 'superadmin', { dashboard: 'write', 'cpa-management': 'write' });
    await insertType(db, '마케터', 'shop', 'marketer', { 'cpa-management': 'write', 'advertising-status': 'write', 'contract-management': 'write' });
    await insertType(db, '업체관리자', 'shop', 'shop-owner', OLD_OWNER);
    await insertType(db, '상담원', 'shop', 'counselor', { 'database-status': 'write' });
    // A client type an administrator once granted CPA 관리, 광고 현황, 랜딩 스크립트 and 계약 관리 편집.
    await insertType(db, '지점장', 'shop', null, {
      'cpa-management': 'write', 'advertising-status': 'read', 'landing-script-management': 'write', 'contract-management': 'write', 'cs-stats': 'read',
    });
    await insertType(db, '감사', 'admin', null, { dashboard: 'read', 'cpa-management': 'read' });

    expect(await migrateToLatest(db)).toContain('2026-12-01-agency-side');

    const rows = await db.selectFrom('account_types').select(['name', 'side', 'permissions']).orderBy('id').execute();
    const types = Object.fromEntries(rows.map((r: { name: string; side: string; permissions: string }) => [r.name, { side: r.side, permissions: JSON.parse(r.permissions) }]));
    expect(Object.fromEntries(Object.entries(types).map(([k, v]) => [k, v.side]))).toEqual({
      최고관리자: 'agency', 마케터: 'agency', 업체관리자: 'client', 상담원: 'client', 지점장: 'client', 감사: 'agency',
    });
    expect(types['업체관리자']!.permissions).toEqual({ ...OLD_OWNER, 'cpa-management': 'none', 'advertising-status': 'none' });
    expect(types['지점장']!.permissions).toEqual({
      'cpa-management': 'none', 'advertising-status': 'none', 'landing-script-management': 'none', 'contract-management': 'read', 'cs-stats': 'read',
    });
    // The agency's types keep what they had.
    expect(types['마케터']!.permissions).toEqual({ 'cpa-management': 'write', 'advertising-status': 'write', 'contract-management': 'write' });
    expect(types['감사']!.permissions).toEqual({ dashboard: 'read', 'cpa-management': 'read' });
    expect(types['상담원']!.permissions).toEqual({ 'database-status': 'write' });
  });
});

describe('built-in types and the screens added after their matrices were stored', () => {
  const matrixOf = async (db: OldDb, key: string) =>
    JSON.parse((await db.selectFrom('account_types').select('permissions').where('builtin_key', '=', key).executeTakeFirstOrThrow()).permissions) as Record<string, string>;
  const store = (db: OldDb, key: string, m: Record<string, string>) =>
    db.updateTable('account_types').set({ permissions: JSON.stringify(m) }).where('builtin_key', '=', key).execute();

  it('grants each missing screen its built-in level at start, keeps what is stored, and gives a client type no agency screen', async () => {
    handle = await freshDatabase();
    const db = handle.db as OldDb;
    const first = await testApp({}, { database: handle });
    await first.app.close();
    // As a release whose catalogue lacked 시스템 예약, DB 캘린더, CPA 관리 and 계약 관리 stored them; 상담원's 상담 통계 set to none on purpose.
    const drop = (m: Record<string, string>, ...keys: string[]) => Object.fromEntries(Object.entries(m).filter(([k]) => !keys.includes(k)));
    await store(db, 'superadmin', drop(await matrixOf(db, 'superadmin'), 'system-reservation', 'cpa-management'));
    await store(db, 'counselor', { ...drop(await matrixOf(db, 'counselor'), 'database-calendar'), 'cs-stats': 'none' });
    await store(db, 'shop-owner', drop(await matrixOf(db, 'shop-owner'), 'cpa-management', 'contract-management', 'database-status'));

    const t = await testApp({}, { database: handle });
    handle = undefined;
    try {
      const admin = await t.login();
      expect((await admin.get('/api/system-reservations')).statusCode).toBe(200);
      expect(await matrixOf(db, 'superadmin')).toMatchObject({ 'system-reservation': 'write', 'cpa-management': 'write' });
      expect(await matrixOf(db, 'counselor')).toMatchObject({ 'database-calendar': 'read', 'cs-stats': 'none' });
      // The client's owner: its own lead list to edit, contracts to read, and never the agency's CPA.
      expect(await matrixOf(db, 'shop-owner')).toMatchObject({ 'database-status': 'write', 'contract-management': 'read', 'cpa-management': 'none' });
      for (const m of [await matrixOf(db, 'superadmin'), await matrixOf(db, 'counselor')]) expect(Object.keys(m).sort()).toEqual(SCREENS.map((s) => s.key).sort());
      // Once complete, a matrix is left alone.
      expect(await grantNewScreens(t.app.db, NOW)).toEqual({});
    } finally {
      await t.close();
    }
  });
});

// ── Every release upgrades ──────────────────────────────────────────────────────────────────
// Each release's own database (server/db/fixtures/releases/<version>/, made by that release's code
// with its demo data: `npm run release:fixture`) is migrated by build() to this code, and then the
// product works on it: every screen opens for each built-in type as its permissions say (the route
// table and the screen catalogue name what to call), and a lead is taken in, allocated, delivered
// and exported.

const PG_URL = process.env.LR_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
const RELEASES = releaseFixtures();
/** Hundreds of requests per release, and a release's database to load: room for a machine four times slower than a developer's. */
const RELEASE_TIMEOUT = 120_000;

type ScreenAccess = Extract<RouteAccess, { screen: unknown }>;
const accessOf = (r: RouteOptions) => (r.config as { access?: RouteAccess } | undefined)?.access;
const screensOf = (a: ScreenAccess): string[] => (typeof a.screen === 'string' ? [a.screen] : [...a.screen]);

/** A query's parameters a route cannot do without, and where a value comes from (a list of the fixture's rows, or a constant). */
const REQUIRED_QUERY: Record<string, (ctx: { shop: string; firstIds: (listUrl: string) => Promise<number[]> }) => Promise<string>> = {
  // A name (the import below adds it): a search takes a whole name or phone number, not a fragment.
  q: async () => '김가져',
  jobIds: async ({ shop, firstIds }) => formatJobIds(await firstIds(`${shop}/delivery-jobs`)),
};

it('has the fixture of every release from 0.1.0 on', () => {
  // The first release's fixture (0.1.0) is the floor: a later one is added by `npm run release:fixture` at each release.
  expect(RELEASES.map((r) => r.version)).toContain('0.1.0');
});

describe.each(RELEASES)('release $version upgraded to this code', (release) => {
  const routes: RouteOptions[] = [];
  let t: TestApp;
  let dataDir: string;
  let admin: Client;
  /** Each built-in type's matrix as the release stored it (before this code migrated and started on it). */
  let storedMatrices: Map<string, Partial<PermissionMatrix>>;
  const receiver = webhookReceiver();

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-upgrade-'));
    // Forms of the release's landings were signed with its secret: this data directory keeps it.
    fs.writeFileSync(path.join(dataDir, 'landing-secret'), release.landingSecret);
    const database = await openReleaseFixture(release, PG_URL);
    const stored = await (database.db as OldDb).selectFrom('account_types').select(['builtin_key', 'permissions']).where('builtin_key', 'is not', null).execute();
    storedMatrices = new Map(stored.map((r: { builtin_key: string; permissions: string }) => [r.builtin_key, JSON.parse(r.permissions)]));
    t = await testApp({ dataDir, intakeRateLimit: 0 }, { database, onRoute: (r) => routes.push(r) });
    // Demo data is relative to when it was seeded (leads of the last 60 days, contracts running): an hour later, whatever today is.
    t.clock.current = new Date(new Date(PG_URL ? release.pgSeededAt : release.seededAt).getTime() + 3_600_000);
    admin = await t.login(release.adminLogin, release.adminPassword);
    await receiver.start();
  }, RELEASE_TIMEOUT);
  afterAll(async () => {
    await importsSettled();
    await t?.close();
    await receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every migration since the release', async () => {
    const applied = await t.app.db.selectFrom('kysely_migration' as never).select('name' as never).orderBy('name' as never).execute();
    expect((applied as Array<{ name: string }>).map((r) => r.name)).toEqual([...MIGRATION_NAMES].sort());
    expect(release.migrations.every((m) => MIGRATION_NAMES.includes(m))).toBe(true);
  });

  it('opens every screen for 최고관리자 and each built-in type as its permissions say', async () => {
    const types = await t.app.db.selectFrom('accounts').innerJoin('account_types as at', 'at.id', 'accounts.account_type_id')
      .select(['accounts.login_id', 'at.builtin_key', 'at.side', 'at.area']).where('at.builtin_key', 'is not', null).orderBy('accounts.id').execute();
    // Rows behind the routes that open one of them, where the demo has none.
    expect((await admin.post('/api/deny-rules', { kind: 'phone', value: '010-9999-0000', scope: 'intake', reason: '업그레이드 확인' })).statusCode).toBe(201);
    await importWithAnError(admin, await firstShopId(admin));

    const failures: string[] = [];
    for (const builtin of BUILTIN_ACCOUNT_TYPES) {
      const account = types.find((a) => a.builtin_key === builtin.key);
      expect(account, `the release's demo has an account of ${builtin.name}`).toBeDefined();
      const c = builtin.key === 'superadmin' ? admin : await t.login(account!.login_id, release.demoPassword);
      const me = (await c.get('/api/auth/me')).json().account as SessionAccount;

      // As the release stored it, within this code's rules: its side, its area, and the screens added since by rule.
      const expected = matrixForSide(account!.side, withNewScreens({
        builtinKey: builtin.key, area: account!.area, side: account!.side, permissions: storedMatrices.get(builtin.key) ?? {},
      }).permissions);
      expect(me.permissions, builtin.name).toEqual(expected);
      if (builtin.key === 'superadmin') expect(SCREENS.filter((s) => !allows(me.permissions, s.key, 'read')).map((s) => s.key)).toEqual([]);

      const shopId = await firstShopId(c);
      const opened = new Set<string>();
      for (const r of routes) {
        const access = accessOf(r);
        const methods = Array.isArray(r.method) ? r.method : [r.method];
        if (!access || !('screen' in access) || !methods.includes('GET') || !r.url.startsWith('/api/')) continue;
        const endpoint = r.config?.endpoint as Endpoint | undefined;
        const may = screensOf(access).some((s) => allows(me.permissions, s, access.action));
        const url = await fillRoute(r.url, endpoint, c, shopId);
        const status = endpoint?.response === 'events' ? await streamStatus(t, c, url) : (await c.get(url)).statusCode;
        if (status !== (may ? 200 : 403)) failures.push(`${builtin.name}: GET ${url} answered ${status}, expected ${may ? 200 : 403}`);
        else if (may) for (const s of screensOf(access)) if (allows(me.permissions, s, 'read')) opened.add(s);
      }
      const unopened = SCREENS.filter((s) => allows(me.permissions, s.key, 'read') && !opened.has(s.key)).map((s) => s.key);
      if (unopened.length) failures.push(`${builtin.name}: no route answered for ${unopened.join(', ')}`);
    }
    expect(failures).toEqual([]);
  }, RELEASE_TIMEOUT);

  it('takes a lead through a landing of the release, allocates, delivers and exports it', async () => {
    // A shop of the release with an open landing and counselors.
    let found: { shopId: number; shopCode: string; landingId: number; counselorId: number } | undefined;
    for (const shop of (await admin.get('/api/auth/shops')).json().items as Array<{ id: number; shopCode: string }>) {
      const open = ((await admin.get(`/api/shops/${shop.id}/landings`)).json().items as Array<{ id: number; status: string }>).find((l) => l.status === 'open');
      const counselor = ((await admin.get(`/api/shops/${shop.id}/counselors`)).json().items as Array<{ id: number }>)[0];
      if (open && counselor) {
        found = { shopId: shop.id, shopCode: shop.shopCode, landingId: open.id, counselorId: counselor.id };
        break;
      }
    }
    expect(found, 'a shop with an open landing and a counselor').toBeDefined();
    const { shopId, shopCode, landingId, counselorId } = found!;
    const shop = `/api/shops/${shopId}`;

    // Delivered as it arrives: an instant webhook channel of the shop, to a receiver on this machine.
    const channel = await admin.post(`${shop}/delivery-channels`, { name: '업그레이드 확인', kind: 'webhook', url: `${receiver.url()}/hook`, timeoutMs: 5000 });
    expect(channel.statusCode, channel.body).toBe(201);

    const landing = (await admin.get(`${shop}/landings/${landingId}`)).json() as { landingCode: string; formFields: Array<{ key: string; type: string; options: string[]; required: boolean }> };
    const answers = Object.fromEntries(landing.formFields.filter((f) => f.required).map((f) => [f.key, f.type === 'checkbox' ? [f.options[0]] : (f.options[0] ?? '업그레이드')]));
    const token = signRenderStamp(landingSecret(dataDir), landingId, new Date(t.clock.current.getTime() - 10_000));
    const submitted = await t.app.inject({
      method: 'POST', url: '/api/public/leads', remoteAddress: '203.0.113.50',
      headers: { host: 'localhost', 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (upgrade test)' },
      payload: JSON.stringify({ shopCode, landingCode: landing.landingCode, name: '한업그', phone: '010-4321-8765', privacyConsent: true, ...answers, _t: token }),
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const lead = await t.app.db.selectFrom('leads').select('id').where('phone', '=', '01043218765').executeTakeFirstOrThrow();

    const allocated = await admin.post(`${shop}/allocation/apply`, { mode: 'manual', counselorIds: [counselorId], leadIds: [lead.id] });
    expect(allocated.statusCode, allocated.body).toBe(200);
    const counselorLogin = await t.app.db.selectFrom('accounts').select('login_id').where('id', '=', counselorId).executeTakeFirstOrThrow();
    const counselor = await t.login(counselorLogin.login_id, release.demoPassword);
    const seen = await counselor.get(`${shop}/leads/${lead.id}`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().assigneeId).toBe(counselorId);

    // Intake writes a lead's delivery jobs a moment after its batch commits (its follow-ups): settled here, not raced.
    await t.app.links.leadFollowUps();
    await deliveryWorker(t.app.db, t.app.clock, { random: () => 0.5, deps: { outbound: t.app.outbound } }).tick();
    const job = await t.app.db.selectFrom('delivery_jobs').select(['status']).where('lead_id', '=', lead.id).where('channel_id', '=', channel.json().id).executeTakeFirstOrThrow();
    expect(job.status).toBe('succeeded');
    expect(receiver.bodies.some((b) => b.includes('한업그'))).toBe(true);

    const exported = await admin.post(`${shop}/leads/export`, { format: 'csv', reason: '업그레이드 확인', q: '01043218765' });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body).toContain('한업그');
  }, RELEASE_TIMEOUT);

  /** The id of the shop an account works in: the first it may enter. */
  async function firstShopId(c: Client): Promise<number> {
    const shops = (await c.get('/api/auth/shops')).json().items as Array<{ id: number }>;
    expect(shops.length, 'the account may enter a shop').toBeGreaterThan(0);
    return shops[0]!.id;
  }

  /**
   * Ids of the first rows of a list, read as `c` where it may, else as 최고관리자 (a route it may not
   * open still needs a real id); over the last year where the list takes a period (lead lists show today by default).
   */
  async function firstIds(c: Client, list: string): Promise<number[]> {
    const listRoute = routes.find((r) => r.url === list.replace(/\/shops\/\d+\//, '/shops/:shopId/') && (r.method === 'GET' || (Array.isArray(r.method) && r.method.includes('GET'))));
    const shape = (listRoute?.config?.endpoint?.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
    const listUrl = 'from' in shape && 'to' in shape ? `${list}?from=${addDays(seoulDay(t.clock.current), -365)}&to=${seoulDay(t.clock.current)}` : list;
    let res = await c.get(listUrl);
    if (res.statusCode !== 200) res = await admin.get(listUrl);
    expect(res.statusCode, `GET ${listUrl}: ${res.body}`).toBe(200);
    const items = (res.json().items ?? []) as Array<{ id: number }>;
    return items.slice(0, 1).map((i) => i.id);
  }

  /** A route's URL with its path and required query parameters filled from the fixture's rows. */
  async function fillRoute(pattern: string, endpoint: Endpoint | undefined, c: Client, shopId: number): Promise<string> {
    let url = pattern.replace(':shopId', String(shopId));
    for (let m = /:(\w+)/.exec(url); m; m = /:(\w+)/.exec(url)) {
      // `:day` is a day; any other parameter is a row of the list the path names before it.
      const value = m[1] === 'day' ? seoulDay(t.clock.current) : (await firstIds(c, url.slice(0, m.index - 1)))[0];
      expect(value, `a row of ${url.slice(0, m.index - 1)} to fill ${pattern}`).toBeDefined();
      url = url.replace(m[0], String(value));
    }
    const query = endpoint?.query as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> } | undefined;
    const required = Object.entries(query?.shape ?? {}).filter(([, s]) => !s.safeParse(undefined).success).map(([k]) => k);
    const params = new URLSearchParams();
    for (const key of required) {
      const fill = REQUIRED_QUERY[key];
      expect(fill, `a value for the required query parameter ${key} of ${pattern} (REQUIRED_QUERY)`).toBeDefined();
      params.set(key, await fill!({ shop: `/api/shops/${shopId}`, firstIds: (u) => firstIds(c, u) }));
    }
    return params.size ? `${url}?${params}` : url;
  }
});

/** An import of two rows, one refused: its detail and its error report have something to show. */
async function importWithAnError(c: Client, shopId: number): Promise<void> {
  const boundary = '----leadroom-upgrade';
  const csv = '\ufeff고객명,휴대폰\r\n김가져,010-2222-3333\r\n번호없음,12\r\n';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="업그레이드.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const up = await c.request('POST', `/api/shops/${shopId}/data-insertion/imports`, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  expect(up.statusCode, up.body).toBe(201);
  const started = await c.post(`/api/shops/${shopId}/data-insertion/imports/${up.json().id}/start`, { mapping: up.json().suggested, consentBasis: 'written' });
  expect(started.statusCode, started.body).toBe(202);
  await importsSettled();
}

/** The status an event stream answers with (read over HTTP, then closed: a stream never ends by itself). */
async function streamStatus(t: TestApp, c: Client, url: string): Promise<number> {
  if (!t.app.server.listening) await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  const controller = new AbortController();
  try {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, { headers: { cookie: c.cookie }, signal: controller.signal });
    return res.status;
  } finally {
    controller.abort();
  }
}

/** An HTTP receiver on 127.0.0.1 that answers 200 and keeps each body. */
function webhookReceiver() {
  const bodies: string[] = [];
  let server: http.Server | undefined;
  return {
    bodies,
    async start() {
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (d: Buffer) => (body += d.toString('utf8')));
        req.on('end', () => {
          bodies.push(body);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        });
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    },
    url: () => `http://127.0.0.1:${(server!.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}
