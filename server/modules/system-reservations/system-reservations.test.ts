import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingInput, leadBody, openLanding, shopAccount, submit, landingTestApp, type LandingTestApp, LONG_SESSIONS } from '../../test-landings.ts';
import { createAccount, TEST_PASSWORD, type Client } from '../../test-helpers.ts';
import { openDatabase, type DbHandle } from '../../db/dialect.ts';
import { reservationsJob } from '../../worker/reservations.ts';

let t: LandingTestApp;
let implant: number;
beforeEach(async () => {
  t = await landingTestApp(LONG_SESSIONS);
  implant = await openLanding(t);
});
afterEach(async () => {
  await t.close();
});

const BASE = '/api/system-reservations';
/** The clock's time plus `minutes`, as the form sends it (Seoul offset). */
const inMinutes = (minutes: number) => {
  const d = new Date(t.clock.current.getTime() + minutes * 60_000 + 9 * 3600_000);
  return `${d.toISOString().slice(0, 19)}+09:00`;
};
const utc = (minutes: number) => new Date(t.clock.current.getTime() + minutes * 60_000).toISOString();
const job = (db = t.app.db) => reservationsJob(db, t.clock.now, { setLandingStatus: t.app.links.setLandingStatus, stopExperiment: t.app.links.stopExperiment });
const view = (url = '/view/smile/implant') => t.app.inject({ method: 'GET', url });

async function reserve(body: Record<string, unknown>, who: Client = t.admin) {
  const res = await who.post(BASE, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; status: string; landing: { title: string; shopName: string } | null };
}

const auditOf = (action: string) =>
  t.app.db.selectFrom('audit_events').select(['account_id', 'target_id', 'detail']).where('action', '=', action).orderBy('id').execute();

