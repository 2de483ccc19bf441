// Fixed one-minute windows per key (intake's submissions and visit beacons per IP and
// landing): in one process's memory, or shared by every process through Redis. The shared
// limiter counts in Redis with one round trip (INCR and, on a window's first count, PEXPIRE,
// in one script) and keeps this process's own count beside it: a key this process alone has
// already taken past the limit is refused without asking Redis, and while Redis is down or
// slow the process falls back to its own count — it never refuses what the shared limit would
// have allowed, so no lead is lost to a limiter outage.
import type { RedisClient } from './redis.ts';
import { redisReady } from './redis.ts';

/** True: allowed. A limit of 0 or less allows everything at no cost (synchronously). */
export type WindowLimiter = (key: string, nowMs: number) => boolean | Promise<boolean>;

const WINDOW_MS = 60_000;

/** One process's counts: dropped as a whole at each new window. */
export function localWindow(limit: number, windowMs = WINDOW_MS) {
  let window = -1;
  let counts = new Map<string, number>();
  return (key: string, nowMs: number): boolean => {
    if (limit <= 0) return true;
    const w = Math.floor(nowMs / windowMs);
    if (w !== window) {
      window = w;
      counts = new Map();
    }
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n <= limit;
  };
}

// KEYS[1] the window's counter, ARGV[1] its lifetime in ms. Atomic: two processes counting at once both count.
const INCR_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

type WithWindowIncr = RedisClient & { lrWindowIncr(key: string, ttlMs: number): Promise<number> };

function withScript(redis: RedisClient): WithWindowIncr {
  const r = redis as WithWindowIncr;
  if (typeof r.lrWindowIncr !== 'function') redis.defineCommand('lrWindowIncr', { numberOfKeys: 1, lua: INCR_SCRIPT });
  return r;
}

interface SharedWindowOptions {
  redis: RedisClient;
  /** The database's key prefix (redisPrefix) and the limiter's name: `<prefix>rl:<name>:<window>:<key>`. */
  prefix: string;
  name: string;
  limit: number;
  windowMs?: number;
  /** Redis failed or is not connected: the process counted alone (told at most once a minute). */
  onFallback?: (err: unknown) => void;
}

/** A limiter every process shares through Redis, with this process's own count as the fallback. */
export function sharedWindow(o: SharedWindowOptions): WindowLimiter {
  if (o.limit <= 0) return () => true;
  const windowMs = o.windowMs ?? WINDOW_MS;
  const redis = withScript(o.redis);
  const own = localWindow(o.limit, windowMs);
  let toldAt = -Infinity;
  const fallback = (err: unknown, allowed: boolean) => {
    const now = Date.now();
    if (now - toldAt >= 60_000) {
      toldAt = now;
      o.onFallback?.(err);
    }
    return allowed;
  };
  return (key, nowMs) => {
    const allowed = own(key, nowMs);
    // Past the limit in this process alone: past it in all of them together.
    if (!allowed) return false;
    if (!redisReady(redis)) return fallback(new Error(`Redis ${redis.status}`), allowed);
    const w = Math.floor(nowMs / windowMs);
    // The key outlives its window a little: a window's last counts still find it.
    return redis.lrWindowIncr(`${o.prefix}rl:${o.name}:${w}:${key}`, windowMs + 5_000).then(
      (n) => n <= o.limit,
      (err: unknown) => fallback(err, allowed),
    );
  };
}
