// Counselors' alerts: an account's own settings (round trip, validation, no one else's), its push
// subscriptions (another account's untouchable, a gone one deleted on the push service's 410),
// quiet hours on the test clock, and real Web Pushes received by a push service on 127.0.0.1 that
// decrypts them itself (RFC 8291 / RFC 8188) and checks their VAPID signature (RFC 8292) — for
// intake's automatic assignment and for the SLA's re-route to the second counselor.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountIdOf, LONG_SESSIONS, landingTestApp, leadBody, openLanding, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';
import { escalateDue } from '../leads/leads.entry.ts';
import { alertNotifier, type AlertNotifier } from './notifier.ts';
import { vapidKeys, vapidSubject } from './vapid.ts';
import type { AlertPayload } from '../../../contracts/alerts.ts';

/** A Seoul wall-clock time ('2026-12-07 10:00') as an instant (a Monday). */
const kst = (s: string) => new Date(`${s.replace(' ', 'T')}:00+09:00`);
const b64url = (b: Buffer) => b.toString('base64url');

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on 127.0.0.1: records what it receives and answers `status` (201 as push services do). */
async function pushService() {
  const received: Received[] = [];
  let status = 201;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    answer: (s: number) => void (status = s),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A browser's side of a subscription: its ECDH P-256 key pair and 16-byte auth secret. */
function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return { ecdh, auth, p256dh: b64url(ecdh.getPublicKey()), authB64: b64url(auth) };
}

/**
 * RFC 8291 decryption of an aes128gcm body (RFC 8188): the header (salt, rs, idlen, keyid = the
 * application server's public key), the key derived with the auth secret from the ECDH secret,
 * the content key and nonce from the salt, the padding delimiter stripped.
 */
function decrypt(body: Buffer, keys: ReturnType<typeof browserKeys>): { plaintext: string; serverKey: Buffer; rs: number } {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const serverKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  expect(idlen).toBe(65);
  // One record: the whole ciphertext (with its 16-byte tag) fits in rs.
  expect(ciphertext.length).toBeLessThanOrEqual(rs);
  const ecdhSecret = keys.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', ecdhSecret, keys.auth, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record: data, then the delimiter 0x02, then zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return { plaintext: padded.subarray(0, end).toString('utf8'), serverKey, rs };
}

/** The VAPID Authorization header checked (RFC 8292): an ES256 JWT for the receiver's origin, signed by the key it names. */
function checkVapid(header: string | undefined, audience: string, publicKey: string): Record<string, unknown> {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  expect(m, `Authorization: ${header}`).not.toBeNull();
  const [, jwt, k] = m!;
  expect(k).toBe(publicKey);
  const [head, claims, signature] = jwt!.split('.') as [string, string, string];
  expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const point = Buffer.from(k!, 'base64url');
  const key = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) }, format: 'jwk' });
  const valid = crypto.verify('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  expect(valid).toBe(true);
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>;
  expect(body.aud).toBe(audience);
  expect(body.sub).toMatch(/^mailto:/);
  expect(body.exp).toBeGreaterThan(Date.now() / 1000);
  return body;
}

let t: LandingTestApp;
let landingId: number;
let service: Awaited<ReturnType<typeof pushService>>;
let notifier: AlertNotifier;
/** The next lead's phone ends in this (each test starts at 1000). */
let phone = 1000;
const ids: Record<string, number> = {};
const clients: Record<string, Client> = {};
beforeEach(async () => {
  phone = 1000;
  t = await landingTestApp(LONG_SESSIONS);
  t.clock.current = kst('2026-12-07 10:00');
  landingId = await openLanding(t);
  for (const login of ['csa1', 'csb2']) {
    clients[login] = await shopAccount(t, login, 'counselor');
    ids[login] = await accountIdOf(t, login);
  }
  clients.owner = await shopAccount(t, 'owner1', 'shop-owner');
  ids.owner = await accountIdOf(t, 'owner1');
  service = await pushService();
  notifier = alertNotifier(t.app.db, t.clock.now, { outbound: t.app.outbound, subject: vapidSubject(t.app.config.mailFrom) });
});
afterEach(async () => {
  await notifier.idle();
  await service.close();
  await t.close();
});

