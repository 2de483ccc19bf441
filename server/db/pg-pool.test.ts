// The PostgreSQL pool under what a network and a restarting server do (pg-pool.ts): lost
// connections do not end the process, a connection that cannot be had fails in time, a query on
// a dead connection fails instead of hanging, and a query that is merely slow is left alone.
import crypto from 'node:crypto';
import net from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from './dialect.ts';
import { isDatabaseUnavailable } from './dialect-sql.ts';
import { tcpProxy, type TcpProxy } from '../test-tcp-proxy.ts';

const PG_URL = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.LR_TEST_DIALECT === 'postgres' && !!PG_URL;

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A handle on a fresh schema (through `proxy` when given), dropped afterwards. */
async function handle(o: { proxy?: TcpProxy; stallMs?: number; idleInTransactionMs?: number; lost?: Error[] } = {}): Promise<DbHandle> {
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const h = await openDatabase({
    url: o.proxy ? o.proxy.via(PG_URL!) : PG_URL!, pgSchema: schema, poolSize: 2, stallMs: o.stallMs ?? 200,
    ...(o.idleInTransactionMs !== undefined ? { idleInTransactionMs: o.idleInTransactionMs } : {}),
    onConnectionLost: (err) => o.lost?.push(err),
  });
  cleanup.push(async () => {
    await h.close();
    await admin(`drop schema if exists "${schema}" cascade`);
  });
  return h;
}

async function admin(statement: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return (await c.query(statement, params)).rows;
  } finally {
    await c.end();
  }
}

const backendPid = async (db: DbHandle['db']) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;

