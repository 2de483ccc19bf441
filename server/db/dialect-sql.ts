// Every difference between SQLite and PostgreSQL that queries meet, in one place: repositories
// call these and never branch on the dialect themselves.
import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import type { DialectName } from './dialect.ts';

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
export async function lockKeys(trx: Transaction<Database>, keys: readonly string[]): Promise<void> {
  if (!keys.length || dialectOf(trx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(k) from (select distinct hashtextextended(x, 0) as k from unnest(${[...keys]}::text[]) as x order by k) as ordered`.execute(trx);
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
