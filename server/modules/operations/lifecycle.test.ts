// The real process (server/main.ts): while its database set-up waits (PostgreSQL: another
// process holds the set-up lock) the port answers /api/ready 503 `starting`; once up, 200 and a
// worker heartbeat; on SIGTERM it drains — /api/ready 503 while everything else is still served
// for READY_DRAIN_MS — then exits cleanly and takes its heartbeat with it.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PG = process.env.LR_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
// Ports of their own (4460–4479): the two engines' runs go in parallel.
const PORT = PG ? 4462 : 4461;
const base = `http://127.0.0.1:${PORT}`;

let child: ChildProcess | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  for (const c of cleanups.splice(0).reverse()) await c();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are JSON of several shapes
async function get(url: string): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return { status: res.status, body: await res.json() };
  } catch {
    return null; // not listening yet, or between the stand-in and the app
  }
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('answers 503 while starting, 200 when up, and drains on SIGTERM before it exits', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-life-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  let databaseUrl = path.join(dir, 'leadroom.sqlite');
  let release: (() => Promise<void>) | undefined;
  if (PG) {
    // An empty schema whose set-up lock another "process" (this test) holds.
    const pg = (await import('pg')).default;
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const holder = new pg.Client({ connectionString: PG });
    await holder.connect();
    await holder.query(`create schema "${schema}"`);
    await holder.query(`select pg_advisory_lock(hashtextextended('leadroom:setup:' || $1, 0))`, [schema]);
    release = async () => void (await holder.query(`select pg_advisory_unlock(hashtextextended('leadroom:setup:' || $1, 0))`, [schema]));
    cleanups.push(async () => {
      await holder.query(`drop schema if exists "${schema}" cascade`);
      await holder.end();
    });
    const url = new URL(PG);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const out: string[] = [];
  child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env, NODE_ENV: 'production', PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: databaseUrl, DIST_DIR: '/nonexistent',
      SEED_DEMO: '0', INITIAL_ADMIN_PASSWORD: 'Admin!2345', READY_DRAIN_MS: '1500', LOG_FORMAT: 'json', LOG_LEVEL: 'info', REDIS_URL: '', LEADROOM_CLUSTER: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => out.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => out.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

  if (release) {
    const starting = await until('503 starting', async () => {
      const r = await get(`${base}/api/ready`);
      return r?.status === 503 && r;
    });
    expect(starting.body).toEqual({ ready: false, state: 'starting' });
    // Still waiting for the lock: everything else is a 503 with the reason, too.
    const other = await fetch(`${base}/api/auth/me`);
    expect([other.status, other.headers.get('retry-after')]).toEqual([503, '5']);
    expect((await other.json()).error.message).toBe('서버를 시작하는 중입니다. 잠시 후 다시 시도하세요.');
    await release();
  }
  const up = await until('ready', async () => {
    const r = await get(`${base}/api/ready`);
    return r?.status === 200 && r;
  }, 60_000);
  expect(up.body).toEqual({ ready: true, state: 'ready' });
  const health = await until('a worker heartbeat', async () => {
    const r = await get(`${base}/api/health`);
    return r?.body?.worker?.alive === 1 && r;
  });
  expect(health.body).toMatchObject({ status: 'ok', worker: { inProcess: true, alive: 1 } });

  // Every log line of a request names it (LOG_FORMAT=json), by the caller's X-Request-Id.
  const traced = await fetch(`${base}/api/health`, { headers: { 'x-request-id': 'trace-me-1' } });
  expect(traced.headers.get('x-request-id')).toBe('trace-me-1');

  child.kill('SIGTERM');
  const draining = await until('draining', async () => {
    const r = await get(`${base}/api/ready`);
    return r?.status === 503 && r;
  }, 1000);
  expect(draining.body).toEqual({ ready: false, state: 'draining' });
  // Still serving everything else while the load balancer takes it out.
  const during = await fetch(`${base}/api/health`, { headers: { 'x-request-id': 'during-drain' } });
  expect(during.status).toBe(200);
  expect(await exited).toBe(0);
  const lines = out.join('').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; drainMs?: number; reqId?: string });
  expect(lines.find((l) => l.msg === 'draining before shutdown')).toMatchObject({ drainMs: 1500 });
  expect(lines.filter((l) => l.reqId === 'trace-me-1').map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  // In that order: the drain began, a request was served during it, and only then did the process close.
  const at = (msg: string, reqId?: string) => lines.findIndex((l) => l.msg === msg && (reqId === undefined || l.reqId === reqId));
  const order = [at('draining before shutdown'), at('request completed', 'during-drain'), at('shutting down')];
  expect(order.every((i) => i >= 0), JSON.stringify(order)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
}, 120_000);
