// Frozen: an account may be required to choose its own password before anything else
// (the generated first administrator password, an administrator's reset, the reset script).
// Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
