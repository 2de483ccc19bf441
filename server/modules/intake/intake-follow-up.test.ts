// Intake's follow-ups, on both engines: a batch commits its leads without their `created`
// events and delivery jobs; followUpLeads (intake a moment later, or the worker's backstop after
// a crash) writes both exactly once, in the feed's order, even with two runners racing; leads
// written with their event (manual entry, imports, a restored lead renumbered) get nothing more.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sharedDatabase, type SharedDatabase } from '../../test-databases.ts';
import { commitBatch, type PendingLead } from './intake-batch.ts';
import { assignFeedSeq, followUpLeads, insertAccepted } from '../leads/leads.entry.ts';
import { followUpJob } from '../../worker/lead-follow-up.ts';
import { leadsRepository } from '../leads/leads.repository.ts';

const pg = process.env.LR_TEST_DIALECT === 'postgres' && !!process.env.TEST_DATABASE_URL;
let shared: SharedDatabase;
let shopId: number;
let channelId: number;
const AT = '2026-12-06T01:00:00.000Z';

beforeEach(async () => {
  shared = await sharedDatabase([4, 4]);
  const db = shared.handle(0).db;
  shopId = (await db.insertInto('shops').values({
    shop_code: 'follow', name: '후속치과', client_type_id: null, status: 'active', company_name: '후속치과의원', representative: '김후속', business_number: '1078616321',
    phone: '0212345678', address: '서울', privacy_officer_name: '이보호', privacy_officer_contact: '02-555-0100', created_at: AT, updated_at: AT,
  }).returning('id').executeTakeFirstOrThrow()).id;
  // An instant webhook for every lead but duplicates.
  channelId = (await db.insertInto('delivery_channels').values({
    shop_id: shopId, name: '후속 CRM', kind: 'webhook', enabled: 1, mode: 'instant', digest_at: null, statuses: '[]', landing_ids: '[]', fields: '[]', include_duplicates: 0,
    config: JSON.stringify({ url: 'http://127.0.0.1:9/hook', timeoutMs: 2000 }), secret: 'whsec_x', previous_secret: null, previous_secret_until: null,
    disabled_reason: null, disabled_at: null, created_by: null, created_at: AT, updated_at: AT,
  }).returning('id').executeTakeFirstOrThrow()).id;
});
afterEach(() => shared.close());

const lead = (phone: string): PendingLead => ({
  kind: 'lead', duplicateWindowDays: 30, text: '',
  lead: {
    shop_id: shopId, landing_id: null, source: 'landing', name: '홍길동', phone, answers: '{}', privacy_consent: 1, marketing_consent: 0, sensitive_consent: 0,
    privacy_policy_id: null, utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null, media_type_id: null,
    referrer: null, ip: '203.0.113.9', user_agent: 'test', cs_status: '미처리',
  },
});
const phoneOf = (i: number) => `0107777${String(i).padStart(4, '0')}`;