describe('scheduling', () => {
  it('refuses what cannot run, with Korean messages on the fields', async () => {
    const empty = await t.admin.post(BASE, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ kind: '종류를 선택하세요.', title: '제목을 입력하세요.', startsAt: '시작 일시를 선택하세요.' });

    const fields = async (body: Record<string, unknown>) => {
      const res = await t.admin.post(BASE, body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().error.fields as Record<string, string>;
    };
    expect(await fields({ kind: 'landing-close', title: '종료', startsAt: inMinutes(60) })).toEqual({ landingId: '랜딩을 선택하세요.' });
    expect(await fields({ kind: 'landing-close', title: '종료', startsAt: inMinutes(60), landingId: 9999 })).toEqual({ landingId: '랜딩을 찾을 수 없습니다.' });
    // A little slack for the time the form took; more is the past.
    expect(await fields({ kind: 'landing-close', title: '종료', startsAt: inMinutes(-10), landingId: implant })).toEqual({ startsAt: '시작 일시는 지금 이후로 잡으세요.' });
    expect(await fields({ kind: 'maintenance', title: '점검', startsAt: inMinutes(60) })).toEqual({
      message: '점검 안내 문구를 입력하세요.', endsAt: '종료 일시를 선택하세요.',
    });
    expect(await fields({ kind: 'maintenance', title: '점검', message: 'DB 교체', startsAt: inMinutes(60), endsAt: inMinutes(30) })).toEqual({
      endsAt: '종료 일시는 시작 일시보다 늦어야 합니다.',
    });
    expect(await fields({ kind: 'maintenance', title: '점검', message: 'DB 교체', startsAt: inMinutes(60), endsAt: inMinutes(60 + 12 * 60 + 1) })).toEqual({
      endsAt: '점검은 12시간 이내로 잡으세요.',
    });
    expect(await fields({ kind: 'announcement', title: '공지', startsAt: inMinutes(0), endsAt: inMinutes(60), accountTypeIds: [9999] })).toEqual({
      message: '공지 내용을 입력하세요.',
    });
    expect(await fields({ kind: 'announcement', title: '공지', message: '안내', startsAt: inMinutes(0), endsAt: inMinutes(60), accountTypeIds: [9999] })).toEqual({
      accountTypeIds: '없는 계정 유형이 있습니다. 다시 선택하세요.',
    });
    expect(await t.app.db.selectFrom('system_reservations').select('id').execute()).toEqual([]);
  });

  it('lists, changes while scheduled, cancels with a reason, and records each change', async () => {
    const close = await reserve({ kind: 'landing-close', title: '이벤트 마감', startsAt: inMinutes(60), landingId: implant, message: '쓰이지 않음' });
    expect(close).toMatchObject({
      status: 'scheduled', kind: 'landing-close', endsAt: null, message: null, landingId: implant,
      landing: { id: implant, title: '임플란트 상담 이벤트', shopName: '미소치과', status: 'open', landingCode: 'implant' }, createdBy: '최고관리자',
      executedAt: null, finishedAt: null, result: null,
    });
    const window = await reserve({ kind: 'maintenance', title: '서버 점검', message: 'DB 서버를 교체합니다.', startsAt: inMinutes(120), endsAt: inMinutes(180) });
    const notice = await reserve({ kind: 'announcement', title: '설 연휴 안내', message: '연휴 동안 상담이 없습니다.', startsAt: inMinutes(30), endsAt: inMinutes(24 * 60) });

    const list = async (query = '') => (await t.admin.get(`${BASE}${query}`)).json() as { items: Array<{ id: number; status: string }>; total: number };
    expect((await list()).items.map((r) => r.id)).toEqual([window.id, close.id, notice.id]);
    expect((await list('?sort=startsAt')).items.map((r) => r.id)).toEqual([notice.id, close.id, window.id]);
    expect(await list('?kind=maintenance')).toMatchObject({ total: 1, items: [{ id: window.id }] });
    expect((await list('?q=마감')).items.map((r) => r.id)).toEqual([close.id]);

    const changed = await t.admin.put(`${BASE}/${window.id}`, { kind: 'maintenance', title: '서버 점검(연장)', message: 'DB 서버를 교체합니다.', startsAt: inMinutes(120), endsAt: inMinutes(240) });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ title: '서버 점검(연장)', endsAt: utc(240) });

    const noReason = await t.admin.post(`${BASE}/${window.id}/cancel`, {});
    expect(noReason.json().error.fields).toEqual({ reason: '취소 사유를 입력하세요.' });
    const cancelled = await t.admin.post(`${BASE}/${window.id}/cancel`, { reason: '일정 변경' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', result: '취소 사유: 일정 변경', cancelledAt: t.clock.current.toISOString() });
    expect((await t.admin.post(`${BASE}/${window.id}/cancel`, { reason: '다시' })).json().error.message).toBe('취소된 예약은 취소할 수 없습니다.');
    const again = await t.admin.put(`${BASE}/${window.id}`, { kind: 'maintenance', title: '점검', message: '안내', startsAt: inMinutes(120), endsAt: inMinutes(180) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('취소된 예약은 수정할 수 없습니다.');
    expect(await list('?status=cancelled')).toMatchObject({ total: 1, items: [{ id: window.id }] });

    const admin = await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', 'admin').executeTakeFirstOrThrow();
    expect((await auditOf('system-reservation.create')).map((a) => [a.account_id, Number(a.target_id)])).toEqual([
      [admin.id, close.id], [admin.id, window.id], [admin.id, notice.id],
    ]);
    expect((await auditOf('system-reservation.update')).map((a) => JSON.parse(a.detail!).title)).toEqual(['서버 점검(연장)']);
    expect((await auditOf('system-reservation.cancel')).map((a) => JSON.parse(a.detail!))).toEqual([
      { kind: 'maintenance', title: '서버 점검(연장)', reason: '일정 변경', was: 'scheduled' },
    ]);
  });

  it('belongs to administrators with the screen; every logged-in account reads its notices', async () => {
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    expect((await marketer.get(BASE)).statusCode).toBe(403);
    expect((await marketer.post(BASE, { kind: 'landing-close', title: '종료', startsAt: inMinutes(60), landingId: implant })).statusCode).toBe(403);
    expect((await marketer.get(`${BASE}/options`)).statusCode).toBe(403);
    expect((await marketer.get('/api/notices')).statusCode).toBe(200);
    expect((await t.anonymous.get('/api/notices')).statusCode).toBe(401);

    // An administrator type allowed to read the screen only.
    const type = await t.admin.post('/api/account-types', { name: '조회 관리자', area: 'admin', dataScope: 'all' });
    const typeId = type.json().id as number;
    const permissions = (await t.admin.get('/api/permissions')).json().items.find((x: { id: number }) => x.id === typeId).permissions;
    expect((await t.admin.put(`/api/permissions/${typeId}`, { permissions: { ...permissions, 'system-reservation': 'read' }, canUnmask: false, canExport: false })).statusCode).toBe(200);
    await createAccount(t.admin, 'viewer', '조회 관리자');
    const viewer = await t.login('viewer', TEST_PASSWORD);
    expect((await viewer.get(BASE)).statusCode).toBe(200);
    expect((await viewer.post(BASE, { kind: 'landing-close', title: '종료', startsAt: inMinutes(60), landingId: implant })).statusCode).toBe(403);

    const options = (await t.admin.get(`${BASE}/options`)).json();
    expect(options.landings).toEqual([{ id: implant, title: '임플란트 상담 이벤트', landingCode: 'implant', status: 'open', shopId: t.shopId, shopName: '미소치과' }]);
    expect(options.accountTypes.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['최고관리자', '마케터', '조회 관리자']));
  });
});

describe('running on time', () => {
  it('closes and opens a landing at its time, once, and the public page follows', async () => {
    const close = await reserve({ kind: 'landing-close', title: '이벤트 마감', startsAt: inMinutes(10), landingId: implant });
    const open = await reserve({ kind: 'landing-open', title: '이벤트 재개', startsAt: inMinutes(30), landingId: implant });
    const start = t.clock.current.getTime();

    expect(await job().run()).toEqual([]);
    t.clock.current = new Date(start + 10 * 60_000);
    const closing = (await Promise.all([job().run(), job().run()])).flat();
    expect(closing).toEqual([{ id: close.id, kind: 'landing-close', status: 'done', result: "미소치과 '임플란트 상담 이벤트'를 종료했습니다." }]);
    expect((await view()).statusCode).toBe(410);
    expect(await job().run()).toEqual([]);

    const row = (await t.admin.get(`${BASE}?sort=startsAt`)).json().items[0];
    expect(row).toMatchObject({ id: close.id, status: 'done', executedAt: t.clock.current.toISOString(), finishedAt: t.clock.current.toISOString() });
    // The update of a reservation that ran is refused.
    const late = await t.admin.put(`${BASE}/${close.id}`, { kind: 'landing-close', title: '이벤트 마감', startsAt: inMinutes(10), landingId: implant });
    expect(late.json().error.message).toBe('완료된 예약은 수정할 수 없습니다.');

    t.clock.current = new Date(start + 30 * 60_000);
    expect(await job().run()).toMatchObject([{ id: open.id, status: 'done', result: "미소치과 '임플란트 상담 이벤트'를 게시했습니다." }]);
    expect((await view()).statusCode).toBe(200);

    // Each change once, by the system, in the landing's own record and the reservation's.
    expect((await auditOf('landing-close')).map((a) => [a.account_id, JSON.parse(a.detail!)])).toEqual([[null, { reason: `시스템 예약 #${close.id} 이벤트 마감` }]]);
    expect((await auditOf('landing-publish')).filter((a) => a.account_id === null)).toHaveLength(1);
    expect((await auditOf('system-reservation.run')).map((a) => [a.account_id, Number(a.target_id), JSON.parse(a.detail!).status])).toEqual([
      [null, close.id, 'done'], [null, open.id, 'done'],
    ]);
  });

  it('records a run the landing refuses as failed, with the reason', async () => {
    const draft = (await t.admin.post(`/api/shops/${t.shopId}/landings`, landingInput({ landingCode: 'draft', title: '게시 전 초안 이벤트' }))).json().id as number;
    const close = await reserve({ kind: 'landing-close', title: '마감', startsAt: inMinutes(1), landingId: draft });
    t.clock.advanceMinutes(1);
    expect(await job().run()).toEqual([{ id: close.id, kind: 'landing-close', status: 'failed', result: '종료하지 못했습니다: 게시하지 않은 랜딩은 종료할 수 없습니다.' }]);
  });

  it('runs each of many reservations exactly once with two workers racing, round after round', async () => {
    // PostgreSQL: a second process with its own pool on the same schema; SQLite: two runs interleaving on one database.
    let second: DbHandle | undefined;
    if (t.app.dialect === 'postgres') {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.app.db);
      second = await openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: rows[0]!.schema, poolSize: 3 });
    }
    try {
      const ids: number[] = [];
      for (const code of ['a1', 'a2', 'a3', 'a4']) ids.push(await openLanding(t, { ...landingInput(), landingCode: code, title: `이벤트 ${code}` }));
      const start = t.clock.current.getTime();
      // Each round closes or opens every landing at the same minute.
      for (let round = 1; round <= 4; round++) {
        for (const id of ids) await reserve({ kind: round % 2 ? 'landing-close' : 'landing-open', title: `${round}회차`, startsAt: new Date(start + round * 60_000).toISOString(), landingId: id });
      }
      for (let round = 1; round <= 4; round++) {
        t.clock.current = new Date(start + round * 60_000);
        const runs = (await Promise.all([job().run(), job(second?.db ?? t.app.db).run(), job().run()])).flat();
        expect(runs.map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
        const states = await t.app.db.selectFrom('landings').select('status').where('id', 'in', ids).execute();
        expect(states.map((s) => s.status)).toEqual(Array(4).fill(round % 2 ? 'closed' : 'open'));
      }
      expect(await t.app.db.selectFrom('system_reservations').select('status').where('status', '!=', 'done').execute()).toEqual([]);
      expect(await auditOf('landing-close')).toHaveLength(8);
      expect((await auditOf('landing-publish')).filter((a) => a.account_id === null)).toHaveLength(8);
      expect(await auditOf('system-reservation.run')).toHaveLength(16);
    } finally {
      await second?.close();
    }
  });
});

