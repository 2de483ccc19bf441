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
import type { Database } from '../db/schema.ts';
import { commitWithoutFlush, inTransaction } from '../db/dialect-sql.ts';
import type { Clock } from '../lib/clock.ts';
import { notFound } from '../lib/errors.ts';
import { labelledAnswers, recordLeadEvents } from '../modules/leads/leads.service.ts';
import { SENDERS } from '../modules/delivery/senders.ts';
import type { ChannelSender, DeliveryLeadRow, SendChannel, SenderDeps, SendItem, SendResult } from '../modules/delivery/channel.ts';
import {
  backoffMs, DEFAULT_DELIVERY_FIELDS, DELIVERY_FIELDS, LEASE_MS, leadOrigin, MAX_ATTEMPTS, type DeliveryField, type DeliveryKind, type WebhookBody,
} from '../../contracts/delivery.ts';
import { deliveryWorkerRepository, type ChannelRow, type ClaimedJob, type JobOutcome, type LeadRow } from './delivery.repository.ts';

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
/** How long a small batch of outcomes waits for more before it is written. */
const RECORD_LINGER_MS = 5;
/** How often the running loop looks for jobs whose lease ran out (tick() always does). */
const EXPIRED_EVERY_MS = 1000;
/** How long a stop waits for sends still out before handing their jobs back. */
const STOP_GRACE_MS = 5000;

export const CANCEL_REASONS = {
  lead: '삭제되었거나 파기된 DB라 보내지 않았습니다.',
  channelOff: '채널이 꺼져 있어 보내지 않았습니다.',
  channelMissing: '채널이 삭제되어 보내지 않았습니다.',
  gone: '수신 서버가 410 Gone으로 답해 채널이 꺼졌습니다.',
} as const;
/** What a channel turned off by its receiver's 410 says (disabled_reason). */
export const GONE_REASON = '수신 서버가 410 Gone으로 답해 자동으로 껐습니다. 주소를 확인한 뒤 다시 켜세요.';

