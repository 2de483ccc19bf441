// Messages between the processes that share a database: with Redis (REDIS_URL) through its
// pub/sub; else on PostgreSQL through LISTEN/NOTIFY; on SQLite alone — one process — in
// memory. Every process hears every process's messages, its own included. Channels are named
// per database and schema (Redis: the key prefix), so apps on one server stay apart.
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import { CONNECT_TIMEOUT_MS, type DbHandle } from './dialect.ts';
import type { RedisClient } from '../lib/redis.ts';

export interface Notifier {
  /**
   * Delivers `payload` (at most ~7,900 bytes) to the subscribers of `channel`; answers how many
   * processes heard it when the transport says (Redis: subscribed connections, this one's
   * included), else null.
   */
  publish(channel: string, payload: string): Promise<number | null>;
  subscribe(channel: string, fn: (payload: string) => void): () => void;
  /** Resolves once this process hears `channel` (after its first subscription). */
  ready(channel: string): Promise<void>;
  /** 'redis' | 'postgres' | 'memory': whether other processes hear this one at all. */
  readonly transport: 'redis' | 'postgres' | 'memory';
  close(): Promise<void>;
}

/** The largest payload PostgreSQL takes (8,000 bytes), less room for the channel name. */
export const MAX_PAYLOAD = 7900;

/** Redis for messages: the app's command connection (publishing) and the prefix of its keys and channels. */
interface RedisTransport {
  client: RedisClient;
  prefix: string;
}

/**
 * What names one database however it was reached (a URL with a search_path option, a pool
 * given a schema): PostgreSQL's own idea of server, database and schema; a SQLite file's path.
 * Null for an in-memory database (one process's own).
 */
export async function databaseIdentity(handle: DbHandle): Promise<string | null> {
  if (handle.pg) {
    const { rows } = await sql<{ db: string; schema: string; addr: string | null; port: number | null }>`
      select current_database() as db, current_schema() as schema, host(inet_server_addr()) as addr, inet_server_port() as port`.execute(handle.db);
    const r = rows[0]!;
    return `pg:${r.addr ?? 'local'}:${r.port ?? ''}/${r.db}/${r.schema}`;
  }
  return handle.sqliteFile ? `sqlite:${handle.sqliteFile}` : null;
}

export async function openNotifier(handle: DbHandle, log: (err: unknown) => void = () => {}, redis?: RedisTransport): Promise<Notifier> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const subscribe = (channel: string, fn: (payload: string) => void) => {
    local.on(channel, fn);
    return () => void local.off(channel, fn);
  };
  if (redis) return redisNotifier(redis, local, subscribe, log);
  if (!handle.pg) {
    return {
      transport: 'memory',
      publish: async (channel, payload) => {
        local.emit(channel, payload);
        return 1;
      },
      subscribe,
      ready: async () => {},
      close: async () => void local.removeAllListeners(),
    };
  }

  const { url, schema } = handle.pg;
  const name = (channel: string) => `${schema}_${channel}`.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 63);
  const pg = (await import('pg')).default;
  const channels = new Set<string>();
  const listening = new Map<string, Promise<void>>();
  let client: InstanceType<typeof pg.Client> | null = null;
  let closed = false;
  let connecting: Promise<void> | null = null;

  // One listening connection per process; lost, it comes back and listens again — trying every
  // second for as long as the server is away (a restart, a network cut), not just once.
  const reconnect = () => {
    if (!closed) setTimeout(() => void ensure().catch((err: unknown) => {
      log(err);
      reconnect();
    }), 1000).unref();
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    c.on('notification', (m) => {
      const channel = [...channels].find((ch) => name(ch) === m.channel);
      if (channel) local.emit(channel, m.payload ?? '');
    });
    c.on('error', (err) => {
      log(err);
      if (client !== c) return;
      client = null;
      reconnect();
    });
    try {
      await c.connect();
      for (const ch of channels) await c.query(`listen "${name(ch)}"`);
    } catch (err) {
      void c.end().catch(() => {});
      throw err;
    }
    client = c;
  };
  const ensure = () => {
    if (client || closed) return Promise.resolve();
    connecting ??= connect().finally(() => (connecting = null));
    return connecting;
  };

  return {
    transport: 'postgres',
    async publish(channel, payload) {
      await sql`select pg_notify(${name(channel)}, ${payload})`.execute(handle.db);
      return null;
    },
    subscribe(channel, fn) {
      const off = subscribe(channel, fn);
      if (!channels.has(channel)) {
        channels.add(channel);
        // One query at a time on the listening connection: each LISTEN waits for the one before.
        const listen = Promise.all([ensure(), ...listening.values()]).then(async () => void (await client?.query(`listen "${name(channel)}"`)));
        listening.set(channel, listen.catch(log));
      }
      return off;
    },
    ready: (channel) => listening.get(channel) ?? Promise.resolve(),
    async close() {
      closed = true;
      local.removeAllListeners();
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

/**
 * Redis pub/sub: publishing on the app's connection, listening on a duplicate of it (a
 * subscribed connection can run nothing else). ioredis subscribes again by itself after a
 * reconnect; messages published while a process was cut off are lost, as with LISTEN/NOTIFY.
 */
function redisNotifier(
  { client, prefix }: RedisTransport,
  local: EventEmitter,
  subscribe: (channel: string, fn: (payload: string) => void) => () => void,
  log: (err: unknown) => void,
): Notifier {
  const subscriber = client.duplicate({ connectionName: 'leadroom-sub', enableAutoPipelining: false });
  subscriber.on('error', log);
  const listening = new Map<string, Promise<void>>();
  subscriber.on('message', (full: string, payload: string) => {
    if (full.startsWith(prefix)) local.emit(full.slice(prefix.length), payload);
  });
  // ioredis subscribes again after a reconnect to what it had subscribed; a subscription that
  // failed (Redis down at start) is asked again on every (re)connection.
  subscriber.on('ready', () => {
    if (listening.size) subscriber.subscribe(...[...listening.keys()].map((ch) => prefix + ch)).catch(log);
  });
  return {
    transport: 'redis',
    publish: (channel, payload) => client.publish(prefix + channel, payload),
    subscribe(channel, fn) {
      const off = subscribe(channel, fn);
      if (!listening.has(channel)) {
        listening.set(channel, subscriber.subscribe(prefix + channel).then(() => {}, log));
      }
      return off;
    },
    ready: (channel) => listening.get(channel) ?? Promise.resolve(),
    async close() {
      local.removeAllListeners();
      try {
        await subscriber.quit();
      } catch {
        subscriber.disconnect();
      }
    },
  };
}
