import { Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './schema.ts';
import { openPgPool } from './pg-pool.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The SQLite database file (absolute), when the database is one; other connections (a writer thread) open it too. */
  sqliteFile?: string;
  /** SQLite: the whole database as bytes (a template a test copies rather than migrating again). */
  serialize?(): Buffer;
  /** PostgreSQL: where to open a listening connection (notify.ts), and the schema that names its channels. */
  pg?: { url: string; schema: string };
  close(): Promise<void>;
}

interface DbOptions {
  /** postgres://… for PostgreSQL, otherwise a SQLite file path or ':memory:'. */
  url: string;
  /** PostgreSQL schema to use (created if missing); tests use one per app. */
  pgSchema?: string;
  poolSize?: number;
  /** SQLite: how long a writer waits for another connection's write lock (ms). */
  busyTimeoutMs?: number;
  /** PostgreSQL: how long a query waits for its connection, new or from a busy pool (ms; pg-pool.ts). */
  connectTimeoutMs?: number;
  /** PostgreSQL: how long a query runs before its connection is checked for being dead (ms; 0: never; pg-pool.ts). */
  stallMs?: number;
  /** PostgreSQL: how long the server keeps a transaction that sends nothing before ending it (ms; 0: never; pg-pool.ts). */
  idleInTransactionMs?: number;
  /** PostgreSQL: a pooled connection was lost (the server restarted, the network cut it); the pool opens a new one. */
  onConnectionLost?: (err: Error) => void;
  /** SQLite ':memory:': start as a copy of this database (bytes from a handle's serialize()). */
  image?: Buffer;
  /**
   * SQLite: a thread with nothing else to do (intake's writer) waits for the write lock inside
   * its begin, in SQLite's busy handler, instead of yielding to an event loop between tries
   * (YieldingSqliteDriver): two pragmas fewer per transaction.
   */
  waitInBegin?: boolean;
}

/** PostgreSQL: how long a query waits for a connection by default (a normal connect takes milliseconds). */
export const CONNECT_TIMEOUT_MS = 5_000;
/** PostgreSQL: how long a query runs before its connection is checked for being dead, by default. */
const STALL_MS = 5_000;
/**
 * PostgreSQL: a transaction idle this long is an orphan (its client cut off) and the server ends it,
 * freeing its locks for the other hosts: shorter than a visitor's patience, far longer than any gap
 * between two statements of ours.
 */
const IDLE_IN_TRANSACTION_MS = 6_000;

export async function openDatabase(opts: DbOptions): Promise<DbHandle> {
  if (/^postgres(ql)?:\/\//.test(opts.url)) {
    const pg = (await import('pg')).default;
    // int8 (count(*), bigint) as JS numbers: our counts stay far below 2^53.
    pg.types.setTypeParser(20, (v: string) => Number(v));
    const schema = opts.pgSchema;
    const connectTimeoutMs = opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    if (schema) {
      const admin = new pg.Client({ connectionString: opts.url, connectionTimeoutMillis: connectTimeoutMs });
      await admin.connect();
      await admin.query(`create schema if not exists "${schema.replace(/"/g, '')}"`);
      await admin.end();
    }
    const pool = openPgPool(pg, {
      url: opts.url, max: opts.poolSize ?? 10, schema, connectTimeoutMs, stallMs: opts.stallMs ?? STALL_MS,
      idleInTransactionMs: opts.idleInTransactionMs ?? IDLE_IN_TRANSACTION_MS, onConnectionLost: opts.onConnectionLost,
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pg: { url: opts.url, schema: schema ?? 'public' }, close: () => db.destroy() };
  }
  const Sqlite = (await import('better-sqlite3')).default;
  if (opts.url !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(opts.url)), { recursive: true });
  const sqlite = opts.image && opts.url === ':memory:' ? new Sqlite(opts.image) : new Sqlite(opts.url);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk (not just in the OS cache) before we answer; intake's group
  // commit makes that one fsync per batch of leads.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  const busyMs = Math.round(opts.busyTimeoutMs ?? 5000);
  sqlite.pragma(`busy_timeout = ${busyMs}`);
  // Kysely prepares every query; preparing costs more than running a small one, so
  // statements are kept by their SQL text (bounded; queries are built from fixed shapes).
  const statements = new Map<string, ReturnType<typeof sqlite.prepare>>();
  const database = {
    prepare(text: string) {
      // Every transaction takes the write lock when it begins: a deferred one that reads and
      // then writes fails at once (SQLITE_BUSY) if another connection wrote in between, while
      // an immediate one waits its turn (busy_timeout). Intake's writer thread is such a connection.
      const sql = text === 'begin' ? 'begin immediate' : text;
      let stmt = statements.get(sql);
      if (!stmt) {
        if (statements.size >= 1000) statements.delete(statements.keys().next().value!);
        stmt = sqlite.prepare(sql);
        statements.set(sql, stmt);
      }
      return stmt;
    },
    close: () => sqlite.close(),
  };
  const db = new Kysely<Database>({ dialect: opts.waitInBegin ? new SqliteDialect({ database }) : new YieldingSqliteDialect({ database }, sqlite, busyMs) });
  return {
    db, dialect: 'sqlite', ...(opts.url !== ':memory:' ? { sqliteFile: path.resolve(opts.url) } : {}), serialize: () => sqlite.serialize(), close: () => db.destroy(),
  };
}


interface PragmaTarget {
  pragma(source: string): unknown;
}

/**
 * A transaction's `begin immediate` waits for another connection's write lock (intake's writer
 * thread holds it while it commits a batch) without stopping the event loop: SQLite's busy
 * handler sleeps inside the call, and better-sqlite3 is synchronous, so every request of the
 * process waited with it (under intake load the event loop stood still 1.5 s in 11 s, in the
 * delivery worker's claims). Here the begin is tried without waiting, and on SQLITE_BUSY tried
 * again after a timer (1 → 16 ms), within the same overall limit as the busy timeout.
 */
class YieldingSqliteDriver extends SqliteDriver {
  constructor(config: SqliteDialectConfig, private readonly sqlite: PragmaTarget, private readonly busyMs: number) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const deadline = Date.now() + this.busyMs;
    for (let pause = 1; ; pause = Math.min(pause * 2, 16)) {
      this.sqlite.pragma('busy_timeout = 0');
      try {
        await super.beginTransaction(connection);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw err;
      } finally {
        this.sqlite.pragma(`busy_timeout = ${this.busyMs}`);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

class YieldingSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig, private readonly sqlite: PragmaTarget, private readonly busyMs: number) {
    super(config);
  }

  override createDriver(): Driver {
    return new YieldingSqliteDriver(this.config, this.sqlite, this.busyMs);
  }
}
