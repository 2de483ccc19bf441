import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testApp, type Client, type TestApp } from '../test-helpers.ts';
import { describeLeadEvent } from '../modules/access-record/access-record.service.ts';
import { reservationsJob } from '../worker/reservations.ts';
import { DEMO_DELIVERY_DAYS, DEMO_FAILED, DEMO_FLAKY, demoMaintenanceDay } from './demo-delivery.ts';
import { BACKOFF_BASE_MS } from '../../contracts/delivery.ts';
import { addDays, seoulDay } from '../../contracts/kst.ts';

const DEMO_PASSWORD = 'leadroom-demo1';
const DAY_MS = 86_400_000;

let t: TestApp;
let smile: number;
let hanbit: number;
beforeEach(async () => {
  // Saturday 21 November 2026, 10:00 in Seoul.
  t = await testApp({ seedDemo: true, demoPassword: DEMO_PASSWORD });
  const shops = await t.app.db.selectFrom('shops').select(['id', 'shop_code']).execute();
  smile = shops.find((s) => s.shop_code === 'smile-dental')!.id;
  hanbit = shops.find((s) => s.shop_code === 'hanbit-insurance')!.id;
});
afterEach(async () => {
  await t.close();
});

const ok = async (c: Client, url: string) => {
  const res = await c.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('demo delivery', () => {
  it('gives 서울미소치과 a paused CRM webhook with two weeks of deliveries, a few retried and two failed, each in the access record', async () => {
    const db = t.app.db;
    const now = t.clock.current.getTime();
    const channels = await db.selectFrom('delivery_channels').select(['id', 'shop_id', 'name', 'kind', 'enabled', 'mode', 'digest_at', 'disabled_reason', 'secret']).orderBy('id').execute();
    expect(channels.map((c) => [c.shop_id, c.name, c.kind, c.enabled, c.mode, c.digest_at, c.disabled_reason])).toEqual([
      [smile, '병원 CRM 연동', 'webhook', 0, 'instant', null, null],
      [smile, '원장님 메일 알림', 'email', 1, 'digest', '09:00', null],
      [hanbit, '지점 문자 알림', 'sms', 0, 'instant', null, null],
    ]);
    const webhook = channels[0]!;
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);

    // A job per lead the webhook was there for: the last 14 days, no duplicates, none deleted.
    const leads = await db
      .selectFrom('leads')
      .select(['id', 'name', 'created_at'])
      .where('shop_id', '=', smile)
      .where('created_at', '>=', new Date(now - DEMO_DELIVERY_DAYS * DAY_MS).toISOString())
      .where('duplicate_of', 'is', null)
      .where('deleted_at', 'is', null)
      .execute();
    const jobs = await db.selectFrom('delivery_jobs').selectAll().orderBy('id').execute();
    expect(jobs.length).toBeGreaterThan(50);
    expect(jobs.map((j) => j.lead_id).sort((a, b) => a - b)).toEqual(leads.map((l) => l.id).sort((a, b) => a - b));
    expect(new Set(jobs.map((j) => j.channel_id))).toEqual(new Set([webhook.id]));
    expect(new Set(jobs.map((j) => j.idempotency_key)).size).toBe(jobs.length);
    for (const j of jobs) expect(j.idempotency_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const shape = jobs.map((j) => `${j.status}/${j.attempts}`);
    const count = (s: string) => shape.filter((x) => x === s).length;
    expect([count('succeeded/1'), count('succeeded/2'), count('failed/8')]).toEqual([jobs.length - DEMO_FLAKY - DEMO_FAILED, DEMO_FLAKY, DEMO_FAILED]);
    // Nothing waits: the demo sends nothing by itself.
    expect(jobs.filter((j) => j.status === 'pending' || j.status === 'sending')).toEqual([]);

    // Every attempt after its lead came in, each retry at least the backoff after the one before, the job as its last attempt left it.
    const attempts = await db.selectFrom('delivery_attempts').selectAll().orderBy('job_id').orderBy('attempt').execute();
    const created = new Map(leads.map((l) => [l.id, Date.parse(l.created_at)]));
    for (const j of jobs) {
      const mine = attempts.filter((a) => a.job_id === j.id);
      expect(mine.map((a) => a.attempt)).toEqual(Array.from({ length: j.attempts }, (_, i) => i + 1));
      expect(Date.parse(mine[0]!.at)).toBeGreaterThan(created.get(j.lead_id)!);
      // Taken within a second of the intake (a timeout's attempt ends five seconds later).
      expect(Date.parse(mine[0]!.at) - mine[0]!.duration_ms - created.get(j.lead_id)!).toBeLessThan(1000);
      for (let k = 1; k < mine.length; k++) {
        expect(Date.parse(mine[k]!.at) - Date.parse(mine[k - 1]!.at)).toBeGreaterThanOrEqual(BACKOFF_BASE_MS * 2 ** (k - 1) * 0.8);
      }
      const last = mine.at(-1)!;
      expect(Date.parse(last.at)).toBeLessThan(now);
      expect(j).toMatchObject({ updated_at: last.at, response_code: last.response_code, last_error: last.error, shop_id: smile, lead_id: last.lead_id });
      if (j.status === 'succeeded') {
        expect(last).toMatchObject({ status: 'succeeded', response_code: 200 });
        expect(last.duration_ms).toBeGreaterThanOrEqual(80);
        expect(last.duration_ms).toBeLessThanOrEqual(400);
        expect(j.delivered_at).toBe(last.at);
      } else {
        expect(mine.every((a) => a.status === 'failed')).toBe(true);
        expect(j.delivered_at).toBeNull();
      }
      if (j.attempts === 2 && j.status === 'succeeded') expect(mine[0]!.error).toMatch(/HTTP 503|응답이 없었습니다/);
    }

    // Each delivery is a third-party provision in the lead's record, as the worker writes it.
    const delivered = jobs.filter((j) => j.status === 'succeeded');
    const events = await db.selectFrom('lead_events').select(['lead_id', 'account_id', 'after', 'at']).where('action', '=', 'deliver').orderBy('lead_id').execute();
    expect(events).toEqual(
      delivered
        .map((j) => ({
          lead_id: j.lead_id, account_id: null, at: j.delivered_at,
          after: JSON.stringify({ channelId: webhook.id, channelName: '병원 CRM 연동', kind: 'webhook', jobId: j.id, trigger: 'intake' }),
        }))
        .sort((a, b) => a.lead_id - b.lead_id),
    );
    expect(describeLeadEvent('deliver', {}, JSON.parse(events[0]!.after!))).toBe("웹훅 '병원 CRM 연동'으로 전송 · 자동");

    // The screens: the channel list, the shop's dashboard, the administrators' dashboard.
    const owner = await t.login('owner', DEMO_PASSWORD);
    const list = await ok(owner, `/api/shops/${smile}/delivery-channels`);
    const byName = (name: string) => list.items.find((c: { name: string }) => c.name === name);
    expect(byName('병원 CRM 연동')).toMatchObject({ enabled: false, disabledReason: null, failedJobs: DEMO_FAILED, pendingJobs: 0, target: 'crm.smile-dental.example' });
    expect(byName('원장님 메일 알림')).toMatchObject({ enabled: true, mode: 'digest', digestAt: '09:00', target: 'director@smile-dental.example', lastDelivery: null });

    const today = seoulDay(t.clock.current);
    const todays = attempts.filter((a) => a.status === 'succeeded' && seoulDay(new Date(a.at)) === today).length;
    const failed = jobs.filter((j) => j.status === 'failed').sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    const shopDashboard = (await ok(owner, `/api/shops/${smile}/dashboard`)).delivery;
    expect(shopDashboard).toMatchObject({ failed: DEMO_FAILED, retrying: 0, deliveredToday: todays, channelsOff: [] });
    expect(shopDashboard.failures.map((f: { jobId: number; leadName: string; attempts: number }) => [f.jobId, f.leadName, f.attempts])).toEqual(
      failed.map((j) => [j.id, leads.find((l) => l.id === j.lead_id)!.name, 8]),
    );
    const admin = await t.login();
    const dashboard = await ok(admin, '/api/dashboard');
    expect(dashboard.delivery).toEqual({
      totals: { failed: DEMO_FAILED, retrying: 0, channelsOff: 0 },
      byShop: [{ shopId: smile, shopName: '서울미소치과', failed: DEMO_FAILED, retrying: 0, channelsOff: 0 }],
    });
  });

  it('gives 서울미소치과 a pull key without full phones, used yesterday, stored only as its hash', async () => {
    const keys = await t.app.db.selectFrom('api_keys').selectAll().execute();
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    expect(key).toMatchObject({ shop_id: smile, name: 'CRM 동기화', full_phone: 0, revoked_at: null });
    expect(key.prefix).toMatch(/^lr_live_[0-9A-Za-z]{4}$/);
    expect(key.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(seoulDay(new Date(key.last_used_at!))).toBe(addDays(seoulDay(t.clock.current), -1));
    const listed = await ok(await t.login('owner', DEMO_PASSWORD), `/api/shops/${smile}/api-keys`);
    expect(listed.items).toEqual([expect.objectContaining({ name: 'CRM 동기화', prefix: key.prefix, fullPhone: false, lastUsedAt: key.last_used_at, revokedAt: null })]);
  });

  it('schedules a maintenance window on a Sunday ahead, has an announcement up for everyone who can open 계약 현황, and keeps the back office open now', async () => {
    const db = t.app.db;
    const rows = await db.selectFrom('system_reservations').selectAll().orderBy('starts_at').execute();
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ['landing-close', 'done'], ['landing-open', 'done'], ['announcement', 'running'], ['maintenance', 'scheduled'],
    ]);
    const [close, open, announcement, maintenance] = rows;
    // Next Sunday at least two days ahead of Saturday 21 November: the 29th, 02:00–04:00 in Seoul.
    expect(maintenance).toMatchObject({ title: '정기 점검', starts_at: '2026-11-28T17:00:00.000Z', ends_at: '2026-11-28T19:00:00.000Z', executed_at: null });
    expect(announcement).toMatchObject({
      title: '12월 정산서 발행 일정 안내', starts_at: '2026-11-19T00:00:00.000Z', ends_at: '2026-11-28T09:00:00.000Z', finished_at: null,
    });
    expect(JSON.parse(announcement!.payload)).toMatchObject({ accountTypeIds: [], screen: 'contract-status' });
    // The landing was closed and published again in a quiet stretch of its leads, both run.
    const landing = await db.selectFrom('landings').select(['id', 'title', 'status']).where('landing_code', '=', 'free-checkup').executeTakeFirstOrThrow();
    expect(landing.status).toBe('open');
    for (const r of [close!, open!]) {
      expect(JSON.parse(r.payload)).toEqual({ landingId: landing.id });
      expect(r.executed_at! > r.starts_at && r.finished_at! >= r.executed_at!).toBe(true);
    }
    expect(close!.result).toBe(`한빛손해보험 강남지점 '${landing.title}'을 종료했습니다.`);
    expect(open!.result).toBe(`한빛손해보험 강남지점 '${landing.title}'을 게시했습니다.`);
    const meanwhile = await db
      .selectFrom('leads')
      .select(sql<number>`count(*)`.as('n'))
      .where('landing_id', '=', landing.id)
      .where('created_at', '>=', close!.starts_at)
      .where('created_at', '<', open!.starts_at)
      .executeTakeFirstOrThrow();
    expect(Number(meanwhile.n)).toBe(0);

    // Nothing is due for the worker; the back office answers everyone; the banner shows the announcement only.
    expect(await reservationsJob(db, t.clock.now, { setLandingStatus: t.app.links.setLandingStatus }).run()).toEqual([]);
    const marketer = await t.login('marketer', DEMO_PASSWORD);
    await ok(marketer, `/api/shops/${smile}/leads`);
    const notices = await ok(marketer, '/api/notices');
    expect(notices.maintenance).toEqual([]);
    expect(notices.announcements.map((a: { title: string }) => a.title)).toEqual(['12월 정산서 발행 일정 안내']);
    // It is about 계약 현황, which a counselor cannot open.
    expect((await ok(await t.login('counselor', DEMO_PASSWORD), '/api/notices')).announcements).toEqual([]);
    const admin = await t.login();
    expect((await ok(admin, '/api/dashboard')).reservations.map((r: { kind: string; status: string }) => [r.kind, r.status])).toEqual([
      ['announcement', 'running'], ['maintenance', 'scheduled'],
    ]);

    // The day before, the banner announces the window.
    t.clock.current = new Date('2026-11-28T03:00:00.000Z');
    expect((await ok(await t.login('marketer', DEMO_PASSWORD), '/api/notices')).maintenance.map((m: { title: string; running: boolean }) => [m.title, m.running])).toEqual([['정기 점검', false]]);
  });

  it('puts the maintenance window on the first Sunday at least two days ahead, whatever the day', () => {
    // 22 November 2026 is a Sunday.
    expect(['2026-11-22', '2026-11-23', '2026-11-27', '2026-11-28'].map(demoMaintenanceDay)).toEqual(['2026-11-29', '2026-11-29', '2026-11-29', '2026-12-06']);
  });
});