/** Subscribes `login`'s browser (keys made here) to the push service, through the API. */
async function subscribe(login: string, path = `/push/${login}`) {
  const keys = browserKeys();
  const endpoint = `${service.origin}${path}`;
  const res = await clients[login]!.post('/api/alerts/subscriptions', { endpoint, keys: { p256dh: keys.p256dh, auth: keys.authB64 } });
  expect(res.statusCode, res.body).toBe(200);
  return { keys, endpoint, id: res.json().id as number };
}

async function lead(): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, { phone: `010-4444-${String(phone++).padStart(4, '0')}` }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}
const sends = (leadId: number) => t.app.db.selectFrom('alert_sends').select(['account_id', 'reason', 'channel', 'status', 'delivered']).where('lead_id', '=', leadId).orderBy('id').execute();
const publicKey = async () => (await clients.csa1!.get('/api/alerts/vapid-key')).json().publicKey as string;

describe('settings', () => {
  it('are the account\'s own: defaults, a round trip, Korean field errors, SMS only with a phone on file', async () => {
    const a = clients.csa1!;
    expect((await a.get('/api/alerts/settings')).json()).toMatchObject({ enabled: true, browser: true, push: true, sms: false, quietStart: null, quietEnd: null, phone: null, subscriptions: 0, updatedAt: null });
    const input = { enabled: true, browser: false, push: true, sms: false, quietStart: '22:00', quietEnd: '08:00' };
    const saved = await a.put('/api/alerts/settings', input);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject(input);
    expect((await a.get('/api/alerts/settings')).json()).toMatchObject(input);
    // Another account still has its own (the defaults).
    expect((await clients.csb2!.get('/api/alerts/settings')).json()).toMatchObject({ browser: true, quietStart: null });

    const bad = await a.put('/api/alerts/settings', { ...input, quietStart: '25:00', quietEnd: null });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toMatchObject({ quietStart: '시각은 HH:mm 형식으로 입력하세요.' });
    const same = await a.put('/api/alerts/settings', { ...input, quietStart: '09:00', quietEnd: '09:00' });
    expect(same.json().error.fields).toMatchObject({ quietEnd: '시작과 종료 시각이 같을 수 없습니다.' });
    const half = await a.put('/api/alerts/settings', { ...input, quietStart: null, quietEnd: '09:00' });
    expect(half.json().error.fields).toMatchObject({ quietStart: '방해 금지 시작 시각을 입력하세요.' });

    const noPhone = await a.put('/api/alerts/settings', { ...input, sms: true });
    expect(noPhone.statusCode).toBe(400);
    expect(noPhone.json().error.fields.sms).toContain('휴대폰 번호');
    await t.app.db.updateTable('accounts').set({ phone: '01098765432' }).where('id', '=', ids.csa1!).execute();
    const withPhone = await a.put('/api/alerts/settings', { ...input, sms: true });
    expect(withPhone.statusCode, withPhone.body).toBe(200);
    expect(withPhone.json()).toMatchObject({ sms: true, phone: '010-****-5432' });
    expect((await t.anonymous.get('/api/alerts/settings')).statusCode).toBe(401);
  });
});

describe('the VAPID key pair', () => {
  it('is made once and kept in the database: every call and every process of it reads the same', async () => {
    const key = await publicKey();
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const kept = await t.app.db.selectFrom('shared_settings').select('value').where('key', '=', 'vapid-keys').executeTakeFirstOrThrow();
    expect(JSON.parse(kept.value).publicKey).toBe(key);
    expect(await publicKey()).toBe(key);
    // Another process (its own cache) on the same database: the stored pair, not a new one.
    const other = await vapidKeys(t.app.db.withoutPlugins(), t.clock.now);
    expect(other.publicKey).toBe(key);
  });
});

