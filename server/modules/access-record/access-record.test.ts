import { describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { RouteOptions } from 'fastify';
import { leadBody, shopAccount, submit, type LandingTestApp, eachLandingTest } from '../../test-landings.ts';
import { TEST_PASSWORD, createAccount, createShop, testApp, type Client } from '../../test-helpers.ts';
import type { AccessEventsTable, LeadEventsTable } from '../../db/schema.ts';
import { recordAccess, type Actor, type AccessEntry } from '../audit/audit.service.ts';
import { ACCESS_ACTION_LABELS, REVIEW_THRESHOLDS, type AccessRecordItem } from '../../../contracts/access-record.ts';

let t: LandingTestApp;
let landingId: number;
eachLandingTest((app, landing) => ([t, landingId] = [app, landing]));

const record = (query = '') => `/api/shops/${t.shopId}/access-record${query ? `?${query}` : ''}`;
const at = (iso: string) => void (t.clock.current = new Date(iso));

async function lead(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, extra));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}

const accountId = async (loginId: string) => (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow()).id;

/** recordAccess as `loginId` would (the list-level access the export and import screens record). */
async function access(loginId: string, entry: Partial<AccessEntry> & Pick<AccessEntry, 'action'>, ip = '10.0.0.9') {
  const actor: Actor = { id: await accountId(loginId), loginId, accountTypeId: 0, superadmin: false, scope: 'all', side: 'agency', canUnmask: true, canExport: true, ip };
  await recordAccess(t.app.db, actor, { shopId: t.shopId, ...entry }, t.clock.now());
}

