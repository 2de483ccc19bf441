import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testApp, type TestApp } from '../test-helpers.ts';

let t: TestApp;
beforeEach(async () => {
  t = await testApp({ seedDemo: true, demoPassword: 'leadroom-demo1' });
});
afterEach(async () => {
  await t.close();
});

describe('demo leads', () => {
  it('gives a newcomer a worked history: hundreds of leads over 60 days, assigned, called, booked, duplicated, with their records', async () => {
    const rows = await t.app.db
      .selectFrom('leads')
      .select(['cs_status', sql<number>`count(*)`.as('n')])
      .groupBy('cs_status')
      .execute();
    const by = Object.fromEntries(rows.map((r) => [r.cs_status, Number(r.n)]));
    const total = Object.values(by).reduce((a, b) => a + b, 0);
    expect(total).toBe(340);
    for (const s of ['미처리', '부재', '통화완료', '상담예약', '계약', '중복']) expect(by[s], s).toBeGreaterThan(0);

    const span = await t.app.db.selectFrom('leads').select([sql<string>`min(created_at)`.as('first'), sql<string>`max(created_at)`.as('last')]).executeTakeFirstOrThrow();
    expect(Date.parse(span.last) - Date.parse(span.first)).toBeGreaterThan(40 * 86400_000);
    expect(Date.parse(span.last)).toBeLessThanOrEqual(t.clock.current.getTime());

    const admin = await t.login();
    const smile = await t.app.db.selectFrom('shops').select('id').where('shop_code', '=', 'smile-dental').executeTakeFirstOrThrow();
    const today = (await admin.get(`/api/shops/${smile.id}/leads`)).json();
    expect(today.total).toBeGreaterThan(3);
    const counselor = await t.login('counselor', 'leadroom-demo1');
    const mine = (await counselor.get(`/api/shops/${smile.id}/leads?from=2026-09-01&to=2026-11-21`)).json();
    expect(mine.total).toBeGreaterThan(50);
    expect(new Set(mine.items.map((i: { assigneeName: string }) => i.assigneeName))).toEqual(new Set(['오상담']));
    const duplicate = await t.app.db.selectFrom('leads').select(['duplicate_of']).where('cs_status', '=', '중복').executeTakeFirstOrThrow();
    expect(duplicate.duplicate_of).not.toBeNull();
  });
});
