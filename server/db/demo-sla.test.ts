// The demo's speed to lead: both demo shops have the SLA on with a history the escalation job
// would have left, so the figures a newcomer sees are real ones — some deadlines met, some missed,
// re-routes and the manager's queue with their reasons — and the ranking lists both shops.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test-helpers.ts';

let t: TestApp;
beforeEach(async () => {
  t = await testApp({ seedDemo: true, demoPassword: 'leadroom-demo1' });
});
afterEach(async () => {
  await t.close();
});

describe('demo speed to lead', () => {
  it('ranks both demo shops by SLA met, with met and missed leads, re-routes and the manager’s queue', async () => {
    const admin = await t.login();
    const ranking = (await admin.get('/api/dashboard/sla-ranking')).json();
    expect(ranking.items).toHaveLength(2);
    for (const shop of ranking.items) {
      expect(shop.met, shop.shopName).toBeGreaterThan(0);
      expect(shop.missed, shop.shopName).toBeGreaterThan(0);
      expect(shop.medianMinutes, shop.shopName).not.toBeNull();
    }
    const owner = await t.login('owner', 'leadroom-demo1');
    const smile = ranking.items.find((s: { shopName: string }) => s.shopName === '서울미소치과');
    const f = (await owner.get(`/api/shops/${smile.shopId}/dashboard/sla`)).json();
    expect(f.sla).toMatchObject({ minutes: 30 });
    expect(f.totals.rerouted).toBeGreaterThan(0);
    expect(f.reroutes.map((r: { reason: string }) => r.reason)).toEqual(expect.arrayContaining(['reroute', 'notify']));
    expect(f.reroutes.some((r: { reason: string }) => r.reason === 'max-reroutes' || r.reason === 'no-counselor')).toBe(true);
  });
});
