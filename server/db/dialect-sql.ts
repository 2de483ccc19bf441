// Every difference between SQLite and PostgreSQL that queries meet, in one place: repositories
// call these and never branch on the dialect themselves.
import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import type { DialectName } from './dialect.ts';
import os from 'node:os';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations hand in an untyped Kysely
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A unique-constraint violation, as either engine reports it. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/** A row another table still refers to (a delete refused by a foreign key), as either engine reports it. */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed/.test(e?.message ?? '');
}

/**
 * PostgreSQL: the server is shutting down, starting up, restarting or full (57P01–57P03, 53300),
 * the connection failed or broke (class 08), or a session timeout ended it (25P03, 57P05).
 */
const PG_UNAVAILABLE = /^(08...|57P0[1235]|53300|25P03)$/;
/** The network between us and the database (pg reports them with the system's code). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EAI_AGAIN', 'ENOTFOUND']);
/** What pg says, without a code, of a connection that broke, timed out or could not be had. */
const PG_CONNECTION_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * The database cannot be reached or cannot take the work just now — a failure of the moment,
 * not of the request: PostgreSQL restarting or out of reach, a connection lost or not had in
 * time; SQLite's write lock held past the busy timeout. Such a request is answered 503 (try
 * again shortly), never 500. Looks through `cause` (pg wraps its connect timeout).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; syscall?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (PG_UNAVAILABLE.test(code) || NETWORK_CODES.has(code) || code.startsWith('SQLITE_BUSY')) return true;
    // A route that refuses the packets (a blackhole route) fails connect() with EINVAL.
    if (code === 'EINVAL' && e.syscall === 'connect') return true;
    if (typeof e.message === 'string' && PG_CONNECTION_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** The Asia/Seoul calendar day (YYYY-MM-DD) of an ISO-8601 UTC text timestamp column. */
export function seoulDay(db: Kysely<Database>, column: string): RawBuilder<string> {
  return dialectOf(db) === 'postgres'
    ? sql<string>`to_char((${sql.ref(column)}::timestamptz at time zone 'Asia/Seoul'), 'YYYY-MM-DD')`
    : sql<string>`substr(datetime(${sql.ref(column)}, '+9 hours'), 1, 10)`;
}

/** Whole seconds from one ISO-8601 UTC text timestamp column to another (null when either is). */
export function secondsBetween(db: Kysely<Database>, from: string, to: string): RawBuilder<number | null> {
  return dialectOf(db) === 'postgres'
    ? sql<number | null>`round(extract(epoch from (${sql.ref(to)}::timestamptz - ${sql.ref(from)}::timestamptz)))`
    : sql<number | null>`round((julianday(${sql.ref(to)}) - julianday(${sql.ref(from)})) * 86400)`;
}

/**
 * Holds `keys` until the transaction ends, so two transactions touching the same key run
 * one after the other. PostgreSQL: transaction-scoped advisory locks, taken in one fixed
 * order (no deadlock between two lockers). SQLite: nothing to do — our transactions begin
 * immediate, so they run one at a time anyway.
 */
export async function lockKeys(trx: Transaction<Database>, keys: readonly string[], o: { shared?: readonly string[] } = {}): Promise<void> {
  const shared = o.shared ?? [];
  if ((!keys.length && !shared.length) || dialectOf(trx) !== 'postgres') return;
  if (!shared.length) {
    await sql`select pg_advisory_xact_lock(k) from (select distinct hashtextextended(x, 0) as k from unnest(${[...keys]}::text[]) as x order by k) as ordered`.execute(trx);
    return;
  }
  // `shared` keys first (holders of one in shared mode wait only for an exclusive holder), then
  // `keys`: one statement, one fixed order within each group.
  await sql`select case when s then pg_advisory_xact_lock_shared(k) else pg_advisory_xact_lock(k) end
    from (select distinct s, hashtextextended(x, 0) as k from (select x, true as s from unnest(${[...shared]}::text[]) as x
      union all select x, false from unnest(${[...keys]}::text[]) as x) as both_groups order by s desc, k) as ordered`.execute(trx);
}

/**
 * Write transactions that usefully run at once on one process: SQLite one (its writes are
 * serial); PostgreSQL up to three (each waits for its own commit's flush while the next one
 * works) — but a core is left for the database's own work: on 2 cores, where PostgreSQL shares
 * the machine, three batches in flight only made each smaller (more statements per lead):
 * intake 2,516–2,577 leads/s (p99 37–44 ms) with three, 3,126–3,177 (p99 29 ms) with one.
 */
export function concurrentWriters(db: Kysely<Database>, cores = os.availableParallelism()): number {
  return dialectOf(db) === 'postgres' ? Math.min(3, Math.max(1, cores - 1)) : 1;
}

/**
 * `n` new ids of `table`'s serial id, ascending, for a multi-row insert that names its ids (so
 * rows of one statement can refer to each other, and each row's id is known exactly), in `trx`.
 * PostgreSQL: drawn from the table's sequence. SQLite: the ids after the table's AUTOINCREMENT
 * high-water mark (sqlite_sequence, never below any id ever given), free until `trx` commits —
 * its write transactions begin immediate and run one at a time. Ids not used are not a loss.
 */
export async function reserveIds(trx: Transaction<Database>, table: 'leads', n: number): Promise<number[]> {
  if (n <= 0) return [];
  if (dialectOf(trx) !== 'postgres') {
    const { rows } = await sql<{ seq: number | null }>`select (select seq from sqlite_sequence where name = ${table}) as seq`.execute(trx);
    const last = Number(rows[0]?.seq ?? 0);
    return Array.from({ length: n }, (_, i) => last + i + 1);
  }
  const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence(${table}, 'id')) as id from generate_series(1, ${n})`.execute(trx);
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/**
 * Rows handed to one statement as a table `alias(...columns, ord)` (ord numbers them from 1),
 * so a set-based statement costs one round trip however many rows it reads. PostgreSQL: one
 * array parameter per column through unnest; SQLite: one JSON text of the rows through json_each.
 * `source` is compiled with placeholders (compile the statement once); `params` gives, for
 * rows in column order, the parameters it takes, in order.
 */
export function rowsParameter(db: Kysely<Database>, alias: string, columns: ReadonlyArray<readonly [name: string, type: 'integer' | 'text']>) {
  const names = sql.raw(columns.map(([c]) => c).join(', '));
  if (dialectOf(db) === 'postgres') {
    const arrays = sql.join(columns.map(([, type]) => sql`${null}::${sql.raw(type)}[]`));
    return {
      source: sql`unnest(${arrays}) with ordinality as ${sql.raw(alias)}(${names}, ord)`,
      params: (rows: ReadonlyArray<readonly unknown[]>): unknown[] => columns.map((_, j) => rows.map((r) => r[j] ?? null)),
    };
  }
  const picks = sql.raw(columns.map(([c], j) => `json_extract(value, '$[${j}]') as ${c}`).join(', '));
  return {
    source: sql`(select ${picks}, key + 1 as ord from json_each(${null})) as ${sql.raw(alias)}`,
    params: (rows: ReadonlyArray<readonly unknown[]>): unknown[] => [JSON.stringify(rows)],
  };
}

/** Runs `fn` in a transaction on `db`, or straight on it when `db` already is one. */
export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Transaction<Database>) : db.transaction().execute(fn);
}

/**
 * A check and the write it allows, kept from interleaving with another of their kind: `fn`
 * runs in one transaction that is serial with every other call naming the same key.
 */
export function serialTransaction<T>(db: Kysely<Database>, key: string, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return inTransaction(db, async (trx) => {
    await lockKeys(trx, [key]);
    return fn(trx);
  });
}

/**
 * Rows a claim reads to take them for itself: on PostgreSQL locked until the transaction ends,
 * and rows another claimer holds are passed over (`for update skip locked`), so two workers
 * never take the same row and neither waits. SQLite needs nothing: its transactions begin
 * immediate and run one at a time.
 */
export function forUpdateSkipLocked<DB, TB extends keyof DB, O>(db: Kysely<Database>, qb: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return dialectOf(db) === 'postgres' ? qb.forUpdate().skipLocked() : qb;
}

/**
 * The transaction's commit does not wait for its log to reach the disk (PostgreSQL:
 * synchronous_commit off for this transaction alone; SQLite: unchanged). For bookkeeping whose
 * loss in a server crash repeats work but loses nothing: a delivery claim or outcome lost so is
 * sent again, and its receiver drops the repeat by its idempotency key. Intake's commits stay
 * synchronous.
 */
export async function commitWithoutFlush(trx: Transaction<Database>): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`set local synchronous_commit = off`.execute(trx);
}

/**
 * Runs `fn` — a database's set-up: its migrations and first seed — while holding the one lock
 * of that set-up, so processes starting together take turns: the first migrates and seeds, the
 * next finds it done. PostgreSQL: a session-level advisory lock named by the schema (tests'
 * schemas do not wait on each other), held on one connection that `fn` runs on too (a pool of
 * one cannot wait on itself). SQLite: no lock here — migrations already take the file's write
 * lock, and several processes on one file is a one-machine set-up started by one command.
 */
export async function withSetupLock<T>(db: Kysely<Database>, fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'postgres') return fn(db);
  return db.connection().execute(async (conn) => {
    const key = sql`hashtextextended('leadroom:setup:' || current_schema(), 0)`;
    await sql`select pg_advisory_lock(${key})`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}
