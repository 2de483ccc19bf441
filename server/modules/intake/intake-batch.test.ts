// Duplicate decisions hold across connections: two server processes on one database (two
// PostgreSQL pools, or two threads with their own connections to one SQLite file) committing
// the same phone at the same moment must not both take it for a new lead.
import { sharedDatabase } from '../../test-databases.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DbHandle } from '../../db/dialect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { commitBatch, type Outcome, type PendingLead } from './intake-batch.ts';
import { threadWriter, type BatchWriter } from './intake-writer.ts';

const pgUrl = process.env.LR_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
let handles: DbHandle[] = [];
let cleanup: () => Promise<void>;
let writer: BatchWriter | undefined;
let shopId: number;

/** Handles on one fresh database: two PostgreSQL pools, as two processes would have, or one SQLite file. */
async function twoHandles(): Promise<DbHandle[]> {
  const shared = await sharedDatabase([2, 2]);
  cleanup = shared.close;
  return shared.handles;
}

beforeEach(async () => {
  handles = await twoHandles();
  await migrateToLatest(handles[0]!.db);
  const now = new Date().toISOString();
  const shop = await handles[0]!.db
    .insertInto('shops')
    .values({ shop_code: 'dup', name: '중복치과', client_type_id: null, status: 'active', company_name: '중복치과의원', representative: '김중복', business_number: '1078616321', phone: '0212345678', address: '서울', privacy_officer_name: '이보호', privacy_officer_contact: '02-555-0100', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  shopId = shop.id;
});
afterEach(async () => {
  await writer?.close();
  writer = undefined;
  await cleanup();
});

/**
 * The two committers: on PostgreSQL each on its own pool; on SQLite one on this thread's
 * connection and one on a writer thread (one thread cannot hold two SQLite connections that
 * wait for each other).
 */
function twoCommitters(): Array<(items: PendingLead[], now: Date) => Promise<Outcome[]>> {
  const first = { commitBatch: (i: PendingLead[], n: Date) => commitBatch(handles[0]!.db, i, n) };
  if (pgUrl) {
    const second = { commitBatch: (i: PendingLead[], n: Date) => commitBatch(handles[1]!.db, i, n) };
    return [(i, n) => first.commitBatch(i, n), (i, n) => second.commitBatch(i, n)];
  }
  const w = (writer = threadWriter(handles[0]!.sqliteFile!, (err) => {
    throw err;
  }));
  return [(i, n) => first.commitBatch(i, n), (i, n) => w.commit(i, n)];
}

const lead = (phone: string): PendingLead => ({
  kind: 'lead', duplicateWindowDays: 30, text: '홍길동',
  lead: {
    shop_id: shopId, landing_id: null, source: 'landing', name: '홍길동', phone, answers: '{}', privacy_consent: 1, marketing_consent: 0, sensitive_consent: 0,
    privacy_policy_id: null, utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null, media_type_id: null,
    referrer: null, ip: '203.0.113.7', user_agent: 'test', cs_status: '미처리',
  },
});

describe('duplicate decisions across processes', () => {
  it('flags all but the first of one phone committed at once through two connections', async () => {
    const [a, b] = twoCommitters();
    const phones = Array.from({ length: 30 }, (_, i) => `0107777${String(i).padStart(4, '0')}`);
    const now = new Date();
    await b!([lead('01000000000')], now); // both are up
    // Each phone arrives at both "processes" at the same moment, inside batches of ten.
    const rounds = [];
    for (let i = 0; i < phones.length; i += 10) {
      const batch = phones.slice(i, i + 10).map(lead);
      rounds.push(a!(batch, now), b!([...batch].reverse(), now));
    }
    await Promise.all(rounds);
    const rows = await handles[0]!.db.selectFrom('leads').select(['id', 'phone', 'duplicate_of', 'cs_status']).orderBy('id').execute();
    expect(rows).toHaveLength(61);
    for (const phone of phones) {
      const same = rows.filter((r) => r.phone === phone);
      expect(same.filter((r) => r.duplicate_of === null).map((r) => r.id)).toEqual([same[0]!.id]);
      expect(same[1]).toMatchObject({ duplicate_of: same[0]!.id, cs_status: '중복' });
    }
  });
});
