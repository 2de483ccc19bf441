// The delivery worker: sends the outbox's jobs (written with their leads by the leads module's
// delivery step) to the shops' channels. It claims due jobs with a lease in a short transaction
// (PostgreSQL: `for update skip locked`, so any number of workers share the queue; SQLite: one
// claim at a time) — a few sends' worth ahead, so claims are few and large — sends outside any
// transaction, up to `concurrency` sends at once, and records each outcome with its attempt —
// only while the job is still its own — in batches (one transaction for whatever finished
// meanwhile). A worker killed mid-send loses nothing: its claims' leases run out and another
// worker takes them again, and the idempotency key lets the receiver drop the repeat. For the
// same reason claims and records need not wait for the database's log flush (a crash of the
// database repeats sends, never loses one): on PostgreSQL they commit without it.
//
// Outcomes: delivered → succeeded, with a `deliver` event in the lead's access record (the shop
// received personal data); refused for good (a 4xx) → failed at once; 410 → failed, and the
// channel is turned off with the reason and its waiting jobs cancelled; anything else → tried
// again after an exponential backoff with jitter, up to MAX_ATTEMPTS, then failed (a person may
// retry it: retryJobs). A lead deleted or destroyed, or a channel turned off, before its send:
// the job is cancelled with the reason, nothing sent. A digest channel's due jobs go in one
// message. Woken at once when jobs were written (wake()), and polling every second otherwise.
import crypto from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { LEASE_MS, type DeliveryKind, type WebhookBody } from '../../../contracts/delivery.ts';
import { SENDERS } from './senders.ts';
import type { ChannelSender, SendChannel, SenderDeps, SendItem, SendResult } from './channel.ts';
import { deliveryJobsRepository, type ChannelRow, type ClaimedJob, type JobOutcome, type LeadRow } from './delivery-jobs.repository.ts';
import { CANCEL_REASONS, cancelled, outcomeRecorder, outcomesOf, type Finished, type RecordLeadEvents } from './outcomes.ts';
import { EVENTS, toLead, toSendChannel } from './sending.ts';

export const DELIVERY_CONCURRENCY = 20;
/** The notification channel (db/notify.ts) that wakes the workers of every process: jobs were queued. */
export const DELIVERY_NOTICE = 'delivery';
export const DELIVERY_POLL_MS = 1000;
/** Leads one digest message carries at most (more go in the next). */
export const DIGEST_MAX_LEADS = 500;
/** Jobs a claim takes at most, per slot (and at least CLAIM_MIN): a few sends' worth ahead. */
const CLAIM_PER_SLOT = 3;
const CLAIM_MIN = 20;
/** Jobs sent and not yet recorded, per slot, at most: then claims wait for the records. */
const UNRECORDED_PER_SLOT = 10;
/** How often the running loop looks for jobs whose lease ran out (tick() always does). */
const EXPIRED_EVERY_MS = 1000;
/** After a claim that found nothing, the least time before the next (wake-ups meanwhile are gathered into it). */
const IDLE_CLAIM_GAP_MS = 20;
/** How long a stop waits for sends still out before handing their jobs back. */
const STOP_GRACE_MS = 5000;

export interface DeliveryWorkerOptions {
  /** Writes the `deliver` events in the leads' access records (the leads module's recordLeadEvents). */
  recordEvents: RecordLeadEvents;
  /** Names the worker in claims and attempts (default: host, process and a random part). */
  id?: string;
  /** Sends in flight at most (default 20). */
  concurrency?: number;
  /** How long a claim is the worker's own (default LEASE_MS). */
  leaseMs?: number;
  /** How often the running loop looks for due jobs when nothing woke it (default 1 s). */
  pollMs?: number;
  /** How long stop() waits for sends still out before handing their jobs back (default 5 s). */
  stopGraceMs?: number;
  senders?: Partial<Record<DeliveryKind, ChannelSender>>;
  deps?: SenderDeps;
  /** The backoff's jitter (tests pin it). */
  random?: () => number;
  onError?: (err: unknown) => void;
  /** Each send's outcome, for the logs and metrics: its claim's run id, the channel, each job with its lead. */
  onSent?: (sent: SentReport) => void;
}

/** One send as the logs follow it: a lead's intake line names its id, these name it again. */
export interface SentReport {
  /** The claim the jobs came in (one claim, one run id, however many sends). */
  runId: string;
  worker: string;
  channelId: number;
  kind: DeliveryKind;
  attempt: number;
  ok: boolean;
  /** The receiver's HTTP status, when it answered one. */
  responseCode: number | null;
  error: string | null;
  durationMs: number;
  /** succeeded; pending: tried again later; failed: for good. */
  jobs: Array<{ jobId: number; leadId: number; status: JobOutcome['status'] }>;
}

