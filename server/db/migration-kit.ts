import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectName } from './dialect.ts';

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Adds an auto-increment integer primary key `id` on either engine. */
export function id<T extends string>(t: CreateTableBuilder<T, never>, d: DialectName): CreateTableBuilder<T, 'id'> {
  return d === 'postgres'
    ? t.addColumn('id', 'serial', (c) => c.primaryKey())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
