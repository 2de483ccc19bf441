// Helpers the frozen migrations use.
import type { CreateTableBuilder } from 'kysely';
import type { DialectName } from './dialect.ts';

export { dialectOf } from './dialect-sql.ts';

/** Adds an auto-increment integer primary key `id` on either engine. */
export function id<T extends string>(t: CreateTableBuilder<T, never>, d: DialectName): CreateTableBuilder<T, 'id'> {
  return d === 'postgres'
    ? t.addColumn('id', 'serial', (c) => c.primaryKey())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
