// @fastify/rate-limit's Redis store for the route limits (login, the delivery channel test,
// the pull API), shared by every process, with the plugin's own memory store beside it as the
// fallback: while Redis is down or slow, each process limits on its own, as a single process
// always did. Neither open nor closed: staff can still log in during a Redis outage, and
// guessing is still limited per process — and per account exactly, by the lockout the
// database keeps (accounts.failed_logins).
import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RedisClient } from './redis.ts';
import { redisReady } from './redis.ts';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;
interface PluginStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read?(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): PluginStore;
}
type PluginStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, ...rest: unknown[]) => PluginStore;

// The plugin's stores are CommonJS files it does not export by name.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as PluginStoreCtor;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as PluginStoreCtor;

class FallbackStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: PluginStore,
    private readonly own: PluginStore,
    private readonly redis: RedisClient,
    private readonly fellBack: (err: unknown) => void,
  ) {}

  private run(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number) {
    // This process's own count runs always, so the fallback has the window's counts when needed.
    let ownResult: Result | undefined;
    const call = (store: PluginStore, done: Callback) => (method === 'read' && store.read ? store.read(key, done, timeWindow, max) : store.incr(key, done, timeWindow, max));
    call(this.own, (_err, res) => (ownResult = res && { current: res.current, ttl: res.ttl }));
    const fallBack = (err: unknown) => {
      this.fellBack(err);
      cb(null, ownResult ?? { current: 0, ttl: timeWindow });
    };
    if (!redisReady(this.redis)) return fallBack(new Error(`Redis ${this.redis.status}`));
    call(this.shared, (err, res) => (err || !res ? fallBack(err) : cb(null, res)));
  }

  incr(key: string, cb: Callback, timeWindow: number, max: number) {
    this.run('incr', key, cb, timeWindow, max);
  }

  read(key: string, cb: Callback, timeWindow: number, max: number) {
    this.run('read', key, cb, timeWindow, max);
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new FallbackStore(this.shared.child(routeOptions), this.own.child(routeOptions), this.redis, this.fellBack);
  }
}

/**
 * The `store` option of the plugin's registration: counters under `<nameSpace><method><url>-<key>`
 * in Redis (the plugin's Redis store), this process's memory when Redis fails.
 */
export function sharedRateLimitStore(redis: RedisClient, nameSpace: string, onFallback: (err: unknown) => void): FastifyRateLimitStoreCtor {
  let toldAt = -Infinity;
  const fellBack = (err: unknown) => {
    const now = Date.now();
    if (now - toldAt < 60_000) return;
    toldAt = now;
    onFallback(err);
  };
  // A constructor that answers its own object: the plugin calls `new Store(globalParams)`.
  function Store(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
    const continueExceeding = params.continueExceeding ?? false;
    const exponentialBackoff = params.exponentialBackoff ?? false;
    return new FallbackStore(
      new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace),
      new LocalStore(continueExceeding, exponentialBackoff),
      redis,
      fellBack,
    );
  }
  return Store as unknown as FastifyRateLimitStoreCtor;
}
