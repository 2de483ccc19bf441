// Messages between the processes that share a database: on PostgreSQL through LISTEN/NOTIFY
// (every web process hears every process's messages, its own included), on SQLite — one
// process — in memory. Channels are named per schema, so apps on one server stay apart.
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { DbHandle } from './dialect.ts';

export interface Notifier {
  /** Delivers `payload` (at most ~7,900 bytes) to the subscribers of `channel`. */
  publish(channel: string, payload: string): Promise<void>;
  subscribe(channel: string, fn: (payload: string) => void): () => void;
  /** Resolves once this process hears `channel` (after its first subscription). */
  ready(channel: string): Promise<void>;
  close(): Promise<void>;
}

/** The largest payload PostgreSQL takes (8,000 bytes), less room for the channel name. */
export const MAX_PAYLOAD = 7900;

export async function openNotifier(handle: DbHandle, log: (err: unknown) => void = () => {}): Promise<Notifier> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const subscribe = (channel: string, fn: (payload: string) => void) => {
    local.on(channel, fn);
    return () => void local.off(channel, fn);
  };
  if (!handle.pg) {
    return {
      publish: async (channel, payload) => void local.emit(channel, payload),
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

  // One listening connection per process; lost, it comes back and listens again.
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (m) => {
      const channel = [...channels].find((ch) => name(ch) === m.channel);
      if (channel) local.emit(channel, m.payload ?? '');
    });
    c.on('error', (err) => {
      log(err);
      if (client === c) client = null;
      if (!closed) setTimeout(() => void ensure().catch(log), 1000).unref();
    });
    await c.connect();
    for (const ch of channels) await c.query(`listen "${name(ch)}"`);
    client = c;
  };
  const ensure = () => {
    if (client || closed) return Promise.resolve();
    connecting ??= connect().finally(() => (connecting = null));
    return connecting;
  };

  return {
    async publish(channel, payload) {
      await sql`select pg_notify(${name(channel)}, ${payload})`.execute(handle.db);
    },
    subscribe(channel, fn) {
      const off = subscribe(channel, fn);
      if (!channels.has(channel)) {
        channels.add(channel);
        const listen = ensure().then(async () => void (await client?.query(`listen "${name(channel)}"`)));
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
