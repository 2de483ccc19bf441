// Two app instances on one PostgreSQL schema and one Redis, as two processes of a cluster:
// nothing that must be shared is kept per process. Skipped without PostgreSQL and Redis
// (TEST_DATABASE_URL, TEST_REDIS_URL; .ci/run sets both).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { build } from './app.ts';
import { openDatabase, type DbHandle } from './db/dialect.ts';
import type { Config } from './config.ts';
import { countRows, landingInput, landingTestApp, leadBody, openLanding, submit, type LandingTestApp } from './test-landings.ts';
import { readStream } from './test-streams.ts';
import { LEAD_STREAM_EVENT, type LeadStreamEvent } from '../contracts/leads.ts';

const pgUrl = process.env.LR_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
const redisUrl = process.env.TEST_REDIS_URL;
const LOGIN_LIMIT = 6;
const INTAKE_LIMIT = 3;

describe.runIf(pgUrl && redisUrl)('two app instances on PostgreSQL with Redis', () => {
  let a: LandingTestApp;
  let b: FastifyInstance;
  let bHandle: DbHandle;
  let landingId: number;
  let schema: string;
  const config = (): Partial<Config> => ({ redisUrl, loginRateLimit: LOGIN_LIMIT, intakeRateLimit: INTAKE_LIMIT });

  /** Another instance on A's schema and data directory (the same file secret), with A's clock. */
  async function another(extra: Partial<Config> = {}): Promise<{ app: FastifyInstance; handle: DbHandle }> {
    const handle = await openDatabase({ url: pgUrl!, pgSchema: schema, poolSize: 2 });
    try {
      const app = await build({
        config: { logLevel: 'silent', seedDemo: false, distDir: '/nonexistent', dataDir: a.dataDir, workerEnabled: false, ...config(), ...extra },
        database: handle, clock: a.clock.now,
      });
      await app.ready();
      return { app, handle };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  beforeEach(async () => {
    a = await landingTestApp(config());
    landingId = await openLanding(a);
    schema = (await a.app.db.selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('s')).executeTakeFirstOrThrow()).s;
    ({ app: b, handle: bHandle } = await another());
  });
  afterEach(async () => {
    await b.close();
    await bHandle.close();
    await a.close();
  });

  it('opens one Redis connection each, under one key prefix for the database', () => {
    expect(a.app.redis).not.toBeNull();
    expect(b.redis).not.toBeNull();
    expect(b.redisPrefix).toBe(a.app.redisPrefix);
  });

  it('shares the login limit: attempts split across both instances hit the limit at its max', async () => {
    const attempt = (app: FastifyInstance) =>
      app.inject({
        method: 'POST', url: '/api/auth/login', remoteAddress: '198.51.100.23',
        headers: { host: 'localhost:80', origin: 'http://localhost:80' }, payload: { loginId: 'nobody', password: 'Wrong-pass-1' },
      });
    const codes: number[] = [];
    for (let i = 0; i < LOGIN_LIMIT + 2; i++) codes.push((await attempt(i % 2 ? b : a.app)).statusCode);
    // Per process the limit would allow 2×6 attempts; shared, the 7th is refused whichever instance takes it.
    expect(codes.slice(0, LOGIN_LIMIT).every((c) => c === 401)).toBe(true);
    expect(codes.slice(LOGIN_LIMIT)).toEqual([429, 429]);
  });

  it('shares intake’s per-IP-and-landing limit across instances', async () => {
    const ip = '198.51.100.77';
    const codes: number[] = [];
    for (let i = 0; i < INTAKE_LIMIT + 2; i++) {
      const res = i % 2
        ? await b.inject({
          method: 'POST', url: '/api/public/leads', remoteAddress: ip, payload: JSON.stringify(leadBody(a, landingId, { phone: `010-5555-00${10 + i}` })),
          headers: { host: 'localhost', 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone) test' },
        })
        : await submit(a, leadBody(a, landingId, { phone: `010-5555-00${10 + i}` }), { ip });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 429, 429]);
    expect(await countRows(a, 'leads')).toBe(INTAKE_LIMIT);
  });

  it('shows a landing changed through instance A on instance B’s page within a second', async () => {
    const path = '/view/smile/implant';
    const view = () => b.inject({ method: 'GET', url: path });
    for (const round of [1, 2, 3]) {
      // B has the page cached: two answers with the same ETag.
      const before = await view();
      expect(before.statusCode).toBe(200);
      expect((await view()).headers.etag).toBe(before.headers.etag);
      const headline = `임플란트 상담 ${round}차 이벤트`;
      const input = landingInput();
      const put = await a.admin.put(`/api/shops/${a.shopId}/landings/${landingId}`, { ...input, content: { ...input.content, headline } });
      expect(put.statusCode, put.body).toBe(200);
      const changedAt = Date.now();
      let seen = false;
      // Three rounds in a row within a second each: not the 3-second revalidation by luck.
      while (!seen && Date.now() - changedAt < 1000) {
        seen = (await view()).body.includes(headline);
        if (!seen) await new Promise((r) => setTimeout(r, 25));
      }
      expect(seen, `round ${round}: B shows the change within 1 s`).toBe(true);
    }
  });

  it('carries a lead submitted to instance A to a lead stream opened on instance B', async () => {
    const base = await b.listen({ host: '127.0.0.1', port: 0 });
    const stream = await readStream<LeadStreamEvent>(`${base}/api/shops/${a.shopId}/leads/stream`, a.admin, LEAD_STREAM_EVENT);
    try {
      expect((await submit(a, leadBody(a, landingId))).statusCode).toBe(201);
      const lead = await a.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      const [event] = await stream.until(1);
      expect(event).toMatchObject({ kind: 'created', ids: [lead.id] });
    } finally {
      await stream.close();
    }
  });

  it('writes the visits every instance counted before statistics are read on one', async () => {
    const beacon = (app: FastifyInstance, ip: string) =>
      app.inject({
        method: 'POST', url: '/api/public/visits', remoteAddress: ip, payload: 'shopCode=smile&landingCode=implant&source=meta',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) expect((await beacon(b, ip)).statusCode).toBe(204);
    expect((await beacon(a.app, '198.51.100.4')).statusCode).toBe(204);
    // Nothing written yet (every 5 s otherwise): A's flush asks B too, and waits for its answer.
    await a.app.links.flushVisits();
    const rows = await a.app.db.selectFrom('visits').select(['source', 'count']).execute();
    expect(rows).toEqual([{ source: 'meta', count: 4 }]);
  });

  it('counts a session touched on one instance as activity on the other', async () => {
    const req = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/auth/me', headers: { host: 'localhost:80', cookie: a.admin.cookie } });
    a.clock.advanceMinutes(50);
    expect((await req(b)).statusCode).toBe(200);
    a.clock.advanceMinutes(50); // 100 minutes since the login, 50 since B's request: idle limit 60
    expect((await req(a.app)).statusCode).toBe(200);
    a.clock.advanceMinutes(61);
    expect((await req(b)).statusCode).toBe(401);
  });
});

describe.runIf(pgUrl)('the landing secret on a shared PostgreSQL database', () => {
  let a: LandingTestApp;
  let schema: string;
  const saved = { secret: process.env.LANDING_SECRET, rotate: process.env.LANDING_SECRET_ROTATE };
  beforeAll(() => {
    delete process.env.LANDING_SECRET;
    delete process.env.LANDING_SECRET_ROTATE;
  });
  afterAll(() => {
    for (const [k, v] of [['LANDING_SECRET', saved.secret], ['LANDING_SECRET_ROTATE', saved.rotate]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  beforeEach(async () => {
    a = await landingTestApp();
    schema = (await a.app.db.selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('s')).executeTakeFirstOrThrow()).s;
  });
  afterEach(async () => {
    delete process.env.LANDING_SECRET;
    delete process.env.LANDING_SECRET_ROTATE;
    await a.close();
  });

  /** Starts (and stops) another instance on A's database; answers the error it refused with, if any. */
  async function start(extra: Partial<Config> = {}): Promise<string | null> {
    const handle = await openDatabase({ url: pgUrl!, pgSchema: schema, poolSize: 1 });
    try {
      const app = await build({ config: { logLevel: 'silent', seedDemo: false, distDir: '/nonexistent', dataDir: a.dataDir, workerEnabled: false, ...extra }, database: handle });
      await app.close();
      return null;
    } catch (err) {
      return (err as Error).message;
    } finally {
      await handle.close();
    }
  }

  it('refuses a process whose secret differs from the one the first process recorded', async () => {
    // The same data directory: the same file secret.
    expect(await start()).toBeNull();
    // Another machine's data directory: another random secret.
    expect(await start({ dataDir: `${a.dataDir}/elsewhere` })).toMatch(/LANDING_SECRET이 설정되지 않아 .* 다른 프로세스의 비밀값과 다릅니다/);
    // Moving to LANDING_SECRET replaces the file default's fingerprint …
    process.env.LANDING_SECRET = 'first-cluster-secret-0123456789';
    expect(await start({ cluster: true })).toBeNull();
    // … after which a process still on the file, or on another secret, is refused.
    delete process.env.LANDING_SECRET;
    expect(await start()).toMatch(/다른 프로세스의 비밀값과 다릅니다/);
    process.env.LANDING_SECRET = 'another-cluster-secret-987654321';
    expect(await start({ cluster: true })).toMatch(/LANDING_SECRET이 이 데이터베이스를 쓰는 다른 프로세스의 값과 다릅니다/);
    // A change on purpose.
    process.env.LANDING_SECRET_ROTATE = '1';
    expect(await start({ cluster: true })).toBeNull();
    delete process.env.LANDING_SECRET_ROTATE;
    expect(await start({ cluster: true })).toBeNull();
    const row = await a.app.db.selectFrom('shared_settings').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ key: 'landing-secret-fingerprint', source: 'env' });
    expect(row.value).not.toContain('another');
    expect(row.value).toMatch(/^[0-9a-f]{32}$/);
  });

  it('requires LANDING_SECRET in cluster mode, naming the variable', async () => {
    expect(await start({ cluster: true })).toMatch(/LEADROOM_CLUSTER=1.*LANDING_SECRET이 필요합니다/);
    process.env.LANDING_SECRET = 'short';
    expect(await start({ cluster: true })).toMatch(/LANDING_SECRET이 너무 짧습니다/);
  });
});
