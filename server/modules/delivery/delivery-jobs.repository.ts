// The SQL of the delivery jobs after the outbox wrote them: claiming due jobs with a lease
// (delivery-worker.ts), reading what a send needs (the channels, the leads), recording each job's
// outcome and attempt — only while the job is still this worker's — and turning off a channel
// whose receiver is gone (outcomes.ts), the manual retry (delivery-history.service.ts), and
// handing back claims at a stop.
import type { Kysely } from 'kysely';
import type { Database, DeliveryAttemptsTable, DeliveryJobStatus } from '../../db/schema.ts';
import { leadVariantContent } from '../../db/landing-sql.ts';
import { commitWithoutFlush, forUpdateSkipLocked, inTransaction } from '../../db/dialect-sql.ts';

const JOB_COLUMNS = ['id', 'shop_id', 'channel_id', 'lead_id', 'trigger', 'attempts', 'idempotency_key', 'next_attempt_at', 'created_at'] as const;

export interface ClaimedJob {
  id: number;
  shop_id: number;
  channel_id: number;
  lead_id: number;
  trigger: 'intake' | 'manual' | 'test';
  /** Attempts before this one. */
  attempts: number;
  idempotency_key: string;
  next_attempt_at: string;
  created_at: string;
}

/** What became of a claimed job; `attempt` null when nothing was sent (cancelled before). */
export interface JobOutcome {
  jobId: number;
  shopId: number;
  channelId: number;
  leadId: number;
  status: Exclude<DeliveryJobStatus, 'sending'>;
  attempt: number | null;
  /** When the job is tried again (status pending). */
  nextAttemptAt?: string;
  error: string | null;
  responseCode: number | null;
  excerpt: string | null;
  durationMs: number;
}

/** Rows one statement takes at most (an `in` list, or a multi-row insert of attempts). */
const CHUNK = 500;

const chunks = <T>(list: readonly T[], n = CHUNK): T[][] => Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));

/** Whether a claim would find a job: a pending one due (of `only`'s channel and trigger), or, when `expired`, one whose lease ran out. */
async function anyClaimable(db: Kysely<Database>, now: string, expired: boolean, only?: { channelId: number; trigger: ClaimedJob['trigger'] }): Promise<boolean> {
  let due = db.selectFrom('delivery_jobs').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', now);
  if (only) due = due.where('channel_id', '=', only.channelId).where('trigger', '=', only.trigger);
  if (await due.limit(1).executeTakeFirst()) return true;
  if (!expired) return false;
  return !!(await db.selectFrom('delivery_jobs').select('id').where('status', '=', 'sending').where('lease_until', '<', now).limit(1).executeTakeFirst());
}

