// The outbox and the delivery worker, on both engines, against a real HTTP receiver on
// 127.0.0.1: a lead submitted through a landing arrives signed and with its key; a rotation
// signs with both secrets during its grace; a receiver that is down is retried with backoff and
// the same key until it is back; 410 turns the channel off; deleted leads and turned-off
// channels are never sent; an expired lease is taken again; no lead commits without its jobs,
// and only matching channels get one; digests go at their time; the manual send, the retry and
// the test send; two workers never send one job twice; a worker killed by SIGKILL mid-send
// loses nothing; the worker inside the app delivers at once and stops gracefully.
import { sharedDatabase } from '../../test-databases.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { formToken, landingTestApp, leadBody, openLanding, submit, type LandingTestApp } from '../../test-landings.ts';
import { deliveryWorker } from '../../worker/delivery.ts';
import type { DeliveryWorker } from './delivery.entry.ts';
import { CANCEL_REASONS, GONE_REASON } from './outcomes.ts';
import { retryJobs } from './delivery-history.service.ts';
import { sendTest } from './sending.ts';
import { enqueueDeliveries } from './outbox.ts';
import { insertAccepted, type AcceptedLead } from '../leads/leads.entry.ts';
import { MAX_ATTEMPTS, type WebhookBody } from '../../../contracts/delivery.ts';
import { TEST_OUTBOUND, TEST_OUTBOUND_ALLOW } from '../../test-helpers.ts';
import { OUTBOUND_UNREACHABLE } from '../../lib/outbound.ts';
import { importsSettled } from '../data-insertion/data-insertion.service.ts';
import { verified } from '../../test-webhooks.ts';
import { openDatabase } from '../../db/dialect.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const pgUrl = process.env.LR_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;

// ── A receiver, as a shop's system would run one ─────────────────────────────────────────

interface Receipt {
  url: string;
  key: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: WebhookBody;
}

type Answer = (r: Receipt, res: http.ServerResponse) => void;

