import { describe, expect, it } from 'vitest';
import { countRows, leadBody, shopAccount, submit, type LandingTestApp, eachLandingTest } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';

let t: LandingTestApp;
let landingId: number;
eachLandingTest((app, landing) => ([t, landingId] = [app, landing]));

const base = () => `/api/shops/${t.shopId}/leads`;

/** Submits a lead through the public form and answers its id. */
async function lead(extra: Record<string, unknown> = {}, ip = '203.0.113.7'): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, extra), { ip });
  expect(res.statusCode, res.body).toBe(201);
  const row = await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  return row.id;
}

const assign = (ids: number[], accountId: number | null) => t.app.db.updateTable('leads').set({ assignee_id: accountId }).where('id', 'in', ids).execute();
const accountId = async (loginId: string) => (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow()).id;
const events = (leadId: number) => t.app.db.selectFrom('lead_events').select(['action', 'account_id', 'before', 'after']).where('lead_id', '=', leadId).orderBy('id').execute();
const patch = (c: Client, id: number, body: unknown) => c.request('PATCH', `${base()}/${id}`, body);

describe('the lead list', () => {
  it('lists today’s leads with masked phones, and filters by status, digits, name, counselor and duplicates', async () => {
    const a = await lead({ name: '홍길동', phone: '010-1234-5678' });
    const b = await lead({ name: '김영희', phone: '010-9876-4321' });
    const dup = await lead({ name: '홍길동', phone: '01012345678' });
    await assign([b], await accountId('admin'));

    const all = (await t.admin.get(base())).json();
    expect(all.total).toBe(3);
    expect(all.period).toEqual({ from: '2026-11-21', to: '2026-11-21' });
    expect(all.items.map((i: { id: number }) => i.id)).toEqual([dup, b, a]);
    expect(all.items[2]).toMatchObject({ phone: '010-****-5678', csStatus: '미처리', landingTitle: '임플란트 상담 이벤트', overdue: false });
    expect(JSON.stringify(all)).not.toContain('1234-5678');
    expect(all.items[0]).toMatchObject({ csStatus: '중복', duplicateOf: a });

    const ids = async (query: string) => ((await t.admin.get(`${base()}?${query}`)).json().items as Array<{ id: number }>).map((i) => i.id).sort();
    expect(await ids('q=5678')).toEqual([a, dup].sort());
    expect(await ids('q=010-9876')).toEqual([b]);
    expect(await ids('q=2345678')).toEqual([a, dup].sort());
    expect(await ids('q=영희')).toEqual([b]);
    expect(await ids(`status=${encodeURIComponent('미처리,중복')}`)).toEqual([a, b, dup].sort());
    expect(await ids(`status=${encodeURIComponent('중복')}`)).toEqual([dup]);
    expect(await ids('assignee=none')).toEqual([a, dup].sort());
    expect(await ids('duplicate=duplicate')).toEqual([dup]);
    expect(await ids('duplicate=unique')).toEqual([a, b].sort());
    expect(await ids('from=2026-11-20&to=2026-11-20')).toEqual([]);
    expect((await t.admin.get(`${base()}?status=${encodeURIComponent('없는상태')}`)).statusCode).toBe(400);
    expect((await t.admin.get(`${base()}?from=2026-11-22&to=2026-11-21`)).json().error.fields.from).toBe('시작일이 종료일보다 늦습니다.');
  });

  it('marks 미처리 overdue past the shop’s threshold, and the threshold is the shop’s setting', async () => {
    const id = await lead();
    expect((await t.admin.put(`/api/shops/${t.shopId}/lead-settings`, { overdueMinutes: 2 })).json().error.fields.overdueMinutes).toBe('5분 이상으로 정하세요.');
    expect((await t.admin.put(`/api/shops/${t.shopId}/lead-settings`, { overdueMinutes: 5 })).json()).toMatchObject({ overdueMinutes: 5, autoMode: 'off' });
    t.clock.advanceMinutes(6);
    const list = (await t.admin.get(base())).json();
    expect(list.overdueMinutes).toBe(5);
    expect(list.items.find((i: { id: number }) => i.id === id).overdue).toBe(true);
    await patch(t.admin, id, { csStatus: '부재' });
    expect((await t.admin.get(base())).json().items[0].overdue).toBe(false);
  });
});

