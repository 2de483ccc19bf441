// The PostgreSQL pool, made to ride through what a network and a restarting server do to it:
// - a lost connection never takes the process down. pg reports one as an 'error' event — on the
//   pool while the connection is idle, on the client while a query holds it — and an 'error'
//   event nobody listens to ends the process: a PostgreSQL restart took every process with it.
//   The pool drops such a connection, and the next query opens a new one;
// - a query waits for its connection (a new one to open, or a busy pool to free one) at most
//   `connectTimeoutMs`, then fails: a database out of reach answers an error, not a held request;
// - a query stalled on a dead connection is found out and failed. A network that silently drops
//   the packets (a host cut off, a route lost) holds a query until TCP gives up, many minutes
//   later — no timeout on the query tells that apart from a long report or a lock wait (intake
//   waits for an import's locks, migrations build indexes). So a query still unanswered after
//   `stallMs` is looked at from a second connection: when, twice in a row, the server cannot be
//   reached at all or its backend is not working on the query (idle: the query or its answer was
//   lost), the stalled connection is closed — its query fails as the database being unavailable
//   (503), the server rolls back what it had open once it hears of the close. A backend still
//   active (running, or waiting for a lock) is left alone. The pool's idle connections go with it:
//   they came the same way, and the next query on one would stall as long again (a batch of
//   intake waiting behind the first would wait twice) — new ones fail at once or work;
// - a transaction whose client vanished is ended by the server. A client cut off from the network
//   mid-transaction (its stalled query given up above, or its process gone) cannot tell the server;
//   the server, idle in that transaction, would hold its row locks until TCP gave up on the
//   connection — and every other host's intake, waiting on the same feed and allocation rows,
//   would hang with it. So each connection sets `idle_in_transaction_session_timeout`: a
//   transaction that sends nothing for `idleInTransactionMs` is rolled back and its connection
//   closed. Our transactions run their statements back to back (no user, network or file waits
//   inside one), so only an orphan is ever idle that long.
import type pg from 'pg';

interface PgPoolOptions {
  url: string;
  max: number;
  /** The schema on the search path (tests use one each). */
  schema?: string;
  connectTimeoutMs: number;
  /** How long a query runs before its connection is looked at (ms); 0: never. */
  stallMs: number;
  /** How long the server keeps a transaction that sends nothing before it ends it (ms); 0: never. */
  idleInTransactionMs: number;
  /** A connection was lost or closed as stalled; the pool opens a new one. */
  onConnectionLost?: (err: Error) => void;
}

type PgModule = typeof pg;
type Client = pg.PoolClient & { processID?: number; connection: { stream: { destroy(err: Error): void } } };

/** How often stalled queries are looked for while any query runs (the timer sleeps otherwise). */
const STALL_CHECK_MS = 1_000;

const connectionError = (message: string) => Object.assign(new Error(message), { code: 'ETIMEDOUT' });

export function openPgPool(pgm: PgModule, o: PgPoolOptions): pg.Pool {
  // The session's settings go in the URL's `options`, after any it has: pg takes the URL's over a
  // separate `options` (a child process is handed its schema that way).
  const url = new URL(o.url);
  const settings = [
    url.searchParams.get('options'),
    o.schema ? `-c search_path="${o.schema}"` : null,
    o.idleInTransactionMs ? `-c idle_in_transaction_session_timeout=${Math.round(o.idleInTransactionMs)}` : null,
  ].filter(Boolean);
  if (settings.length) url.searchParams.set('options', settings.join(' '));
  const config = {
    connectionString: url.toString(),
    connectionTimeoutMillis: o.connectTimeoutMs,
    // A connection whose other end vanished while idle is found out by TCP keep-alive and dropped.
    keepAlive: true,
  };
  const pool = new pgm.Pool({ ...config, max: o.max });
  // An idle client's error reaches both listeners: it is reported once, from the client's.
  pool.on('error', () => {});

  /** Clients with a query under way, and since when. */
  const running = new Map<Client, number>();
  /** Clients whose backend was seen not working on their query, with that query's start. */
  const suspect = new Map<Client, number>();
  /** Clients in the pool, not lent out. */
  const idle = new Set<Client>();
  pool.on('acquire', (c) => idle.delete(c as Client));
  pool.on('release', (err, c) => {
    if (!err) idle.add(c as Client);
  });

  pool.on('connect', (c) => {
    const client = c as Client;
    client.on('error', (err) => o.onConnectionLost?.(err));
    client.once('end', () => {
      idle.delete(client);
      running.delete(client);
      suspect.delete(client);
    });
    if (!o.stallMs) return;
    // Kysely runs one query at a time on a client and awaits it: the promise form is all it uses.
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const result = query(...args);
      if (!(result instanceof Promise)) return result;
      running.set(client, Date.now());
      ensureWatch();
      return result.finally(() => {
        running.delete(client);
        suspect.delete(client);
      });
    }) as typeof client.query;
  });

  /** The state of each backend (pg_stat_activity), or null when the server cannot be reached from here. */
  async function backendStates(pids: number[]): Promise<Map<number, string> | null> {
    const probe = new pgm.Client(config);
    probe.on('error', () => {});
    const timer = setTimeout(() => void probe.end().catch(() => {}), o.connectTimeoutMs * 2);
    try {
      await probe.connect();
      const { rows } = await probe.query<{ pid: number; state: string | null }>('select pid, state from pg_stat_activity where pid = any($1::int[])', [pids]);
      return new Map(rows.map((r) => [r.pid, r.state ?? '']));
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
      void probe.end().catch(() => {});
    }
  }

  let timer: NodeJS.Timeout | null = null;
  let checking = false;
  function ensureWatch() {
    if (timer) return;
    timer = setInterval(() => void check(), STALL_CHECK_MS);
    timer.unref();
  }

  async function check() {
    if (checking) return;
    if (!running.size) {
      clearInterval(timer!);
      timer = null;
      return;
    }
    const now = Date.now();
    const stalled = [...running].filter(([, since]) => now - since >= o.stallMs);
    if (!stalled.length) return;
    checking = true;
    let closed = 0;
    try {
      const states = await backendStates(stalled.map(([c]) => c.processID ?? 0));
      for (const [client, since] of stalled) {
        if (running.get(client) !== since) continue; // answered meanwhile
        if (states?.get(client.processID ?? 0) === 'active') {
          suspect.delete(client);
          continue;
        }
        // Twice in a row for the same query — not an answer that was just on its way, nor one slow connect of the probe.
        if (suspect.get(client) !== since) {
          suspect.set(client, since);
          continue;
        }
        const waited = Math.round((Date.now() - since) / 1000);
        client.connection.stream.destroy(connectionError(states === null
          ? `the database cannot be reached: a query waiting ${waited} s gave up its connection`
          : `the database is not working on this connection's query (it or its answer was lost; waited ${waited} s): connection closed`));
        closed++;
      }
      if (closed) {
        // The pool drops each (its 'error' while idle); the next query opens a new connection.
        for (const client of idle) client.connection.stream.destroy(connectionError('an idle connection closed with a dead one: it came the same way'));
        idle.clear();
      }
    } finally {
      checking = false;
    }
  }

  return pool;
}
