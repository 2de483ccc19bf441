// DB 전송 설정 through the API: channels of each kind with their validation, the webhook secret
// shown once and rotated with a grace period, turning off (pending jobs cancelled), a
// receiver's 410 and turning back on, deleting, the test send against a real receiver, and
// who may do what.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { landingInput, leadBody, openLanding, shopAccount, submit, landingTestApp, type LandingTestApp } from '../../test-landings.ts';
import { DELIVERY_URL_MESSAGE } from '../../../contracts/delivery-channels.ts';
import { deliveryWorker } from '../../worker/delivery.ts';
import { GONE_REASON } from './outcomes.ts';
import { SMTP_MISSING } from './channels/email.ts';

// ---- a webhook receiver on loopback ----
let receiver: http.Server;
let receiverUrl: string;
let reply: { status: number; body: string } = { status: 200, body: 'thanks' };
const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/leads`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

let t: LandingTestApp;
let landingId: number;
beforeEach(async () => {
  t = await landingTestApp({ sessionIdleMinutes: 1_000_000, sessionAbsoluteHours: 100_000 });
  landingId = await openLanding(t);
  received.length = 0;
  reply = { status: 200, body: 'thanks' };
});
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/delivery-channels`;
const webhook = (extra: Record<string, unknown> = {}) => ({ name: '우리 CRM', kind: 'webhook', url: receiverUrl, ...extra });
const email = (extra: Record<string, unknown> = {}) => ({ name: '상담실 메일', kind: 'email', recipients: ['desk@smile.kr', 'boss@smile.kr'], ...extra });
const sms = (extra: Record<string, unknown> = {}) => ({
  name: '원장님 문자', kind: 'sms', preset: 'aligo', gatewayUrl: 'https://apis.aligo.in/send/', apiKey: 'aligo-secret-key', userId: 'smile',
  sender: '02-1234-5678', receivers: ['010-1111-2222', '010-3333-4444'], template: '[#{업체}] #{이름} #{연락처}', ...extra,
});

async function create(body: Record<string, unknown>) {
  const res = await t.admin.post(base(), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; newSecret: string | null; secretPrefix: string | null } & Record<string, unknown>;
}
const fieldsOf = async (body: Record<string, unknown>, method: 'post' | 'put' = 'post', url = base()) => {
  const res = await t.admin[method](url, body);
  expect(res.statusCode, res.body).toBe(400);
  return res.json().error.fields as Record<string, string>;
};
const jobs = (channelId: number) =>
  t.app.db.selectFrom('delivery_jobs').select(['id', 'status', 'last_error', 'next_attempt_at']).where('channel_id', '=', channelId).orderBy('id').execute();