async function list(client: Client, query = ''): Promise<{ items: AccessRecordItem[]; total: number; period: { from: string; to: string } }> {
  const res = await client.get(record(query));
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const leadEvents = (rows: Array<Partial<Insertable<LeadEventsTable>> & Pick<Insertable<LeadEventsTable>, 'lead_id' | 'action' | 'at'>>) =>
  t.app.db.insertInto('lead_events').values(rows.map((r) => ({ shop_id: t.shopId, account_id: null, before: null, after: null, ip: '10.0.0.1', ...r }))).execute();
const accessEvents = (rows: Array<Partial<Insertable<AccessEventsTable>> & Pick<Insertable<AccessEventsTable>, 'action' | 'at'>>) =>
  t.app.db.insertInto('access_events').values(rows.map((r) => ({ shop_id: t.shopId, account_id: null, row_count: null, detail: null, ip: '10.0.0.1', ...r }))).execute();

describe('the access record', () => {
  it('shows every kind of access with who, when, where from, which lead (masked, 파기됨 once purged) and what', async () => {
    const id = await lead({ name: '홍길동', phone: '010-1234-5678' });
    const base = `/api/shops/${t.shopId}/leads/${id}`;
    t.clock.advanceMinutes(1);
    expect((await t.admin.get(base)).statusCode).toBe(200);
    t.clock.advanceMinutes(1);
    expect((await t.admin.post(`${base}/unmask`)).statusCode).toBe(200);
    t.clock.advanceMinutes(1);
    expect((await t.admin.request('PATCH', base, { csStatus: '부재' })).statusCode).toBe(200);
    t.clock.advanceMinutes(1);
    expect((await t.admin.request('PATCH', base, { memo: '주민번호 900101-1234567 받음' })).statusCode).toBe(200);
    await shopAccount(t, 'csa1', 'counselor');
    t.clock.advanceMinutes(1);
    const moved = await t.admin.post(`/api/shops/${t.shopId}/allocation/reassign`, { leadIds: [id], to: await accountId('csa1'), reason: '지역 담당' });
    expect(moved.statusCode, moved.body).toBe(200);
    t.clock.advanceMinutes(1);
    await access('admin', { action: 'export', rowCount: 12, detail: { reason: '월말 정산', format: 'csv', encrypted: false, filter: { from: '2026-11-01' } } });
    t.clock.advanceMinutes(1);
    expect((await t.admin.get('/api/global-search?q=5678')).statusCode).toBe(200);

    // Another lead deleted, restored, deleted again and purged (the deletion screens write these).
    t.clock.advanceMinutes(1);
    const gone = await lead({ name: '김영희', phone: '010-9876-4321' });
    const admin = await accountId('admin');
    const later = (m: number) => new Date(t.clock.current.getTime() + m * 60_000).toISOString();
    await leadEvents([
      { lead_id: gone, action: 'delete', account_id: admin, after: JSON.stringify({ reason: '고객 요청' }), at: later(1) },
      { lead_id: gone, action: 'restore', account_id: admin, at: later(2) },
      { lead_id: gone, action: 'delete', account_id: admin, after: JSON.stringify({ reason: '중복 등록' }), at: later(3) },
      { lead_id: gone, action: 'purge', account_id: null, after: JSON.stringify({ trigger: 'grace' }), at: later(4) },
    ]);
    await t.app.db.updateTable('leads').set({ name: '', phone: '', phone_last4: null, deleted_at: later(3), purged_at: later(4) }).where('id', '=', gone).execute();

    const r = await list(t.admin);
    expect(r.period).toEqual({ from: '2026-11-01', to: '2026-11-21' });
    expect(r.items.map((i) => i.action)).toEqual(['purge', 'delete', 'restore', 'delete', 'created', 'search', 'export', 'assign', 'memo', 'status', 'unmask', 'view', 'created']);
    expect(r.total).toBe(13);
    const by = (action: string, leadId?: number) => r.items.find((i) => i.action === action && (leadId === undefined || i.leadId === leadId))!;
    expect(by('created', id)).toMatchObject({
      at: '2026-11-21T01:00:00.000Z', accountId: null, accountName: null, ip: '203.0.113.7', leadId: id, leadName: '홍*동', leadPhone: '010-****-5678',
      leadPurged: false, leadDeleted: false, rowCount: null, summary: '랜딩 접수',
    });
    expect(by('view')).toMatchObject({ accountId: admin, accountName: '최고관리자', accountLoginId: 'admin', ip: '127.0.0.1', leadId: id, leadName: '홍*동', summary: '' });
    expect(by('unmask')).toMatchObject({ at: '2026-11-21T01:02:00.000Z', leadPhone: '010-****-5678' });
    expect(by('status').summary).toBe('미처리 → 부재');
    expect(by('memo').summary).toBe('메모 수정');
    expect(by('assign').summary).toBe('미배분 → csa1 · 재배분 · 사유: 지역 담당');
    expect(by('export')).toMatchObject({ leadId: null, leadName: null, rowCount: 12, ip: '10.0.0.9', accountLoginId: 'admin', summary: '12건 · CSV · 사유: 월말 정산' });
    expect(by('search')).toMatchObject({ rowCount: 1, summary: '검색어 ****5678 · 1건' });
    for (const action of ['delete', 'restore', 'purge', 'created']) {
      expect(by(action, gone)).toMatchObject({ leadId: gone, leadName: null, leadPhone: null, leadPurged: true, leadDeleted: true });
    }
    expect(by('delete', gone).summary).toBe('사유: 중복 등록');
    expect(by('purge', gone)).toMatchObject({ accountName: null, summary: '유예 기간 만료' });
    expect([ACCESS_ACTION_LABELS.delete, ACCESS_ACTION_LABELS.restore, ACCESS_ACTION_LABELS.purge]).toEqual(['삭제', '복원', '파기']);
    // Nothing personal in clear: not the name, the phone or the memo's text.
    expect(JSON.stringify(r)).not.toMatch(/홍길동|1234-5678|01012345678|900101/);
  });

  it('filters by period (Seoul days, default this month), account, actions and lead', async () => {
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    at('2026-10-31T14:59:00.000Z'); // 10-31 23:59 in Seoul: last month
    const old = await lead({ phone: '010-1111-0001' });
    at('2026-10-31T15:00:00.000Z'); // 11-01 00:00 in Seoul
    const a = await lead({ phone: '010-1111-0002' });
    at('2026-11-10T03:00:00.000Z');
    expect((await owner.get(`/api/shops/${t.shopId}/leads/${a}`)).statusCode).toBe(200);
    t.clock.advanceMinutes(1);
    expect((await t.admin.get(`/api/shops/${t.shopId}/leads/${old}`)).statusCode).toBe(200);
    t.clock.advanceMinutes(1);
    await access('owner1', { action: 'export', rowCount: 3, detail: { reason: '확인' } });
    at('2026-11-21T01:00:00.000Z');

    const keys = async (query: string) => (await list(t.admin, query)).items.map((i) => `${i.action}:${i.leadId ?? '-'}`);
    expect(await keys('')).toEqual(['export:-', `view:${old}`, `view:${a}`, `created:${a}`]);
    expect(await keys('from=2026-10-31&to=2026-10-31')).toEqual([`created:${old}`]);
    expect(await keys('from=2026-11-10&to=2026-11-10')).toEqual(['export:-', `view:${old}`, `view:${a}`]);
    expect(await keys(`accountId=${await accountId('owner1')}`)).toEqual(['export:-', `view:${a}`]);
    expect(await keys('action=view,export')).toEqual(['export:-', `view:${old}`, `view:${a}`]);
    expect(await keys('action=created&from=2026-10-01&to=2026-11-21')).toEqual([`created:${a}`, `created:${old}`]);
    expect(await keys(`leadId=${a}`)).toEqual([`view:${a}`, `created:${a}`]);
    expect((await list(t.admin, 'from=2026-11-10&to=2026-11-10')).period).toEqual({ from: '2026-11-10', to: '2026-11-10' });

    expect((await t.admin.get(record('action=nothing'))).statusCode).toBe(400);
    expect((await t.admin.get(record('from=2026-11-22&to=2026-11-21'))).json().error.fields.from).toBe('시작일이 종료일보다 늦습니다.');
    expect((await t.admin.get(record('from=2025-01-01&to=2026-11-21'))).json().error.fields.from).toBe('기간은 1년 이내로 정하세요.');
    expect((await t.admin.get(record('leadId=abc'))).statusCode).toBe(400);
  });

  it('pages in a stable order, newest first and ties in a fixed order, across both sources', async () => {
    const id = await lead();
    for (let i = 0; i < 12; i++) expect((await t.admin.get(`/api/shops/${t.shopId}/leads/${id}`)).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) await access('admin', { action: 'search', rowCount: i, detail: { term: '****0000' } });
    const all = await list(t.admin, 'pageSize=100');
    expect(all.total).toBe(22);
    const pages: string[] = [];
    for (let page = 1; page <= 5; page++) pages.push(...(await list(t.admin, `pageSize=5&page=${page}`)).items.map((i) => i.key));
    expect(pages).toEqual(all.items.map((i) => i.key));
    expect(new Set(pages).size).toBe(22);
    // One instant: a fixed order of both sources' ids (l<id> as 2·id, a<id> as 2·id + 1), highest first.
    const rank = (key: string) => Number(key.slice(1)) * 2 + (key.startsWith('a') ? 1 : 0);
    expect(pages).toEqual([...pages].sort((x, y) => rank(y) - rank(x)));
    const oldest = await list(t.admin, 'pageSize=100&sort=at');
    expect(oldest.items.map((i) => i.key)).toEqual(all.items.map((i) => i.key).reverse());
  });

  it('lists the accounts that may reach the shop for the account filter', async () => {
    await shopAccount(t, 'owner1', 'shop-owner');
    const other = await createShop(t.admin, 'other');
    const elsewhere = await createAccount(t.admin, 'owner2', '업체관리자');
    await t.admin.put(`/api/shop-permissions/${elsewhere}`, { shopIds: [other] });
    const res = (await t.admin.get(`/api/shops/${t.shopId}/access-record/accounts`)).json();
    expect(res.items.map((a: { loginId: string }) => a.loginId).sort()).toEqual(['admin', 'owner1']);
  });

  it('offers a shop owner only the agency logins that appear in the shop’s record', async () => {
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    await shopAccount(t, 'mkt1', 'marketer');
    await createAccount(t.admin, 'ops-kim', '관리자');
    await createAccount(t.admin, 'ops-lee', '관리자');
    const id = await lead();
    await leadEvents([{ lead_id: id, action: 'view', at: t.clock.now().toISOString(), account_id: await accountId('ops-kim') }]);
    await access('admin', { action: 'export', rowCount: 1 });
    const logins = async (c: Client) =>
      ((await c.get(`/api/shops/${t.shopId}/access-record/accounts`)).json().items as Array<{ loginId: string }>).map((a) => a.loginId).sort();
    // The agency's own staff see every login that may enter the shop.
    expect(await logins(t.admin)).toEqual(['admin', 'mkt1', 'ops-kim', 'ops-lee', 'owner1']);
    // The client: those permitted its shop, and the agency's logins that touched its data — not ops-lee.
    expect(await logins(owner)).toEqual(['admin', 'mkt1', 'ops-kim', 'owner1']);
  });
});

describe('exporting the record', () => {
  it('writes the filtered record as CSV with a BOM, Seoul times and masked leads, and records the export', async () => {
    const id = await lead({ name: '홍길동', phone: '010-1234-5678' });
    t.clock.advanceMinutes(1);
    await t.admin.post(`/api/shops/${t.shopId}/leads/${id}/unmask`);
    await access('admin', { action: 'export', rowCount: 3, detail: { reason: '=cmd|"/c calc"!A1', format: 'xlsx', encrypted: true } });

    const res = await t.admin.get(`/api/shops/${t.shopId}/access-record/export?from=2026-11-21&to=2026-11-21`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('개인정보_접근기록_2026-11-21_2026-11-21.csv')}`);
    expect(res.headers['x-row-count']).toBe('3');
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines).toEqual([
      '\uFEFF일시,계정,아이디,IP,작업,DB 번호,이름,연락처,내용,건수',
      `2026-11-21 10:01:00,최고관리자,admin,127.0.0.1,전화번호 보기,${id},홍*동,010-****-5678,,`,
      `2026-11-21 10:01:00,최고관리자,admin,10.0.0.9,내보내기,,,,"3건 · XLSX (암호) · 사유: =cmd|""/c calc""!A1",3`,
      `2026-11-21 10:00:00,방문자,,203.0.113.7,접수,${id},홍*동,010-****-5678,랜딩 접수,`,
    ]);

    const recorded = await t.app.db.selectFrom('access_events').selectAll().where('action', '=', 'history-export').execute();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ shop_id: t.shopId, account_id: await accountId('admin'), row_count: 3, ip: '127.0.0.1' });
    expect(JSON.parse(recorded[0]!.detail!)).toEqual({ filter: { from: '2026-11-21', to: '2026-11-21' } });

    // The export is in the record now, and in the next export.
    const after = await list(t.admin);
    expect(after.items[0]).toMatchObject({ action: 'history-export', rowCount: 3, summary: '3건 · 2026-11-21 ~ 2026-11-21' });
    const filtered = await t.admin.get(`/api/shops/${t.shopId}/access-record/export?action=unmask,history-export&leadId=${id}`);
    expect(filtered.headers['x-row-count']).toBe('1');
    const last = await t.app.db.selectFrom('access_events').select('detail').where('action', '=', 'history-export').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(last.detail!)).toEqual({ filter: { from: '2026-11-01', to: '2026-11-21', action: ['unmask', 'history-export'], leadId: id } });
  });
});

describe('the monthly review', () => {
  /** October in Seoul: 10:00 on a day (01:00 UTC) plus `s` seconds. */
  const day = (d: number, s = 0) => new Date(Date.parse(`2026-10-${String(d).padStart(2, '0')}T01:00:00.000Z`) + s * 1000).toISOString();

  it('flags busy days, night access and big exports of last month, and marks the month reviewed once', async () => {
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    const [admin, ownerId] = [await accountId('admin'), await accountId('owner1')];
    const id = await lead();
    const other = await createShop(t.admin, 'other');
    const T = REVIEW_THRESHOLDS;
    const times = (n: number, d: number) => Array.from({ length: n }, (_, i) => day(d, i));
    await leadEvents([
      ...times(T.unmaskPerDay + 1, 5).map((a) => ({ lead_id: id, action: 'unmask', account_id: ownerId, at: a })),
      ...times(T.unmaskPerDay, 6).map((a) => ({ lead_id: id, action: 'unmask', account_id: ownerId, at: a })),
      ...times(T.viewPerDay + 1, 7).map((a) => ({ lead_id: id, action: 'view', account_id: admin, at: a })),
      // Seoul night: 23:00 on the 10th and 05:59 on the 11th are; 21:59 and 06:00 are not.
      { lead_id: id, action: 'view', account_id: admin, at: '2026-10-10T14:00:00.000Z' },
      { lead_id: id, action: 'status', account_id: admin, at: '2026-10-10T20:59:00.000Z' },
      { lead_id: id, action: 'view', account_id: admin, at: '2026-10-10T12:59:00.000Z' },
      { lead_id: id, action: 'view', account_id: admin, at: '2026-10-10T21:00:00.000Z' },
      // A visitor's lead at night is nobody's access; another shop's and this month's are not this review's.
      { lead_id: id, action: 'created', account_id: null, at: '2026-10-12T15:00:00.000Z' },
      { lead_id: id, action: 'view', account_id: admin, shop_id: other, at: '2026-10-12T15:00:00.000Z' },
      ...times(T.unmaskPerDay + 5, 1).map((a) => ({ lead_id: id, action: 'unmask', account_id: ownerId, at: a.replace('2026-10-01', '2026-11-02') })),
    ]);
    await accessEvents([
      ...times(T.exportPerDay + 1, 8).map((a, i) => ({ action: 'export', account_id: ownerId, row_count: i === 0 ? T.exportRows + 500 : 10, at: a })),
      { action: 'export', account_id: ownerId, row_count: T.exportRows, at: day(9) },
      { action: 'search', account_id: ownerId, row_count: 1, at: '2026-10-12T16:00:00.000Z' },
    ]);

    const res = await t.admin.get(`/api/shops/${t.shopId}/access-record/review`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ month: '2026-10', over: true, review: null });
    expect(report.flags.map((f: { kind: string; accountLoginId: string; day: string; count: number }) => `${f.day} ${f.kind} ${f.accountLoginId} ${f.count}`)).toEqual([
      `2026-10-05 unmask owner1 ${T.unmaskPerDay + 1}`,
      `2026-10-07 view admin ${T.viewPerDay + 1}`,
      `2026-10-08 export owner1 ${T.exportPerDay + 1}`,
      `2026-10-08 big-export owner1 ${T.exportRows + 500}`,
      '2026-10-10 night admin 1',
      '2026-10-11 night admin 1',
      '2026-10-13 night owner1 1',
    ]);
    expect(report.flags.find((f: { kind: string }) => f.kind === 'big-export')).toMatchObject({ at: day(8), accountName: 'owner1', accountId: ownerId });
    expect((await t.admin.get(`/api/shops/${t.shopId}/access-record/review?month=2026-11`)).json()).toMatchObject({ month: '2026-11', over: false });
    expect((await t.admin.get(`/api/shops/${t.shopId}/access-record/review?month=2026-13`)).statusCode).toBe(400);

    // Marking: a writer only, a finished month only, once.
    expect((await marketer.post(`/api/shops/${t.shopId}/access-record/review`, { month: '2026-10' })).statusCode).toBe(403);
    expect((await owner.post(`/api/shops/${t.shopId}/access-record/review`, { month: '2026-10' })).statusCode).toBe(403);
    expect((await t.admin.post(`/api/shops/${t.shopId}/access-record/review`, {})).json().error.fields.month).toBe('점검할 달을 고르세요.');
    const early = await t.admin.post(`/api/shops/${t.shopId}/access-record/review`, { month: '2026-11' });
    expect(early.statusCode).toBe(400);
    expect(early.json().error.fields.month).toBe('끝나지 않은 달은 점검을 마칠 수 없습니다.');

    t.clock.advanceMinutes(5);
    const marked = await t.admin.post(`/api/shops/${t.shopId}/access-record/review`, { month: '2026-10', note: '야간 접근은 당직 확인' });
    expect(marked.statusCode, marked.body).toBe(201);
    expect(marked.json()).toEqual({ month: '2026-10', reviewedAt: '2026-11-21T01:05:00.000Z', reviewerName: '최고관리자', reviewerLoginId: 'admin', note: '야간 접근은 당직 확인' });
    const again = await t.admin.post(`/api/shops/${t.shopId}/access-record/review`, { month: '2026-10' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'CONFLICT', message: '2026년 10월은 이미 점검을 마쳤습니다.' });
    expect((await t.admin.get(`/api/shops/${t.shopId}/access-record/review?month=2026-10`)).json().review).toMatchObject({ reviewerLoginId: 'admin' });

    const reviews = await t.app.db.selectFrom('access_events').select(['shop_id', 'account_id', 'row_count', 'detail']).where('action', '=', 'review').execute();
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({ shop_id: t.shopId, account_id: admin, row_count: 7 });
    expect(JSON.parse(reviews[0]!.detail!)).toEqual({ month: '2026-10', flags: { unmask: 1, view: 1, export: 1, 'big-export': 1, night: 3 }, note: '야간 접근은 당직 확인' });
    expect((await list(t.admin)).items[0]).toMatchObject({ action: 'review', summary: '2026-10 점검 완료 · 확인 대상 7건 · 메모: 야간 접근은 당직 확인' });
  });
});

describe('who may read the record', () => {
  it('refuses counselors, accounts of other shops, and writes to readers', async () => {
    const counselor = await shopAccount(t, 'csa1', 'counselor');
    expect((await counselor.get(record())).statusCode).toBe(403);
    expect((await counselor.get(`/api/shops/${t.shopId}/access-record/export`)).statusCode).toBe(403);
    const other = await createShop(t.admin, 'other');
    const elsewhere = await createAccount(t.admin, 'owner2', '업체관리자');
    await t.admin.put(`/api/shop-permissions/${elsewhere}`, { shopIds: [other] });
    const stranger = await t.login('owner2', TEST_PASSWORD);
    expect((await stranger.get(record())).statusCode).toBe(403);
    expect((await stranger.get(`/api/shops/${other}/access-record`)).statusCode).toBe(200);
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    expect((await marketer.get(record())).statusCode).toBe(200);
  });

  it('keeps the record: no route deletes a lead event or an access event', async () => {
    const routes: RouteOptions[] = [];
    const app = await testApp({}, { onRoute: (r) => routes.push(r) });
    try {
      const deletes = routes.filter((r) => (Array.isArray(r.method) ? r.method : [r.method]).includes('DELETE')).map((r) => r.url);
      expect(deletes.length).toBeGreaterThan(0);
      expect(deletes.filter((u) => /access-record|access-events|lead-events|history|\/events/.test(u))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