async function created(db: Kysely<Database>) {
  return db.selectFrom('lead_events').select(['lead_id', 'account_id', 'ip', 'at', 'after']).where('action', '=', 'created').orderBy('lead_id').execute();
}
const jobsOf = (db: Kysely<Database>) => db.selectFrom('delivery_jobs').select(['lead_id', 'channel_id', 'trigger', 'status']).orderBy('lead_id').execute();
const count = async (db: Kysely<Database>, table: 'lead_events' | 'delivery_jobs') =>
  Number((await db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

describe("intake's follow-ups", () => {
  it('leave the commit without events and jobs, then write each once: the event as the lead came, a job per matching channel', async () => {
    const db = shared.handle(0).db;
    const now = new Date(AT);
    const outcomes = await commitBatch(db, [lead(phoneOf(1)), lead(phoneOf(2)), lead(phoneOf(1))], now);
    const ids = outcomes.map((o) => (o.status === 'created' ? o.leadId : -1));
    expect(await count(db, 'lead_events')).toBe(0);
    expect(await count(db, 'delivery_jobs')).toBe(0);

    expect(await followUpLeads(db, new Date(Date.parse(AT) + 50))).toEqual({ leads: 3, jobs: 2 });
    const events = await created(db);
    expect(events.map((e) => e.lead_id)).toEqual(ids);
    // When it came (not when the follow-up ran), from where, by no one; the duplicate names its original.
    expect(events.map((e) => [e.account_id, e.ip, e.at])).toEqual(ids.map(() => [null, '203.0.113.9', AT]));
    expect(events.map((e) => JSON.parse(e.after!) as unknown)).toEqual([
      { source: 'landing', landingId: null }, { source: 'landing', landingId: null }, { source: 'landing', landingId: null, duplicateOf: ids[0] },
    ]);
    expect(await jobsOf(db)).toEqual([ids[0], ids[1]].map((id) => ({ lead_id: id, channel_id: channelId, trigger: 'intake', status: 'pending' })));

    // Exactly once: nothing more on the next run, and the next batch only its own.
    expect(await followUpLeads(db, now)).toEqual({ leads: 0, jobs: 0 });
    const [later] = await commitBatch(db, [lead(phoneOf(3))], now);
    expect(await followUpLeads(db, now)).toEqual({ leads: 1, jobs: 1 });
    expect((await created(db)).map((e) => e.lead_id)).toEqual([...ids, (later as { leadId: number }).leadId]);
  });

  it("are written by the worker's backstop when the process that committed the batch stopped before them", async () => {
    const db = shared.handle(0).db;
    await commitBatch(db, [lead(phoneOf(1)), lead(phoneOf(2))], new Date(AT));
    let woken = 0;
    // Another process (handle 1 on PostgreSQL) runs the scheduled job.
    await followUpJob(shared.handle(pg ? 1 : 0).db, () => new Date(AT), { deliveriesQueued: () => woken++ }).run();
    expect(await count(db, 'lead_events')).toBe(2);
    expect(await count(db, 'delivery_jobs')).toBe(2);
    expect(woken).toBe(1);
  });

  it('pass over leads written with their event: manual entry, an import numbered after its commit, a restored lead renumbered', async () => {
    const db = shared.handle(0).db;
    const now = new Date(AT);
    // Manual entry: its event and job in its own transaction.
    await db.transaction().execute((trx) => insertAccepted(trx, [{ lead: { ...lead(phoneOf(1)).lead, source: 'manual' }, duplicateWindowDays: 30, by: { accountId: 1, ip: '10.0.0.1' } }], now));
    // An import: numbered for the feed only after its commit.
    await db.transaction().execute((trx) => insertAccepted(trx, [{ lead: { ...lead(phoneOf(2)).lead, source: 'import' }, duplicateWindowDays: 30 }], now, { numberFeed: false }));
    expect(await assignFeedSeq(db)).toBe(1);
    // A restored lead loses its number and is numbered again.
    const [manual] = await db.selectFrom('leads').select('id').orderBy('id').execute();
    await db.updateTable('leads').set({ feed_seq: null }).where('id', '=', manual!.id).execute();
    expect(await assignFeedSeq(db)).toBe(1);
    const before = { events: await count(db, 'lead_events'), jobs: await count(db, 'delivery_jobs') };
    expect(before).toEqual({ events: 2, jobs: 2 });
    expect(await followUpLeads(db, now)).toEqual({ leads: 0, jobs: 0 });
    expect({ events: await count(db, 'lead_events'), jobs: await count(db, 'delivery_jobs') }).toEqual(before);
  });

  it('write each event and job once when two runners race over batches still being committed', async () => {
    const [a, b] = [shared.handle(0).db, shared.handle(pg ? 1 : 0).db];
    const now = new Date(AT);
    const commits: Array<Promise<unknown>> = [];
    const runs: Array<Promise<unknown>> = [];
    for (let k = 0; k < 12; k++) {
      commits.push(commitBatch(k % 2 ? a : b, Array.from({ length: 10 }, (_, j) => lead(phoneOf(k * 10 + j))), now));
      runs.push(followUpLeads(a, now), followUpLeads(b, now));
    }
    await Promise.all([...commits, ...runs]);
    await Promise.all([followUpLeads(a, now), followUpLeads(b, now)]);
    const events = await created(a);
    expect(events).toHaveLength(120);
    expect(new Set(events.map((e) => e.lead_id)).size).toBe(120);
    const jobs = await jobsOf(a);
    expect(jobs).toHaveLength(120);
    expect(new Set(jobs.map((j) => j.lead_id)).size).toBe(120);
    const cursor = await a.selectFrom('lead_follow_up').select('seq').executeTakeFirstOrThrow();
    const counter = await a.selectFrom('lead_feed_counter').select('seq').executeTakeFirstOrThrow();
    expect(Number(cursor.seq)).toBe(Number(counter.seq));
  });
});

describe("a lead's history", () => {
  it("reads its `created` event first though the allocation's `assign` of the same instant was written before it", async () => {
    const db = shared.handle(0).db;
    const [o] = await commitBatch(db, [lead(phoneOf(1))], new Date(AT));
    const leadId = (o as { leadId: number }).leadId;
    await db.insertInto('lead_events').values({ lead_id: leadId, shop_id: shopId, account_id: null, action: 'assign', before: null, after: '{"assigneeId":1}', ip: null, at: AT }).execute();
    await followUpLeads(db, new Date(AT));
    expect((await leadsRepository(db).history(leadId)).map((e) => e.action)).toEqual(['assign', 'created']);
  });
});
