import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eachLandingTest, leadBody, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';
import { describeLeadEvent } from '../access-record/access-record.service.ts';
import { deliveryWorker } from '../../worker/delivery.ts';
import { formatJobIds, parseJobIds } from '../../../contracts/delivery-history.ts';

let t: LandingTestApp;
let landingId: number;
eachLandingTest((app, landing) => ([t, landingId] = [app, landing]));

const shop = () => `/api/shops/${t.shopId}`;
const send = (c: Client, body: Record<string, unknown>) => c.post(`${shop()}/deliveries`, body);
const NOW = '2026-11-21T01:00:00.000Z';

/** Submits a lead through the public form and answers its id. */
async function lead(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, extra));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}

/** A channel row as the settings screen would store it. */
async function channel(name: string, o: { kind?: 'webhook' | 'email' | 'sms'; enabled?: boolean; disabledReason?: string; shopId?: number; url?: string } = {}): Promise<number> {
  const row = await t.app.db
    .insertInto('delivery_channels')
    .values({
      shop_id: o.shopId ?? t.shopId, name, kind: o.kind ?? 'webhook', enabled: o.enabled === false ? 0 : 1, mode: 'instant',
      config: JSON.stringify({ url: o.url ?? 'http://127.0.0.1:9/hook', timeoutMs: 2000 }), secret: 'whsec_test', disabled_reason: o.disabledReason ?? null,
      disabled_at: o.disabledReason ? NOW : null, created_at: NOW, updated_at: NOW,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const accountId = async (loginId: string) => (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow()).id;
const jobs = () => t.app.db.selectFrom('delivery_jobs').selectAll().orderBy('id').execute();
const audits = (action: string) => t.app.db.selectFrom('audit_events').selectAll().where('action', '=', action).orderBy('id').execute();

/** Three live leads (the third a duplicate of the first) and a deleted one. */
async function story() {
  const hong = await lead({ name: '홍길동', phone: '010-1234-5678' });
  const kim = await lead({ name: '김영희', phone: '010-9876-4321' });
  const again = await lead({ name: '홍길동', phone: '010-1234-5678' });
  const gone = await lead({ name: '삭제될분', phone: '010-5555-0001' });
  const del = await t.admin.post(`${shop()}/leads/delete`, { ids: [gone], reason: '고객 요청' });
  expect(del.statusCode, del.body).toBe(200);
  return { hong, kim, again, gone };
}

/** An attempt as the worker records it (and the job's state after it). */
async function attempt(jobId: number, a: { attempt: number; status: 'succeeded' | 'failed'; at: string; code?: number | null; error?: string | null; ms?: number }) {
  const job = await t.app.db.selectFrom('delivery_jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
  await t.app.db.insertInto('delivery_attempts').values({
    job_id: jobId, shop_id: job.shop_id, channel_id: job.channel_id, lead_id: job.lead_id, attempt: a.attempt, status: a.status,
    response_code: a.code ?? null, error: a.error ?? null, response_excerpt: null, duration_ms: a.ms ?? 100, worker: 'test', at: a.at,
  }).execute();
}

const setJob = (id: number, set: { status: 'pending' | 'sending' | 'succeeded' | 'failed' | 'cancelled'; attempts: number; last_error?: string | null; response_code?: number | null }) =>
  t.app.db.updateTable('delivery_jobs').set({ ...set, updated_at: NOW }).where('id', '=', id).execute();

describe('job ids in a URL', () => {
  it('are written as ranges and read back, refusing nonsense and too many', () => {
    expect(formatJobIds([9, 3, 4, 5, 4, 11, 12])).toBe('3-5,9,11-12');
    expect(parseJobIds('3-5,9,11-12')).toEqual([3, 4, 5, 9, 11, 12]);
    expect(parseJobIds('7')).toEqual([7]);
    expect(parseJobIds('5-3')).toBeNull();
    expect(parseJobIds('0')).toBeNull();
    expect(parseJobIds('a')).toBeNull();
    expect(parseJobIds('1-999999999')).toBeNull();
    expect(parseJobIds('1-5000')).toHaveLength(5000);
  });
});

describe('DB 전송 (manual send)', () => {
  it('queues the chosen leads, leaving out deleted ones and duplicates unless asked, and audits the send', async () => {
    const { hong, kim, again, gone } = await story();
    const crm = await channel('고객사 CRM');
    const admin = await accountId('admin');
    t.clock.advanceMinutes(5);
    const res = await send(t.admin, { channelId: crm, leadIds: [hong, kim, again, gone], reason: '고객사 CRM 장애 후 재전송' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ queued: 2, skipped: { deleted: 1, duplicates: 1 } });
    const rows = await jobs();
    expect(body.jobIds).toEqual(rows.map((j) => j.id));
    expect(rows.map((j) => ({ lead: j.lead_id, channel: j.channel_id, status: j.status, trigger: j.trigger, reason: j.reason, by: j.created_by, due: j.next_attempt_at, attempts: j.attempts })))
      .toEqual([hong, kim].map((lead) => ({
        lead, channel: crm, status: 'pending', trigger: 'manual', reason: '고객사 CRM 장애 후 재전송', by: admin, due: '2026-11-21T01:05:00.000Z', attempts: 0,
      })));

    const audited = await audits('delivery-send');
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ account_id: admin, target: 'delivery_channel', target_id: String(crm) });
    expect(JSON.parse(audited[0]!.detail!)).toEqual({
      channel: '고객사 CRM', kind: 'webhook', reason: '고객사 CRM 장애 후 재전송', queued: 2, skipped: { deleted: 1, duplicates: 1 },
      includeDuplicates: false, leadIds: 4,
    });

    // Duplicates when asked; a lead sent before is sent again (a resend is a new job).
    const withDup = await send(t.admin, { channelId: crm, leadIds: [hong, again], includeDuplicates: true, reason: '중복 포함 재전송' });
    expect(withDup.json()).toMatchObject({ queued: 2, skipped: { deleted: 0, duplicates: 0 } });
    expect((await jobs()).map((j) => j.lead_id)).toEqual([hong, kim, hong, again]);

    // Nothing left to send: said, with why.
    const none = await send(t.admin, { channelId: crm, leadIds: [gone, again], reason: '재전송' });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('보낼 DB가 없습니다. 삭제된 DB 1건, 중복 DB 1건은 보내지 않습니다.');
    expect(await jobs()).toHaveLength(4);
  });

  it('sends every lead the DB 현황 filter finds, and refuses more than 5,000 at once', async () => {
    const { hong, kim } = await story();
    const older = await lead({ name: '어제고객', phone: '010-2222-0002' });
    await t.app.db.updateTable('leads').set({ created_at: '2026-11-20T01:00:00.000Z' }).where('id', '=', older).execute();
    await t.app.db.updateTable('leads').set({ cs_status: '부재' }).where('id', '=', kim).execute();
    const crm = await channel('CRM');

    const today = await send(t.admin, { channelId: crm, filter: { from: '2026-11-21', to: '2026-11-21' }, reason: '오늘 DB 전체 재전송' });
    expect(today.statusCode, today.body).toBe(201);
    expect(today.json()).toMatchObject({ queued: 2, skipped: { deleted: 0, duplicates: 1 } });
    expect((await jobs()).map((j) => j.lead_id)).toEqual([hong, kim]);

    const absent = await send(t.admin, { channelId: crm, filter: { from: '2026-11-20', to: '2026-11-21', status: '부재' }, reason: '부재 건 재전송' });
    expect(absent.json()).toMatchObject({ queued: 1 });
    const byName = await send(t.admin, { channelId: crm, filter: { from: '2026-11-20', to: '2026-11-21', q: '0002' }, reason: '검색 건' });
    expect(byName.json()).toMatchObject({ queued: 1 });
    expect((await jobs()).map((j) => j.lead_id)).toEqual([hong, kim, kim, older]);
    expect(JSON.parse((await audits('delivery-send'))[2]!.detail!).filter).toEqual({ from: '2026-11-20', to: '2026-11-21', q: '****0002' });

    // 5,001 leads on one day: too many for one send.
    const template = await t.app.db.selectFrom('leads').selectAll().where('id', '=', hong).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = template;
    const rows = Array.from({ length: 5001 }, (_, i) => ({ ...copy, created_at: '2026-11-19T01:00:00.000Z', phone: `0107${String(i).padStart(7, '0')}`, duplicate_of: null }));
    for (let i = 0; i < rows.length; i += 500) await t.app.db.insertInto('leads').values(rows.slice(i, i + 500)).execute();
    const tooMany = await send(t.admin, { channelId: crm, filter: { from: '2026-11-19', to: '2026-11-19' }, reason: '전체' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe('조건에 맞는 DB가 5,001건입니다. 한 번에 5,000건까지 보낼 수 있으니 기간이나 조건을 좁히세요.');
    expect(await jobs()).toHaveLength(4);
  });

  it('refuses a channel that is off, one of another shop, a missing reason, channel or target (Korean), writing nothing', async () => {
    const { hong } = await story();
    const off = await channel('꺼진 웹훅', { enabled: false, disabledReason: '수신 서버가 410 Gone으로 응답함' });
    const crm = await channel('CRM');
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id as number;
    const foreign = await channel('남의 채널', { shopId: other });

    const disabled = await send(t.admin, { channelId: off, leadIds: [hong], reason: '재전송' });
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().error.message).toBe("'꺼진 웹훅'은 사용 중지된 채널입니다 (수신 서버가 410 Gone으로 응답함). DB 전송 설정에서 다시 켠 뒤 보내세요.");
    expect(disabled.json().error.fields.channelId).toBe(disabled.json().error.message);
    expect((await send(t.admin, { channelId: foreign, leadIds: [hong], reason: '재전송' })).statusCode).toBe(404);
    expect((await send(t.admin, { channelId: 99999, leadIds: [hong], reason: '재전송' })).json().error.message).toBe('전송 채널을 찾을 수 없습니다.');

    const noReason = await send(t.admin, { channelId: crm, leadIds: [hong], reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBe('전송 사유를 입력하세요.');
    expect((await send(t.admin, { leadIds: [hong], reason: '재전송' })).json().error.fields.channelId).toBe('보낼 채널을 선택하세요.');
    expect((await send(t.admin, { channelId: crm, reason: '재전송' })).json().error.fields.leadIds).toBe('보낼 DB를 선택하세요.');
    expect((await send(t.admin, { channelId: crm, leadIds: Array.from({ length: 501 }, (_, i) => i + 1), reason: '재전송' })).json().error.fields.leadIds)
      .toBe('한 번에 500건까지 선택해 보낼 수 있습니다.');
    // Another shop's lead is not this shop's to send.
    const theirs = await t.app.db.selectFrom('leads').select('id').where('id', '=', hong).executeTakeFirstOrThrow();
    await t.app.db.updateTable('leads').set({ shop_id: other }).where('id', '=', theirs.id).execute();
    expect((await send(t.admin, { channelId: crm, leadIds: [hong], reason: '재전송' })).json().error.message).toBe('보낼 DB가 없습니다.');

    expect(await jobs()).toEqual([]);
    expect(await audits('delivery-send')).toEqual([]);
  });

  it('follows a send’s progress by its job ids, only the shop’s own jobs', async () => {
    const { hong, kim } = await story();
    const c = await lead({ name: '박민수', phone: '010-3333-0003' });
    const crm = await channel('CRM');
    const { jobIds } = (await send(t.admin, { channelId: crm, leadIds: [hong, kim, c], reason: '재전송' })).json() as { jobIds: number[] };
    const progress = async (ids: string) => {
      const res = await t.admin.get(`${shop()}/deliveries/progress?jobIds=${ids}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await progress(formatJobIds(jobIds))).toEqual({ total: 3, pending: 3, sending: 0, succeeded: 0, failed: 0, cancelled: 0, retrying: 0, untried: 3 });
    await setJob(jobIds[0]!, { status: 'succeeded', attempts: 1 });
    await setJob(jobIds[1]!, { status: 'pending', attempts: 2, last_error: 'HTTP 503' });
    await setJob(jobIds[2]!, { status: 'sending', attempts: 0 });
    expect(await progress(formatJobIds(jobIds))).toEqual({ total: 3, pending: 1, sending: 1, succeeded: 1, failed: 0, cancelled: 0, retrying: 1, untried: 1 });
    await setJob(jobIds[2]!, { status: 'failed', attempts: 8 });
    expect(await progress(formatJobIds(jobIds))).toMatchObject({ total: 3, succeeded: 1, failed: 1, untried: 0 });

    // Another shop's jobs are not counted.
    await t.app.db.updateTable('delivery_jobs').set({ shop_id: 99 }).where('id', '=', jobIds[0]!).execute();
    expect(await progress(formatJobIds(jobIds))).toMatchObject({ total: 2, succeeded: 0 });
    const bad = await t.admin.get(`${shop()}/deliveries/progress?jobIds=1-99999`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('전송 번호 목록이 올바르지 않습니다.');
  });
});

describe('DB 전송 이력', () => {
  /** Two sends and their attempts: 홍길동's failed once (503) then succeeded, 김영희's timed out and gave up. */
  async function history() {
    const { hong, kim } = await story();
    const crm = await channel('고객사 CRM');
    const mail = await channel('담당자 메일', { kind: 'email' });
    const [jh, jk] = (await send(t.admin, { channelId: crm, leadIds: [hong, kim], reason: '재전송' })).json().jobIds as number[];
    const [jm] = (await send(t.admin, { channelId: mail, leadIds: [hong], reason: '메일 전송' })).json().jobIds as number[];
    await attempt(jh!, { attempt: 1, status: 'failed', at: '2026-11-21T01:00:01.000Z', code: 503, error: 'HTTP 503 Service Unavailable', ms: 120 });
    await attempt(jh!, { attempt: 2, status: 'succeeded', at: '2026-11-21T01:00:07.000Z', code: 200, ms: 45 });
    await attempt(jk!, { attempt: 1, status: 'failed', at: '2026-11-21T01:00:02.000Z', error: '응답 대기 시간(5초)을 넘겼습니다.', ms: 5000 });
    await attempt(jm!, { attempt: 1, status: 'succeeded', at: '2026-11-20T03:00:00.000Z', code: 250, ms: 300 });
    await setJob(jh!, { status: 'succeeded', attempts: 2, response_code: 200 });
    await setJob(jk!, { status: 'failed', attempts: 8, last_error: '응답 대기 시간(5초)을 넘겼습니다.' });
    await setJob(jm!, { status: 'succeeded', attempts: 1, response_code: 250 });
    return { hong, kim, crm, mail, jh: jh!, jk: jk!, jm: jm! };
  }

  const list = async (c: Client, query = '') => {
    const res = await c.get(`${shop()}/delivery-attempts${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: Array<Record<string, unknown>>; total: number; period: { from: string; to: string } | null };
  };

  it('lists every attempt newest first with its lead (phone masked), channel, outcome and the job’s state now', async () => {
    const s = await history();
    const page = await list(t.admin);
    expect(page.total).toBe(4);
    expect(page.period).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    expect(page.items.map((i) => [i.jobId, i.attempt])).toEqual([[s.jh, 2], [s.jk, 1], [s.jh, 1], [s.jm, 1]]);
    expect(page.items[0]).toEqual({
      id: expect.any(Number), at: '2026-11-21T01:00:07.000Z', jobId: s.jh, leadId: s.hong, leadName: '홍길동', leadPhone: '010-****-5678',
      leadDeleted: false, leadPurged: false, channelId: s.crm, channelName: '고객사 CRM', channelKind: 'webhook', trigger: 'manual',
      status: 'succeeded', responseCode: 200, error: null, durationMs: 45, attempt: 2, jobStatus: 'succeeded',
    });
    expect(page.items[1]).toMatchObject({ leadName: '김영희', leadPhone: '010-****-4321', status: 'failed', responseCode: null, error: '응답 대기 시간(5초)을 넘겼습니다.', jobStatus: 'failed' });
    expect(JSON.stringify(page.items)).not.toContain('1234-5678');
  });

  it('filters by period, channel, outcome, job state, trigger, lead (name or phone digits) and one send’s jobs', async () => {
    const s = await history();
    const ids = async (q: string) => (await list(t.admin, q)).items.map((i) => `${i.jobId as number}#${i.attempt as number}`);
    expect(await ids('?from=2026-11-21&to=2026-11-21')).toEqual([`${s.jh}#2`, `${s.jk}#1`, `${s.jh}#1`]);
    expect(await ids('?from=2026-11-20&to=2026-11-20')).toEqual([`${s.jm}#1`]);
    expect(await ids(`?channelId=${s.mail}`)).toEqual([`${s.jm}#1`]);
    expect(await ids('?status=failed')).toEqual([`${s.jk}#1`, `${s.jh}#1`]);
    expect(await ids('?jobStatus=failed')).toEqual([`${s.jk}#1`]);
    expect(await ids('?trigger=intake')).toEqual([]);
    expect(await ids('?trigger=manual&status=succeeded')).toEqual([`${s.jh}#2`, `${s.jm}#1`]);
    expect(await ids('?q=5678')).toEqual([`${s.jh}#2`, `${s.jh}#1`, `${s.jm}#1`]);
    expect(await ids('?q=영희')).toEqual([`${s.jk}#1`]);
    expect(await ids(`?leadId=${s.kim}`)).toEqual([`${s.jk}#1`]);
    expect(await ids('?sort=-durationMs')).toEqual([`${s.jk}#1`, `${s.jm}#1`, `${s.jh}#1`, `${s.jh}#2`]);
    // One send's jobs, whatever the period.
    const send1 = await list(t.admin, `?jobIds=${formatJobIds([s.jm])}&from=2026-11-21&to=2026-11-21`);
    expect(send1.period).toBeNull();
    expect(send1.items.map((i) => i.jobId)).toEqual([s.jm]);
    const bad = await t.admin.get(`${shop()}/delivery-attempts?from=2026-11-22&to=2026-11-21`);
    expect(bad.json().error.fields.from).toBe('시작일이 종료일보다 늦습니다.');
  });

  it('records each page that showed leads in the access record, the search term masked', async () => {
    await history();
    await list(t.admin, '?q=홍길동&status=failed');
    await list(t.admin, '?trigger=intake');
    const recorded = await t.app.db.selectFrom('access_events').selectAll().orderBy('id').execute();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ shop_id: t.shopId, account_id: await accountId('admin'), action: 'search', row_count: 1 });
    expect(JSON.parse(recorded[0]!.detail!)).toEqual({
      screen: 'shop-data-deliver-history', list: 'attempts', page: 1,
      filter: { q: '홍*동', status: 'failed', from: '2026-11-15', to: '2026-11-21' },
    });
    expect(recorded[0]!.detail).not.toContain('홍길동');
  });

  it('lists jobs still waiting or failed by default, any state when asked, and counts them in the summary', async () => {
    const s = await history();
    const c = await lead({ name: '박민수', phone: '010-3333-0003' });
    // The new lead came in with both channels on: intake queued it to each.
    const intake = (await jobs()).filter((j) => j.lead_id === c).map((j) => j.id);
    expect(intake).toHaveLength(2);
    const [jc] = (await send(t.admin, { channelId: s.crm, leadIds: [c], reason: '추가 전송' })).json().jobIds as number[];
    const open = await t.admin.get(`${shop()}/delivery-jobs?sort=createdAt`);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().total).toBe(4);
    expect(open.json().items.map((j: { id: number; trigger: string }) => [j.id, j.trigger])).toEqual([[s.jk, 'manual'], [intake[0], 'intake'], [intake[1], 'intake'], [jc, 'manual']]);
    const failed = open.json().items.find((j: { id: number }) => j.id === s.jk);
    expect(failed).toEqual({
      id: s.jk, createdAt: NOW, updatedAt: NOW, leadId: s.kim, leadName: '김영희', leadPhone: '010-****-4321', leadDeleted: false, leadPurged: false,
      channelId: s.crm, channelName: '고객사 CRM', channelKind: 'webhook', channelEnabled: true, trigger: 'manual', reason: '재전송', createdByName: '최고관리자',
      status: 'failed', attempts: 8, nextAttemptAt: NOW, lastError: '응답 대기 시간(5초)을 넘겼습니다.', responseCode: null, deliveredAt: null,
    });
    const done = (await t.admin.get(`${shop()}/delivery-jobs?status=succeeded&sort=createdAt`)).json();
    expect(done.items.map((j: { id: number }) => j.id)).toEqual([s.jh, s.jm]);
    expect((await t.admin.get(`${shop()}/delivery-jobs?status=failed,pending&channelId=${s.mail}&trigger=manual`)).json().total).toBe(0);
    expect((await t.admin.get(`${shop()}/delivery-jobs?status=failed,pending&channelId=${s.mail}`)).json().total).toBe(1);
    expect((await t.admin.get(`${shop()}/delivery-jobs?status=lost`)).statusCode).toBe(400);

    const summary = (await t.admin.get(`${shop()}/deliveries/summary`)).json();
    const latest = await t.app.db.selectFrom('delivery_attempts').select('id').where('at', '=', '2026-11-21T01:00:07.000Z').executeTakeFirstOrThrow();
    expect(summary).toEqual({ pending: 3, sending: 0, failed: 1, latestAttemptId: latest.id });
  });

  it('offers the shop’s channels for the picker and the filter, those turned off with why', async () => {
    await channel('B 웹훅');
    await channel('A 메일', { kind: 'email' });
    await channel('꺼진 문자', { kind: 'sms', enabled: false, disabledReason: '수신 서버가 410으로 응답함' });
    const res = await t.admin.get(`${shop()}/deliveries/channels`);
    expect(res.json().items.map((c: { name: string; kind: string; enabled: boolean; disabledReason: string | null }) => [c.name, c.kind, c.enabled, c.disabledReason])).toEqual([
      ['A 메일', 'email', true, null], ['B 웹훅', 'webhook', true, null], ['꺼진 문자', 'sms', false, '수신 서버가 410으로 응답함'],
    ]);
  });
});

describe('retrying by hand', () => {
  it('puts failed and cancelled jobs back to pending now, leaves the rest, and audits it', async () => {
    const { hong, kim } = await story();
    const c = await lead({ name: '박민수', phone: '010-3333-0003' });
    const crm = await channel('CRM');
    const [jh, jk, jc] = (await send(t.admin, { channelId: crm, leadIds: [hong, kim, c], reason: '재전송' })).json().jobIds as number[];
    await setJob(jh!, { status: 'failed', attempts: 8, last_error: 'HTTP 500' });
    await setJob(jk!, { status: 'cancelled', attempts: 0, last_error: '채널이 꺼져 있어 보내지 않았습니다.' });
    await setJob(jc!, { status: 'succeeded', attempts: 1 });
    t.clock.advanceMinutes(30);
    const retry = (c: Client, jobIds: number[]) => c.post(`${shop()}/deliveries/retry`, { jobIds });
    const res = await retry(t.admin, [jh!, jk!, jc!]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ retried: 2, skipped: 1 });
    expect((await jobs()).map((j) => [j.id, j.status, j.next_attempt_at, j.attempts])).toEqual([
      [jh, 'pending', '2026-11-21T01:30:00.000Z', 8], [jk, 'pending', '2026-11-21T01:30:00.000Z', 0], [jc, 'succeeded', NOW, 1],
    ]);
    const audited = await audits('delivery-retry');
    expect(audited).toHaveLength(1);
    expect(JSON.parse(audited[0]!.detail!)).toEqual({ jobIds: [jh, jk], retried: 2 });

    // Nothing retryable: a delivered job, a job of a channel that is off, another shop's job.
    expect((await retry(t.admin, [jc!])).json().error.message).toBe('다시 보낼 수 있는 전송이 없습니다. 실패했거나 취소된 전송만 다시 보낼 수 있습니다.');
    await setJob(jh!, { status: 'failed', attempts: 8 });
    await t.app.db.updateTable('delivery_channels').set({ enabled: 0 }).where('id', '=', crm).execute();
    expect((await retry(t.admin, [jh!])).json().error.fields.jobIds).toBe('사용 중지된 채널의 전송은 다시 보낼 수 없습니다. DB 전송 설정에서 채널을 켠 뒤 다시 시도하세요.');
    await t.app.db.updateTable('delivery_jobs').set({ shop_id: 99 }).where('id', '=', jh!).execute();
    expect((await retry(t.admin, [jh!])).json().error.message).toBe('다시 보낼 전송을 찾을 수 없습니다.');
    expect((await retry(t.admin, [])).json().error.fields.jobIds).toBe('다시 보낼 전송을 선택하세요.');
    expect(await audits('delivery-retry')).toHaveLength(1);
    expect((await retry(await shopAccount(t, 'owner1', 'shop-owner'), [jk!])).statusCode).toBe(400);
  });
});

describe('with the real worker and a receiver on loopback', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  it('shows a send as it goes: a refusal, a retry by hand, the delivery, and the lead’s access record', async () => {
    const received: Array<{ event: string; leads: Array<{ name: string; phone: string }> }> = [];
    let answer = 400;
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (answer === 200) received.push(JSON.parse(body));
        res.writeHead(answer, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: answer === 200 }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const { hong } = await story();
    const crm = await channel('고객사 CRM', { url: `http://127.0.0.1:${port}/hook` });
    const worker = deliveryWorker(t.app.db, t.app.clock, { id: 'w1', random: () => 0.5, deps: { outbound: t.app.outbound } });

    const { jobIds } = (await send(t.admin, { channelId: crm, leadIds: [hong], reason: 'CRM 재전송' })).json() as { jobIds: number[] };
    const ids = formatJobIds(jobIds);
    expect(await worker.tick()).toBe(1);
    // 400: refused for good, failed at once.
    expect((await t.admin.get(`${shop()}/deliveries/progress?jobIds=${ids}`)).json()).toMatchObject({ total: 1, failed: 1, untried: 0 });
    const failedJobs = (await t.admin.get(`${shop()}/delivery-jobs`)).json();
    expect(failedJobs.items.map((j: { id: number; status: string; responseCode: number }) => [j.id, j.status, j.responseCode])).toEqual([[jobIds[0], 'failed', 400]]);

    answer = 200;
    t.clock.advanceMinutes(1);
    expect((await t.admin.post(`${shop()}/deliveries/retry`, { jobIds })).json()).toEqual({ retried: 1, skipped: 0 });
    expect(await worker.tick()).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0]!.event).toBe('lead.resent');
    expect(received[0]!.leads[0]).toMatchObject({ name: '홍길동', phone: '01012345678' });
    expect((await t.admin.get(`${shop()}/deliveries/progress?jobIds=${ids}`)).json()).toMatchObject({ total: 1, succeeded: 1, failed: 0 });

    const history = (await t.admin.get(`${shop()}/delivery-attempts?jobIds=${ids}`)).json();
    expect(history.items.map((i: Record<string, unknown>) => [i.attempt, i.status, i.responseCode, i.jobStatus, i.leadPhone])).toEqual([
      [2, 'succeeded', 200, 'succeeded', '010-****-5678'], [1, 'failed', 400, 'succeeded', '010-****-5678'],
    ]);
    expect((await t.admin.get(`${shop()}/delivery-jobs`)).json().total).toBe(0);

    const record = (await t.admin.get(`${shop()}/access-record?action=deliver&leadId=${hong}`)).json();
    expect(record.items.map((i: { action: string; summary: string; accountName: string | null }) => [i.action, i.summary, i.accountName])).toEqual([
      ['deliver', "웹훅 '고객사 CRM'으로 전송 · 수동 전송", null],
    ]);
  });
});

describe('who may send and read', () => {
  it('lets a shop owner and a marketer send and read; a counselor, and anyone without the shop, gets 403', async () => {
    const { hong } = await story();
    const crm = await channel('CRM');
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    const counselor = await shopAccount(t, 'csa1', 'counselor');
    expect((await send(owner, { channelId: crm, leadIds: [hong], reason: '업체 요청' })).statusCode).toBe(201);
    expect((await send(marketer, { channelId: crm, leadIds: [hong], reason: '업체 요청' })).statusCode).toBe(201);
    for (const url of ['/delivery-attempts', '/delivery-jobs', '/deliveries/summary', '/deliveries/channels', '/deliveries/progress?jobIds=1']) {
      expect((await owner.get(`${shop()}${url}`)).statusCode, url).toBe(200);
      expect((await counselor.get(`${shop()}${url}`)).statusCode, url).toBe(403);
    }
    expect((await send(counselor, { channelId: crm, leadIds: [hong], reason: '업체 요청' })).statusCode).toBe(403);
    expect((await counselor.post(`${shop()}/deliveries/retry`, { jobIds: [1] })).statusCode).toBe(403);
    // The shop owner lists the leads to choose from (DB 현황's list) on the send screen.
    expect((await owner.get(`${shop()}/leads?from=2026-11-21&to=2026-11-21`)).statusCode).toBe(200);

    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id as number;
    expect((await owner.get(`/api/shops/${other}/delivery-attempts`)).statusCode).toBe(403);
    expect((await owner.post(`/api/shops/${other}/deliveries`, { channelId: crm, leadIds: [hong], reason: '업체 요청' })).statusCode).toBe(403);
    expect((await jobs()).map((j) => j.created_by)).toEqual([await accountId('owner1'), await accountId('mkt1')]);
  });
});

describe('the access record of a delivery', () => {
  it('says which channel received the lead, and why', () => {
    expect(describeLeadEvent('deliver', {}, { channelId: 3, channelName: '고객사 CRM', kind: 'webhook', jobId: 9, trigger: 'intake' })).toBe("웹훅 '고객사 CRM'으로 전송 · 자동");
    expect(describeLeadEvent('deliver', {}, { channelName: '담당자 메일', kind: 'email', trigger: 'manual', reason: '재전송 요청' })).toBe("이메일 '담당자 메일'로 전송 · 수동 전송 · 사유: 재전송 요청");
  });
});
