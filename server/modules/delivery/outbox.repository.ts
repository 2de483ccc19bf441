// The SQL of the delivery outbox (delivery-outbox.ts): the channels new leads are delivered
// to, and the jobs written for them in the transaction that accepts the leads.
import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import { dialectOf } from '../../db/dialect-sql.ts';
import type { Database, DeliveryJobsTable } from '../../db/schema.ts';

/** A channel as the outbox reads it: whom it delivers which leads to, and when. */
export interface OutboxChannel {
  id: number;
  shop_id: number;
  enabled: number;
  mode: 'instant' | 'digest';
  digest_at: string | null;
  statuses: string;
  landing_ids: string;
  include_duplicates: number;
}

const CHANNEL_COLUMNS = ['id', 'shop_id', 'enabled', 'mode', 'digest_at', 'statuses', 'landing_ids', 'include_duplicates'] as const;

/**
 * Rows one insert statement writes at most: 11 values a row stays far below the engines'
 * parameter limits (SQLite 32,766; PostgreSQL 65,535), and an import's 50,000 leads take a few.
 */
const INSERT_ROWS = 1000;

export type NewJob = Insertable<DeliveryJobsTable>;

const JOB_COLUMNS = [
  'shop_id', 'channel_id', 'lead_id', 'status', 'trigger', 'reason', 'attempts', 'next_attempt_at', 'lease_until', 'claimed_by', 'idempotency_key',
  'last_error', 'response_code', 'delivered_at', 'created_by', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof NewJob>;
/**
 * Rows one statement of intake's jobs writes at most: the statement's text is compiled once per
 * engine and row count (1…JOB_ROWS) and kept, so a batch's jobs are values, not a query built anew.
 */
const JOB_ROWS = 100;
const jobInserts = new Map<string, string>();

export function deliveryOutboxRepository(db: Kysely<Database>) {
  return {
    /** The enabled channels of these shops (one query for a whole batch of leads). */
    enabledChannels: (shopIds: readonly number[]): Promise<OutboxChannel[]> =>
      db.selectFrom('delivery_channels').select(CHANNEL_COLUMNS).where('shop_id', 'in', [...shopIds]).where('enabled', '=', 1).orderBy('id').execute(),

    channel: (shopId: number, channelId: number): Promise<OutboxChannel | undefined> =>
      db.selectFrom('delivery_channels').select(CHANNEL_COLUMNS).where('shop_id', '=', shopId).where('id', '=', channelId).executeTakeFirst(),

    /** Of `ids`, the shop's leads neither deleted nor destroyed. */
    async liveLeadIds(shopId: number, ids: readonly number[]): Promise<Set<number>> {
      const live = new Set<number>();
      for (let i = 0; i < ids.length; i += INSERT_ROWS) {
        const rows = await db.selectFrom('leads').select('id').where('shop_id', '=', shopId).where('id', 'in', ids.slice(i, i + INSERT_ROWS))
          .where('deleted_at', 'is', null).where('purged_at', 'is', null).execute();
        for (const r of rows) live.add(r.id);
      }
      return live;
    },

    /** Writes jobs, many rows a statement; nothing is read back (intake's hot path). */
    async insertJobs(jobs: readonly NewJob[]): Promise<void> {
      for (let i = 0; i < jobs.length; i += JOB_ROWS) {
        const chunk = jobs.slice(i, i + JOB_ROWS);
        const key = `${dialectOf(db)}|${chunk.length}`;
        let text = jobInserts.get(key);
        if (!text) {
          const row = Object.fromEntries(JOB_COLUMNS.map((c) => [c, null]));
          text = db.insertInto('delivery_jobs').values(Array.from({ length: chunk.length }, () => row) as never).compile().sql;
          jobInserts.set(key, text);
        }
        await db.executeQuery(CompiledQuery.raw(text, chunk.flatMap((j) => JOB_COLUMNS.map((c) => j[c] ?? null))));
      }
    },

    /** Writes jobs and answers their ids, in the jobs' order (matched by key: RETURNING promises no order). */
    async insertJobsReturning(jobs: readonly NewJob[]): Promise<number[]> {
      const byKey = new Map<string, number>();
      for (let i = 0; i < jobs.length; i += INSERT_ROWS) {
        const rows = await db.insertInto('delivery_jobs').values(jobs.slice(i, i + INSERT_ROWS)).returning(['id', 'idempotency_key']).execute();
        for (const r of rows) byKey.set(r.idempotency_key, r.id);
      }
      return jobs.map((j) => byKey.get(j.idempotency_key)!);
    },
  };
}