export function deliveryJobsRepository(db: Kysely<Database>) {
  return {
    /**
     * Takes up to `limit` due jobs for worker `me` until `leaseUntil`, in one short transaction:
     * jobs whose lease ran out (a worker died or stalled mid-send; when `expired`), then pending
     * jobs whose time has come, oldest due first. Two workers never take the same job: on
     * PostgreSQL the rows are locked and others' locked rows skipped, on SQLite the
     * transactions run one at a time. `only`: pending jobs of one channel and trigger (the rest
     * of a digest).
     */
    async claim(me: string, now: string, leaseUntil: string, limit: number, expired: boolean, only?: { channelId: number; trigger: ClaimedJob['trigger'] }): Promise<ClaimedJob[]> {
      // Most wake-ups under intake load find nothing due (a digest's jobs wait for their hour):
      // a plain read first, so they take no write lock (SQLite: none away from intake's writer
      // thread; PostgreSQL: no transaction). A job that comes due right after is the next wake-up's.
      if (!(await anyClaimable(db, now, expired, only))) return [];
      return inTransaction(db, async (trx) => {
        // A claim lost in a crash only sends the job again (by its key, a repeat the receiver drops).
        await commitWithoutFlush(trx);
        const ids: number[] = [];
        if (expired) {
          const rows = await forUpdateSkipLocked(trx, trx.selectFrom('delivery_jobs').select('id').where('status', '=', 'sending').where('lease_until', '<', now)
            .orderBy('lease_until').limit(limit)).execute();
          ids.push(...rows.map((r) => r.id));
        }
        if (ids.length < limit) {
          let qb = trx.selectFrom('delivery_jobs').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', now);
          if (only) qb = qb.where('channel_id', '=', only.channelId).where('trigger', '=', only.trigger);
          const rows = await forUpdateSkipLocked(trx, qb.orderBy('next_attempt_at').limit(limit - ids.length)).execute();
          ids.push(...rows.map((r) => r.id));
        }
        if (!ids.length) return [];
        const claimed = await trx.updateTable('delivery_jobs').set({ status: 'sending', lease_until: leaseUntil, claimed_by: me, updated_at: now })
          .where('id', 'in', ids).returning(JOB_COLUMNS).execute();
        return claimed.sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at) || a.id - b.id);
      });
    },

    /** The channels of these ids with their shop's code and name. */
    channels: (ids: readonly number[]) =>
      db.selectFrom('delivery_channels as c').innerJoin('shops as s', 's.id', 'c.shop_id')
        .select([
          'c.id', 'c.shop_id', 'c.name', 'c.kind', 'c.enabled', 'c.mode', 'c.fields', 'c.config', 'c.secret', 'c.previous_secret', 'c.previous_secret_until', 'c.updated_at',
          's.shop_code', 's.name as shop_name',
        ])
        .where('c.id', 'in', [...ids]).execute(),

    /** The leads of these ids as a delivery reads them, with their landing and medium. */
    leads: (ids: readonly number[]) =>
      db.selectFrom('leads as l').leftJoin('landings as g', 'g.id', 'l.landing_id').leftJoin('code_items as m', 'm.id', 'l.media_type_id')
        .select([
          'l.id', 'l.created_at', 'l.source', 'l.name', 'l.phone', 'l.landing_id', 'g.landing_code', 'g.title as landing_title', 'g.form_fields', 'm.name as medium_name',
          'l.answers', 'l.utm_source', 'l.utm_medium', 'l.utm_campaign', 'l.utm_content', 'l.utm_term', 'l.cs_status', 'l.memo', 'l.deleted_at', 'l.purged_at',
          'l.variant', leadVariantContent.as('variant_content'),
        ])
        .where('l.id', 'in', [...ids]).execute(),

    /**
     * Records outcomes (in the caller's transaction) — each job's new state, and an attempt row for each job that was
     * tried — but only for jobs still claimed by `me` (a job whose lease ran out and that
     * another worker took is that worker's to record). Answers the outcomes recorded.
     */
    async finish(me: string, at: string, outcomes: readonly JobOutcome[]): Promise<JobOutcome[]> {
      // Jobs sharing their new state are updated by one statement.
      const groups = new Map<string, JobOutcome[]>();
      for (const o of outcomes) {
        const key = JSON.stringify([o.status, o.attempt !== null, o.nextAttemptAt ?? null, o.error, o.responseCode]);
        const list = groups.get(key) ?? [];
        list.push(o);
        groups.set(key, list);
      }
      const mine = new Set<number>();
      for (const list of groups.values()) {
        const o = list[0]!;
        const tried = o.attempt !== null;
        for (const part of chunks(list)) {
          const rows = await db.updateTable('delivery_jobs')
            .set((eb) => ({
              status: o.status,
              ...(tried ? { attempts: eb('attempts', '+', 1), response_code: o.responseCode } : {}),
              last_error: o.error,
              lease_until: null,
              ...(o.status === 'pending' ? { next_attempt_at: o.nextAttemptAt!, claimed_by: null } : {}),
              ...(o.status === 'succeeded' ? { delivered_at: at } : {}),
              updated_at: at,
            }))
            .where('id', 'in', part.map((p) => p.jobId)).where('claimed_by', '=', me).where('status', '=', 'sending')
            .returning('id').execute();
          for (const r of rows) mine.add(r.id);
        }
      }
      const recorded = outcomes.filter((o) => mine.has(o.jobId));
      const attempts = recorded.filter((o) => o.attempt !== null).map((o): Omit<DeliveryAttemptsTable, 'id'> => ({
        job_id: o.jobId, shop_id: o.shopId, channel_id: o.channelId, lead_id: o.leadId, attempt: o.attempt!, status: o.status === 'succeeded' ? 'succeeded' : 'failed',
        response_code: o.responseCode, error: o.error, response_excerpt: o.excerpt, duration_ms: o.durationMs, worker: me, at,
      }));
      for (const part of chunks(attempts)) await db.insertInto('delivery_attempts').values(part).execute();
      return recorded;
    },

    /** Turns a channel off (its receiver is gone) and cancels its jobs still waiting. */
    async disableChannel(channelId: number, reason: string, cancelled: string, at: string): Promise<void> {
      await db.updateTable('delivery_channels').set({ enabled: 0, disabled_reason: reason, disabled_at: at, updated_at: at }).where('id', '=', channelId).execute();
      await db.updateTable('delivery_jobs').set({ status: 'cancelled', last_error: cancelled, lease_until: null, updated_at: at })
        .where('channel_id', '=', channelId).where('status', '=', 'pending').execute();
    },

    /** Failed or cancelled jobs of the shop among `ids` waiting again, due at `at`; answers those. */
    async retry(shopId: number, ids: readonly number[], at: string): Promise<number[]> {
      const out: number[] = [];
      for (const part of chunks(ids)) {
        const rows = await db.updateTable('delivery_jobs').set({ status: 'pending', next_attempt_at: at, lease_until: null, claimed_by: null, updated_at: at })
          .where('shop_id', '=', shopId).where('id', 'in', part).where('status', 'in', ['failed', 'cancelled']).returning('id').execute();
        out.push(...rows.map((r) => r.id));
      }
      return out.sort((a, b) => a - b);
    },

    /** Hands claims back (a stop with sends still out): pending again at once, the attempt not counted. */
    async release(me: string, ids: readonly number[], at: string): Promise<void> {
      for (const part of chunks(ids)) {
        await db.updateTable('delivery_jobs').set({ status: 'pending', lease_until: null, claimed_by: null, updated_at: at })
          .where('id', 'in', part).where('claimed_by', '=', me).where('status', '=', 'sending').execute();
      }
    },
  };
}

export type ChannelRow = Awaited<ReturnType<ReturnType<typeof deliveryJobsRepository>['channels']>>[number];
export type LeadRow = Awaited<ReturnType<ReturnType<typeof deliveryJobsRepository>['leads']>>[number];
