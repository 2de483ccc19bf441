// Test support: a fresh database per app (SQLite in memory, or a throwaway PostgreSQL
// schema when LR_TEST_DIALECT=postgres), logged-in clients, and a controllable clock.
import crypto from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { build, type BuildOptions } from './app.ts';
import { openDatabase, type DbHandle } from './db/dialect.ts';
import type { Config } from './config.ts';

export const ADMIN_PASSWORD = 'Admin!2345';

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

export class TestClock {
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

export async function testApp(config: Partial<Config> = {}, opts: Omit<BuildOptions, 'config' | 'database' | 'clock'> = {}): Promise<TestApp> {
  const database = await freshDatabase();
  const clock = new TestClock();
  const app = await build({
    config: { initialAdminPassword: ADMIN_PASSWORD, seedDemo: false, logLevel: 'silent', loginRateLimit: 1000, distDir: '/nonexistent', ...config },
    database,
    clock: clock.now,
    ...opts,
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
