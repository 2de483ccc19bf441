import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres://… for PostgreSQL, otherwise a SQLite file path or ':memory:'. */
  url: string;
  /** PostgreSQL schema to use (created if missing); tests use one per app. */
  pgSchema?: string;
  poolSize?: number;
}

export async function openDatabase(opts: DbOptions): Promise<DbHandle> {
  if (/^postgres(ql)?:\/\//.test(opts.url)) {
    const pg = (await import('pg')).default;
    // int8 (count(*), bigint) as JS numbers: our counts stay far below 2^53.
    pg.types.setTypeParser(20, (v: string) => Number(v));
    const schema = opts.pgSchema;
    if (schema) {
      const admin = new pg.Client({ connectionString: opts.url });
      await admin.connect();
      await admin.query(`create schema if not exists "${schema.replace(/"/g, '')}"`);
      await admin.end();
    }
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      ...(schema ? { options: `-c search_path="${schema}"` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const Sqlite = (await import('better-sqlite3')).default;
  if (opts.url !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(opts.url)), { recursive: true });
  const sqlite = new Sqlite(opts.url);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

