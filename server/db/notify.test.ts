// The notifier over Redis alone (no PostgreSQL): two processes' notifiers on one prefix hear
// each other, another prefix's messages never arrive, and publishing says how many heard it.
// Skipped without TEST_REDIS_URL. Over PostgreSQL alone: it listens again after the server was away.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from './dialect.ts';
import { openNotifier, type Notifier } from './notify.ts';
import { closeRedis, openRedis, type RedisClient } from '../lib/redis.ts';
import { tcpProxy } from '../test-tcp-proxy.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('the notifier over Redis', () => {
  const opened: Array<{ notifier: Notifier; redis: RedisClient; handle: DbHandle }> = [];
  afterEach(async () => {
    for (const o of opened.splice(0)) {
      await o.notifier.close();
      await closeRedis(o.redis);
      await o.handle.close();
    }
  });

  /** A notifier as one process (SQLite in memory: nothing but Redis could carry its messages) would open it. */
  async function processOn(prefix: string) {
    const redis = openRedis(redisUrl!);
    const handle = await openDatabase({ url: ':memory:' });
    const notifier = await openNotifier(handle, (err) => {
      throw err;
    }, { client: redis, prefix });
    opened.push({ notifier, redis, handle });
    return notifier;
  }

  const collect = (n: Notifier, channel: string) => {
    const got: string[] = [];
    n.subscribe(channel, (p) => got.push(p));
    return got;
  };
  const until = async (cond: () => boolean) => {
    const deadline = Date.now() + 2000;
    while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  };

  it('carries a message to every process on the prefix, its own included, and no further', async () => {
    const prefix = `lr:test-${crypto.randomBytes(4).toString('hex')}:`;
    const [a, b, stranger] = [await processOn(prefix), await processOn(prefix), await processOn(`${prefix}other:`)];
    expect(a.transport).toBe('redis');
    const [atA, atB, atStranger] = [collect(a, 'leads'), collect(b, 'leads'), collect(stranger, 'leads')];
    const otherChannel = collect(b, 'pages');
    await Promise.all([a.ready('leads'), b.ready('leads'), b.ready('pages'), stranger.ready('leads')]);

    expect(await a.publish('leads', '{"n":1}')).toBe(2);
    await b.publish('leads', 'zwei');
    await until(() => atA.length === 2 && atB.length === 2);
    expect(atA).toEqual(['{"n":1}', 'zwei']);
    expect(atB).toEqual(['{"n":1}', 'zwei']);
    await new Promise((r) => setTimeout(r, 50));
    expect(atStranger).toEqual([]);
    expect(otherChannel).toEqual([]);
  });

  it('stops delivering to a subscriber that unsubscribed, and to a closed notifier', async () => {
    const prefix = `lr:test-${crypto.randomBytes(4).toString('hex')}:`;
    const [a, b] = [await processOn(prefix), await processOn(prefix)];
    const got: string[] = [];
    const off = b.subscribe('x', (p) => got.push(p));
    await b.ready('x');
    await a.publish('x', 'one');
    await until(() => got.length === 1);
    off();
    await a.publish('x', 'two');
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toEqual(['one']);
    await b.close();
    expect(await a.publish('x', 'three')).toBe(0);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;

describe.runIf(process.env.LR_TEST_DIALECT === 'postgres' && pgUrl)('the notifier over PostgreSQL (LISTEN/NOTIFY)', () => {
  it('listens again once the server is back, however long it was away', async () => {
    const target = new URL(pgUrl!);
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    // The listening process reaches PostgreSQL through the proxy; the publishing one directly.
    const [listening, publishing] = [await openDatabase({ url: proxy.via(pgUrl!), pgSchema: schema }), await openDatabase({ url: pgUrl!, pgSchema: schema })];
    const errors: unknown[] = [];
    const listener = await openNotifier(listening, (err) => errors.push(err));
    const publisher = await openNotifier(publishing);
    try {
      const got: string[] = [];
      listener.subscribe('pages', (p) => got.push(p));
      await listener.ready('pages');
      await proxy.cut();
      // The connection lost, and an attempt to listen again refused while the server is away.
      await expect.poll(() => errors.some((e) => (e as { code?: string }).code === 'ECONNREFUSED'), { timeout: 10_000 }).toBe(true);
      await proxy.restore();
      // Published until heard: a message sent before it listens again is lost, as NOTIFY's are.
      await expect.poll(async () => {
        await publisher.publish('pages', 'back');
        return got.includes('back');
      }, { timeout: 15_000, interval: 250 }).toBe(true);
    } finally {
      await listener.close();
      await publisher.close();
      await listening.close();
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop schema if exists "${schema}" cascade`);
      await c.end();
      await publishing.close();
      await proxy.close();
    }
  });
});
