// The duplicate rule with set-based batches and several batches in flight: on PostgreSQL two
// app handles (two processes' pools) commit batches with the same phones at once, a batch holds
// leads that duplicate each other, and an import-sized call (the shop's phones locked as a whole)
// runs beside intake batches. Each shop and phone ends with exactly one original, the earliest,
// and every other lead of it names that one. On SQLite the same runs on the one connection.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedDatabase, type SharedDatabase } from '../../test-databases.ts';
import { commitBatch, type Outcome, type PendingLead } from './intake-batch.ts';
import { followUpLeads, insertAccepted } from '../leads/leads.entry.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import { concurrentWriters } from '../../db/dialect-sql.ts';

const pg = process.env.LR_TEST_DIALECT === 'postgres' && !!process.env.TEST_DATABASE_URL;
let shared: SharedDatabase;
let shopId: number;

beforeEach(async () => {
  shared = await sharedDatabase([4, 4]);
  const now = new Date().toISOString();
  const shop = await shared.handle(0).db
    .insertInto('shops')
    .values({ shop_code: 'conc', name: '동시치과', client_type_id: null, status: 'active', company_name: '동시치과의원', representative: '김동시', business_number: '1078616321', phone: '0212345678', address: '서울', privacy_officer_name: '이보호', privacy_officer_contact: '02-555-0100', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  shopId = shop.id;
});
afterEach(() => shared.close());

const lead = (phone: string, name = '홍길동'): PendingLead => ({
  kind: 'lead', duplicateWindowDays: 30, text: name,
  lead: {
    shop_id: shopId, landing_id: null, source: 'landing', name, phone, answers: '{}', privacy_consent: 1, marketing_consent: 0, sensitive_consent: 0,
    privacy_policy_id: null, utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null, media_type_id: null,
    referrer: null, ip: '203.0.113.7', user_agent: 'test', cs_status: '미처리',
  },
});

const phoneOf = (i: number) => `0105555${String(i).padStart(4, '0')}`;

/** Every lead of the shop by phone, in id order, with its `created` event's duplicateOf. */
async function byPhone() {
  const db = shared.handle(0).db;
  // The `created` events follow the batches' commits.
  await followUpLeads(db, new Date());
  const rows = await db.selectFrom('leads').select(['id', 'phone', 'duplicate_of', 'cs_status']).where('shop_id', '=', shopId).orderBy('id').execute();
  const events = await db.selectFrom('lead_events').select(['lead_id', 'after']).where('action', '=', 'created').where('shop_id', '=', shopId).execute();
  const eventOf = new Map(events.map((e) => [e.lead_id, JSON.parse(e.after!) as { duplicateOf?: number }]));
  const out = new Map<string, Array<(typeof rows)[number] & { eventDuplicateOf: number | null }>>();
  for (const r of rows) {
    expect(eventOf.has(r.id), `lead ${r.id} has its created event`).toBe(true);
    const list = out.get(r.phone) ?? [];
    list.push({ ...r, eventDuplicateOf: eventOf.get(r.id)?.duplicateOf ?? null });
    out.set(r.phone, list);
  }
  return { rows, out };
}

/** One original per phone (the lowest id), every other lead a 중복 of it, and the events agree. */
function expectOneOriginalEach(out: Awaited<ReturnType<typeof byPhone>>['out']) {
  for (const [phone, same] of out) {
    const first = same[0]!;
    expect(same.filter((r) => r.duplicate_of === null).map((r) => r.id), phone).toEqual([first.id]);
    expect(first.cs_status).toBe('미처리');
    for (const r of same.slice(1)) expect(r, phone).toMatchObject({ duplicate_of: first.id, cs_status: '중복', eventDuplicateOf: first.id });
  }
}

describe('the duplicate rule with set-based batches', () => {
  it('stores a batch whose leads duplicate each other in order, ids ascending, the later ones naming the first', async () => {
    const db = shared.handle(0).db;
    const phones = [1, 2, 1, 3, 2, 1, 4].map(phoneOf);
    const outcomes = await commitBatch(db, phones.map((p, i) => lead(p, `이름${i}`)), new Date());
    const ids = outcomes.map((o) => (o.status === 'created' ? o.leadId : -1));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(phones.length);
    expect(outcomes.map((o) => (o.status === 'created' ? o.duplicateOf : 'x'))).toEqual([null, null, ids[0], null, ids[1], ids[0], null]);
    const { rows, out } = await byPhone();
    expect(rows.map((r) => r.id)).toEqual(ids);
    const names = await db.selectFrom('leads').select(['id', 'name']).where('id', 'in', ids).orderBy('id').execute();
    expect(names.map((n) => n.name)).toEqual(phones.map((_, i) => `이름${i}`));
    expectOneOriginalEach(out);

    // A later batch finds them: every lead of it a duplicate of the earliest, a new phone original.
    const later = await commitBatch(db, [lead(phoneOf(2)), lead(phoneOf(9)), lead(phoneOf(1))], new Date());
    expect(later.map((o) => (o.status === 'created' ? o.duplicateOf : 'x'))).toEqual([ids[1], null, ids[0]]);
  });

  it('keeps one original per phone when two processes commit overlapping batches at once, several in flight each', async () => {
    const [a, b] = [shared.handle(0).db, shared.handle(pg ? 1 : 0).db];
    const now = new Date();
    // 40 phones; each process sends 8 batches of 15 leads drawn from them (repeats within a
    // batch too), all at once: up to 16 transactions race for the same phones.
    const batches = (seed: number) =>
      Array.from({ length: 8 }, (_, k) => Array.from({ length: 15 }, (_, j) => lead(phoneOf((seed * 7 + k * 11 + j * 3) % 40))));
    const runs: Array<Promise<Outcome[]>> = [];
    for (const [db, seed] of [[a, 1], [b, 2]] as const) for (const batch of batches(seed)) runs.push(commitBatch(db, batch, now));
    const outcomes = (await Promise.all(runs)).flat();
    expect(outcomes.every((o) => o.status === 'created')).toBe(true);
    const { rows, out } = await byPhone();
    expect(rows).toHaveLength(2 * 8 * 15);
    expectOneOriginalEach(out);
    // The answers agree with the rows.
    const stored = new Map(rows.map((r) => [r.id, r.duplicate_of]));
    for (const o of outcomes) if (o.status === 'created') expect(stored.get(o.leadId)).toBe(o.duplicateOf);
  });

  it('keeps one original per phone when an import-sized call (its shop locked as a whole) runs beside intake batches', async () => {
    const [a, b] = [shared.handle(0).db, shared.handle(pg ? 1 : 0).db];
    const now = new Date();
    // 300 distinct phones in one call: past the per-phone locks, the shop's phones are locked at once.
    const imported = Array.from({ length: 300 }, (_, i) => ({ lead: lead(phoneOf(i)).lead, duplicateWindowDays: 30 }));
    const intake = Array.from({ length: 6 }, (_, k) => Array.from({ length: 20 }, (_, j) => lead(phoneOf((k * 50 + j * 13) % 300))));
    const results = await Promise.all([
      a.transaction().execute((trx) => insertAccepted(trx, imported, now)),
      ...intake.map((batch) => commitBatch(b, batch, now)),
    ]);
    expect(results[0]).toHaveLength(300);
    const { rows, out } = await byPhone();
    expect(rows).toHaveLength(300 + 6 * 20);
    expectOneOriginalEach(out);
  });
});

describe('the group commit with several batches in flight', () => {
  it('runs up to `concurrency` batches at once, answers each item with its own outcome, and waits for all in idle()', async () => {
    let inFlight = 0;
    let most = 0;
    const sizes: number[] = [];
    const gc = new GroupCommit<number, number>(async (items) => {
      inFlight++;
      most = Math.max(most, inFlight);
      sizes.push(items.length);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return items.map((i) => i * 2);
    }, 5, 3);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => gc.submit(i)));
    expect(answers).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
    expect(most).toBe(3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(5);
    expect(sizes.reduce((s, n) => s + n, 0)).toBe(40);
    const late = gc.submit(100);
    await gc.idle();
    expect(await late).toBe(200);
  });

  it('runs one batch at a time with concurrency 1, and retries each item of a failed batch alone', async () => {
    let inFlight = 0;
    let most = 0;
    const gc = new GroupCommit<number, number>(async (items) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      if (items.length > 1 && items.includes(13)) throw new Error('bad batch');
      if (items.length === 1 && items[0] === 13) throw new Error('bad item');
      return items.map((i) => i + 1);
    });
    const settled = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => gc.submit(i)));
    expect(most).toBe(1);
    expect(settled[13]).toMatchObject({ status: 'rejected' });
    expect(settled.filter((s) => s.status === 'fulfilled').map((s) => (s as PromiseFulfilledResult<number>).value)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1).filter((v) => v !== 14),
    );
  });

  it('lets several batches commit at once on PostgreSQL only, leaving a core for the database', () => {
    expect(concurrentWriters(shared.handle(0).db, 8)).toBe(pg ? 3 : 1);
    expect(concurrentWriters(shared.handle(0).db, 3)).toBe(pg ? 2 : 1);
    expect(concurrentWriters(shared.handle(0).db, 2)).toBe(1);
  });
});
