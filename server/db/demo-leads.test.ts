import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testApp, type TestApp } from '../test-helpers.ts';
import { asksMarketing, leadConsents } from '../../contracts/intake.ts';
import { seoulDay, seoulDayStart } from '../../contracts/kst.ts';

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

  it('keeps the rules real leads keep: consents as the landing asked them, today under a daily cap while the landing is open', async () => {
    const rows = await t.app.db
      .selectFrom('leads as l')
      .innerJoin('landings as g', 'g.id', 'l.landing_id')
      .select(['l.id', 'l.answers', 'l.marketing_consent', 'l.sensitive_consent', 'g.form_fields', 'g.marketing_consent_text', 'g.landing_code'])
      .execute();
    expect(rows.length).toBe(340);
    const wrong = rows.filter((r) => {
      const answers = JSON.parse(r.answers) as Record<string, unknown>;
      const landing = { formFields: JSON.parse(r.form_fields) as Array<{ key: string; sensitive?: boolean }>, asksMarketing: asksMarketing(r.marketing_consent_text) };
      const asIntake = leadConsents(landing, answers, !!r.marketing_consent);
      return asIntake.marketing_consent !== r.marketing_consent || asIntake.sensitive_consent !== r.sensitive_consent;
    });
    expect(wrong.map((r) => `${r.landing_code} #${r.id}`)).toEqual([]);
    // The demo has both kinds of consent to show.
    expect(rows.some((r) => r.sensitive_consent === 1)).toBe(true);
    expect(rows.some((r) => r.marketing_consent === 1)).toBe(true);

    // A daily cap: today's counted leads stay under it unless the landing is closed.
    const contracts = await t.app.db.selectFrom('shop_contracts as c').innerJoin('shop_contract_landings as cl', 'cl.contract_id', 'c.id')
      .innerJoin('landings as g', 'g.id', 'cl.landing_id')
      .select(['c.daily_cap', 'g.id as landing_id', 'g.status', 'g.reopen_at']).where('c.daily_cap', 'is not', null).execute();
    expect(contracts.length).toBeGreaterThan(0);
    const todayStart = seoulDayStart(seoulDay(t.clock.current)).toISOString();
    for (const c of contracts) {
      const today = await t.app.db.selectFrom('leads').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('landing_id', '=', c.landing_id).where('created_at', '>=', todayStart).where('duplicate_of', 'is', null).where('validity', '=', 'valid')
        .executeTakeFirstOrThrow();
      const closed = c.status !== 'open' || c.reopen_at !== null;
      if (!closed) expect(Number(today.n)).toBeLessThan(c.daily_cap!);
    }
  });
});
