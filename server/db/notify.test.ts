// The notifier over Redis alone (no PostgreSQL): two processes' notifiers on one prefix hear
// each other, another prefix's messages never arrive, and publishing says how many heard it.
// Skipped without TEST_REDIS_URL.
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from './dialect.ts';
import { openNotifier, type Notifier } from './notify.ts';
import { closeRedis, openRedis, type RedisClient } from '../lib/redis.ts';

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