describe('one lead', () => {
  it('shows the answers with their labels, consent, UTM and the duplicate chain; the view is in its access record', async () => {
    const first = await lead({ utm_source: 'meta', utm_campaign: 'nov', time: '오후' });
    const second = await lead();
    const d = (await t.admin.get(`${base()}/${first}`)).json();
    expect(d).toMatchObject({
      id: first, phone: '010-****-5678', utmSource: 'meta', utmCampaign: 'nov', privacyConsent: true, policyVersion: 1,
      duplicates: [expect.objectContaining({ id: second })],
    });
    expect(d.answers).toEqual(expect.arrayContaining([{ label: '지역', value: '서울' }, { label: '통화 가능 시간', value: '오후' }]));
    expect(d.history.map((e: { action: string }) => e.action)).toEqual(['view', 'created']);
    expect((await t.admin.get(`${base()}/${second}`)).json().duplicateOfLead).toMatchObject({ id: first });
    expect((await events(first)).map((e) => e.action)).toEqual(['created', 'view']);
    expect((await t.admin.get(`${base()}/999999`)).statusCode).toBe(404);
  });

  it('records one view per opening: open → reveal → status → memo, with the drawer refetching after each, is 1 view, 1 reveal and the changes', async () => {
    const id = await lead();
    const open = (await t.admin.get(`${base()}/${id}`)).json();
    expect(open.openingId).toEqual(expect.any(Number));
    const refetch = async () => {
      const again = await t.admin.get(`${base()}/${id}?opening=${open.openingId}`);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().openingId).toBe(open.openingId);
    };
    await refetch();
    expect((await t.admin.post(`${base()}/${id}/unmask`)).statusCode).toBe(200);
    await refetch();
    expect((await patch(t.admin, id, { csStatus: '부재' })).statusCode).toBe(200);
    await refetch();
    expect((await patch(t.admin, id, { memo: '오후에 다시 전화' })).statusCode).toBe(200);
    await refetch();
    expect((await events(id)).map((e) => e.action)).toEqual(['created', 'view', 'unmask', 'status', 'memo']);

    // What a client cannot do: hide a view behind another account's opening, another lead's, or an old one.
    const other = await lead({ phone: '010-9999-0001' });
    const marketer = await shopAccount(t, 'mkt-open', 'marketer');
    expect((await marketer.get(`${base()}/${id}?opening=${open.openingId}`)).json().openingId).not.toBe(open.openingId);
    expect((await t.admin.get(`${base()}/${other}?opening=${open.openingId}`)).json().openingId).not.toBe(open.openingId);
    t.clock.advanceMinutes(31);
    const later = (await t.admin.get(`${base()}/${id}?opening=${open.openingId}`)).json();
    expect(later.openingId).not.toBe(open.openingId);
    // Opening it again (no opening named) is a view of its own.
    await t.admin.get(`${base()}/${id}`);
    expect((await events(id)).filter((e) => e.action === 'view')).toHaveLength(4);
    expect((await events(other)).filter((e) => e.action === 'view')).toHaveLength(1);
  });

  it('reveals the phone only to a type with the unmask right, and records each reveal', async () => {
    const id = await lead();
    const shown = await t.admin.post(`${base()}/${id}/unmask`);
    expect(shown.json()).toEqual({ phone: '010-1234-5678' });
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    expect((await marketer.post(`${base()}/${id}/unmask`)).statusCode).toBe(403);
    expect((await events(id)).filter((e) => e.action === 'unmask')).toEqual([expect.objectContaining({ account_id: await accountId('admin') })]);
  });

  it('needs an appointment time for 상담예약 and a reason for 무효; the first change away from 미처리 is the first contact', async () => {
    const id = await lead();
    const noTime = await patch(t.admin, id, { csStatus: '상담예약' });
    expect(noTime.statusCode).toBe(400);
    expect(noTime.json().error.fields.reservedAt).toBe('상담예약은 예약 시간을 입력하세요.');
    expect((await patch(t.admin, id, { csStatus: '무효' })).json().error.fields.reason).toBe('무효 사유를 입력하세요.');
    expect((await patch(t.admin, id, { csStatus: '중복' })).statusCode).toBe(400);

    t.clock.advanceMinutes(3);
    // Sent in Seoul time, kept in UTC (times are compared as text: the calendar's day ranges).
    const reserved = await patch(t.admin, id, { csStatus: '상담예약', reservedAt: '2026-11-22T14:00:00+09:00', memo: '오후 2시 통화 원함' });
    expect(reserved.statusCode, reserved.body).toBe(200);
    expect(reserved.json()).toMatchObject({ csStatus: '상담예약', reservedAt: '2026-11-22T05:00:00.000Z', memo: '오후 2시 통화 원함', firstContactAt: '2026-11-21T01:03:00.000Z' });

    t.clock.advanceMinutes(2);
    const invalid = (await patch(t.admin, id, { csStatus: '무효', reason: '장난 신청' })).json();
    expect(invalid).toMatchObject({ csStatus: '무효', validity: 'invalid', invalidReason: '장난 신청', firstContactAt: '2026-11-21T01:03:00.000Z' });
    const back = (await patch(t.admin, id, { csStatus: '통화완료' })).json();
    expect(back).toMatchObject({ validity: 'valid', invalidReason: null });

    const trail = (await events(id)).filter((e) => e.action !== 'created');
    expect(trail.map((e) => e.action)).toEqual(['status', 'memo', 'status', 'status']);
    expect(JSON.parse(trail[0]!.before!)).toEqual({ csStatus: '미처리' });
    expect(JSON.parse(trail[0]!.after!)).toEqual({ csStatus: '상담예약', reservedAt: '2026-11-22T05:00:00.000Z' });
    expect(JSON.parse(trail[2]!.after!)).toEqual({ csStatus: '무효', reason: '장난 신청' });
  });

  it('refuses an appointment in the past (by the server’s clock, this minute still allowed), alone or for chosen leads', async () => {
    const id = await lead();
    // The clock: 10:00 on 21 November in Seoul.
    const PAST = '지난 시각으로는 상담 예약을 잡을 수 없습니다. 지금 이후의 시각을 고르세요.';
    for (const body of [
      { csStatus: '상담예약', reservedAt: '2026-11-20T15:00:00+09:00' },
      { csStatus: '상담예약', reservedAt: '2026-11-21T09:59:00+09:00' },
      { reservedAt: '2026-11-20T15:00:00+09:00' },
    ]) {
      const res = await patch(t.admin, id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatchObject({ message: PAST, fields: { reservedAt: PAST } });
    }
    const bulk = await t.admin.post(`${base()}/bulk-status`, { ids: [id], csStatus: '상담예약', reservedAt: '2026-11-21T01:00:00+09:00' });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json().error.fields.reservedAt).toBe(PAST);
    // Nothing changed, nothing recorded.
    expect((await events(id)).map((e) => e.action)).toEqual(['created']);

    // This minute is still now (10:00:40 → 10:00 is fine), and so is any later time.
    t.clock.current = new Date('2026-11-21T01:00:40.000Z');
    expect((await patch(t.admin, id, { csStatus: '상담예약', reservedAt: '2026-11-21T10:00:00+09:00' })).statusCode).toBe(200);
    expect((await patch(t.admin, id, { reservedAt: '2026-11-21T10:30:00+09:00' })).statusCode).toBe(200);

    // An appointment that has since passed does not block other edits of the lead (a memo, another status).
    t.clock.current = new Date('2026-11-21T01:45:00.000Z');
    expect((await patch(t.admin, id, { memo: '통화함' })).statusCode).toBe(200);
    expect((await patch(t.admin, id, { csStatus: '통화완료' })).statusCode).toBe(200);
    // Booking it again on the old time is a new appointment in the past.
    expect((await patch(t.admin, id, { csStatus: '상담예약', reservedAt: '2026-11-21T10:30:00+09:00' })).json().error?.fields?.reservedAt).toBe(PAST);
    // Taking an appointment away is always possible.
    expect((await patch(t.admin, id, { reservedAt: null })).statusCode).toBe(200);
  });

  it('changes the status of chosen leads at once, in one transaction with a record for each', async () => {
    const ids = [await lead({ phone: '010-1111-0001' }), await lead({ phone: '010-1111-0002' }), await lead({ phone: '010-1111-0003' })];
    const res = await t.admin.post(`${base()}/bulk-status`, { ids: [...ids, 999999], csStatus: '부재' });
    expect(res.json()).toEqual({ updated: 3 });
    const list = (await t.admin.get(base())).json();
    expect(list.items.map((i: { csStatus: string }) => i.csStatus)).toEqual(['부재', '부재', '부재']);
    for (const id of ids) expect((await events(id)).map((e) => e.action)).toEqual(['created', 'status']);
    expect((await t.admin.post(`${base()}/bulk-status`, { ids: [], csStatus: '부재' })).json().error.fields.ids).toBe('바꿀 DB를 선택하세요.');
  });
});

