// Frozen: state the processes of one database must agree on. One row per setting; the first
// is the landing secret's fingerprint (an HMAC of a fixed text with the secret, never the
// secret), so a process started with another secret is refused instead of rejecting the forms
// its siblings render. Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shared_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    // Where the value came from: for the landing secret 'env' (LANDING_SECRET) or 'file' (<DATA_DIR>/landing-secret).
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