describe('subscriptions', () => {
  it('belong to one account: another cannot remove them; an internal address is refused', async () => {
    const { endpoint } = await subscribe('csa1');
    // csb2 asks to remove csa1's endpoint: only its own rows are touched.
    expect((await clients.csb2!.del(`/api/alerts/subscriptions?endpoint=${encodeURIComponent(endpoint)}`)).statusCode).toBe(204);
    expect((await clients.csa1!.get('/api/alerts/settings')).json().subscriptions).toBe(1);
    // Subscribing again renews the same row.
    await subscribe('csa1');
    expect((await clients.csa1!.get('/api/alerts/settings')).json().subscriptions).toBe(1);
    expect((await clients.csa1!.del(`/api/alerts/subscriptions?endpoint=${encodeURIComponent(endpoint)}`)).statusCode).toBe(204);
    expect((await clients.csa1!.get('/api/alerts/settings')).json().subscriptions).toBe(0);

    const keys = browserKeys();
    const inside = await clients.csa1!.post('/api/alerts/subscriptions', { endpoint: 'https://169.254.169.254/push', keys: { p256dh: keys.p256dh, auth: keys.authB64 } });
    expect(inside.statusCode).toBe(400);
    expect(inside.json().error.fields.endpoint).toBe('내부망 주소로는 보낼 수 없습니다.');
  });

  it('is deleted when the push service answers 410 Gone', async () => {
    await subscribe('csa1');
    service.answer(410);
    const res = await clients.csa1!.post('/api/alerts/test');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcomes).toEqual([expect.objectContaining({ channel: 'push', status: 'failed', attempted: 1, delivered: 0 })]);
    expect(service.received).toHaveLength(1);
    expect(await t.app.db.selectFrom('push_subscriptions').selectAll().where('account_id', '=', ids.csa1!).execute()).toEqual([]);
  });
});