describe('a counselor', () => {
  it('sees and changes only the leads assigned to them, in the list, the detail, updates, bulk changes and unmasking', async () => {
    const counselor = await shopAccount(t, 'csa1', 'counselor');
    await shopAccount(t, 'csb2', 'counselor');
    const mine = await lead({ phone: '010-2222-0001' });
    const theirs = await lead({ phone: '010-2222-0002' });
    const nobody = await lead({ phone: '010-2222-0003' });
    await assign([mine], await accountId('csa1'));
    await assign([theirs], await accountId('csb2'));

    expect((await counselor.get(base())).json().items.map((i: { id: number }) => i.id)).toEqual([mine]);
    expect((await counselor.get(`${base()}?assignee=none`)).json().total).toBe(0);
    expect((await counselor.get(`${base()}/${theirs}`)).statusCode).toBe(404);
    expect((await counselor.get(`${base()}/${nobody}`)).statusCode).toBe(404);
    expect((await patch(counselor, theirs, { csStatus: '부재' })).statusCode).toBe(404);
    expect((await counselor.post(`${base()}/${theirs}/unmask`)).statusCode).toBe(404);
    expect((await counselor.post(`${base()}/bulk-status`, { ids: [mine, theirs, nobody], csStatus: '부재' })).json()).toEqual({ updated: 1 });
    expect((await counselor.post(`${base()}/bulk-status`, { ids: [theirs], csStatus: '부재' })).statusCode).toBe(404);
    expect((await counselor.post(`${base()}/${mine}/unmask`)).json()).toEqual({ phone: '010-2222-0001' });

    const states = await t.app.db.selectFrom('leads').select(['id', 'cs_status']).orderBy('id').execute();
    expect(states.map((s) => s.cs_status)).toEqual(['부재', '미처리', '미처리']);
    expect((await counselor.get(`/api/shops/${t.shopId}/counselors`)).json().items.map((c: { loginId: string }) => c.loginId)).toEqual(['csa1', 'csb2']);
    expect(await countRows(t, 'leads')).toBe(3);
  });

  it('sees another counselor’s lead neither as the original nor as a duplicate of their own', async () => {
    const counselor = await shopAccount(t, 'csa1', 'counselor');
    await shopAccount(t, 'csb2', 'counselor');
    const theirs = await lead({ name: '박원본', phone: '010-2222-0009' });
    const mine = await lead({ name: '박중복', phone: '010-2222-0009' });
    const later = await lead({ name: '박재중복', phone: '010-2222-0009' });
    await assign([theirs, later], await accountId('csb2'));
    await assign([mine], await accountId('csa1'));
    await t.app.db.updateTable('leads').set({ duplicate_of: mine }).where('id', '=', later).execute();

    const detail = (await counselor.get(`${base()}/${mine}`)).json();
    expect(detail.duplicateOf).toBe(theirs);
    expect(detail.duplicateOfLead).toBeNull();
    expect(detail.duplicates).toEqual([]);
    // The shop's own staff see the whole chain.
    const full = (await t.admin.get(`${base()}/${mine}`)).json();
    expect(full.duplicateOfLead).toMatchObject({ id: theirs, name: '박원본' });
    expect(full.duplicates).toEqual([expect.objectContaining({ id: later, name: '박재중복' })]);
  });

  it('cannot change the shop-wide overdue threshold, which marks every counselor’s leads', async () => {
    const counselor = await shopAccount(t, 'csa1', 'counselor');
    const res = await counselor.put(`/api/shops/${t.shopId}/lead-settings`, { overdueMinutes: 5 });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('배정된 DB만 보는 계정은 업체 전체의 DB 설정을 바꿀 수 없습니다.');
    expect((await counselor.get(`/api/shops/${t.shopId}/lead-settings`)).json().overdueMinutes).not.toBe(5);
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.put(`/api/shops/${t.shopId}/lead-settings`, { overdueMinutes: 5 })).json().overdueMinutes).toBe(5);
  });

  it('cannot reach another shop’s leads, nor change anything with read access only', async () => {
    const id = await lead();
    const other = await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' });
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.get(`/api/shops/${other.json().id}/leads`)).statusCode).toBe(403);
    expect((await owner.get(`/api/shops/${other.json().id}/leads/${id}`)).statusCode).toBe(403);
    expect((await t.admin.get(`/api/shops/${other.json().id}/leads/${id}`)).statusCode).toBe(404);
    const marketerType = await t.app.db.selectFrom('account_types').select(['id', 'permissions']).where('builtin_key', '=', 'marketer').executeTakeFirstOrThrow();
    await t.app.db.updateTable('account_types').set({ permissions: JSON.stringify({ ...JSON.parse(marketerType.permissions), 'database-status': 'read' }) }).where('id', '=', marketerType.id).execute();
    const reader = await shopAccount(t, 'reader', 'marketer');
    expect((await reader.get(base())).statusCode).toBe(200);
    expect((await patch(reader, id, { memo: 'x' })).statusCode).toBe(403);
  });
});