describe('a maintenance window', () => {
  it('announces itself, closes the back office to all but 최고관리자 while landings and intake keep working, and ends on time', async () => {
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    await createAccount(t.admin, 'staff', '관리자');
    const staff = await t.login('staff', TEST_PASSWORD);
    const leads = `/api/shops/${t.shopId}/leads`;
    // 10:00 Seoul now; the window 11:00–12:00.
    const window = await reserve({ kind: 'maintenance', title: '서버 점검', message: 'DB 서버를 교체합니다.', startsAt: inMinutes(60), endsAt: inMinutes(120) });
    const start = t.clock.current.getTime();

    const notices = async (c: Client) => {
      const res = await c.get('/api/notices');
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await notices(marketer)).toEqual({
      maintenance: [{ id: window.id, title: '서버 점검', message: 'DB 서버를 교체합니다.', startsAt: utc(60), endsAt: utc(120), running: false }],
      announcements: [],
      maintenanceExempt: false,
    });
    expect((await marketer.get(leads)).statusCode).toBe(200);

    t.clock.current = new Date(start + 61 * 60_000);
    const refused = await marketer.get(leads);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(59 * 60));
    expect(refused.json()).toEqual({ error: { code: 'MAINTENANCE', message: '시스템 점검 중입니다. DB 서버를 교체합니다. (~12:00까지)' } });
    // Every method, every back-office account but 최고관리자.
    expect((await marketer.request('PATCH', `${leads}/1`, { csStatus: '부재' })).statusCode).toBe(503);
    expect((await staff.get('/api/shops')).statusCode).toBe(503);
    expect((await staff.post(BASE, {})).statusCode).toBe(503);
    expect((await t.admin.get(leads)).statusCode).toBe(200);
    expect((await t.admin.get('/api/shops')).statusCode).toBe(200);
    // What the back office needs to say so, and everything visitors reach, keep working.
    expect((await marketer.get('/api/auth/me')).statusCode).toBe(200);
    expect((await notices(marketer)).maintenance).toEqual([expect.objectContaining({ id: window.id, running: true })]);
    expect((await notices(t.admin)).maintenanceExempt).toBe(true);
    expect((await view()).statusCode).toBe(200);
    const lead = await submit(t, leadBody(t, implant));
    expect(lead.statusCode, lead.body).toBe(201);
    expect((await t.anonymous.get('/api/health')).statusCode).toBe(200);
    const logout = await marketer.post('/api/auth/logout');
    expect(logout.statusCode).toBe(204);
    const again = await t.login('mkt1', 'Shop-pass-2026');

    // The worker marks it under way and, at its end, done: the history shows both.
    expect(await job().run()).toEqual([{ id: window.id, kind: 'maintenance', status: 'running', result: null }]);
    t.clock.current = new Date(start + 120 * 60_000);
    expect((await again.get(leads)).statusCode).toBe(200);
    expect(await job().run()).toEqual([{ id: window.id, kind: 'maintenance', status: 'done', result: '점검을 마쳤습니다.' }]);
    expect((await notices(again)).maintenance).toEqual([]);
    expect((await auditOf('system-reservation.start')).map((a) => a.account_id)).toEqual([null]);
    expect((await auditOf('system-reservation.finish')).map((a) => a.account_id)).toEqual([null]);
  });

  it('ends at once when cancelled while under way', async () => {
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    const window = await reserve({ kind: 'maintenance', title: '긴급 점검', message: '잠시만 기다려 주세요.', startsAt: inMinutes(0), endsAt: inMinutes(60) });
    t.clock.advanceMinutes(1);
    expect((await marketer.get(`/api/shops/${t.shopId}/leads`)).statusCode).toBe(503);
    expect(await job().run()).toMatchObject([{ id: window.id, status: 'running' }]);
    const cancelled = await t.admin.post(`${BASE}/${window.id}/cancel`, { reason: '작업이 일찍 끝났습니다.' });
    // It ran: recorded as ended early (조기 종료), not as cancelled.
    expect(cancelled.json()).toMatchObject({ status: 'ended', result: '조기 종료 사유: 작업이 일찍 끝났습니다.', finishedAt: t.clock.current.toISOString(), cancelledAt: null });
    expect((await auditOf('system-reservation.end-early')).length).toBe(1);
    expect(await auditOf('system-reservation.cancel')).toEqual([]);
    expect((await marketer.get(`/api/shops/${t.shopId}/leads`)).statusCode).toBe(200);
    expect(await job().run()).toEqual([]);
  });
});