describe('web push', () => {
  it('reaches the assigned counselor encrypted per RFC 8291 and signed with the server\'s VAPID key, with no unmasked personal data', async () => {
    const a = await subscribe('csa1');
    await subscribe('csb2');
    // Intake allocates automatically to csa1 alone; the worker hears the created lead on the feed.
    await clients.csb2!.put('/api/alerts/settings', { enabled: false, browser: true, push: true, sms: false, quietStart: null, quietEnd: null });
    expect((await t.admin.put(`/api/shops/${t.shopId}/allocation/counselors/${ids.csb2}`, { weight: 1, dailyCap: null, maxOpen: null, available: false })).statusCode).toBe(200);
    expect((await t.admin.put(`/api/shops/${t.shopId}/allocation/rule`, { autoMode: 'round-robin' })).statusCode).toBe(200);
    const off = t.app.links.watchAllLeads((c) => notifier.leadsChanged(c));
    const id = await lead();
    await expect.poll(() => service.received.length).toBe(1);
    await notifier.idle();
    off();

    const push = service.received[0]!;
    expect(push.path).toBe('/push/csa1');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    const key = await publicKey();
    checkVapid(push.headers.authorization, service.origin, key);
    const { plaintext, serverKey } = decrypt(push.body, a.keys);
    expect(serverKey.length).toBe(65);
    const payload = JSON.parse(plaintext) as AlertPayload;
    expect(payload).toEqual({
      title: '새 DB가 배분되었습니다', body: expect.stringContaining('010-****-1000'), url: `/database-status?lead=${id}`, tag: `lead-${id}`, leadId: id, reason: 'assigned',
    });
    expect(plaintext).not.toContain('01044441000');
    expect(plaintext).not.toContain('홍길동');
    expect(await sends(id)).toEqual([{ account_id: ids.csa1, reason: 'assigned', channel: 'push', status: 'sent', delivered: 1 }]);
    expect((await t.app.db.selectFrom('push_subscriptions').select('last_ok_at').where('id', '=', a.id).executeTakeFirstOrThrow()).last_ok_at).toBe(t.clock.now().toISOString());

    // The same change heard again (a second worker): claimed already, not sent twice.
    await notifier.send({ reason: 'assigned', leadId: id, to: [ids.csa1!] });
    expect(service.received).toHaveLength(1);
  });

  it('keeps quiet during the counselor\'s quiet hours (Seoul time), and sends again after them', async () => {
    const a = await subscribe('csa1');
    await clients.csa1!.put('/api/alerts/settings', { enabled: true, browser: true, push: true, sms: false, quietStart: '22:00', quietEnd: '08:00' });
    const first = await lead();
    t.clock.current = kst('2026-12-07 23:30');
    const quiet = await notifier.send({ reason: 'assigned', leadId: first, to: [ids.csa1!] });
    expect(quiet.get(ids.csa1!)).toEqual([expect.objectContaining({ channel: 'push', status: 'quiet' })]);
    t.clock.current = kst('2026-12-08 07:59');
    const second = await lead();
    await notifier.send({ reason: 'assigned', leadId: second, to: [ids.csa1!] });
    expect(service.received).toHaveLength(0);
    t.clock.current = kst('2026-12-08 08:00');
    const third = await lead();
    await notifier.send({ reason: 'assigned', leadId: third, to: [ids.csa1!] });
    expect(service.received).toHaveLength(1);
    expect(JSON.parse(decrypt(service.received[0]!.body, a.keys).plaintext).leadId).toBe(third);
    expect((await sends(first))[0]).toMatchObject({ status: 'quiet', delivered: 0 });
  });

  it('tells the second counselor when the SLA re-routes a lead the first let lapse, and the shop\'s managers when a deadline is missed', async () => {
    const b = await subscribe('csb2');
    const owner = await subscribe('owner');
    expect((await t.admin.put(`/api/shops/${t.shopId}/lead-sla`, {
      enabled: true, minutes: 1, remindPercent: null, onDeadline: 'both', maxReroutes: 1, workDays: [1, 2, 3, 4, 5, 6, 7], workStart: '00:00', workEnd: '24:00', holidays: [],
    })).statusCode).toBe(200);
    const id = await lead();
    expect((await t.admin.post(`/api/shops/${t.shopId}/allocation/apply`, { mode: 'manual', leadIds: [id], counselorIds: [ids.csa1] })).statusCode).toBe(200);
    t.clock.advanceMinutes(1);
    const steps = await escalateDue(t.app.db, t.clock.now());
    expect(steps.map((s) => s.action)).toEqual(['sla-notify', 'sla-reroute']);
    notifier.slaSteps(steps);
    await notifier.idle();

    const byPath = new Map(service.received.map((r) => [r.path, r]));
    expect([...byPath.keys()].sort()).toEqual(['/push/csb2', '/push/owner']);
    expect(JSON.parse(decrypt(byPath.get('/push/csb2')!.body, b.keys).plaintext)).toMatchObject({ reason: 'sla-reroute', leadId: id, title: '응답 기한이 지난 DB가 재배분되었습니다' });
    expect(JSON.parse(decrypt(byPath.get('/push/owner')!.body, owner.keys).plaintext)).toMatchObject({ reason: 'sla-notify', leadId: id });
    expect(await sends(id)).toEqual(expect.arrayContaining([
      { account_id: ids.csb2, reason: 'sla-reroute', channel: 'push', status: 'sent', delivered: 1 },
      { account_id: ids.owner, reason: 'sla-notify', channel: 'push', status: 'sent', delivered: 1 },
    ]));
  });

  it('tells whoever a lead is handed to by hand (DB 배분, DB 배분 수정), and leaves escalation\'s moves to the SLA\'s own alerts', async () => {
    const a = await subscribe('csa1');
    const b = await subscribe('csb2');
    const off = t.app.links.watchAllLeads((c) => notifier.leadsChanged(c));
    const id = await lead();
    // DB 배분: the unassigned lead to csa1.
    expect((await t.admin.post(`/api/shops/${t.shopId}/allocation/apply`, { mode: 'manual', leadIds: [id], counselorIds: [ids.csa1] })).statusCode).toBe(200);
    await expect.poll(() => service.received.length).toBe(1);
    // DB 배분 수정: handed over to csb2.
    expect((await t.admin.post(`/api/shops/${t.shopId}/allocation/reassign`, { leadIds: [id], to: ids.csb2, reason: '휴가' })).statusCode).toBe(200);
    await expect.poll(() => service.received.length).toBe(2);
    // Escalation's announcement of its move is not alerted twice (slaSteps says it in the SLA's words).
    notifier.leadsChanged({ shopId: t.shopId, kind: 'changed', cause: 'sla', leads: [{ id, assigneeId: ids.csa1!, previousAssigneeId: ids.csb2! }] });
    // Back to 미배분: nobody to tell.
    expect((await t.admin.post(`/api/shops/${t.shopId}/allocation/reassign`, { leadIds: [id], to: null, reason: '재배분' })).statusCode).toBe(200);
    await notifier.idle();
    off();
    expect(service.received.map((r) => r.path)).toEqual(['/push/csa1', '/push/csb2']);
    expect(JSON.parse(decrypt(service.received[0]!.body, a.keys).plaintext)).toMatchObject({ reason: 'assigned', leadId: id });
    expect(JSON.parse(decrypt(service.received[1]!.body, b.keys).plaintext)).toMatchObject({ reason: 'assigned', leadId: id });
  });

  it('"테스트 알림" answers each chosen channel: push sent, SMS without a shop channel said plainly', async () => {
    const a = await subscribe('csa1');
    await t.app.db.updateTable('accounts').set({ phone: '01098765432' }).where('id', '=', ids.csa1!).execute();
    await clients.csa1!.put('/api/alerts/settings', { enabled: true, browser: true, push: true, sms: true, quietStart: '00:00', quietEnd: '23:59' });
    const res = await clients.csa1!.post('/api/alerts/test');
    expect(res.json().outcomes).toEqual([
      { channel: 'push', status: 'sent', delivered: 1, attempted: 1, error: null },
      { channel: 'sms', status: 'off', delivered: 0, attempted: 0, error: '업체에 문자 전송 채널이 없습니다.' },
    ]);
    expect(JSON.parse(decrypt(service.received[0]!.body, a.keys).plaintext)).toMatchObject({ title: '테스트 알림', leadId: null });
  });

  it('texts the counselor\'s own number through the shop\'s SMS channel, the lead\'s phone masked', async () => {
    await t.app.db.updateTable('accounts').set({ phone: '01098765432' }).where('id', '=', ids.csa1!).execute();
    await clients.csa1!.put('/api/alerts/settings', { enabled: true, browser: true, push: false, sms: true, quietStart: null, quietEnd: null });
    const channel = await t.admin.post(`/api/shops/${t.shopId}/delivery-channels`, {
      name: '상담실 문자', kind: 'sms', preset: 'generic', gatewayUrl: `${service.origin}/sms`, apiKey: 'sms-key', sender: '02-1234-5678',
      receivers: ['010-1111-2222'], template: '[#{업체}] #{이름} #{연락처}',
    });
    expect(channel.statusCode, channel.body).toBe(201);
    const texting = alertNotifier(t.app.db, t.clock.now, { outbound: t.app.outbound, subject: 'mailto:a@b.kr', text: t.app.links.staffText });
    const id = await lead();
    const out = await texting.send({ reason: 'assigned', leadId: id, to: [ids.csa1!] });
    expect(out.get(ids.csa1!)).toEqual([{ channel: 'sms', status: 'sent', delivered: 1, attempted: 1, error: null }]);
    expect(service.received).toHaveLength(1);
    const sent = JSON.parse(service.received[0]!.body.toString()) as { to: string; text: string };
    expect(sent.to).toBe('01098765432');
    expect(sent.text).toContain('새 DB가 배분되었습니다');
    const digits = (await t.app.db.selectFrom('leads').select('phone').where('id', '=', id).executeTakeFirstOrThrow()).phone;
    expect(sent.text).toContain(`010-****-${digits.slice(-4)}`);
    expect(sent.text).not.toContain(digits);
    expect(sent.text).not.toContain('홍길동');
  });

  it('alerts a disabled account no more', async () => {
    await subscribe('csa1');
    const id = await lead();
    await t.app.db.updateTable('accounts').set({ status: 'disabled' }).where('id', '=', ids.csa1!).execute();
    expect((await notifier.send({ reason: 'assigned', leadId: id, to: [ids.csa1!] })).get(ids.csa1!)).toEqual([]);
    expect(service.received).toHaveLength(0);
  });
});