class Receiver {
  server: http.Server | null = null;
  port = 0;
  receipts: Receipt[] = [];
  answer: Answer = (_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  private waiters: Array<() => void> = [];

  get url() {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(port = this.port): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const r = { url: req.url ?? '', key: String(req.headers['idempotency-key']), headers: req.headers, body, json: JSON.parse(body) as WebhookBody };
        this.receipts.push(r);
        for (const w of this.waiters.splice(0)) w();
        this.answer(r, res);
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening: connections are refused until start() again (on the same port). */
  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = null;
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }

  /** Resolves once `n` requests have come in. */
  async received(n: number, timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.receipts.length < n) {
      if (Date.now() > until) throw new Error(`receiver: ${this.receipts.length} of ${n} requests`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

// ── Rows ────────────────────────────────────────────────────────────────────────────────

interface ChannelSpec {
  url: string;
  name?: string;
  secret?: string | null;
  previousSecret?: string | null;
  previousUntil?: string | null;
  mode?: 'instant' | 'digest';
  digestAt?: string | null;
  statuses?: string[];
  landingIds?: number[];
  includeDuplicates?: boolean;
  enabled?: boolean;
  fields?: string[];
  /** How long a send waits for the receiver's answer (default 2 s: the timeout tests stay short). */
  timeoutMs?: number;
}

async function addChannel(db: Kysely<Database>, shopId: number, s: ChannelSpec): Promise<number> {
  const at = '2026-11-20T00:00:00.000Z';
  const { id } = await db.insertInto('delivery_channels').values({
    shop_id: shopId, name: s.name ?? '미소 CRM', kind: 'webhook', enabled: s.enabled === false ? 0 : 1, mode: s.mode ?? 'instant', digest_at: s.digestAt ?? null,
    statuses: JSON.stringify(s.statuses ?? []), landing_ids: JSON.stringify(s.landingIds ?? []), fields: JSON.stringify(s.fields ?? []),
    include_duplicates: s.includeDuplicates ? 1 : 0, config: JSON.stringify({ url: s.url, timeoutMs: s.timeoutMs ?? 2000 }),
    secret: s.secret === undefined ? 'whsec_current' : s.secret, previous_secret: s.previousSecret ?? null, previous_secret_until: s.previousUntil ?? null,
    disabled_reason: null, disabled_at: null, created_by: null, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  return id;
}

const jobs = (db: Kysely<Database>) =>
  db.selectFrom('delivery_jobs').select(['id', 'channel_id', 'lead_id', 'status', 'trigger', 'reason', 'attempts', 'next_attempt_at', 'lease_until', 'claimed_by', 'idempotency_key', 'last_error', 'response_code', 'delivered_at', 'created_by', 'created_at'])
    .orderBy('id').execute();

const attempts = (db: Kysely<Database>) =>
  db.selectFrom('delivery_attempts').select(['job_id', 'lead_id', 'channel_id', 'attempt', 'status', 'response_code', 'error', 'response_excerpt', 'worker', 'at']).orderBy('id').execute();

const count = async (db: Kysely<Database>, table: 'leads' | 'delivery_jobs' | 'delivery_attempts') =>
  Number((await db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

const leadIds = async (db: Kysely<Database>) => (await db.selectFrom('leads').select('id').orderBy('id').execute()).map((r) => r.id);

// ── Through the app ─────────────────────────────────────────────────────────────────────

describe('delivery through the app', () => {
  let t: LandingTestApp;
  let landingId: number;
  let receiver: Receiver;
  let worker: DeliveryWorker;
  let phone = 0;

  beforeEach(async () => {
    t = await landingTestApp();
    landingId = await openLanding(t);
    receiver = await new Receiver().start();
    // Jitter pinned to the middle: backoff is exactly 5 s, 10 s, 20 s …
    worker = deliveryWorker(t.app.db, t.app.clock, { id: 'worker-a', random: () => 0.5, deps: { outbound: t.app.outbound } });
  });
  afterEach(async () => {
    await worker.stop();
    await receiver.stop();
    await t.close();
  });

  const nextPhone = () => `010-5555-${String(1000 + phone++).slice(-4)}`;
  async function submitLead(extra: Record<string, unknown> = {}): Promise<void> {
    const res = await submit(t, leadBody(t, landingId, { phone: nextPhone(), ...extra }));
    expect(res.statusCode, res.body).toBe(201);
  }

  it('delivers a lead submitted through a landing: the body, a signature that verifies, its Idempotency-Key, the record', async () => {
    const channelId = await addChannel(t.app.db, t.shopId, { url: receiver.url });
    await submitLead({ name: '김하나', phone: '010-2222-3333', time: '오후' });
    const [job] = await jobs(t.app.db);
    const [leadId] = await leadIds(t.app.db);
    expect(job).toMatchObject({ channel_id: channelId, lead_id: leadId, status: 'pending', trigger: 'intake', attempts: 0, next_attempt_at: t.clock.current.toISOString() });
    expect(job!.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);

    t.clock.advanceMinutes(0.01);
    expect(await worker.tick()).toBe(1);
    expect(receiver.receipts).toHaveLength(1);
    const [r] = receiver.receipts;
    expect(r!.key).toBe(job!.idempotency_key);
    expect(r!.headers['user-agent']).toBe('Leadroom-Webhook/1');
    expect(r!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(verified(r!.headers['x-leadroom-signature'], r!.body, ['whsec_current'])).toEqual(['whsec_current']);
    expect(r!.headers['x-leadroom-signature']).toMatch(new RegExp(`^t=${Math.floor(t.clock.current.getTime() / 1000)},v1=[0-9a-f]{64}$`));
    expect(r!.json).toEqual({
      event: 'lead.created',
      shop: { code: 'smile', name: '미소치과' },
      sentAt: job!.created_at,
      // The default fields; the phone in full (HTTPS to the shop's own system).
      leads: [{
        id: leadId, receivedAt: job!.created_at, source: 'landing', name: '김하나', phone: '01022223333', landing: { id: landingId, code: 'implant', title: '임플란트 상담 이벤트' },
        medium: null, answers: [{ label: '지역', value: '서울' }, { label: '통화 가능 시간', value: '오후' }],
      }],
    });

    const [done] = await jobs(t.app.db);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1, response_code: 200, last_error: null, lease_until: null, claimed_by: 'worker-a', delivered_at: t.clock.current.toISOString() });
    expect(await attempts(t.app.db)).toEqual([
      { job_id: job!.id, lead_id: leadId, channel_id: channelId, attempt: 1, status: 'succeeded', response_code: 200, error: null, response_excerpt: '{"ok":true}', worker: 'worker-a', at: t.clock.current.toISOString() },
    ]);
    // The shop received personal data: the delivery is in the lead's access record.
    const events = await t.app.db.selectFrom('lead_events').select(['action', 'account_id', 'after', 'at']).where('lead_id', '=', leadId!).where('action', '=', 'deliver').execute();
    expect(events.map((e) => ({ ...e, after: JSON.parse(e.after!) }))).toEqual([
      { action: 'deliver', account_id: null, at: t.clock.current.toISOString(), after: { channelId, channelName: '미소 CRM', kind: 'webhook', jobId: job!.id, trigger: 'intake' } },
    ]);
    // Nothing more is due.
    expect(await worker.tick()).toBe(0);
    expect(receiver.receipts).toHaveLength(1);
  });

  it('says where each lead came from (source): a landing, entered by hand, or imported from a file', async () => {
    await addChannel(t.app.db, t.shopId, { url: receiver.url });
    await submitLead({ name: '랜딩고객' });
    const base = `/api/shops/${t.shopId}/data-insertion`;
    const manual = await t.admin.post(`${base}/leads`, { name: '수기고객', phone: nextPhone(), answers: [], consentBasis: 'phone-verbal', consentNote: '통화' });
    expect(manual.statusCode, manual.body).toBe(201);
    const file = Buffer.from(`\ufeff고객명,휴대폰\r\n박람회고객,${nextPhone()}\r\n`);
    const boundary = '----leadroom-import';
    const up = await t.admin.request('POST', `${base}/imports`, Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="박람회.csv"\r\nContent-Type: text/csv\r\n\r\n`), file, Buffer.from(`\r\n--${boundary}--\r\n`),
    ]), { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(up.statusCode, up.body).toBe(201);
    const started = await t.admin.post(`${base}/imports/${up.json().id}/start`, { mapping: up.json().suggested, consentBasis: 'written' });
    expect(started.statusCode, started.body).toBe(202);
    await importsSettled();

    t.clock.advanceMinutes(0.01);
    expect(await worker.tick()).toBe(3);
    const sent = receiver.receipts.flatMap((r) => r.json.leads.map((l) => [l.name, l.source]));
    expect(sent.sort()).toEqual([['랜딩고객', 'landing'], ['박람회고객', 'import'], ['수기고객', 'manual']]);
  });

  it('signs with the previous secret too while its grace lasts, and with the new one only afterwards', async () => {
    const until = new Date(t.clock.current.getTime() + 60 * 60_000).toISOString();
    await addChannel(t.app.db, t.shopId, { url: receiver.url, secret: 'whsec_new', previousSecret: 'whsec_old', previousUntil: until });
    await submitLead();
    await worker.tick();
    const during = receiver.receipts[0]!;
    expect(String(during.headers['x-leadroom-signature']).split(',').filter((p) => p.startsWith('v1='))).toHaveLength(2);
    expect(verified(during.headers['x-leadroom-signature'], during.body, ['whsec_new', 'whsec_old'])).toEqual(['whsec_new', 'whsec_old']);

    t.clock.advanceMinutes(61);
    await submitLead();
    await worker.tick();
    const after = receiver.receipts[1]!;
    expect(String(after.headers['x-leadroom-signature']).split(',').filter((p) => p.startsWith('v1='))).toHaveLength(1);
    expect(verified(after.headers['x-leadroom-signature'], after.body, ['whsec_new', 'whsec_old'])).toEqual(['whsec_new']);
  });

  it('retries with backoff while the receiver is down, with the same key, and delivers once it is back', async () => {
    await addChannel(t.app.db, t.shopId, { url: receiver.url });
    const port = receiver.port;
    await receiver.stop();
    await submitLead();
    const [job] = await jobs(t.app.db);
    const start = t.clock.current.getTime();

    expect(await worker.tick()).toBe(1);
    let [j] = await jobs(t.app.db);
    expect(j).toMatchObject({ status: 'pending', attempts: 1, response_code: null, lease_until: null, claimed_by: null, next_attempt_at: new Date(start + 5_000).toISOString() });
    expect(j!.last_error).toBe(OUTBOUND_UNREACHABLE);
    // Not due yet: nothing is taken.
    t.clock.current = new Date(start + 4_999);
    expect(await worker.tick()).toBe(0);

    t.clock.current = new Date(start + 5_000);
    expect(await worker.tick()).toBe(1);
    [j] = await jobs(t.app.db);
    expect(j).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: new Date(start + 15_000).toISOString() });
    t.clock.current = new Date(start + 15_000);
    expect(await worker.tick()).toBe(1);
    [j] = await jobs(t.app.db);
    expect(j).toMatchObject({ status: 'pending', attempts: 3, next_attempt_at: new Date(start + 35_000).toISOString() });

    await receiver.start(port);
    t.clock.current = new Date(start + 35_000);
    expect(await worker.tick()).toBe(1);
    [j] = await jobs(t.app.db);
    expect(j).toMatchObject({ status: 'succeeded', attempts: 4, response_code: 200, last_error: null });
    expect(receiver.receipts.map((r) => r.key)).toEqual([job!.idempotency_key]);
    const tried = await attempts(t.app.db);
    expect(tried.map((a) => [a.attempt, a.status, a.response_code, a.at])).toEqual([
      [1, 'failed', null, new Date(start).toISOString()],
      [2, 'failed', null, new Date(start + 5_000).toISOString()],
      [3, 'failed', null, new Date(start + 15_000).toISOString()],
      [4, 'succeeded', 200, new Date(start + 35_000).toISOString()],
    ]);
    expect(tried.slice(0, 3).every((a) => a.error === OUTBOUND_UNREACHABLE)).toBe(true);
  });

  it(`stays failed after ${MAX_ATTEMPTS} attempts; a 4xx fails at once; a retry by hand sends it again, attempts kept`, async () => {
    await addChannel(t.app.db, t.shopId, { url: receiver.url });
    receiver.answer = (_r, res) => res.writeHead(503).end('maintenance');
    await submitLead();
    for (let n = 1; n <= MAX_ATTEMPTS; n++) {
      expect(await worker.tick(), `attempt ${n}`).toBe(1);
      const [j] = await jobs(t.app.db);
      expect(j!.attempts).toBe(n);
      if (n < MAX_ATTEMPTS) t.clock.current = new Date(j!.next_attempt_at);
    }
    const [failed] = await jobs(t.app.db);
    expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, response_code: 503, last_error: '수신 서버가 HTTP 503으로 답했습니다.' });
    t.clock.advanceMinutes(24 * 60);
    expect(await worker.tick()).toBe(0);

    receiver.answer = (_r, res) => res.writeHead(400).end('bad');
    await submitLead();
    expect(await worker.tick()).toBe(1);
    const second = (await jobs(t.app.db))[1]!;
    expect(second).toMatchObject({ status: 'failed', attempts: 1, response_code: 400, last_error: '수신 서버가 HTTP 400으로 답했습니다.' });

    // Retried by hand: both due now, attempts kept; another shop's id is not touched.
    receiver.answer = (_r, res) => res.writeHead(200).end('ok');
    expect(await retryJobs(t.app.db, t.shopId + 1, [failed!.id], t.clock.now())).toBe(0);
    expect(await retryJobs(t.app.db, t.shopId, [failed!.id, second.id, second.id], t.clock.now())).toBe(2);
    expect((await jobs(t.app.db)).map((j) => [j.status, j.attempts, j.next_attempt_at])).toEqual([
      ['pending', MAX_ATTEMPTS, t.clock.current.toISOString()], ['pending', 1, t.clock.current.toISOString()],
    ]);
    expect(await worker.tick()).toBe(2);
    expect((await jobs(t.app.db)).map((j) => [j.status, j.attempts])).toEqual([['succeeded', MAX_ATTEMPTS + 1], ['succeeded', 2]]);
    // A succeeded job is not retried.
    expect(await retryJobs(t.app.db, t.shopId, [failed!.id], t.clock.now())).toBe(0);
    const keys = receiver.receipts.map((r) => r.key);
    expect(keys.filter((k) => k === failed!.idempotency_key)).toHaveLength(MAX_ATTEMPTS + 1);
  });

  it('turns the channel off when the receiver answers 410, and cancels its waiting jobs', async () => {
    const channelId = await addChannel(t.app.db, t.shopId, { url: receiver.url });
    const other = await addChannel(t.app.db, t.shopId, { url: receiver.url.replace('/hook', '/other'), name: '다른 CRM' });
    receiver.answer = (r, res) => (r.url === '/hook' ? res.writeHead(410).end('gone') : res.writeHead(200).end('ok'));
    await submitLead();
    await submitLead();
    // One send at a time: the first 410 turns the channel off before its second job is taken.
    const single = deliveryWorker(t.app.db, t.app.clock, { id: 'worker-1', concurrency: 1, random: () => 0.5, deps: { outbound: t.app.outbound } });
    await single.tick();
    const channel = await t.app.db.selectFrom('delivery_channels').select(['enabled', 'disabled_reason', 'disabled_at']).where('id', '=', channelId).executeTakeFirstOrThrow();
    expect(channel).toEqual({ enabled: 0, disabled_reason: GONE_REASON, disabled_at: t.clock.current.toISOString() });
    const all = await jobs(t.app.db);
    const mine = all.filter((j) => j.channel_id === channelId);
    expect(mine.map((j) => [j.status, j.last_error])).toEqual([
      ['failed', '수신 서버가 410 Gone으로 답했습니다: 이 주소는 더 이상 받지 않습니다.'],
      ['cancelled', CANCEL_REASONS.gone],
    ]);
    expect(all.filter((j) => j.channel_id === other).map((j) => j.status)).toEqual(['succeeded', 'succeeded']);
    expect(receiver.receipts.filter((r) => r.key === mine[0]!.idempotency_key)).toHaveLength(1);
    expect(receiver.receipts.filter((r) => r.key === mine[1]!.idempotency_key)).toHaveLength(0);
    // The next lead gets no job for the channel turned off.
    await submitLead();
    expect((await jobs(t.app.db)).filter((j) => j.channel_id === channelId)).toHaveLength(2);
  });

  it('never delivers a deleted or destroyed lead, nor to a channel turned off meanwhile: the job is cancelled with the reason', async () => {
    const channelId = await addChannel(t.app.db, t.shopId, { url: receiver.url });
    await submitLead();
    await submitLead();
    await submitLead();
    const [deleted, purged, kept] = await leadIds(t.app.db);
    const res = await t.admin.post(`/api/shops/${t.shopId}/leads/delete`, { ids: [deleted], reason: '고객 요청' });
    expect(res.statusCode, res.body).toBe(200);
    // Destroyed at the end of its retention period (not deleted first).
    await t.app.db.updateTable('leads').set({ purged_at: t.clock.current.toISOString(), name: '(파기됨)' }).where('id', '=', purged!).execute();
    expect(await worker.tick()).toBe(3);
    expect((await jobs(t.app.db)).map((j) => [j.lead_id, j.status, j.attempts, j.last_error])).toEqual([
      [deleted, 'cancelled', 0, CANCEL_REASONS.lead], [purged, 'cancelled', 0, CANCEL_REASONS.lead], [kept, 'succeeded', 1, null],
    ]);
    expect(receiver.receipts.map((r) => r.json.leads[0]!.id)).toEqual([kept]);
    expect((await attempts(t.app.db)).map((a) => a.lead_id)).toEqual([kept]);

    // Turned off by hand between the intake and the send.
    await submitLead();
    await t.app.db.updateTable('delivery_channels').set({ enabled: 0 }).where('id', '=', channelId).execute();
    expect(await worker.tick()).toBe(1);
    expect((await jobs(t.app.db)).at(-1)).toMatchObject({ status: 'cancelled', last_error: CANCEL_REASONS.channelOff });
    expect(receiver.receipts).toHaveLength(1);
  });

  it('takes again a job whose worker left it sending past its lease, and leaves one whose lease still runs', async () => {
    await addChannel(t.app.db, t.shopId, { url: receiver.url });
    await submitLead();
    await submitLead();
    const [stuck, held] = await jobs(t.app.db);
    const now = t.clock.current.getTime();
    await t.app.db.updateTable('delivery_jobs').set({ status: 'sending', claimed_by: 'dead-worker', lease_until: new Date(now - 1).toISOString() }).where('id', '=', stuck!.id).execute();
    await t.app.db.updateTable('delivery_jobs').set({ status: 'sending', claimed_by: 'busy-worker', lease_until: new Date(now + 30_000).toISOString() }).where('id', '=', held!.id).execute();
    expect(await worker.tick()).toBe(1);
    expect((await jobs(t.app.db)).map((j) => [j.status, j.claimed_by])).toEqual([['succeeded', 'worker-a'], ['sending', 'busy-worker']]);
    expect(receiver.receipts.map((r) => r.key)).toEqual([stuck!.idempotency_key]);
    // The busy worker's answer arrives after all: it records its own job (the test plays it).
    t.clock.current = new Date(now + 30_001);
    expect(await worker.tick()).toBe(1);
    expect((await jobs(t.app.db)).map((j) => [j.status, j.claimed_by])).toEqual([['succeeded', 'worker-a'], ['succeeded', 'worker-a']]);
  });

  it('writes jobs only for the channels whose filters match', async () => {
    const otherLanding = await openLanding(t, { landingCode: 'whitening', title: '미백 이벤트' });
    const all = await addChannel(t.app.db, t.shopId, { url: receiver.url, name: '전체' });
    await addChannel(t.app.db, t.shopId, { url: receiver.url, name: '부재만', statuses: ['부재'] });
    const newOnly = await addChannel(t.app.db, t.shopId, { url: receiver.url, name: '미처리만', statuses: ['미처리'] });
    const whitening = await addChannel(t.app.db, t.shopId, { url: receiver.url, name: '미백만', landingIds: [otherLanding] });
    const withDuplicates = await addChannel(t.app.db, t.shopId, { url: receiver.url, name: '중복 포함', includeDuplicates: true });
    await addChannel(t.app.db, t.shopId, { url: receiver.url, name: '꺼짐', enabled: false });
    const digest = await addChannel(t.app.db, t.shopId, { url: receiver.url, name: '아침 요약', mode: 'digest', digestAt: '09:00' });
    // Another shop's channel never gets this shop's leads.
    const otherShop = await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' });
    await addChannel(t.app.db, otherShop.json().id, { url: receiver.url, name: '다른 업체' });

    await submitLead({ phone: '010-7777-0001' });
    await submitLead({ phone: '010-7777-0001' }); // a duplicate
    await submitLead({ phone: '010-7777-0002', landingCode: 'whitening', _t: formToken(t, otherLanding) });
    const [first, duplicate, third] = await leadIds(t.app.db);
    expect(await t.app.db.selectFrom('leads').select('duplicate_of').where('id', '=', duplicate!).executeTakeFirstOrThrow()).toEqual({ duplicate_of: first });
    const got = (await jobs(t.app.db)).map((j) => [j.lead_id, j.channel_id, j.next_attempt_at]);
    const now = t.clock.current.toISOString();
    // 2026-11-21 10:00 Seoul now: the digest's next 09:00 is tomorrow's.
    const nine = '2026-11-22T00:00:00.000Z';
    expect(got).toEqual([
      [first, all, now], [first, newOnly, now], [first, withDuplicates, now], [first, digest, nine],
      [duplicate, withDuplicates, now],
      [third, all, now], [third, newOnly, now], [third, whitening, now], [third, withDuplicates, now], [third, digest, nine],
    ]);
  });

  it('sends a digest channel\'s leads in one message at its time', async () => {
    const digest = await addChannel(t.app.db, t.shopId, { url: receiver.url, mode: 'digest', digestAt: '09:00' });
    await submitLead();
    await submitLead();
    await submitLead();
    expect(await worker.tick()).toBe(0);
    t.clock.current = new Date('2026-11-22T00:00:00.000Z');
    await submitLead(); // at 09:00 sharp: tomorrow's digest
    expect(await worker.tick()).toBe(3);
    expect(receiver.receipts).toHaveLength(1);
    const [r] = receiver.receipts;
    const ids = await leadIds(t.app.db);
    const mine = (await jobs(t.app.db)).filter((j) => j.channel_id === digest);
    expect(r!.json.event).toBe('lead.digest');
    expect(r!.json.leads.map((l) => l.id)).toEqual(ids.slice(0, 3));
    expect(r!.key).toBe(`${mine[0]!.idempotency_key}-3`);
    expect(mine.map((j) => [j.status, j.next_attempt_at])).toEqual([
      ['succeeded', '2026-11-22T00:00:00.000Z'], ['succeeded', '2026-11-22T00:00:00.000Z'], ['succeeded', '2026-11-22T00:00:00.000Z'],
      ['pending', '2026-11-23T00:00:00.000Z'],
    ]);
  });

  it('enqueues chosen leads for a manual send, skipping deleted ones and those of other shops', async () => {
    const channelId = await addChannel(t.app.db, t.shopId, { url: receiver.url, mode: 'digest', digestAt: '09:00' });
    await submitLead();
    await submitLead();
    const [a, b] = await leadIds(t.app.db);
    await t.admin.post(`/api/shops/${t.shopId}/leads/delete`, { ids: [b], reason: '고객 요청' });
    const admin = await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', 'admin').executeTakeFirstOrThrow();
    const ids = await t.app.db.transaction().execute((trx) =>
      enqueueDeliveries(trx, { shopId: t.shopId, channelId, leadIds: [b!, a!, 99_999, a!], trigger: 'manual', reason: '누락 재전송', accountId: admin.id }, t.clock.now()));
    const manual = (await jobs(t.app.db)).filter((j) => j.trigger === 'manual');
    expect(manual.map((j) => j.id)).toEqual(ids);
    expect(manual.map((j) => [j.lead_id, j.status, j.reason, j.created_by, j.next_attempt_at])).toEqual([[a, 'pending', '누락 재전송', admin.id, t.clock.current.toISOString()]]);
    // Another shop's channel is not this shop's to use.
    await expect(t.app.db.transaction().execute((trx) =>
      enqueueDeliveries(trx, { shopId: t.shopId + 1, channelId, leadIds: [a!], trigger: 'manual', reason: null, accountId: null }, t.clock.now()))).rejects.toThrow('전송 채널을 찾을 수 없습니다.');
    // Due now even on a digest channel; sent alone, as a resend.
    expect(await worker.tick()).toBe(1);
    expect(receiver.receipts.map((r) => [r.json.event, r.json.leads.map((l) => l.id), r.key])).toEqual([['lead.resent', [a], manual[0]!.idempotency_key]]);
    const event = await t.app.db.selectFrom('lead_events').select('after').where('lead_id', '=', a!).where('action', '=', 'deliver').executeTakeFirstOrThrow();
    expect(JSON.parse(event.after!)).toMatchObject({ channelId, trigger: 'manual' });
  });

  it('sends a test: a sample lead with the channel\'s fields, no job written', async () => {
    const channelId = await addChannel(t.app.db, t.shopId, { url: receiver.url, fields: ['name', 'phone', 'receivedAt'] });
    const result = await sendTest(t.app.db, channelId, t.clock.now(), { deps: { outbound: t.app.outbound } });
    expect(result).toMatchObject({ ok: true, status: 200, excerpt: '{"ok":true}' });
    expect(receiver.receipts).toHaveLength(1);
    const [r] = receiver.receipts;
    expect(r!.json).toEqual({
      event: 'lead.test', shop: { code: 'smile', name: '미소치과' }, sentAt: t.clock.current.toISOString(),
      leads: [{ source: 'landing', name: '테스트', phone: '01000000000', receivedAt: t.clock.current.toISOString() }],
    });
    expect(r!.key).toMatch(/^test-/);
    expect(verified(r!.headers['x-leadroom-signature'], r!.body, ['whsec_current'])).toEqual(['whsec_current']);
    expect(await count(t.app.db, 'delivery_jobs')).toBe(0);
    await receiver.stop();
    const down = await sendTest(t.app.db, channelId, t.clock.now(), { deps: { outbound: t.app.outbound } });
    expect(down).toMatchObject({ ok: false, status: null, retryable: true });
    await expect(sendTest(t.app.db, channelId + 100, t.clock.now())).rejects.toThrow('전송 채널을 찾을 수 없습니다.');
  });
});

// ── The outbox in the accepting transaction ───────────────────────────────────────────────

describe('the outbox', () => {
  let t: LandingTestApp;
  let landingId: number;
  beforeEach(async () => {
    t = await landingTestApp();
    landingId = await openLanding(t);
  });
  afterEach(async () => t.close());

  const accepted = (phone: string): AcceptedLead => ({
    lead: {
      shop_id: t.shopId, landing_id: landingId, source: 'landing', name: '홍길동', phone, answers: '{}', privacy_consent: 1, marketing_consent: 0, sensitive_consent: 0,
      privacy_policy_id: null, utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null, media_type_id: null, referrer: null,
      ip: null, user_agent: null, cs_status: '미처리',
    } as AcceptedLead['lead'],
    duplicateWindowDays: 30,
  });

  it('commits no lead without its jobs: a transaction that fails after the steps leaves neither', async () => {
    await addChannel(t.app.db, t.shopId, { url: 'https://crm.example.com/hook' });
    await addChannel(t.app.db, t.shopId, { url: 'https://backup.example.com/hook', name: '백업' });
    const failing = t.app.db.transaction().execute(async (trx) => {
      await insertAccepted(trx, [accepted('01011112222'), accepted('01011113333')], t.clock.now());
      // Written in this transaction, jobs included …
      expect(Number((await trx.selectFrom('delivery_jobs').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n)).toBe(4);
      // … then the batch fails before its commit.
      throw new Error('batch failed');
    });
    await expect(failing).rejects.toThrow('batch failed');
    expect([await count(t.app.db, 'leads'), await count(t.app.db, 'delivery_jobs')]).toEqual([0, 0]);

    const created = await t.app.db.transaction().execute((trx) => insertAccepted(trx, [accepted('01011112222'), accepted('01011113333')], t.clock.now()));
    expect([await count(t.app.db, 'leads'), await count(t.app.db, 'delivery_jobs')]).toEqual([2, 4]);
    const byLead = (await jobs(t.app.db)).map((j) => j.lead_id);
    expect(byLead.sort((a, b) => a - b)).toEqual(created.flatMap((c) => [c.leadId, c.leadId]));
    expect(new Set((await jobs(t.app.db)).map((j) => j.idempotency_key)).size).toBe(4);
  });

  it('keys the jobs in the order they are written (time-ordered UUIDs: the key index grows at its end, not at random pages)', async () => {
    await addChannel(t.app.db, t.shopId, { url: 'https://crm.example.com/hook' });
    await addChannel(t.app.db, t.shopId, { url: 'https://backup.example.com/hook', name: '백업' });
    for (const batch of [['01011112222', '01011113333', '01011114444'], ['01011115555', '01011116666']]) {
      await t.app.db.transaction().execute((trx) => insertAccepted(trx, batch.map(accepted), t.clock.now()));
    }
    const written = (await jobs(t.app.db)).sort((a, b) => a.id - b.id).map((j) => j.idempotency_key);
    expect(written).toHaveLength(10);
    // UUID version 7, RFC 9562: the version nibble is 7, the variant bits 10.
    for (const key of written) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...written].sort()).toEqual(written);
    expect(new Set(written).size).toBe(10);
  });
});

// ── Several workers on one database ───────────────────────────────────────────────────────


/** A shop, a landing, a webhook channel and `leads` leads, written straight to the tables. */
async function seed(db: Kysely<Database>, url: string, leads: number, channel: Partial<ChannelSpec> = {}): Promise<{ shopId: number; channelId: number; leadIds: number[] }> {
  const at = new Date(Date.now() - 60_000).toISOString();
  const { id: shopId } = await db.insertInto('shops').values({
    shop_code: 'race', name: '경주치과', client_type_id: null, status: 'active', company_name: '경주치과의원', representative: '김경주', business_number: '1078616321',
    phone: '0212345678', address: '서울', privacy_officer_name: '이보호', privacy_officer_contact: '02-555-0100', created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  const { id: landingId } = await db.insertInto('landings').values({
    shop_id: shopId, landing_code: 'race', title: '경주', status: 'open', content: '{}', form_fields: '[]', privacy_consent_text: '동의', thank_you_message: '감사합니다',
    duplicate_window_days: 30, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  const channelId = await addChannel(db, shopId, { url, ...channel });
  const rows = Array.from({ length: leads }, (_, i) => ({
    shop_id: shopId, landing_id: landingId, source: 'landing', name: `고객${i}`, phone: `0109000${String(i).padStart(4, '0')}`, answers: '{}', privacy_consent: 1,
    marketing_consent: 0, sensitive_consent: 0, cs_status: '미처리', created_at: at, updated_at: at, phone_last4: String(i).padStart(4, '0'),
  }));
  const leadIds: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    leadIds.push(...(await db.insertInto('leads').values(rows.slice(i, i + 500) as never).returning('id').execute()).map((r) => r.id));
  }
  // Each with its `created` event, as every writer of leads leaves them: a lead without one is
  // an intake lead waiting for its follow-ups, which a worker's backstop would give it (a job too).
  for (let i = 0; i < leadIds.length; i += 500) {
    await db.insertInto('lead_events').values(leadIds.slice(i, i + 500).map((id) => ({
      lead_id: id, shop_id: shopId, account_id: null, action: 'created', before: null, after: '{"source":"landing"}', ip: null, at,
    }))).execute();
  }
  return { shopId, channelId, leadIds };
}

/** `n` pending jobs due now, spread over the leads, written straight to the outbox. */
async function addJobs(db: Kysely<Database>, s: { shopId: number; channelId: number; leadIds: number[] }, n: number): Promise<void> {
  const at = new Date(Date.now() - 1000).toISOString();
  const rows = Array.from({ length: n }, (_, i) => ({
    shop_id: s.shopId, channel_id: s.channelId, lead_id: s.leadIds[i % s.leadIds.length]!, status: 'pending' as const, trigger: 'intake' as const,
    attempts: 0, next_attempt_at: at, idempotency_key: crypto.randomUUID(), created_at: at, updated_at: at,
  }));
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('delivery_jobs').values(rows.slice(i, i + 1000)).execute();
}

describe('several workers', () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>> | undefined;
  let receiver: Receiver;
  const workers: DeliveryWorker[] = [];
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    receiver = await new Receiver().start();
  });
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const w of workers.splice(0)) await w.stop();
    await receiver.stop();
    await shared?.close();
    shared = undefined;
  });

  it(`two workers never send one job twice (${pgUrl ? '10,000 jobs, two PostgreSQL handles' : '2,000 jobs, one SQLite file'})`, async () => {
    const n = pgUrl ? 10_000 : 2_000;
    shared = await sharedDatabase([5, 5]);
    const db = shared.handles[0]!.db;
    // The receiver answers from this process's event loop, which a busy machine can hold for
    // seconds: with a short timeout a send would time out, and be sent again after its backoff
    // (at least once, by design: the receiver drops the repeat by its key) — not what this proves.
    const s = await seed(db, receiver.url, 100, { timeoutMs: 120_000 });
    await addJobs(db, s, n);
    for (const [i, h] of [shared.handle(0), shared.handle(1)].entries()) {
      const w = deliveryWorker(h.db, () => new Date(), { id: `worker-${i + 1}`, pollMs: 50, deps: { outbound: TEST_OUTBOUND } });
      workers.push(w);
    }
    for (const w of workers) w.start();
    await receiver.received(n, 150_000);
    const until = Date.now() + 30_000;
    const succeeded = async () =>
      Number((await db.selectFrom('delivery_jobs').select(sql<number>`count(*)`.as('n')).where('status', '=', 'succeeded').executeTakeFirstOrThrow()).n);
    while ((await succeeded()) < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    for (const w of workers.splice(0)) await w.stop();

    const perKey = new Map<string, number>();
    for (const r of receiver.receipts) perKey.set(r.key, (perKey.get(r.key) ?? 0) + 1);
    // Every send answered in time: a repeat would be a job sent by both workers.
    expect((await attempts(db)).filter((a) => a.status !== 'succeeded')).toEqual([]);
    expect(receiver.receipts).toHaveLength(n);
    expect(perKey.size).toBe(n);
    expect([...perKey.values()].every((c) => c === 1)).toBe(true);
    expect(await succeeded()).toBe(n);
    const byWorker = await db.selectFrom('delivery_attempts').select(['worker', sql<number>`count(*)`.as('n')]).groupBy('worker').orderBy('worker').execute();
    expect(byWorker.reduce((a, r) => a + Number(r.n), 0)).toBe(n);
    // Both took their share.
    expect(byWorker.map((r) => r.worker)).toEqual(['worker-1', 'worker-2']);
    expect(await count(db, 'delivery_attempts')).toBe(n);
  }, 200_000);

  it('a worker that finds nothing due takes no write lock: its claim answers while another writer holds the database', async () => {
    shared = await sharedDatabase([5, 5]);
    const db = shared.handles[0]!.db;
    const s = await seed(db, receiver.url, 1);
    // A digest's job, due tomorrow: under intake load most wake-ups find only such jobs.
    await addJobs(db, s, 1);
    await db.updateTable('delivery_jobs').set({ next_attempt_at: new Date(Date.now() + 86_400_000).toISOString() }).execute();
    // Another writer (intake's writer thread; on PostgreSQL a lock that a claim's row locks would wait for) holds on.
    const other = shared.file ? await openDatabase({ url: shared.file }) : shared.handle(1);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = other.db.transaction().execute(async (trx) => {
      if (pgUrl) await sql`lock table delivery_jobs in exclusive mode`.execute(trx);
      else await trx.updateTable('shops').set({ name: '경주치과 (잠김)' }).where('id', '=', s.shopId).execute();
      locked();
      await released;
    });
    await isLocked;
    const w = deliveryWorker(db, () => new Date(), { id: 'idle', deps: { outbound: TEST_OUTBOUND } });
    try {
      // Waiting for the lock would fail this (SQLite: busy after its timeout; PostgreSQL: the test's).
      expect(await w.tick()).toBe(0);
    } finally {
      release();
      await holder;
      if (shared.file) await other.close();
    }
    expect((await jobs(db)).map((j) => j.status)).toEqual(['pending']);
    expect(receiver.receipts).toEqual([]);
  });

  it('a worker killed by SIGKILL mid-delivery loses nothing: the next one takes the job once the lease runs out', async () => {
    shared = await sharedDatabase([5]);
    const db = shared.handles[0]!.db;
    const s = await seed(db, receiver.url, 1);
    await addJobs(db, s, 1);
    const [job] = await jobs(db);
    // The first request stalls: the worker is mid-send when it is killed.
    let stalled: http.ServerResponse | undefined;
    receiver.answer = (_r, res) => {
      if (!stalled) stalled = res;
      else res.writeHead(200).end('ok');
    };
    const LEASE_MS = 10_000;
    child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/worker.ts')], {
      cwd: ROOT,
      env: {
        ...process.env, ...shared.env, DATA_DIR: shared.dir, DELIVERY_LEASE_MS: String(LEASE_MS), LOG_LEVEL: 'silent', SEED_DEMO: '0',
        INITIAL_ADMIN_PASSWORD: 'Worker-test-2026!', NODE_ENV: 'test', WORKER: '1', OUTBOUND_ALLOW_CIDRS: TEST_OUTBOUND_ALLOW.join(','),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    // The child compiles the server (tsx) before its first claim: slow on a busy machine.
    await receiver.received(1, 150_000).catch((err: Error) => {
      throw new Error(`${err.message}; worker output: ${output}`);
    });
    const [claimed] = await jobs(db);
    expect(claimed).toMatchObject({ status: 'sending', attempts: 0 });
    expect(claimed!.claimed_by).toMatch(/:\d+:/);
    expect(claimed!.lease_until! > new Date().toISOString()).toBe(true);

    const exited = new Promise((resolve) => child!.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    stalled?.destroy();

    // Before the lease runs out nobody takes it; after, the next worker does.
    const next = deliveryWorker(db, () => new Date(), { id: 'worker-next', leaseMs: LEASE_MS, deps: { outbound: TEST_OUTBOUND } });
    expect(await next.tick()).toBe(0);
    const later = deliveryWorker(db, () => new Date(Date.parse(claimed!.lease_until!) + 1), { id: 'worker-next', leaseMs: LEASE_MS, deps: { outbound: TEST_OUTBOUND } });
    expect(await later.tick()).toBe(1);
    const [done] = await jobs(db);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1, claimed_by: 'worker-next', response_code: 200 });
    const keys = receiver.receipts.map((r) => r.key);
    expect(keys).toEqual([job!.idempotency_key, job!.idempotency_key]);
    expect((await attempts(db)).map((a) => [a.attempt, a.status, a.worker])).toEqual([[1, 'succeeded', 'worker-next']]);
  }, 200_000);
});

// ── Inside the app ─────────────────────────────────────────────────────────────────────────

describe('the worker inside the app', () => {
  let t: LandingTestApp | undefined;
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await new Receiver().start();
  });
  afterEach(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('delivers a new lead at once (woken by the intake, not the poll), and a stop waits for the send still out', async () => {
    t = await landingTestApp({ workerEnabled: true });
    const landingId = await openLanding(t);
    await addChannel(t.app.db, t.shopId, { url: receiver.url });
    const res = await submit(t, leadBody(t, landingId));
    expect(res.statusCode).toBe(201);
    await receiver.received(1, 5_000);
    const [r] = receiver.receipts;
    const [job] = await jobs(t.app.db);
    expect(r!.key).toBe(job!.idempotency_key);

    // The next send stalls; closing the app waits for it, and it is recorded before the database closes.
    let release: (() => void) | undefined;
    receiver.answer = (_r, reply) => {
      release = () => reply.writeHead(200).end('late ok');
    };
    await submit(t, leadBody(t, landingId, { phone: '010-4444-5555' }));
    await receiver.received(2, 5_000);
    const closing = t.app.close();
    setTimeout(() => release?.(), 100);
    await closing;
    const all = await jobs(t.app.db);
    expect(all.map((j) => [j.status, j.attempts])).toEqual([['succeeded', 1], ['succeeded', 1]]);
    expect((await attempts(t.app.db)).at(-1)).toMatchObject({ status: 'succeeded', response_excerpt: 'late ok' });
  });
});