export interface DeliveryWorkerOptions {
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

const EVENTS: Record<'instant' | 'digest' | 'manual', WebhookBody['event']> = { instant: 'lead.created', digest: 'lead.digest', manual: 'lead.resent' };

function parseJson<T>(json: string | null, fallback: T): T {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

/** A channel row as a sender sees it; the previous secret only while its grace period lasts. */
export function toSendChannel(row: ChannelRow, now: Date): SendChannel {
  const chosen = parseJson<unknown[]>(row.fields, []);
  const fields = DELIVERY_FIELDS.filter((f) => Array.isArray(chosen) && chosen.includes(f));
  const config = parseJson<Record<string, unknown>>(row.config, {});
  return {
    id: row.id, shopId: row.shop_id, shopCode: row.shop_code, shopName: row.shop_name, name: row.name, kind: row.kind,
    fields: fields.length ? fields : ([...DEFAULT_DELIVERY_FIELDS] as DeliveryField[]),
    config: config && typeof config === 'object' && !Array.isArray(config) ? config : {},
    secret: row.secret,
    previousSecret: row.previous_secret && row.previous_secret_until && row.previous_secret_until > now.toISOString() ? row.previous_secret : null,
  };
}

function toLead(r: LeadRow): DeliveryLeadRow {
  let answers: DeliveryLeadRow['answers'];
  try {
    answers = labelledAnswers(r.answers, r.form_fields);
  } catch {
    answers = [];
  }
  return {
    id: r.id, createdAt: r.created_at, source: leadOrigin(r.source), name: r.name, phone: r.phone, landingId: r.landing_id, landingCode: r.landing_code, landingTitle: r.landing_title,
    mediumName: r.medium_name, answers,
    utm: { source: r.utm_source, medium: r.utm_medium, campaign: r.utm_campaign, content: r.utm_content, term: r.utm_term },
    csStatus: r.cs_status, memo: r.memo,
  };
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

/** An outcome with what its `deliver` event names. */
interface Finished {
  outcome: JobOutcome;
  channel?: { name: string; kind: DeliveryKind };
  trigger?: ClaimedJob['trigger'];
  /** The receiver is gone (410): the channel goes off with this outcome. */
  gone?: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function deliveryWorker(db: Kysely<Database>, clock: Clock, o: DeliveryWorkerOptions = {}): DeliveryWorker {
  const me = o.id ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  const concurrency = Math.max(1, o.concurrency ?? DELIVERY_CONCURRENCY);
  const leaseMs = o.leaseMs ?? LEASE_MS;
  const pollMs = o.pollMs ?? DELIVERY_POLL_MS;
  const senders = { ...SENDERS, ...o.senders };
  const deps = o.deps ?? {};
  const random = o.random ?? Math.random;
  const onError = o.onError ?? (() => {});
  const repo = deliveryWorkerRepository(db);
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
  let abandoned = false;
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let woken = false;
  type Until = 'wake' | 'completion';
  const waiters = new Set<{ until: Until; done: () => void }>();

  function settle(what: Until | 'stop') {
    for (const w of [...waiters]) if (what === 'stop' || w.until === what) w.done();
  }

  /**
   * Waits `ms` at most: for a wake-up (jobs were written), or for a send or record to finish
   * (room for more); a stop ends either.
   */
  function wait(ms: number, until: Until): Promise<void> {
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
  }

  function track(p: Promise<void>) {
    const tracked = p.catch(onError).finally(() => {
      pending.delete(tracked);
      settle('completion');
    });
    pending.add(tracked);
  }

  /** Jobs a claim may take now; 0 while enough are waiting for a slot or unrecorded. */
  const claimRoom = () => (ready.length >= concurrency ? 0 : Math.max(0, Math.min(claimMax, heldMax - held.size)));

  // ── Recording: whatever finished while the last batch was written goes in the next. ──────

  const queue: Array<{ items: Finished[]; resolve: () => void }> = [];
  let writing = false;

  async function write(items: Finished[]) {
    const now = clock();
    const at = now.toISOString();
    await inTransaction(db, async (trx) => {
      // An outcome lost in a crash leaves the job claimed: sent again once the lease runs out.
      await commitWithoutFlush(trx);
      const r = deliveryWorkerRepository(trx);
      const recorded = new Set((await r.finish(me, at, items.map((i) => i.outcome))).map((x) => x.jobId));
      const mine = items.filter((i) => recorded.has(i.outcome.jobId));
      for (const channelId of new Set(mine.filter((i) => i.gone).map((i) => i.outcome.channelId))) {
        await r.disableChannel(channelId, GONE_REASON, CANCEL_REASONS.gone, at);
      }
      await recordLeadEvents(
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
        if (queue.reduce((n, b) => n + b.items.length, 0) < concurrency && sends > 0) await new Promise((r) => setTimeout(r, RECORD_LINGER_MS));
        const batch = queue.splice(0);
        const items = batch.flatMap((b) => b.items);
        try {
          if (!abandoned) await write(items);
        } catch (err) {
          // Unrecorded jobs keep their claim until the lease runs out: then they are sent again.
          onError(err);
        }
        for (const i of items) held.delete(i.outcome.jobId);
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

  // ── Sending ──────────────────────────────────────────────────────────────────────────────

  function outcomesOf(g: SendGroup, result: SendResult, now: Date): Finished[] {
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

  const cancelled = (j: ClaimedJob, reason: string): Finished => ({
    outcome: { jobId: j.id, shopId: j.shop_id, channelId: j.channel_id, leadId: j.lead_id, status: 'cancelled', attempt: null, error: reason, responseCode: null, excerpt: null, durationMs: 0 },
  });

  async function send(g: SendGroup): Promise<void> {
    const sender = senders[g.channel.kind];
    let result: SendResult;
    sends++;
    try {
      if (!sender) result = { ok: false, status: null, error: '보낼 수 없는 종류의 채널입니다.', durationMs: 0, retryable: false };
      else {
        result = await sender(
          { channel: g.channel, items: g.items, event: g.event, attempt: Math.max(...g.jobs.map((j) => j.attempts)) + 1, now: clock(), sentAt: g.jobs[0]!.created_at },
          deps,
        );
      }
    } catch (err) {
      result = { ok: false, status: null, error: `보내는 중 오류가 났습니다: ${err instanceof Error ? err.message : String(err)}`, durationMs: 0, retryable: true };
    } finally {
      // The slot is free once the receiver answered; the record follows in the next batch.
      sends--;
    }
    if (result.gone) gone.set(g.channel.id, clock().toISOString());
    dispatch();
    const outcomes = outcomesOf(g, result, clock());
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
    const [channelRows, leadRows] = await Promise.all([repo.channels([...new Set(jobs.map((j) => j.channel_id))]), repo.leads([...new Set(jobs.map((j) => j.lead_id))])]);
    const channels = new Map(channelRows.map((c) => [c.id, c]));
    // A digest channel's other due jobs join this claim: its leads go in one message.
    const digests = channelRows.filter((c) => c.mode === 'digest' && jobs.some((j) => j.channel_id === c.id && j.trigger === 'intake'));
    for (const c of digests) {
      const have = jobs.filter((j) => j.channel_id === c.id && j.trigger === 'intake').length;
      if (have >= DIGEST_MAX_LEADS) continue;
      const more = await repo.claim(me, now.toISOString(), lease, DIGEST_MAX_LEADS - have, false, { channelId: c.id, trigger: 'intake' });
      for (const j of more) held.add(j.id);
      jobs.push(...more);
      const known = new Set(leadRows.map((l) => l.id));
      const missing = [...new Set(more.map((j) => j.lead_id))].filter((id) => !known.has(id));
      if (missing.length) leadRows.push(...(await repo.leads(missing)));
    }
    const leads = new Map(leadRows.map((l) => [l.id, l]));

    const dropped: Finished[] = [];
    const digestGroups = new Map<number, SendGroup>();
    const sendChannels = new Map<number, SendChannel>();
    for (const j of jobs) {
      const row = channels.get(j.channel_id);
      const lead = leads.get(j.lead_id);
      if (!row) dropped.push(cancelled(j, CANCEL_REASONS.channelMissing));
      else if (!row.enabled) dropped.push(cancelled(j, CANCEL_REASONS.channelOff));
      else if (!lead || lead.deleted_at !== null || lead.purged_at !== null) dropped.push(cancelled(j, CANCEL_REASONS.lead));
      else {
        // Turned on again since its receiver answered 410 here: sent to again.
        if ((gone.get(row.id) ?? '9') < row.updated_at) gone.delete(row.id);
        let channel = sendChannels.get(row.id);
        if (!channel) sendChannels.set(row.id, (channel = toSendChannel(row, now)));
        const item: SendItem = { jobId: j.id, idempotencyKey: j.idempotency_key, lead: toLead(lead) };
        const digest = row.mode === 'digest' && j.trigger === 'intake';
        const open = digest ? digestGroups.get(row.id) : undefined;
        if (open && open.items.length < DIGEST_MAX_LEADS) {
          open.jobs.push(j);
          open.items.push(item);
          continue;
        }
        const g: SendGroup = { run, channel, jobs: [j], items: [item], event: j.trigger === 'manual' ? EVENTS.manual : digest ? EVENTS.digest : EVENTS.instant };
        if (digest) digestGroups.set(row.id, g);
        ready.push(g);
      }
    }
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
      woken = false;
      const expired = Date.now() - lastExpired >= EXPIRED_EVERY_MS;
      if (expired) lastExpired = Date.now();
      let n = 0;
      try {
        n = await claim(limit, expired);
      } catch (err) {
        onError(err);
      }
      // All it asked for: more may be due. Fewer: nothing more is due until jobs are written (a
      // wake-up) or come due (the poll).
      if (running && n < limit) await wait(pollMs, 'wake');
    }
  }

  return {
    id: me,
    tick,
    start() {
      if (running) return;
      running = true;
      abandoned = false;
      loopDone = loop().catch(onError);
    },
    wake() {
      woken = true;
      settle('wake');
    },
    async stop() {
      running = false;
      settle('stop');
      await loopDone;
      await releaseReady();
      const all = Promise.all([...pending]);
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([all.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), o.stopGraceMs ?? STOP_GRACE_MS)))]);
      clearTimeout(timer);
      if (late && held.size) {
        // Sends still out: their jobs are handed back now (sent again by the next worker; the
        // receiver drops a repeat by its key), and what they answer later is not recorded.
        abandoned = true;
        await repo.release(me, [...held], clock().toISOString()).catch(onError);
      }
    },
  };
}

// ── For the screens: the manual retry and the test send ──────────────────────────────────

/**
 * Failed or cancelled jobs of the shop among `jobIds` are due again now (their attempts so far
 * kept, a new claim to come); answers how many it set going. Runs in `db` — the caller's
 * transaction when it records the retry with it.
 */
export async function retryJobs(db: Kysely<Database>, shopId: number, jobIds: readonly number[], now: Date): Promise<number> {
  const ids = [...new Set(jobIds)];
  return ids.length ? (await deliveryWorkerRepository(db).retry(shopId, ids, now.toISOString())).length : 0;
}

/** The sample lead of a test send (stored nowhere). */
export function sampleLead(now: Date): DeliveryLeadRow {
  return {
    id: 0, createdAt: now.toISOString(), source: 'landing', name: '테스트', phone: '01000000000', landingId: null, landingCode: 'test', landingTitle: '테스트 전송',
    mediumName: null, answers: [{ label: '문의 내용', value: '테스트 전송입니다.' }],
    utm: { source: null, medium: null, campaign: null, content: null, term: null }, csStatus: '미처리', memo: null,
  };
}

/**
 * '테스트 전송': a sample lead (not stored) sent once through the channel's sender, with the
 * channel's fields, as event `lead.test`; answers what the receiver said. No job is written.
 */
export async function sendTest(
  db: Kysely<Database>, channelId: number, now: Date, o: { senders?: Partial<Record<DeliveryKind, ChannelSender>>; deps?: SenderDeps } = {},
): Promise<SendResult> {
  const [row] = await deliveryWorkerRepository(db).channels([channelId]);
  if (!row) throw notFound('전송 채널을 찾을 수 없습니다.');
  const channel = toSendChannel(row, now);
  const sender = { ...SENDERS, ...o.senders }[channel.kind];
  if (!sender) return { ok: false, status: null, error: '보낼 수 없는 종류의 채널입니다.', durationMs: 0, retryable: false };
  return sender({ channel, items: [{ jobId: 0, idempotencyKey: `test-${crypto.randomUUID()}`, lead: sampleLead(now) }], event: 'lead.test', attempt: 1, now }, o.deps ?? {});
}
