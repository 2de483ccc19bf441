// Health, readiness, request ids and metrics, through app.inject() on a fresh database; the
// set-up lock with two apps starting together on one fresh PostgreSQL schema.
import crypto from 'node:crypto';
import { sql, Kysely, PostgresDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../../app.ts';
import { openDatabase, type DbHandle } from '../../db/dialect.ts';
import { testApp, ADMIN_PASSWORD, type TestApp } from '../../test-helpers.ts';
import { landingTestApp, leadBody, openLanding, submit } from '../../test-landings.ts';
import { heartbeatJob } from '../../worker/heartbeat.ts';
import { deliveryWorker } from '../../worker/delivery.ts';
import type { SentReport } from '../delivery/delivery.entry.ts';
import http from 'node:http';
import { operationsService } from './operations.service.ts';
import type { Database } from '../../db/schema.ts';

const PG = process.env.LR_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
const dialect = PG ? 'postgres' : 'sqlite';

/**
 * A latency the health check measured: tenths of a millisecond, within the request that asked
 * for it (`wallMs`, measured around it) — not null, negative, a timestamp or the probe's timeout.
 */
function expectMeasured(latencyMs: unknown, wallMs: number): void {
  expect(typeof latencyMs, String(latencyMs)).toBe('number');
  const ms = latencyMs as number;
  expect(Math.round(ms * 10) / 10).toBe(ms);
  expect(ms).toBeGreaterThanOrEqual(0);
  expect(ms).toBeLessThanOrEqual(Math.ceil(wallMs * 10) / 10);
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('/api/health', () => {
  it('reports the database and, without a worker heartbeat, degraded (still 200) — and no secrets', async () => {
    t = await testApp();
    const started = performance.now();
    const res = await t.anonymous.get('/api/health');
    const wall = performance.now() - started;
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      status: 'degraded',
      database: { dialect, reachable: true },
      redis: { configured: false, reachable: null, latencyMs: null },
      worker: { inProcess: false, alive: 0, lastHeartbeatAt: null, lastHeartbeatAgeSeconds: null },
    });
    expectMeasured(body.database.latencyMs, wall);
    expect(res.body).not.toMatch(/postgres:\/\/|password|secret/i);
  });

  it('is ok while a worker beats, degraded once its heartbeat is 30 s old, and forgets a worker that stopped', async () => {
    t = await testApp();
    const beat = heartbeatJob(t.app.db, t.clock.now, { id: 'host-a:1' });
    await beat.run();
    let body = (await t.anonymous.get('/api/health')).json();
    expect(body).toMatchObject({ status: 'ok', worker: { alive: 1, lastHeartbeatAt: t.clock.current.toISOString(), lastHeartbeatAgeSeconds: 0 } });

    t.clock.advanceMinutes(0.5);
    body = (await t.anonymous.get('/api/health')).json();
    expect(body).toMatchObject({ status: 'ok', worker: { alive: 1, lastHeartbeatAgeSeconds: 30 } });
    t.clock.advanceMinutes(0.1);
    body = (await t.anonymous.get('/api/health')).json();
    expect(body).toMatchObject({ status: 'degraded', worker: { alive: 0, lastHeartbeatAgeSeconds: 36 } });

    // A second worker beats now; the first, silent for a day, is pruned by it.
    t.clock.advanceMinutes(24 * 60);
    await heartbeatJob(t.app.db, t.clock.now, { id: 'host-b:2' }).run();
    const ids = async () => (await t!.app.db.selectFrom('worker_heartbeats').select('id').execute()).map((r) => r.id);
    expect(await ids()).toEqual(['host-b:2']);
    await heartbeatJob(t.app.db, t.clock.now, { id: 'host-b:2' }).forget();
    expect(await ids()).toEqual([]);
  });

  it('is down when the database does not answer', async () => {
    // Nothing listens on port 1: the round trip fails at once.
    const dead = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new (await import('pg')).default.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 500 }) }) });
    try {
      const report = await operationsService(dead, () => new Date(), { dialect: 'postgres', workerInProcess: true, startedAt: Date.now() }).health();
      expect(report).toMatchObject({ status: 'down', database: { dialect: 'postgres', reachable: false, latencyMs: null }, worker: { alive: 0, inProcess: true } });
    } finally {
      await dead.destroy();
    }
  });

  it('says when Redis is configured but does not answer (degraded)', async () => {
    t = await testApp({ redisUrl: 'redis://127.0.0.1:1' });
    await heartbeatJob(t.app.db, t.clock.now).run();
    const res = await t.anonymous.get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'degraded', redis: { configured: true, reachable: false }, worker: { alive: 1 } });
    expect(res.body).not.toContain('127.0.0.1:1');
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('reports Redis reachable, with its latency', async () => {
    t = await testApp({ redisUrl: process.env.TEST_REDIS_URL });
    await heartbeatJob(t.app.db, t.clock.now).run();
    // The connection may still be opening on the first check.
    const health = async () => {
      const started = performance.now();
      const res = await t!.anonymous.get('/api/health');
      return { body: res.json(), wall: performance.now() - started };
    };
    let { body, wall } = await health();
    for (let i = 0; i < 50 && !body.redis.reachable; i++) {
      await new Promise((r) => setTimeout(r, 20));
      ({ body, wall } = await health());
    }
    expect(body).toMatchObject({ status: 'ok', redis: { configured: true, reachable: true } });
    expectMeasured(body.redis.latencyMs, wall);
  });
});