describe.runIf(onPostgres)('the PostgreSQL pool', () => {
  it('survives its idle connection being ended by the server (a restart), and the next query opens a new one', async () => {
    const lost: Error[] = [];
    const h = await handle({ lost });
    const pid = await backendPid(h.db);
    await admin('select pg_terminate_backend($1)', [pid]);
    await expect.poll(() => lost.length, { timeout: 10_000 }).toBe(1);
    expect(await backendPid(h.db)).not.toBe(pid);
  });

  it('fails a transaction whose connection the server ended as the database being unavailable, and goes on', async () => {
    const lost: Error[] = [];
    const h = await handle({ lost });
    const failed = await h.db.transaction().execute(async (trx) => {
      await admin('select pg_terminate_backend($1)', [await backendPid(trx)]);
      await expect.poll(() => lost.length, { timeout: 10_000 }).toBe(1);
      await sql`select 1`.execute(trx);
    }).then(() => null, (err: unknown) => err);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    expect(await backendPid(h.db)).toBeTypeOf('number');
  });

  it('fails a query whose connection passes nothing any more (the packets vanish) instead of waiting for TCP', async () => {
    const proxy = await tcpProxy({ host: new URL(PG_URL!).hostname, port: Number(new URL(PG_URL!).port || 5432) });
    cleanup.push(() => proxy.close());
    const h = await handle({ proxy });
    await backendPid(h.db);
    proxy.stall();
    const failed = await sql`select 1`.execute(h.db).then(() => null, (err: unknown) => err);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    // New connections pass: the pool goes on with one.
    expect(await backendPid(h.db)).toBeTypeOf('number');
  });

  it('has the server end a transaction whose client was cut off mid-way, so its locks do not hold the other hosts', async () => {
    const proxy = await tcpProxy({ host: new URL(PG_URL!).hostname, port: Number(new URL(PG_URL!).port || 5432) });
    cleanup.push(() => proxy.close());
    const h = await handle({ proxy, idleInTransactionMs: 1_000 });
    const key = Number.parseInt(crypto.randomBytes(3).toString('hex'), 16);
    // This host takes a lock in a transaction, and then the network drops its packets: its next
    // statement is given up (the pool's stall check), and nothing of that reaches the server.
    const failed = await h.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${key})`.execute(trx);
      proxy.stall();
      await sql`select 1`.execute(trx);
    }).then(() => null, (err: unknown) => err);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    // Another host waiting for the same lock gets it: the server ended the orphaned transaction.
    // Without the setting the orphan, idle in its transaction on a connection still open, keeps the
    // lock until TCP gives up — this waits past the test's timeout.
    const other = new pg.Client({ connectionString: PG_URL });
    await other.connect();
    cleanup.push(() => other.end());
    await other.query('begin');
    await expect(other.query('select pg_advisory_xact_lock($1)', [key])).resolves.toBeDefined();
    await other.query('rollback');
  });

  it('keeps a transaction the client is still busy in, whatever its length, when its statements follow one another', async () => {
    const h = await handle({ idleInTransactionMs: 1_000 });
    const n = await h.db.transaction().execute(async (trx) => {
      let total = 0;
      // Statements back to back for longer than the idle limit: no gap between them reaches it.
      for (let i = 0; i < 6; i++) total += (await sql<{ n: number }>`select ${i}::int + (select count(*) from pg_sleep(0.3))::int as n`.execute(trx)).rows[0]!.n;
      return total;
    });
    expect(n).toBe(21);
  });

  it('closes the idle connections with a dead one, so the next query does not stall on one of them again', async () => {
    const proxy = await tcpProxy({ host: new URL(PG_URL!).hostname, port: Number(new URL(PG_URL!).port || 5432) });
    cleanup.push(() => proxy.close());
    const h = await handle({ proxy });
    // Two connections in the pool (its size), both idle, both cut off.
    const pids = await Promise.all([0, 1].map(() => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.1)`.execute(h.db)));
    expect(new Set(pids.map((r) => r.rows[0]!.pid)).size).toBe(2);
    proxy.stall();
    const failed = await sql`select 1`.execute(h.db).then(() => null, (err: unknown) => err);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    // The next query is answered on a new connection; without the idle ones closed it takes the
    // other cut-off connection, stalls as long as the first and fails.
    const pid = await backendPid(h.db);
    expect(pids.map((r) => r.rows[0]!.pid)).not.toContain(pid);
  });

  it('leaves a query alone that waits for a lock longer than the stall check', async () => {
    const h = await handle({ stallMs: 100 });
    const holder = new pg.Client({ connectionString: PG_URL });
    await holder.connect();
    cleanup.push(() => holder.end());
    const key = Number.parseInt(crypto.randomBytes(3).toString('hex'), 16);
    await holder.query('select pg_advisory_lock($1)', [key]);
    const waiter = sql`select pg_advisory_lock(${key}), pg_advisory_unlock(${key})`.execute(h.db);
    // Waiting on the lock for several of the pool's checks (one a second), each of which found it active.
    await expect.poll(async () => (await admin(`select extract(epoch from now() - query_start)::float8 as s from pg_stat_activity
      where wait_event_type = 'Lock' and query like '%pg_advisory_lock%' and pid <> pg_backend_pid()`))[0]?.s ?? 0, { timeout: 15_000, interval: 200 }).toBeGreaterThan(3);
    await holder.query('select pg_advisory_unlock($1)', [key]);
    await expect(waiter).resolves.toBeDefined();
  });
});

describe.runIf(process.env.LR_TEST_DIALECT !== 'postgres')('a PostgreSQL server that accepts a connection and never answers', () => {
  it('fails the query once the connect timeout has passed', async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => silent.close(resolve)));
    const sockets = new Set<net.Socket>();
    silent.on('connection', (s) => sockets.add(s));
    cleanup.push(async () => sockets.forEach((s) => s.destroy()));
    const h = await openDatabase({ url: `postgres://nobody@127.0.0.1:${(silent.address() as net.AddressInfo).port}/none`, connectTimeoutMs: 300 });
    cleanup.push(() => h.close());
    const failed = await sql`select 1`.execute(h.db).then(() => null, (err: unknown) => err);
    expect(isDatabaseUnavailable(failed)).toBe(true);
  });
});