const channelRow = (id: number) => t.app.db.selectFrom('delivery_channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const auditOf = (action: string) => t.app.db.selectFrom('audit_events').select(['detail', 'target_id']).where('action', '=', action).orderBy('id').execute();
const lead = async (phone: string) => {
  const res = await submit(t, leadBody(t, landingId, { phone }));
  expect(res.statusCode, res.body).toBe(201);
};

describe('channels', () => {
  it('creates a webhook with a secret shown once, never again, and kept out of the audit trail', async () => {
    const created = await create(webhook({ timeoutMs: 8000 }));
    expect(created.newSecret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const secret = created.newSecret!;
    expect(created).toMatchObject({
      name: '우리 CRM', kind: 'webhook', enabled: true, mode: 'instant', digestAt: null, statuses: [], landingIds: [], includeDuplicates: false,
      fields: ['id', 'receivedAt', 'name', 'phone', 'landing', 'medium', 'answers'], config: { url: receiverUrl, timeoutMs: 8000 },
      target: new URL(receiverUrl).host, hasSecret: true, secretPrefix: secret.slice(0, 12), pendingJobs: 0, failedJobs: 0, lastDelivery: null,
    });
    const got = await t.admin.get(`${base()}/${created.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain(secret);
    expect(got.json()).not.toHaveProperty('newSecret');
    const list = await t.admin.get(base());
    expect(list.json().total).toBe(1);
    expect(list.body).not.toContain(secret);
    // Saving again keeps the secret and never shows it.
    const updated = await t.admin.put(`${base()}/${created.id}`, webhook({ name: '우리 CRM (운영)' }));
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.body).not.toContain(secret);
    expect((await channelRow(created.id)).secret).toBe(secret);
    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'detail']).where('target', '=', 'delivery-channel').execute();
    expect(audit.map((a) => a.action)).toEqual(['delivery-channel.create', 'delivery-channel.update']);
    for (const a of audit) expect(a.detail).not.toContain(secret.slice(6));
  });

  it('keeps a gateway key write-only: required on create, kept when left empty, replaced when given', async () => {
    expect(await fieldsOf(sms({ apiKey: '' }))).toEqual({ apiKey: '게이트웨이 API 키를 입력하세요.' });
    const created = await create(sms());
    expect(created).toMatchObject({
      hasSecret: true, secretPrefix: null, target: '010-****-2222 외 1명',
      config: { preset: 'aligo', sender: '0212345678', receivers: ['01011112222', '01033334444'], userId: 'smile', fullPhone: false },
    });
    expect(JSON.stringify(created)).not.toContain('aligo-secret-key');
    await t.admin.put(`${base()}/${created.id}`, sms({ apiKey: '' }));
    expect((await channelRow(created.id)).secret).toBe('aligo-secret-key');
    await t.admin.put(`${base()}/${created.id}`, sms({ apiKey: 'new-key' }));
    expect((await channelRow(created.id)).secret).toBe('new-key');
    const audit = await t.app.db.selectFrom('audit_events').select('detail').where('target', '=', 'delivery-channel').execute();
    for (const a of audit) expect(a.detail).not.toMatch(/aligo-secret-key|new-key/);
  });

  it('says in Korean what is wrong: https, http outside the allowed ranges, digest time, fields, bytes, recipients, kind', async () => {
    expect(await fieldsOf(webhook({ url: 'http://crm.example.com/hook' }))).toEqual({ url: DELIVERY_URL_MESSAGE });
    expect(await fieldsOf(webhook({ url: 'ftp://crm.example.com' }))).toEqual({ url: DELIVERY_URL_MESSAGE });
    expect(await fieldsOf(webhook({ url: '' }))).toEqual({ url: '받을 주소(URL)를 입력하세요.' });
    expect(await fieldsOf(webhook({ timeoutMs: 500 }))).toEqual({ timeoutMs: '응답 대기 시간은 1,000ms 이상입니다.' });
    // The tests allow 127.0.0.1/32, as an operator allows an on-premise CRM; a name that does not resolve (yet) is fine over https.
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:8080/hook', 'http://2130706433:8080/hook', 'https://crm.example.com/hook']) {
      expect((await t.admin.post(base(), webhook({ url }))).statusCode, url).toBe(201);
    }
    expect(await fieldsOf(webhook({ mode: 'digest' }))).toEqual({ digestAt: '모아 보낼 시각을 입력하세요.' });
    expect(await fieldsOf(webhook({ mode: 'digest', digestAt: '25:00' }))).toEqual({ digestAt: '시각은 HH:mm(예: 09:00) 형식으로 입력하세요.' });
    expect(await fieldsOf(webhook({ fields: [] }))).toEqual({ fields: '보낼 항목을 1개 이상 선택하세요.' });
    expect(await fieldsOf({ kind: 'webhook' })).toEqual({ name: '채널 이름을 입력하세요.' });
    expect(await fieldsOf({ name: 'x' })).toEqual({ kind: '채널 종류를 선택하세요.' });
    expect(await fieldsOf(email({ recipients: [] }))).toEqual({ recipients: '받는 사람 이메일을 1개 이상 입력하세요.' });
    expect(await fieldsOf(email({ recipients: ['desk@smile'] }))).toEqual({ 'recipients.0': '올바른 이메일 주소를 입력하세요.' });
    // 1,001 two-byte characters: 2,002 bytes, past an LMS.
    expect(await fieldsOf(sms({ template: '가'.repeat(1001) }))).toEqual({ template: '문자 내용이 2,002바이트입니다. LMS 최대 2,000바이트 이하로 줄이세요.' });
    expect(await fieldsOf(sms({ sender: 'abc' }))).toEqual({ sender: '발신번호를 입력하세요.' });
    expect(await fieldsOf(sms({ userId: '' }))).toEqual({ userId: '알리고 아이디(user_id)를 입력하세요.' });
    expect(await fieldsOf(sms({ receivers: ['010-1111-2222', '01011112222'] }))).toEqual({ receivers: '같은 전화번호가 두 번 있습니다.' });
    expect((await t.admin.post(base(), sms({ template: '가'.repeat(990) }))).statusCode).toBe(201);
    expect(await fieldsOf(webhook({ landingIds: [999] }))).toEqual({ landingIds: '이 업체의 랜딩만 선택할 수 있습니다.' });
    const hook = await create(webhook());
    expect(await fieldsOf(email(), 'put', `${base()}/${hook.id}`)).toEqual({ kind: '채널 종류는 바꿀 수 없습니다. 새 채널을 추가하세요.' });
  });

  it('rotates a webhook secret: the new one shown once, the old one kept valid for 24 hours', async () => {
    t.clock.current = new Date('2026-11-25T01:00:00.000Z');
    const created = await create(webhook());
    const rotated = await t.admin.post(`${base()}/${created.id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const r = rotated.json() as { secret: string; secretPrefix: string; previousValidUntil: string };
    expect(r.secret).toMatch(/^whsec_/);
    expect(r.secret).not.toBe(created.newSecret);
    expect(r).toMatchObject({ secretPrefix: r.secret.slice(0, 12), previousValidUntil: '2026-11-26T01:00:00.000Z' });
    const stored = await channelRow(created.id);
    expect(stored).toMatchObject({ secret: r.secret, previous_secret: created.newSecret, previous_secret_until: '2026-11-26T01:00:00.000Z' });
    const got = (await t.admin.get(`${base()}/${created.id}`)).json();
    expect(got).toMatchObject({ secretPrefix: r.secret.slice(0, 12), previousSecretUntil: '2026-11-26T01:00:00.000Z' });
    expect(JSON.stringify(got)).not.toContain(r.secret);
    t.clock.current = new Date('2026-11-26T01:00:01.000Z');
    expect((await t.admin.get(`${base()}/${created.id}`)).json().previousSecretUntil).toBeNull();
    const [audit] = await auditOf('delivery-channel.rotate-secret');
    expect(audit!.detail).not.toContain(r.secret.slice(12));
    const mail = await create(email());
    const refused = await t.admin.post(`${base()}/${mail.id}/rotate-secret`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('서명 비밀키는 웹훅 채널에만 있습니다.');
  });

  it('cancels the pending jobs of a channel turned off, and moves them when its digest time changes', async () => {
    t.clock.current = new Date('2026-11-25T01:00:00.000Z'); // 10:00 Seoul
    const digest = await create(webhook({ mode: 'digest', digestAt: '18:00' }));
    const other = await create(webhook({ name: '다른 채널', mode: 'digest', digestAt: '18:00' }));
    await lead('010-5000-0001');
    await lead('010-5000-0002');
    expect((await jobs(digest.id)).map((j) => [j.status, j.next_attempt_at])).toEqual([
      ['pending', '2026-11-25T09:00:00.000Z'], ['pending', '2026-11-25T09:00:00.000Z'],
    ]);
    expect((await t.admin.get(`${base()}/${digest.id}`)).json()).toMatchObject({ pendingJobs: 2, failedJobs: 0 });
    // 18:00 → 08:00: already past today, so tomorrow 08:00.
    await t.admin.put(`${base()}/${digest.id}`, webhook({ mode: 'digest', digestAt: '08:00' }));
    expect((await jobs(digest.id)).map((j) => j.next_attempt_at)).toEqual(['2026-11-25T23:00:00.000Z', '2026-11-25T23:00:00.000Z']);

    const off = await t.admin.post(`${base()}/${digest.id}/enabled`, { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ enabled: false, pendingJobs: 0, disabledReason: null });
    expect((await jobs(digest.id)).map((j) => [j.status, j.last_error])).toEqual([
      ['cancelled', '채널이 중지되었습니다'], ['cancelled', '채널이 중지되었습니다'],
    ]);
    expect((await jobs(other.id)).map((j) => j.status)).toEqual(['pending', 'pending']);
    const [audit] = await auditOf('delivery-channel.disable');
    expect(JSON.parse(audit!.detail!)).toMatchObject({ cancelledJobs: 2 });
    // Off through the form too.
    const saved = await t.admin.put(`${base()}/${other.id}`, webhook({ name: '다른 채널', mode: 'digest', digestAt: '18:00', enabled: false }));
    expect(saved.json()).toMatchObject({ enabled: false, pendingJobs: 0 });
    expect((await jobs(other.id)).map((j) => j.status)).toEqual(['cancelled', 'cancelled']);
    // An off channel gets no new jobs; on again, it does.
    await lead('010-5000-0003');
    expect(await jobs(digest.id)).toHaveLength(2);
    await t.admin.post(`${base()}/${digest.id}/enabled`, { enabled: true });
    await lead('010-5000-0004');
    expect((await jobs(digest.id)).map((j) => j.status)).toEqual(['cancelled', 'cancelled', 'pending']);
  });

  it('shows a receiver’s 410 as the reason it stopped, and clears it when turned on again', async () => {
    t.clock.current = new Date('2026-11-25T01:00:00.000Z');
    const hook = await create(webhook());
    reply = { status: 410, body: 'gone' };
    await lead('010-5000-0001');
    await deliveryWorker(t.app.db, t.app.clock, { deps: { outbound: t.app.outbound } }).tick();
    expect(received).toHaveLength(1);
    const stopped = (await t.admin.get(`${base()}/${hook.id}`)).json();
    expect(stopped).toMatchObject({
      enabled: false, disabledReason: GONE_REASON, disabledAt: '2026-11-25T01:00:00.000Z', failedJobs: 1, pendingJobs: 0,
      lastDelivery: { at: '2026-11-25T01:00:00.000Z', status: 'failed', responseCode: 410 },
    });
    t.clock.current = new Date('2026-11-25T02:00:00.000Z');
    const on = await t.admin.post(`${base()}/${hook.id}/enabled`, { enabled: true });
    expect(on.json()).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    expect(await channelRow(hook.id)).toMatchObject({ enabled: 1, disabled_reason: null, disabled_at: null });
    const [audit] = await auditOf('delivery-channel.enable');
    expect(JSON.parse(audit!.detail!)).toMatchObject({ clearedReason: GONE_REASON });
    // Delivered again once the receiver is back.
    reply = { status: 200, body: 'ok' };
    await lead('010-5000-0002');
    await deliveryWorker(t.app.db, t.app.clock, { deps: { outbound: t.app.outbound } }).tick();
    expect((await t.admin.get(`${base()}/${hook.id}`)).json()).toMatchObject({
      lastDelivery: { at: '2026-11-25T02:00:00.000Z', status: 'succeeded', responseCode: 200 }, failedJobs: 1,
    });
  });

  it('deletes a channel that never delivered, and refuses one with history', async () => {
    const fresh = await create(webhook());
    const used = await create(webhook({ name: '쓰던 채널', mode: 'digest', digestAt: '09:00' }));
    // Off before any lead came: it has no job at all.
    await t.admin.post(`${base()}/${fresh.id}/enabled`, { enabled: false });
    await lead('010-5000-0001');
    const refused = await t.admin.del(`${base()}/${used.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('쓰던 채널 채널로 전송한 이력이 있어 삭제할 수 없습니다. 더 보내지 않으려면 사용 중지하세요.');
    expect((await t.admin.del(`${base()}/${fresh.id}`)).statusCode).toBe(204);
    expect((await t.admin.get(`${base()}/${fresh.id}`)).statusCode).toBe(404);
    expect((await auditOf('delivery-channel.delete')).map((a) => a.target_id)).toEqual([String(fresh.id)]);
  });

  it('lists with the target in a few words, filters by kind, and sorts', async () => {
    await create(webhook({ name: '다' }));
    await create(email({ name: '가' }));
    await create(sms({ name: '나', receivers: ['010-1111-2222'] }));
    const all = (await t.admin.get(`${base()}?sort=name`)).json() as { items: Array<{ name: string; target: string }>; total: number };
    expect(all.total).toBe(3);
    expect(all.items.map((c) => [c.name, c.target])).toEqual([
      ['가', 'desk@smile.kr 외 1명'], ['나', '010-****-2222'], ['다', new URL(receiverUrl).host],
    ]);
    expect((await t.admin.get(`${base()}?kind=email`)).json().items.map((c: { name: string }) => c.name)).toEqual(['가']);
  });

  it('records turning full phone numbers on and off', async () => {
    const mail = await create(email({ fullPhone: true }));
    await t.admin.put(`${base()}/${mail.id}`, email({ fullPhone: false }));
    await t.admin.put(`${base()}/${mail.id}`, email({ fullPhone: false, name: '이름만 바꿈' }));
    expect((await auditOf('delivery-channel.full-phone')).map((a) => JSON.parse(a.detail!).fullPhone)).toEqual([true, false]);
  });

  it('filters by the shop’s own landings', async () => {
    const checkup = await openLanding(t, { ...landingInput(), landingCode: 'checkup', title: '건강검진 이벤트' });
    const res = await t.admin.get(`${base()}/landings`);
    expect(res.json()).toEqual([
      { id: checkup, title: '건강검진 이벤트', code: 'checkup' }, { id: landingId, title: '임플란트 상담 이벤트', code: 'implant' },
    ]);
    const only = await create(webhook({ landingIds: [checkup], mode: 'digest', digestAt: '09:00' }));
    await lead('010-5000-0001');
    expect(await jobs(only.id)).toHaveLength(0);
  });
});

describe('the test send', () => {
  it('sends a sample to the receiver and answers its status, time and words', async () => {
    const hook = await create(webhook());
    reply = { status: 202, body: '{"received":true}' };
    const started = performance.now();
    const res = await t.admin.post(`${base()}/${hook.id}/test`);
    const wall = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, status: 202, excerpt: '{"received":true}', error: null });
    // Whole milliseconds of the send itself: within the request that made it (not a timestamp, not the timeout).
    const { durationMs } = res.json();
    expect(Number.isInteger(durationMs), String(durationMs)).toBe(true);
    expect(durationMs).toBeGreaterThanOrEqual(0);
    expect(durationMs).toBeLessThanOrEqual(Math.ceil(wall));
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ event: 'lead.test', shop: { code: 'smile' } });
    reply = { status: 500, body: 'boom' };
    // Another answer's words are not shown: they could be anyone's page.
    expect((await t.admin.post(`${base()}/${hook.id}/test`)).json()).toMatchObject({ ok: false, status: 500, excerpt: null, error: '수신 서버가 HTTP 500으로 답했습니다.' });
    expect((await auditOf('delivery-channel.test')).map((a) => JSON.parse(a.detail!))).toMatchObject([{ ok: true, status: 202 }, { ok: false, status: 500 }]);
  });

  it('says an e-mail channel cannot send without SMTP_URL, and the settings say so', async () => {
    const mail = await create(email());
    expect((await t.admin.get(`${base()}/smtp-status`)).json()).toEqual({ configured: false, from: 'Leadroom <no-reply@leadroom.local>' });
    expect((await t.admin.post(`${base()}/${mail.id}/test`)).json()).toMatchObject({ ok: false, status: null, error: SMTP_MISSING });
  });
});

describe('access', () => {
  it('lets a shop owner configure channels, a counselor not even see them, and keeps shops apart', async () => {
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    const created = await owner.post(base(), webhook());
    expect(created.statusCode, created.body).toBe(201);
    expect((await owner.post(`${base()}/${created.json().id}/enabled`, { enabled: false })).statusCode).toBe(200);
    const counselor = await shopAccount(t, 'counsel1', 'counselor');
    expect((await counselor.get(base())).statusCode).toBe(403);
    expect((await counselor.post(base(), webhook())).statusCode).toBe(403);
    // Another shop's channel is not found through this shop's path.
    const other = await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' });
    const otherId = other.json().id as number;
    const foreign = await t.admin.post(`/api/shops/${otherId}/delivery-channels`, webhook());
    expect(foreign.statusCode).toBe(201);
    expect((await t.admin.get(`${base()}/${foreign.json().id}`)).statusCode).toBe(404);
    expect((await owner.get(`/api/shops/${otherId}/delivery-channels`)).statusCode).toBe(403);
  });
});
