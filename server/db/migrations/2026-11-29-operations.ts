// Frozen: operations. Every process that runs the worker (npm start with WORKER on, npm run
// worker) records a heartbeat here every few seconds, so /api/health in any web process can say
// when a worker was last alive; a process stopping cleanly removes its row, and rows long
// silent are pruned by the heartbeats themselves. Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('worker_heartbeats')
    // host:pid — one row per worker process
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('worker_heartbeats_seen_idx').on('worker_heartbeats').columns(['seen_at']).execute();
}
