// What became of each claimed job, written in batches: the delivery worker hands its outcomes
// here as its sends finish, and whatever finished while the last batch was written goes in the
// next (one transaction: the jobs and their attempts — only while the job is still this
// worker's — a channel whose receiver is gone turned off, and a `deliver` event in the lead's
// access record for each delivery). An outcome lost in a crash leaves its job claimed: sent
// again once the lease runs out, and the receiver drops the repeat by its idempotency key.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { commitWithoutFlush, inTransaction } from '../../db/dialect-sql.ts';
import type { Clock } from '../../lib/clock.ts';
import { backoffMs, MAX_ATTEMPTS, type DeliveryKind } from '../../../contracts/delivery.ts';
import type { SendChannel, SendResult } from './channel.ts';
import { deliveryJobsRepository, type ClaimedJob, type JobOutcome } from './delivery-jobs.repository.ts';

export const CANCEL_REASONS = {
  lead: '삭제되었거나 파기된 DB라 보내지 않았습니다.',
  channelOff: '채널이 꺼져 있어 보내지 않았습니다.',
  channelMissing: '채널이 삭제되어 보내지 않았습니다.',
  gone: '수신 서버가 410 Gone으로 답해 채널이 꺼졌습니다.',
} as const;
/** What a channel turned off by its receiver's 410 says (disabled_reason). */
export const GONE_REASON = '수신 서버가 410 Gone으로 답해 자동으로 껐습니다. 주소를 확인한 뒤 다시 켜세요.';

/** An outcome with what its `deliver` event names. */
export interface Finished {
  outcome: JobOutcome;
  channel?: { name: string; kind: DeliveryKind };
  trigger?: ClaimedJob['trigger'];
  /** The receiver is gone (410): the channel goes off with this outcome. */
  gone?: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function outcomesOf(g: { channel: SendChannel; jobs: ClaimedJob[] }, result: SendResult, now: Date, random: () => number): Finished[] {
  const attempt = Math.max(...g.jobs.map((j) => j.attempts)) + 1;
  // One retry time for the whole group: a digest stays one message at its next attempt too.
  const retryAt = iso(now.getTime() + backoffMs(attempt, random));
  return g.jobs.map((j) => {
    const tried = j.attempts + 1;
    const status: JobOutcome['status'] = result.ok
      ? 'succeeded'
      : result.gone || result.retryable === false || tried >= MAX_ATTEMPTS ? 'failed' : 'pending';
    return {
      outcome: {
        jobId: j.id, shopId: j.shop_id, channelId: j.channel_id, leadId: j.lead_id, status, attempt: tried,
        ...(status === 'pending' ? { nextAttemptAt: retryAt } : {}),
        error: result.ok ? null : (result.error ?? '전송하지 못했습니다.'), responseCode: result.status,
        excerpt: result.excerpt ? result.excerpt.slice(0, 300) : null, durationMs: Math.max(0, Math.round(result.durationMs)),
      },
      channel: { name: g.channel.name, kind: g.channel.kind },
      trigger: j.trigger,
      gone: !!result.gone,
    };
  });
}

export const cancelled = (j: ClaimedJob, reason: string): Finished => ({
  outcome: { jobId: j.id, shopId: j.shop_id, channelId: j.channel_id, leadId: j.lead_id, status: 'cancelled', attempt: null, error: reason, responseCode: null, excerpt: null, durationMs: 0 },
});

/**
 * Writes events in leads' access records with the caller's transaction: the leads module's
 * recordLeadEvents, handed in by whoever runs the worker (the leads module is the only writer of
 * leads and their events; delivery does not import it).
 */
export type RecordLeadEvents = (
  trx: Kysely<Database>,
  events: ReadonlyArray<{ leadId: number; shopId: number; accountId: number | null; action: string; before: unknown; after: unknown; ip: string | null }>,
  now: Date,
) => Promise<void>;

export interface RecorderOptions {
  /** The worker whose claims these are (only its own claims are recorded). */
  worker: string;
  /** A batch smaller than this waits a moment for more while sends are out. */
  concurrency: number;
  /** Sends in flight now. */
  sendsOut(): number;
  /** These jobs' outcomes were written, or failed to be (then their claims run out). */
  settled(jobIds: number[]): void;
  recordEvents: RecordLeadEvents;
  onError(err: unknown): void;
}

export interface OutcomeRecorder {
  /** Queues outcomes for the next batch; resolves once their batch is written (or failed). */
  record(items: Finished[]): Promise<void>;
  /** Outcomes still to come are dropped, not written (a stop handed their jobs back), or written again. */
  abandon(on: boolean): void;
}

/** How long a small batch of outcomes waits for more before it is written. */
const RECORD_LINGER_MS = 5;

export function outcomeRecorder(db: Kysely<Database>, clock: Clock, o: RecorderOptions): OutcomeRecorder {
  let abandoned = false;
  const queue: Array<{ items: Finished[]; resolve: () => void }> = [];
  let writing = false;

  async function write(items: Finished[]) {
    const now = clock();
    const at = now.toISOString();
    await inTransaction(db, async (trx) => {
      // An outcome lost in a crash leaves the job claimed: sent again once the lease runs out.
      await commitWithoutFlush(trx);
      const r = deliveryJobsRepository(trx);
      const recorded = new Set((await r.finish(o.worker, at, items.map((i) => i.outcome))).map((x) => x.jobId));
      const mine = items.filter((i) => recorded.has(i.outcome.jobId));
      for (const channelId of new Set(mine.filter((i) => i.gone).map((i) => i.outcome.channelId))) {
        await r.disableChannel(channelId, GONE_REASON, CANCEL_REASONS.gone, at);
      }
      await o.recordEvents(
        trx,
        mine.filter((i) => i.outcome.status === 'succeeded').map((i) => ({
          leadId: i.outcome.leadId, shopId: i.outcome.shopId, accountId: null, action: 'deliver', before: null, ip: null,
          after: { channelId: i.outcome.channelId, channelName: i.channel?.name ?? null, kind: i.channel?.kind ?? null, jobId: i.outcome.jobId, trigger: i.trigger ?? null },
        })),
        now,
      );
    });
  }

  async function drain() {
    writing = true;
    try {
      while (queue.length) {
        // A few sends still finishing join this batch: one commit for more outcomes (each commit
        // waits for the disk; on SQLite it holds the event loop meanwhile). Not a delivery's delay:
        // the receiver has it already.
        if (queue.reduce((n, b) => n + b.items.length, 0) < o.concurrency && o.sendsOut() > 0) await new Promise((r) => setTimeout(r, RECORD_LINGER_MS));
        const batch = queue.splice(0);
        const items = batch.flatMap((b) => b.items);
        try {
          if (!abandoned) await write(items);
        } catch (err) {
          // Unrecorded jobs keep their claim until the lease runs out: then they are sent again.
          o.onError(err);
        }
        o.settled(items.map((i) => i.outcome.jobId));
        for (const b of batch) b.resolve();
      }
    } finally {
      writing = false;
    }
  }

  function record(items: Finished[]): Promise<void> {
    if (!items.length) return Promise.resolve();
    return new Promise((resolve) => {
      queue.push({ items, resolve });
      if (!writing) void drain();
    });
  }

  return {
    record,
    abandon(on) {
      abandoned = on;
    },
  };
}
