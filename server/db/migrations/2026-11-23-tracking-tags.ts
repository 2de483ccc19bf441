// Frozen: tracking tags chosen from templates per landing (JSON [{ kind, id, conversionLabel }]).
// Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('landings').addColumn('tracking_tags', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}
