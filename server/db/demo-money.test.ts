import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testApp, type TestApp } from '../test-helpers.ts';
import { addDays, seoulDay } from '../../contracts/kst.ts';

let t: TestApp;
beforeEach(async () => {
  t = await testApp({ seedDemo: true, demoPassword: 'leadroom-demo1' });
});
afterEach(async () => {
  await t.close();
});

describe('demo money', () => {
  it('gives each demo shop a running contract, returns in every state, 60 days of ad spend per medium with leads, and targets', async () => {
    const db = t.app.db;
    const contracts = await db.selectFrom('shop_contracts').selectAll().orderBy('id').execute();
    expect(contracts).toHaveLength(2);
    const today = seoulDay(t.clock.current);
    for (const c of contracts) expect(c.starts_on <= today && today <= c.ends_on).toBe(true);

    const returns = await db.selectFrom('lead_returns').select(['status', sql<number>`count(*)`.as('n')]).groupBy('status').execute();
    expect(Object.fromEntries(returns.map((r) => [r.status, Number(r.n)]))).toEqual({ approved: 3, rejected: 1, requested: 1 });
    const returned = await db.selectFrom('leads').select(sql<number>`count(*)`.as('n')).where('validity', '=', 'returned').executeTakeFirstOrThrow();
    expect(Number(returned.n)).toBe(3);

    const spend = await db.selectFrom('ad_spend').select([sql<string>`min(day)`.as('first'), sql<string>`max(day)`.as('last'), sql<number>`count(distinct media_type_id)`.as('media')]).executeTakeFirstOrThrow();
    expect(spend.first).toBe(addDays(today, -59));
    expect(spend.last).toBe(today);
    expect(Number(spend.media)).toBeGreaterThanOrEqual(3);
    // Spend only where a medium brought leads, so every medium's CPA has something behind it.
    const orphan = await db
      .selectFrom('ad_spend as a')
      .select(sql<number>`count(*)`.as('n'))
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('leads as l').select('l.id').whereRef('l.shop_id', '=', 'a.shop_id').whereRef('l.media_type_id', '=', 'a.media_type_id'))),
      )
      .executeTakeFirstOrThrow();
    expect(Number(orphan.n)).toBe(0);
    expect(await db.selectFrom('cpa_targets').select('month').distinct().execute()).toHaveLength(3);
  });
});
