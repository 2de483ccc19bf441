import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
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

export interface DbOptions {
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
  /** PostgreSQL: a pooled connection was lost (the server restarted, the network cut it); the pool opens a new one. */
  onConnectionLost?: (err: Error) => void;
  /** SQLite ':memory:': start as a copy of this database (bytes from a handle's serialize()). */
  image?: Buffer;
}

/** PostgreSQL: how long a query waits for a connection by default (a normal connect takes milliseconds). */
export const CONNECT_TIMEOUT_MS = 5_000;
/** PostgreSQL: how long a query runs before its connection is checked for being dead, by default. */
export const STALL_MS = 5_000;

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
      url: opts.url, max: opts.poolSize ?? 10, schema, connectTimeoutMs, stallMs: opts.stallMs ?? STALL_MS, onConnectionLost: opts.onConnectionLost,
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
  sqlite.pragma(`busy_timeout = ${Math.round(opts.busyTimeoutMs ?? 5000)}`);
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return {
    db, dialect: 'sqlite', ...(opts.url !== ':memory:' ? { sqliteFile: path.resolve(opts.url) } : {}), serialize: () => sqlite.serialize(), close: () => db.destroy(),
  };
}

