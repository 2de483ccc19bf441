// A check and the write it allows, kept from interleaving with another of their kind.
import { sql, type Kysely, type Transaction } from 'kysely';
import { dialectOf } from '../db/migration-kit.ts';
import type { Database } from '../db/schema.ts';

/**
 * Runs `fn` in one transaction that is serial with every other call naming the same key.
 * SQLite: our transactions begin immediate, so they run one at a time anyway. PostgreSQL: a
 * transaction-scoped advisory lock on the key, taken first and held to the commit.
 */
export function serialTransaction<T>(db: Kysely<Database>, key: string, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialectOf(db) === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    return fn(trx);
  });
}
