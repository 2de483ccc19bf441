// Per-minute limiters: in one process, shared through Redis by several (skipped without
// TEST_REDIS_URL), and falling back to the process's own count while Redis is unreachable.
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { localWindow, sharedWindow } from './rate-limit.ts';
import { sharedRateLimitStore } from './rate-limit-store.ts';
import { closeRedis, openRedis, redisConnected, type RedisClient } from './redis.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const T0 = Date.parse('2026-11-21T01:00:10.000Z');

describe('localWindow', () => {
  it('allows `limit` per key in a minute, and again the next minute', () => {
    const allow = localWindow(2);
    expect([allow('a', T0), allow('a', T0 + 1), allow('b', T0), allow('a', T0 + 2)]).toEqual([true, true, true, false]);
    expect(allow('a', T0 + 60_000)).toBe(true);
  });
  it('allows everything with a limit of 0', () => {
    const allow = localWindow(0);
    for (let i = 0; i < 100; i++) expect(allow('a', T0)).toBe(true);
  });
});

describe('sharedWindow', () => {
  const conns: RedisClient[] = [];
  afterEach(async () => {
    for (const c of conns.splice(0)) await closeRedis(c);
  });
  const connect = (url: string) => {
    const r = openRedis(url);
    r.on('error', () => {});
    conns.push(r);
    return r;
  };
  const prefix = () => `lr:test-${crypto.randomBytes(4).toString('hex')}:`;

  it('answers at once, without Redis, when the limit is 0', () => {
    const allow = sharedWindow({ redis: {} as RedisClient, prefix: 'x:', name: 'intake', limit: 0 });
    expect(allow('k', T0)).toBe(true);
  });

  it.runIf(redisUrl)('is one limit for several processes', async () => {
    const p = prefix();
    const [one, two] = [connect(redisUrl!), connect(redisUrl!)];
    expect(await redisConnected(one)).toBe(true);
    expect(await redisConnected(two)).toBe(true);
    const a = sharedWindow({ redis: one, prefix: p, name: 'intake', limit: 3 });
    const b = sharedWindow({ redis: two, prefix: p, name: 'intake', limit: 3 });
    const got = [];
    for (let i = 0; i < 6; i++) got.push(await (i % 2 ? b : a)('ip|1', T0));
    expect(got).toEqual([true, true, true, false, false, false]);
    // Another key, another window: counted afresh.
    expect(await a('ip|2', T0)).toBe(true);
    expect(await b('ip|1', T0 + 60_000)).toBe(true);
    expect(await one.pttl(`${p}rl:intake:${Math.floor(T0 / 60_000)}:ip|1`)).toBeGreaterThan(60_000);
  });

  it('falls back to the process’s own count while Redis is unreachable, and says so', async () => {
    const down = connect('redis://127.0.0.1:1');
    const told: unknown[] = [];
    const allow = sharedWindow({ redis: down, prefix: prefix(), name: 'intake', limit: 2, onFallback: (err) => told.push(err) });
    const got = [];
    for (let i = 0; i < 3; i++) got.push(await allow('ip|1', T0));
    expect(got).toEqual([true, true, false]);
    expect(told).toHaveLength(1);
  });
});

describe('sharedRateLimitStore', () => {
  const conns: RedisClient[] = [];
  afterEach(async () => {
    for (const c of conns.splice(0)) await closeRedis(c);
  });

  async function server(url: string, nameSpace: string, fellBack: unknown[] = []) {
    const redis = openRedis(url);
    redis.on('error', () => {});
    conns.push(redis);
    await redisConnected(redis, 500);
    const app = Fastify();
    await app.register(rateLimit, { global: false, store: sharedRateLimitStore(redis, nameSpace, (err) => fellBack.push(err)) });
    app.get('/try', { config: { rateLimit: { max: 3, timeWindow: '1 minute' } } }, async () => 'ok');
    await app.ready();
    return app;
  }

  it.runIf(redisUrl)('limits a route across processes with the plugin’s Redis store', async () => {
    const ns = `lr:test-${crypto.randomBytes(4).toString('hex')}:rate:`;
    const [a, b] = [await server(redisUrl!, ns), await server(redisUrl!, ns)];
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await (i % 2 ? b : a).inject({ url: '/try', remoteAddress: '192.0.2.1' })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    await a.close();
    await b.close();
  });

  it('limits each process on its own while Redis is unreachable', async () => {
    const fellBack: unknown[] = [];
    const app = await server('redis://127.0.0.1:1', 'x:', fellBack);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await app.inject({ url: '/try', remoteAddress: '192.0.2.1' })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    expect(fellBack).toHaveLength(1);
    await app.close();
  });
});
