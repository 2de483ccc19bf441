// The pull feed never skips nor repeats a lead while leads arrive: writers commit concurrently
// (two processes on PostgreSQL, each with its own pool; on SQLite this thread and intake's
// writer thread on one file), numbering runs from several places at once, and a reader loops
// `since=nextCursor` the whole time. At the end it has every lead exactly once, in feed order.
// On PostgreSQL a lead that took its id first and commits last is the case an id cursor would
// lose: it is made to happen on purpose, and the feed's numbers follow the commits.
import { eachTwoWriters } from '../../test-writers.ts';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { commitBatch, type Outcome, type PendingLead } from '../intake/intake-batch.ts';
import { assignFeedSeq, insertAccepted } from '../leads/leads.entry.ts';
import { pullApiService } from './pull-api.service.ts';
import type { ApiKeyCaller } from '../../plugins/route.ts';

const pgUrl = process.env.LR_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
const NOW = new Date('2026-11-21T01:00:00.000Z');

function pending(shopId: number, n: number): PendingLead {
  return {
    kind: 'lead', duplicateWindowDays: 0, text: `고객${n}`,
    lead: {
      shop_id: shopId, landing_id: null, source: 'landing', name: `고객${n}`, phone: `0105${String(n).padStart(7, '0')}`, answers: '{}', privacy_consent: 1,
      marketing_consent: 0, sensitive_consent: 0, privacy_policy_id: null, utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null,
      utm_term: null, media_type_id: null, referrer: null, ip: '203.0.113.9', user_agent: 'test', cs_status: '미처리',
    },
  };
}

async function shop(db: Kysely<Database>, code: string): Promise<number> {
  const at = NOW.toISOString();
  const { id } = await db
    .insertInto('shops')
    .values({ shop_code: code, name: `${code}치과`, client_type_id: null, status: 'active', company_name: `${code}치과의원`, representative: '김대표', business_number: '1078616321', phone: '0212345678', address: '서울', privacy_officer_name: '이보호', privacy_officer_contact: '02-555-0100', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

describe('the pull feed while leads arrive', () => {
  // The reader's process and two writers' processes.
  const writers = eachTwoWriters([3, 4, 4]);
  const handles = () => writers.handles();
  const committers = () => writers.committers().map((commit) => (items: PendingLead[]) => commit(items, NOW));
  /** Where the scheduled numbering runs besides the reader: every process. */
  const numberers = () => (pgUrl ? handles().map((h) => h.db) : [handles()[0]!.db]);

  function reader(db: Kysely<Database>, key: ApiKeyCaller, limit: number) {
    const service = pullApiService(db, () => NOW);
    const seen: number[] = [];
    let cursor: string | undefined;
    return {
      seen,
      /** One request; answers whether more is waiting. */
      async pull(): Promise<boolean> {
        const since = cursor === undefined ? undefined : decode(cursor);
        const page = await service.leads(key, { since, limit }, '198.51.100.20');
        seen.push(...page.leads.map((l) => l.id));
        cursor = page.nextCursor;
        return page.hasMore;
      },
    };
  }
  const decode = (cursor: string) => Number(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')));

  it('hands every lead out exactly once, in feed order, round after round of concurrent writers', async () => {
    const db = handles()[0]!.db;
    const shopId = await shop(db, 'feed');
    const otherShopId = await shop(db, 'other');
    const key: ApiKeyCaller = { id: 1, shopId, name: 'CRM', prefix: 'lr_live_test', fullPhone: false };
    const [a, b] = committers();
    const r = reader(db, key, 7);

    const ROUNDS = 25;
    const IN_FLIGHT = 4;
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Several batches in flight on both writers, the numbering running in every process, and the reader pulling meanwhile.
      const writes = Array.from({ length: IN_FLIGHT }, (_, i) => {
        const items = Array.from({ length: 1 + ((round + i) % 3) }, () => pending(i % 3 === 2 ? otherShopId : shopId, ++n));
        return (i % 2 ? b! : a!)(items);
      });
      let done = false;
      const all = Promise.all([...writes, ...numberers().map((h) => assignFeedSeq(h))]).finally(() => (done = true));
      // (better-sqlite3 answers without leaving the microtask queue: a turn of the event loop lets the writer thread's replies in.)
      while (!done) {
        await r.pull();
        await new Promise((resolve) => setImmediate(resolve));
      }
      const outcomes = (await all).slice(0, IN_FLIGHT) as Outcome[][];
      expect(outcomes.flat().every((o) => o.status === 'created'), `round ${round}`).toBe(true);
    }
    // Caught up: pull until nothing more is waiting and an empty page says so.
    while (await r.pull());
    while (await r.pull());

    const expected = await db.selectFrom('leads').select(['id', 'feed_seq']).where('shop_id', '=', shopId).orderBy('feed_seq').execute();
    expect(expected.length).toBeGreaterThan(ROUNDS * 2);
    expect(expected.every((l) => l.feed_seq !== null)).toBe(true);
    expect(new Set(r.seen).size).toBe(r.seen.length);
    expect(r.seen).toEqual(expected.map((l) => l.id));
    // The numbers cover both shops' leads with no gap and no number twice.
    const seqs = (await db.selectFrom('leads').select('feed_seq').orderBy('feed_seq').execute()).map((l) => Number(l.feed_seq));
    expect(seqs).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it.skipIf(!pgUrl)('hands out a lead that took its id first and committed last in its commit order, never below one already seen', async () => {
    const db = handles()[0]!.db;
    const shopId = await shop(db, 'late');
    const key: ApiKeyCaller = { id: 1, shopId, name: 'CRM', prefix: 'lr_live_test', fullPhone: false };
    const r = reader(db, key, 100);

    for (let round = 0; round < 10; round++) {
      // The slow writer takes its id and its feed number, and holds its transaction open …
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let slowId = 0;
      let taken!: () => void;
      const tookId = new Promise<void>((resolve) => (taken = resolve));
      const slow = handles()[1]!.db.transaction().execute(async (trx) => {
        const [created] = await insertAccepted(trx, [{ lead: pending(shopId, 1000 + round).lead, duplicateWindowDays: 0 }], NOW);
        slowId = created!.leadId;
        taken();
        await held;
      });
      await tookId;
      // … while a fast writer's later lead waits for the feed's counter: it commits only after the slow one.
      let fastDone = false;
      const fast = commitBatch(handles()[2]!.db, [pending(shopId, 2000 + round)], NOW).finally(() => (fastDone = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const seenBefore = r.seen.length;
      while (await r.pull());
      expect(r.seen).toHaveLength(seenBefore);
      expect(fastDone).toBe(false);
      release();
      await slow;
      const fastId = ((await fast)[0] as { leadId: number }).leadId;
      expect(fastId).toBeGreaterThan(slowId);
      while (await r.pull());
      expect(r.seen.slice(-2)).toEqual([slowId, fastId]);
    }
    expect(r.seen).toHaveLength(20);
    expect(new Set(r.seen).size).toBe(20);
  });
});