export interface DeliveryWorker {
  readonly id: string;
  /** Sends every job due at the clock's time and waits until each is recorded; answers how many jobs it took. */
  tick(): Promise<number>;
  /** Runs until stop(): sends jobs as they come due. */
  start(): void;
  /** Jobs were written: look now rather than at the next poll. */
  wake(): void;
  /** Stops taking jobs, waits for the sends still out (up to the grace period; then hands their jobs back). */
  stop(): Promise<void>;
}

/** One send: a job, or a digest channel's due jobs together. */
interface SendGroup {
  /** The claim's run id (logs). */
  run: string;
  channel: SendChannel;
  jobs: ClaimedJob[];
  items: SendItem[];
  event: WebhookBody['event'];
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What the running loop waits for: a wake-up (jobs were written), or a send or record finishing
 * (room for more); a stop ends every wait.
 */
function wakeups() {
  type Until = 'wake' | 'completion';
  let woken = false;
  const waiters = new Set<{ until: Until; done: () => void }>();
  const settle = (what: Until | 'stop') => {
    for (const w of [...waiters]) if (what === 'stop' || w.until === what) w.done();
  };
  return {
    settle,
    /** Waits `ms` at most, for `until` (or a stop). */
    wait(ms: number, until: Until): Promise<void> {
      return new Promise((resolve) => {
        const w = {
          until,
          done() {
            clearTimeout(timer);
            waiters.delete(w);
            resolve();
          },
        };
        const timer = setTimeout(w.done, ms);
        timer.unref();
        waiters.add(w);
        if (until === 'wake' && woken) w.done();
      });
    },
    wake() {
      woken = true;
      settle('wake');
    },
    /** A claim is starting: a wake-up before it is seen by it. */
    clear() {
      woken = false;
    },
  };
}

/** One send through the channel's sender; a sender that throws is a failure to retry. */
async function sendOnce(g: SendGroup, sender: ChannelSender | undefined, deps: SenderDeps, clock: Clock): Promise<SendResult> {
  if (!sender) return { ok: false, status: null, error: '보낼 수 없는 종류의 채널입니다.', durationMs: 0, retryable: false };
  try {
    return await sender(
      { channel: g.channel, items: g.items, event: g.event, attempt: Math.max(...g.jobs.map((j) => j.attempts)) + 1, now: clock(), sentAt: g.jobs[0]!.created_at },
      deps,
    );
  } catch (err) {
    return { ok: false, status: null, error: `보내는 중 오류가 났습니다: ${err instanceof Error ? err.message : String(err)}`, durationMs: 0, retryable: true };
  }
}

/**
 * Claimed jobs in sends: a job whose channel is gone or off, or whose lead was deleted or
 * destroyed, is cancelled; a digest channel's intake jobs go together (DIGEST_MAX_LEADS a
 * message); every other job is a send of its own.
 */
function groupJobs(
  jobs: ClaimedJob[],
  c: { channels: Map<number, ChannelRow>; leads: Map<number, LeadRow>; gone: Map<number, string>; now: Date; run: string },
): { groups: SendGroup[]; dropped: Finished[] } {
  const groups: SendGroup[] = [];
  const dropped: Finished[] = [];
  const digestGroups = new Map<number, SendGroup>();
  const sendChannels = new Map<number, SendChannel>();
  for (const j of jobs) {
    const row = c.channels.get(j.channel_id);
    const lead = c.leads.get(j.lead_id);
    if (!row) dropped.push(cancelled(j, CANCEL_REASONS.channelMissing));
    else if (!row.enabled) dropped.push(cancelled(j, CANCEL_REASONS.channelOff));
    else if (!lead || lead.deleted_at !== null || lead.purged_at !== null) dropped.push(cancelled(j, CANCEL_REASONS.lead));
    else {
      // Turned on again since its receiver answered 410 here: sent to again.
      if ((c.gone.get(row.id) ?? '9') < row.updated_at) c.gone.delete(row.id);
      let channel = sendChannels.get(row.id);
      if (!channel) sendChannels.set(row.id, (channel = toSendChannel(row, c.now)));
      const item: SendItem = { jobId: j.id, idempotencyKey: j.idempotency_key, lead: toLead(lead) };
      const digest = row.mode === 'digest' && j.trigger === 'intake';
      const open = digest ? digestGroups.get(row.id) : undefined;
      if (open && open.items.length < DIGEST_MAX_LEADS) {
        open.jobs.push(j);
        open.items.push(item);
        continue;
      }
      const g: SendGroup = { run: c.run, channel, jobs: [j], items: [item], event: j.trigger === 'manual' ? EVENTS.manual : digest ? EVENTS.digest : EVENTS.instant };
      if (digest) digestGroups.set(row.id, g);
      groups.push(g);
    }
  }
  return { groups, dropped };
}

/**
 * Reads what claimed jobs' sends need (their channels and leads) and groups them: a digest
 * channel's other due jobs join the claim first, so its leads go in one message.
 */
async function prepareSends(
  repo: ReturnType<typeof deliveryJobsRepository>, me: string, jobs: ClaimedJob[],
  c: { now: Date; lease: string; run: string; gone: Map<number, string>; held: Set<number> },
): Promise<{ groups: SendGroup[]; dropped: Finished[] }> {
  const [channelRows, leadRows] = await Promise.all([repo.channels([...new Set(jobs.map((j) => j.channel_id))]), repo.leads([...new Set(jobs.map((j) => j.lead_id))])]);
  const digests = channelRows.filter((ch) => ch.mode === 'digest' && jobs.some((j) => j.channel_id === ch.id && j.trigger === 'intake'));
  for (const ch of digests) {
    const have = jobs.filter((j) => j.channel_id === ch.id && j.trigger === 'intake').length;
    if (have >= DIGEST_MAX_LEADS) continue;
    const more = await repo.claim(me, c.now.toISOString(), c.lease, DIGEST_MAX_LEADS - have, false, { channelId: ch.id, trigger: 'intake' });
    for (const j of more) c.held.add(j.id);
    jobs.push(...more);
    const known = new Set(leadRows.map((l) => l.id));
    const missing = [...new Set(more.map((j) => j.lead_id))].filter((id) => !known.has(id));
    if (missing.length) leadRows.push(...(await repo.leads(missing)));
  }
  return groupJobs(jobs, { channels: new Map(channelRows.map((ch) => [ch.id, ch])), leads: new Map(leadRows.map((l) => [l.id, l])), gone: c.gone, now: c.now, run: c.run });
}

/** Whether `p` settled within `ms`. */
async function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([p.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
  clearTimeout(timer);
  return inTime;
}

export function deliveryWorker(db: Kysely<Database>, clock: Clock, o: DeliveryWorkerOptions): DeliveryWorker {
  const me = o.id ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  const concurrency = Math.max(1, o.concurrency ?? DELIVERY_CONCURRENCY);
  const leaseMs = o.leaseMs ?? LEASE_MS;
  const pollMs = o.pollMs ?? DELIVERY_POLL_MS;
  const senders = { ...SENDERS, ...o.senders };
  const deps = o.deps ?? {};
  const random = o.random ?? Math.random;
  const onError = o.onError ?? (() => {});
  const repo = deliveryJobsRepository(db);
  // A claim takes a few slots' worth of jobs: fewer, larger transactions; the sends start as slots free.
  const claimMax = Math.max(CLAIM_MIN, concurrency * CLAIM_PER_SLOT);
  // Jobs claimed and not yet recorded, at most: a slow database slows the claims, not the sends in flight.
  const heldMax = claimMax + concurrency * UNRECORDED_PER_SLOT;

  let sends = 0;
  /** Groups claimed and waiting for a free slot. */
  const ready: SendGroup[] = [];
  /** Sends and records under way (a stop and tick() wait for them). */
  const pending = new Set<Promise<void>>();
  /** Jobs claimed and not yet recorded (handed back if a stop runs out of patience). */
  const held = new Set<number>();
  /** Channels whose receiver answered 410 here, and when: their claimed jobs still waiting are not sent. */
  const gone = new Map<number, string>();
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  const signals = wakeups();
  const wait = signals.wait;

  function track(p: Promise<void>) {
    const tracked = p.catch(onError).finally(() => {
      pending.delete(tracked);
      signals.settle('completion');
    });
    pending.add(tracked);
  }

  const recorder = outcomeRecorder(db, clock, {
    worker: me, concurrency, recordEvents: o.recordEvents, onError,
    sendsOut: () => sends,
    settled: (ids) => {
      for (const id of ids) held.delete(id);
    },
  });
  const record = (items: Finished[]) => recorder.record(items);

  /** Jobs a claim may take now; 0 while enough are waiting for a slot or unrecorded. */
  const claimRoom = () => (ready.length >= concurrency ? 0 : Math.max(0, Math.min(claimMax, heldMax - held.size)));

  // ── Sending ──────────────────────────────────────────────────────────────────────────────

  async function send(g: SendGroup): Promise<void> {
    sends++;
    // The slot is free once the receiver answered; the record follows in the next batch.
    const result = await sendOnce(g, senders[g.channel.kind], deps, clock).finally(() => sends--);
    if (result.gone) gone.set(g.channel.id, clock().toISOString());
    dispatch();
    const outcomes = outcomesOf(g, result, clock(), random);
    o.onSent?.({
      runId: g.run, worker: me, channelId: g.channel.id, kind: g.channel.kind, attempt: outcomes[0]?.outcome.attempt ?? 1, ok: result.ok,
      responseCode: result.status ?? null, error: result.ok ? null : (result.error ?? null), durationMs: Math.round(result.durationMs),
      jobs: outcomes.map((f) => ({ jobId: f.outcome.jobId, leadId: f.outcome.leadId, status: f.outcome.status })),
    });
    await record(outcomes);
  }

  /** Starts waiting groups while slots are free; a group of a channel found gone meanwhile is cancelled, not sent. */
  function dispatch() {
    while (sends < concurrency && ready.length) {
      const g = ready.shift()!;
      if (gone.has(g.channel.id)) track(record(g.jobs.map((j) => cancelled(j, CANCEL_REASONS.gone))));
      else track(send(g));
    }
  }

  // ── Claiming ─────────────────────────────────────────────────────────────────────────────

  /** Claims up to `limit` jobs and queues their sends; answers how many jobs it claimed. */
  async function claim(limit: number, expired: boolean): Promise<number> {
    const now = clock();
    const lease = iso(now.getTime() + leaseMs);
    const jobs = await repo.claim(me, now.toISOString(), lease, limit, expired);
    if (!jobs.length) return 0;
    const first = jobs.length;
    for (const j of jobs) held.add(j.id);
    try {
      await prepare(jobs, now, lease, crypto.randomBytes(4).toString('hex'));
    } catch (err) {
      // Nothing sent yet: the claims go back at once rather than at the lease's end.
      await repo.release(me, jobs.map((j) => j.id), clock().toISOString()).catch(onError);
      for (const j of jobs) held.delete(j.id);
      throw err;
    }
    dispatch();
    return first;
  }

  /** Reads what the claimed jobs' sends need, cancels those that must not go, queues the rest in groups. */
  async function prepare(jobs: ClaimedJob[], now: Date, lease: string, run: string): Promise<void> {
    const { groups, dropped } = await prepareSends(repo, me, jobs, { now, lease, run, gone, held });
    ready.push(...groups);
    if (dropped.length) track(record(dropped));
  }

  /** Hands back the claimed jobs not sent yet (a stop). */
  async function releaseReady() {
    const ids = ready.splice(0).flatMap((g) => g.jobs.map((j) => j.id));
    if (!ids.length) return;
    await repo.release(me, ids, clock().toISOString()).catch(onError);
    for (const id of ids) held.delete(id);
  }

  async function tick(): Promise<number> {
    let handled = 0;
    let expired = true;
    let exhausted = false;
    for (;;) {
      const limit = exhausted ? 0 : claimRoom();
      if (limit > 0) {
        const n = await claim(limit, expired);
        expired = false;
        handled += n;
        // Fewer than asked: nothing more is due at the clock's time.
        if (n < limit) exhausted = true;
        else continue;
      }
      if (!pending.size && !ready.length) return handled;
      await wait(60_000, 'completion');
    }
  }

  async function loop() {
    let lastExpired = -Infinity;
    while (running) {
      const limit = claimRoom();
      if (limit <= 0) {
        await wait(pollMs, 'completion');
        continue;
      }
      signals.clear();
      const expired = Date.now() - lastExpired >= EXPIRED_EVERY_MS;
      if (expired) lastExpired = Date.now();
      let n = 0;
      try {
        n = await claim(limit, expired);
      } catch (err) {
        onError(err);
      }
      // All it asked for: more may be due. Fewer: nothing more is due until jobs are written (a
      // wake-up) or come due (the poll). Under intake load wake-ups come with every batch; after
      // a claim that found nothing, they are gathered for a moment rather than each claimed alone.
      if (running && n === 0) await wait(IDLE_CLAIM_GAP_MS, 'completion');
      if (running && n < limit) await wait(pollMs, 'wake');
    }
  }

  return {
    id: me,
    tick,
    start() {
      if (running) return;
      running = true;
      recorder.abandon(false);
      loopDone = loop().catch(onError);
    },
    wake: () => signals.wake(),
    async stop() {
      running = false;
      signals.settle('stop');
      await loopDone;
      await releaseReady();
      const late = !(await settledWithin(Promise.all([...pending]), o.stopGraceMs ?? STOP_GRACE_MS));
      if (late && held.size) {
        // Sends still out: their jobs are handed back now (sent again by the next worker; the
        // receiver drops a repeat by its key), and what they answer later is not recorded.
        recorder.abandon(true);
        await repo.release(me, [...held], clock().toISOString()).catch(onError);
      }
    },
  };
}

