// The writer thread commits intake batches on its own connection to the SQLite file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { landingTestApp, openLanding, type LandingTestApp } from '../../test-landings.ts';
import { threadWriter, type BatchItem, type BatchWriter } from './intake-writer.ts';
import type { PendingLead } from './intake-batch.ts';

let t: LandingTestApp;
let landingId: number;
let writer: BatchWriter;
const errors: unknown[] = [];

const lead = (phone: string, extra: Partial<PendingLead['lead']> = {}): BatchItem => ({
  kind: 'lead',
  duplicateWindowDays: 30,
  text: '홍길동',
  lead: {
    shop_id: t.shopId, landing_id: landingId, source: 'landing', name: '홍길동', phone, answers: '{}', privacy_consent: 1, marketing_consent: 0, sensitive_consent: 0,
    privacy_policy_id: null, utm_source: 'meta', utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null, media_type_id: null,
    referrer: null, ip: '203.0.113.7', user_agent: 'test', cs_status: '미처리', ...extra,
  },
});

describe.skipIf(process.env.LR_TEST_DIALECT === 'postgres')('intake writer thread (SQLite file)', () => {
  beforeEach(async () => {
    t = await landingTestApp({}, { onDisk: true });
    landingId = await openLanding(t);
    writer = threadWriter(t.app.sqliteFile!, (err) => errors.push(err));
  });
  afterEach(async () => {
    await writer.close();
    await t.close();
    expect(errors).toEqual([]);
  });

  it('is what the app commits with when its database is a SQLite file', () => {
    expect(t.app.sqliteFile).toMatch(/leadroom\.sqlite$/);
    expect(t.app.config.intakeWriterThread).toBe(true);
  });

  it('commits a batch in one transaction, deciding duplicates, visible to the event loop connection at once', async () => {
    const now = t.clock.now();
    const outcomes = await writer.commit([lead('01012345678'), lead('01012345678'), lead('01087654321')], now);
    expect(outcomes.map((o) => o.status)).toEqual(['created', 'created', 'created']);
    const [a, b, c] = outcomes as Array<{ leadId: number; duplicateOf: number | null }>;
    expect([a!.duplicateOf, b!.duplicateOf, c!.duplicateOf]).toEqual([null, a!.leadId, null]);
    const rows = await t.app.db.selectFrom('leads').select(['id', 'phone', 'cs_status', 'created_at']).orderBy('id').execute();
    expect(rows.map((r) => r.cs_status)).toEqual(['미처리', '중복', '미처리']);
    expect(rows[0]!.created_at).toBe(now.toISOString());
    const created = async () => Number((await t.app.db.selectFrom('lead_events').select(sql<number>`count(*)`.as('n')).where('action', '=', 'created').executeTakeFirstOrThrow()).n);
    // Their `created` events follow the commit, written by the same thread for every batch since the last.
    expect(await created()).toBe(0);
    await writer.followUp(now);
    expect(await created()).toBe(3);
  });

  it('fails a batch whose transaction fails, storing none of it, and goes on with the next', async () => {
    const now = t.clock.now();
    await expect(writer.commit([lead('01011112222'), lead('01033334444', { shop_id: 999_999 })], now)).rejects.toThrow(/FOREIGN KEY/);
    expect(await t.app.db.selectFrom('leads').selectAll().execute()).toEqual([]);
    expect(await writer.commit([lead('01011112222')], now)).toEqual([expect.objectContaining({ status: 'created' })]);
  });

  it('shares the file with back-office transactions that read, then write, without either failing', async () => {
    const now = t.clock.now();
    // The writer thread commits batch after batch while the back office runs transactions that
    // read, wait, then write. Begun deferred, such a transaction fails (SQLITE_BUSY) when the
    // thread committed after its read; begun immediate, it holds the lock and the thread waits.
    let done = false;
    let i = 0;
    const next = () => writer.commit([lead(`0105555${String(i++).padStart(4, '0')}`)], now);
    await next(); // the thread is up
    const leads = (async () => {
      while (!done) await next();
      return i;
    })();
    for (let k = 0; k < 10; k++) {
      await t.app.db.transaction().execute(async (trx) => {
        const shop = await trx.selectFrom('shops').select('name').where('id', '=', t.shopId).executeTakeFirstOrThrow();
        await new Promise((r) => setTimeout(r, 10));
        await trx.updateTable('shops').set({ name: `${shop.name.split(' #')[0]} #${k}` }).where('id', '=', t.shopId).execute();
      });
    }
    done = true;
    const committed = await leads;
    const n = await t.app.db.selectFrom('leads').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(committed);
    expect((await t.app.db.selectFrom('shops').select('name').where('id', '=', t.shopId).executeTakeFirstOrThrow()).name).toMatch(/#9$/);
  });
});
