// Test support: a fresh database per app (SQLite in memory — a copy of one migrated once — or a
// throwaway PostgreSQL schema when LR_TEST_DIALECT=postgres), logged-in clients, and a controllable clock.
import crypto from 'node:crypto';
import { afterEach, beforeEach } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { build, type BuildOptions } from './app.ts';
import { openDatabase, type DbHandle } from './db/dialect.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Config } from './config.ts';
import { outboundClient, type Resolver } from './lib/outbound.ts';

export const ADMIN_PASSWORD = 'Admin!2345';

/** An empty database of the engine under test (closed, and on PostgreSQL dropped, by its close). */
export async function freshDatabase(): Promise<DbHandle> {
  if (process.env.LR_TEST_DIALECT === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const handle = await openDatabase({ url, pgSchema: schema, poolSize: 4 });
    return {
      ...handle,
      async close() {
        const pg = (await import('pg')).default;
        await handle.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop schema if exists "${schema}" cascade`);
        await c.end();
      },
    };
  }
  return openDatabase({ url: ':memory:' });
}

/** A database of the engine under test with every migration applied (SQLite: a copy of one migrated once). */
export async function migratedDatabase(): Promise<DbHandle> {
  if (process.env.LR_TEST_DIALECT === 'postgres') return freshDatabase();
  return openDatabase({ url: ':memory:', image: await migratedImage() });
}

let migrated: Promise<Buffer> | undefined;
/**
 * An empty SQLite database with every migration applied, made once per test process: each test's
 * database starts as a copy of it (the app's own migrate then finds nothing to do) — migrating
 * from scratch for each of hundreds of tests was a large part of the unit tests' time.
 */
function migratedImage(): Promise<Buffer> {
  migrated ??= (async () => {
    const template = await openDatabase({ url: ':memory:' });
    try {
      await migrateToLatest(template.db);
      return template.serialize!();
    } finally {
      await template.close();
    }
  })();
  return migrated;
}

class TestClock {
  constructor(public current = new Date('2026-11-21T01:00:00.000Z')) {}
  now = () => new Date(this.current);
  advanceMinutes(m: number) {
    this.current = new Date(this.current.getTime() + m * 60_000);
  }
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  close(): Promise<void>;
  /** Logs in and returns a client whose requests carry the session cookie and a same-origin Origin. */
  login(loginId?: string, password?: string): Promise<Client>;
  anonymous: Client;
}

export interface Client {
  cookie: string;
  request(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  del(url: string): Promise<LightMyRequestResponse>;
}

/**
 * What tests let the server reach: their receivers listen on 127.0.0.1 (other loopback addresses
 * stay refused, for the tests of the refusal), as an operator allows an on-premise CRM.
 */
export const TEST_OUTBOUND_ALLOW = ['127.0.0.1/32'];

/** No DNS leaves the machine in a test: a name resolves only where a test says so (`localhost` is the client's own). */
export const offlineResolver: Resolver = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** The outbound client of a test app, for senders and workers a test makes itself. */
export const TEST_OUTBOUND = outboundClient({ allow: TEST_OUTBOUND_ALLOW, resolve: offlineResolver });

export async function testApp(config: Partial<Config> = {}, opts: Omit<BuildOptions, 'config' | 'clock'> = {}): Promise<TestApp> {
  // A given database (e.g. a SQLite file) is the app's from here on and closed with it.
  const database = opts.database ?? (await migratedDatabase());
  const clock = new TestClock();
  const app = await build({
    // No scheduled jobs unless a test asks for them: tests run the purge themselves, on the test clock.
    config: {
      initialAdminPassword: ADMIN_PASSWORD, seedDemo: false, logLevel: 'silent', loginRateLimit: 1000, distDir: '/nonexistent', workerEnabled: false,
      outboundAllowCidrs: TEST_OUTBOUND_ALLOW, ...config,
    },
    resolveHost: offlineResolver,
    ...opts,
    database,
    clock: clock.now,
  });
  await app.ready();

  const client = (cookie: string): Client => {
    const request = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: { host: 'localhost:80', origin: 'http://localhost:80', ...(cookie ? { cookie } : {}), ...headers },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
    return {
      cookie,
      request,
      get: (url) => request('GET', url),
      post: (url, body) => request('POST', url, body ?? {}),
      put: (url, body) => request('PUT', url, body ?? {}),
      del: (url) => request('DELETE', url),
    };
  };

  return {
    app,
    clock,
    anonymous: client(''),
    async login(loginId = 'admin', password = ADMIN_PASSWORD) {
      const res = await client('').post('/api/auth/login', { loginId, password });
      if (res.statusCode !== 200) throw new Error(`login ${loginId} failed: ${res.statusCode} ${res.body}`);
      const set = res.cookies.find((c) => c.name === 'lr_session');
      return client(`lr_session=${set!.value}`);
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** A password that satisfies the policy, for accounts tests create. */
export const TEST_PASSWORD = 'Test!pass123';

/** The id of an account type by its name (built-in: 최고관리자, 관리자, 마케터, 업체관리자, 상담원). */
export async function typeIdByName(admin: Client, name: string): Promise<number> {
  const res = await admin.get('/api/account-types/options');
  const found = (res.json().items as Array<{ id: number; name: string }>).find((t) => t.name === name);
  if (!found) throw new Error(`no account type ${name}`);
  return found.id;
}

/** Creates an account through the API (as `admin`) and answers its id. */
export async function createAccount(admin: Client, loginId: string, typeName: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await admin.post('/api/accounts', {
    loginId, password: TEST_PASSWORD, name: loginId, accountTypeId: await typeIdByName(admin, typeName), ...extra,
  });
  if (res.statusCode !== 201) throw new Error(`create account ${loginId} failed: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

/** Creates a shop through the API (as `admin`) and answers its id. */
export async function createShop(admin: Client, shopCode: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await admin.post('/api/shops', { shopCode, name: `업체 ${shopCode}`, ...extra });
  if (res.statusCode !== 201) throw new Error(`create shop ${shopCode} failed: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

/**
 * A fresh app and its logged-in administrator for every test of the calling file (registers
 * beforeEach and afterEach); `use` hands them to the file's own variables.
 */
export function eachTestApp(use: (t: TestApp, admin: Client) => void): void {
  let current: TestApp | undefined;
  beforeEach(async () => {
    current = await testApp();
    use(current, await current.login());
  });
  afterEach(async () => {
    await current?.close();
  });
}