describe('/api/ready', () => {
  it('answers 200 while the process takes traffic and 503 once it drains, still serving the rest', async () => {
    t = await testApp();
    let res = await t.anonymous.get('/api/ready');
    expect([res.statusCode, res.json()]).toEqual([200, { ready: true, state: 'ready' }]);
    t.app.readiness.drain();
    res = await t.anonymous.get('/api/ready');
    expect([res.statusCode, res.json()]).toEqual([503, { ready: false, state: 'draining' }]);
    expect(res.headers['retry-after']).toBe('5');
    expect((await t.anonymous.get('/api/health')).statusCode).toBe(200);
    expect((await t.anonymous.post('/api/auth/login', { loginId: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });
});

describe('request ids', () => {
  it('echoes a sane X-Request-Id and replaces anything else with a new one', async () => {
    t = await testApp();
    const get = (id?: string) => t!.anonymous.request('GET', '/api/health', undefined, id === undefined ? {} : { 'x-request-id': id });
    expect((await get('lb-7f3a.9_x')).headers['x-request-id']).toBe('lb-7f3a.9_x');
    for (const bad of [undefined, 'x'.repeat(65), 'a b', 'id\u0000', '<script>']) {
      const id = (await get(bad)).headers['x-request-id'];
      expect(id, String(bad)).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    }
    const a = (await get()).headers['x-request-id'];
    expect(a).not.toBe((await get()).headers['x-request-id']);
  });

  it('carries the id on the fast paths too (a real listening server)', async () => {
    const l = await landingTestApp();
    try {
      const landingId = await openLanding(l);
      await l.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(l.app.server.address() as { port: number }).port}`;
      const page = `${base}/view/${l.shopCode}/implant`;
      await fetch(page); // renders once: the next GET is the cached fast path
      const before = l.app.metrics.fast.landing;
      const res = await fetch(page, { headers: { 'x-request-id': 'edge-1' } });
      expect([res.status, res.headers.get('x-request-id')]).toEqual([200, 'edge-1']);
      expect(l.app.metrics.fast.landing).toBe(before + 1);
      const lead = await fetch(`${base}/api/public/leads`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'edge-2' }, body: JSON.stringify(leadBody(l, landingId)),
      });
      expect([lead.status, lead.headers.get('x-request-id')]).toEqual([201, 'edge-2']);
      expect(l.app.metrics.fast.intake).toBe(1);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toContain('leadroom_fast_path_requests_total{path="intake"} 1');
      expect(metrics).toContain('leadroom_intake_accepted_total{duplicate="false"} 1');
    } finally {
      await l.close();
    }
  });
});

describe('/metrics', () => {
  it('counts requests per route pattern, intake decisions and the outbox, for loopback or the token only', async () => {
    const l = await landingTestApp({ metricsToken: 'scrape-me' });
    try {
      const landingId = await openLanding(l);
      expect((await submit(l, leadBody(l, landingId))).statusCode).toBe(201);
      expect((await submit(l, leadBody(l, landingId))).statusCode).toBe(201); // the same phone again: a duplicate
      expect((await submit(l, leadBody(l, landingId, { _t: 'forged' }))).statusCode).toBe(400);
      expect((await submit(l, leadBody(l, landingId, { name: '' }))).statusCode).toBe(422);
      await l.admin.get(`/api/shops/${l.shopId}/landings/${landingId}`);

      const scrape = (o: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
        l.app.inject({ method: 'GET', url: '/metrics', ...o });
      const res = await scrape();
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = res.body;
      expect(text).toContain('leadroom_intake_accepted_total{duplicate="false"} 1');
      expect(text).toContain('leadroom_intake_accepted_total{duplicate="true"} 1');
      expect(text).toContain('leadroom_intake_refused_total{reason="BAD_TOKEN"} 1');
      expect(text).toContain('leadroom_intake_refused_total{reason="VALIDATION"} 1');
      expect(text).toMatch(/leadroom_http_request_duration_seconds_count\{method="GET",route="\/api\/shops\/:shopId\/landings\/:id",status_class="2xx"\} 1\n/);
      expect(text).toMatch(/leadroom_http_request_duration_seconds_count\{method="POST",route="\/api\/public\/leads",status_class="4xx"\} 2\n/);
      expect(text).toContain('leadroom_outbox_jobs{status="pending"} 0');
      expect(text).toContain('leadroom_outbox_oldest_due_seconds 0');
      expect(text).toContain('process_cpu_user_seconds_total');

      // Not loopback, or loopback relayed by a proxy: nothing here, unless the token is given.
      expect((await scrape({ remoteAddress: '203.0.113.9' })).statusCode).toBe(404);
      expect((await scrape({ headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode).toBe(404);
      expect((await scrape({ remoteAddress: '203.0.113.9', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(404);
      expect((await scrape({ remoteAddress: '203.0.113.9', headers: { authorization: 'Bearer scrape-me' } })).statusCode).toBe(200);
    } finally {
      await l.close();
    }
  });

  it('shows the outbox backlog and how long its oldest due job has waited', async () => {
    const l = await landingTestApp();
    try {
      const landingId = await openLanding(l);
      expect((await submit(l, leadBody(l, landingId))).statusCode).toBe(201);
      const db = l.app.db;
      const now = l.clock.current.toISOString();
      const lead = await db.selectFrom('leads').select('id').executeTakeFirstOrThrow();
      const channel = await db.insertInto('delivery_channels').values({ shop_id: l.shopId, name: 'hook', kind: 'webhook', created_at: now, updated_at: now })
        .returning('id').executeTakeFirstOrThrow();
      // Due five minutes ago, one minute ago, and in an hour (the clock is at 01:00).
      for (const [i, due] of ['2026-11-21T00:55:00.000Z', '2026-11-21T00:59:00.000Z', '2026-11-21T02:00:00.000Z'].entries()) {
        await db.insertInto('delivery_jobs').values({
          shop_id: l.shopId, channel_id: channel.id, lead_id: lead.id, status: 'pending', trigger: 'intake', attempts: 0, next_attempt_at: due,
          idempotency_key: `k${i}`, created_at: now, updated_at: now,
        }).execute();
      }
      const text = (await l.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(text).toContain('leadroom_outbox_jobs{status="pending"} 3');
      expect(text).toContain('leadroom_outbox_jobs{status="sending"} 0');
      expect(text).toContain('leadroom_outbox_oldest_due_seconds 300');
    } finally {
      await l.close();
    }
  });
});

describe('the delivery worker’s lines', () => {
  it('name the claim (run id), each job and its lead, and whether a retry follows', async () => {
    const l = await landingTestApp();
    // A receiver that refuses once (500), then takes it.
    let calls = 0;
    const receiver = http.createServer((req, res) => {
      req.resume();
      res.writeHead(++calls === 1 ? 500 : 200).end('{}');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
      const at = l.clock.current.toISOString();
      const channel = await l.app.db.insertInto('delivery_channels').values({
        shop_id: l.shopId, name: 'CRM', kind: 'webhook', config: JSON.stringify({ url, timeoutMs: 2000 }), secret: 'whsec_x', created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      const landingId = await openLanding(l);
      expect((await submit(l, leadBody(l, landingId))).statusCode).toBe(201);
      const lead = await l.app.db.selectFrom('leads').select('id').executeTakeFirstOrThrow();
      const sent: SentReport[] = [];
      const w = deliveryWorker(l.app.db, l.app.clock, { id: 'w-test', random: () => 0.5, deps: { outbound: l.app.outbound }, onSent: (s) => sent.push(s) });
      l.clock.advanceMinutes(0.01);
      expect(await w.tick()).toBe(1);
      l.clock.advanceMinutes(1);
      expect(await w.tick()).toBe(1);
      expect(sent).toMatchObject([
        { worker: 'w-test', channelId: channel.id, kind: 'webhook', attempt: 1, ok: false, responseCode: 500, jobs: [{ leadId: lead.id, status: 'pending' }] },
        { worker: 'w-test', channelId: channel.id, kind: 'webhook', attempt: 2, ok: true, responseCode: 200, error: null, jobs: [{ leadId: lead.id, status: 'succeeded' }] },
      ]);
      expect(sent[0]!.runId).toMatch(/^[0-9a-f]{8}$/);
      expect(sent[1]!.runId).not.toBe(sent[0]!.runId);
      expect(sent[1]!.jobs[0]!.jobId).toBe(sent[0]!.jobs[0]!.jobId);
      await w.stop();
    } finally {
      receiver.close();
      await l.close();
    }
  });
});

describe.skipIf(!PG)('set-up once (PostgreSQL)', () => {
  async function handlesOn(schema: string, n: number): Promise<DbHandle[]> {
    const hs: DbHandle[] = [];
    for (let i = 0; i < n; i++) hs.push(await openDatabase({ url: PG!, pgSchema: schema, poolSize: 2 }));
    return hs;
  }
  const counts = async (db: Kysely<Database>) => {
    const q = (table: string) => sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db).then((r) => r.rows[0]!.n);
    return { accounts: await q('accounts'), accountTypes: await q('account_types'), shops: await q('shops'), landings: await q('landings'), leads: await q('leads') };
  };

  it('migrates and seeds once when two instances start together on an empty database', async () => {
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const alone = `t_${crypto.randomBytes(6).toString('hex')}`;
    const [a, b] = await handlesOn(schema, 2);
    const [c] = await handlesOn(alone, 1);
    const config = { initialAdminPassword: ADMIN_PASSWORD, seedDemo: true, demoPassword: 'Demo!pass123', logLevel: 'silent', distDir: '/nonexistent', workerEnabled: false };
    try {
      const apps = await Promise.all([build({ database: a!, config }), build({ database: b!, config })]);
      const migrations = await sql<{ name: string; n: number }>`select name, count(*)::int as n from kysely_migration group by name`.execute(a!.db);
      expect(migrations.rows.length).toBeGreaterThan(10);
      expect(migrations.rows.filter((r) => r.n !== 1)).toEqual([]);
      const admins = await sql<{ n: number }>`select count(*)::int as n from accounts where login_id = 'admin'`.execute(a!.db);
      expect(admins.rows[0]!.n).toBe(1);
      // Demo data once: the same rows as one instance alone seeds.
      const one = await build({ database: c!, config });
      expect(await counts(a!.db)).toEqual(await counts(c!.db));
      expect((await counts(a!.db)).shops).toBeGreaterThan(0);
      for (const app of [...apps, one]) await app.close();
    } finally {
      await a!.db.schema.dropSchema(schema).ifExists().cascade().execute();
      await c!.db.schema.dropSchema(alone).ifExists().cascade().execute();
      for (const h of [a, b, c]) await h!.close();
    }
  });
});