describe('announcements', () => {
  it('shows each to the chosen account types while it is up', async () => {
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const types = (await t.admin.get(`${BASE}/options`)).json().accountTypes as Array<{ id: number; name: string }>;
    const marketerType = types.find((x) => x.name === '마케터')!.id;
    const forMarketers = await reserve({ kind: 'announcement', title: '마케터 교육', message: '금요일 3시 교육이 있습니다.', startsAt: inMinutes(10), endsAt: inMinutes(70), accountTypeIds: [marketerType] });
    const forAll = await reserve({ kind: 'announcement', title: '연휴 안내', message: '연휴에는 상담이 없습니다.', startsAt: inMinutes(0), endsAt: inMinutes(30) });
    expect((await t.admin.get(`${BASE}?kind=announcement&sort=startsAt`)).json().items.map((r: { accountTypes: unknown }) => r.accountTypes)).toEqual([
      [], [{ id: marketerType, name: '마케터' }],
    ]);

    const shown = async (c: Client) => ((await c.get('/api/notices')).json().announcements as Array<{ id: number }>).map((a) => a.id);
    expect(await shown(marketer)).toEqual([forAll.id]);
    t.clock.advanceMinutes(10);
    expect(await shown(marketer)).toEqual([forAll.id, forMarketers.id]);
    expect(await shown(owner)).toEqual([forAll.id]);
    expect(await shown(t.admin)).toEqual([forAll.id]);
    expect((await job().run()).map((r) => [r.id, r.status])).toEqual([[forAll.id, 'running'], [forMarketers.id, 'running']]);
    t.clock.advanceMinutes(20);
    expect(await shown(marketer)).toEqual([forMarketers.id]);
    expect((await job().run()).map((r) => [r.id, r.status, r.result])).toEqual([[forAll.id, 'done', '게시 기간이 끝나 내렸습니다.']]);
    t.clock.advanceMinutes(40);
    expect(await shown(marketer)).toEqual([]);
  });

  it('about a screen: shown only to accounts that can open it, whatever types it names', async () => {
    const counselor = await shopAccount(t, 'counsel1', 'counselor');
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const about = await reserve({
      kind: 'announcement', title: '12월 정산서 발행 일정 안내', message: '정산 내역은 계약 현황 › 정산에서 확인하세요.',
      startsAt: inMinutes(0), endsAt: inMinutes(60), screen: 'contract-status',
    });
    const general = await reserve({ kind: 'announcement', title: '연휴 안내', message: '연휴에는 상담이 없습니다.', startsAt: inMinutes(0), endsAt: inMinutes(60) });
    expect(about).toMatchObject({ screen: 'contract-status' });
    const shown = async (c: Client) => ((await c.get('/api/notices')).json().announcements as Array<{ id: number }>).map((a) => a.id);
    expect(await shown(owner)).toEqual([about.id, general.id]);
    expect(await shown(t.admin)).toEqual([about.id, general.id]);
    // 상담원 cannot open 계약 현황: the announcement about it is not theirs.
    expect(await shown(counselor)).toEqual([general.id]);
    const bad = await t.admin.post(BASE, { kind: 'announcement', title: 'x', message: 'y', startsAt: inMinutes(0), endsAt: inMinutes(60), screen: 'no-such-screen' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.screen).toBe('관련 화면을 다시 선택하세요.');
  });
});
