// Redis, when REDIS_URL is set: the state several processes must share (rate limits,
// messages between processes). One command connection per process, and one more for
// subscriptions (a subscribed connection can run nothing else). Without REDIS_URL nothing
// here is opened and one process keeps that state in memory.
import { Redis } from 'ioredis';

export type RedisClient = Redis;

/** A connection to `url` that gives up a command after a few seconds instead of queueing it forever. */
export function openRedis(url: string, name = 'leadroom'): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    connectTimeout: 5_000,
    // Reconnect forever, at most every 2 s: a restarted Redis is picked up again.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
}

/** Closes a connection, waiting for its replies, and never throws (it may already be gone). */
export async function closeRedis(r: Redis | null | undefined): Promise<void> {
  if (!r) return;
  try {
    await r.quit();
  } catch {
    r.disconnect();
  }
}
