// The SQL of operations: the database's round trip, the worker heartbeats (worker_heartbeats),
// and the outbox figures /metrics reads on each scrape — each an index range, never a scan.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

interface HeartbeatSummary {
  /** The latest heartbeat of any worker process (ISO), or null when none ever beat. */
  lastSeenAt: string | null;
  /** Worker processes seen since `since`. */
  alive: number;
}

export function operationsRepository(db: Kysely<Database>) {
  return {
    /** One round trip; throws when the database does not answer. */
    async ping(): Promise<void> {
      await sql`select 1`.execute(db);
    },

    async beat(row: { id: string; host: string; pid: number; startedAt: string }, at: string): Promise<void> {
      await db
        .insertInto('worker_heartbeats')
        .values({ id: row.id, host: row.host, pid: row.pid, started_at: row.startedAt, seen_at: at })
        .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: at, started_at: row.startedAt, host: row.host, pid: row.pid }))
        .execute();
    },

    /** Rows silent since before `before` (processes killed without stopping): answers how many went. */
    async prune(before: string): Promise<number> {
      const r = await db.deleteFrom('worker_heartbeats').where('seen_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    async forget(id: string): Promise<void> {
      await db.deleteFrom('worker_heartbeats').where('id', '=', id).execute();
    },

    async heartbeats(since: string): Promise<HeartbeatSummary> {
      const r = await db
        .selectFrom('worker_heartbeats')
        .select((eb) => [eb.fn.max('seen_at').as('last'), eb.fn.countAll<number>().filterWhere('seen_at', '>=', since).as('alive')])
        .executeTakeFirst();
      return { lastSeenAt: r?.last ?? null, alive: Number(r?.alive ?? 0) };
    },

    /**
     * The outbox: jobs waiting (pending, due or not), being sent, and the oldest due moment of a
     * pending job (how long the queue lags behind), through the (status, next_attempt_at) index.
     */
    async outbox(now: string): Promise<{ pending: number; sending: number; oldestDueAt: string | null }> {
      const counts = await db
        .selectFrom('delivery_jobs')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('status', 'in', ['pending', 'sending'])
        .groupBy('status')
        .execute();
      const oldest = await db
        .selectFrom('delivery_jobs')
        .select((eb) => eb.fn.min('next_attempt_at').as('at'))
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .executeTakeFirst();
      const of = (s: string) => Number(counts.find((c) => c.status === s)?.n ?? 0);
      return { pending: of('pending'), sending: of('sending'), oldestDueAt: oldest?.at ?? null };
    },
  };
}

