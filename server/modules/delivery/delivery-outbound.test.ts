// A shop owner cannot make the server reach inside (issue 19, finding 4), through the API on both
// engines: every form of an internal address — loopback literals and their numeric tricks,
// IPv6 and IPv4-mapped forms, private and link-local ranges, names that resolve there — is
// refused when a webhook or SMS gateway is saved, when 테스트 전송 sends, and when the worker
// sends a lead (a channel stored before this rule, or written by hand); a name that answers
// outside at the save and inside at the send is refused at the connect; an operator's allowed
// range is delivered to; a redirect is not followed; the receiver's words show only for a 2xx.
// The server behind the internal addresses listens on loopback and counts connections: a
// refusal makes none.
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { leadBody, openLanding, shopAccount, submit, landingTestApp, type LandingTestApp } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';
import { OUTBOUND_REFUSED, REDIRECT_NOT_FOLLOWED, type Resolved } from '../../lib/outbound.ts';
import { deliveryWorker } from '../../worker/delivery.ts';
import { Listener as Inside } from '../../test-listener.ts';


let inside: Inside;
let inside6: Inside;
beforeAll(async () => {
  inside = await new Inside('127.0.0.1').start();
  inside6 = await new Inside('::1').start();
});
afterAll(async () => {
  await inside.stop();
  await inside6.stop();
});

/** The DNS as a test says it answers, changed at will; other names do not resolve. */
const dnsTable: Record<string, string[]> = {};
const resolveHost = async (hostname: string): Promise<Resolved[]> => {
  const found = dnsTable[hostname];
  if (!found) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: net.isIP(address) }));
};

let t: LandingTestApp;
let owner: Client;
let landingId: number;
async function start(allow: string[]) {
  for (const k of Object.keys(dnsTable)) delete dnsTable[k];
  Object.assign(dnsTable, {
    'crm.inside.test': ['127.0.0.1'], 'crm.v6.test': ['::1'], 'crm.lan.test': ['10.0.0.7', '192.168.0.7'], 'metadata.test': ['169.254.169.254'],
    'crm.example.test': ['93.184.215.14'],
  });
  t = await landingTestApp({ outboundAllowCidrs: allow }, { resolveHost });
  owner = await shopAccount(t, 'owner1', 'shop-owner');
  landingId = await openLanding(t);
  for (const l of [inside, inside6]) Object.assign(l, { connections: 0, requests: 0, answer: (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(200).end('internal secret') });
}
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/delivery-channels`;
const webhook = (url: string) => ({ name: '우리 CRM', kind: 'webhook', url });
const sms = (gatewayUrl: string) => ({
  name: '원장님 문자', kind: 'sms', preset: 'generic', gatewayUrl, apiKey: 'gw-key', sender: '02-1234-5678', receivers: ['010-1111-2222'], template: '#{이름} #{연락처}',
});

/** Every way a URL can name the machine inside (the URL parser and the resolver make each 127.0.0.1 or ::1). */
const insideForms = () => {
  const p = inside.port;
  return [
    `http://127.0.0.1:${p}/hook`, `https://127.0.0.1:${p}/hook`, `http://2130706433:${p}/hook`, `https://2130706433:${p}/hook`,
    `https://0177.0.0.1:${p}/hook`, `https://0x7f.0.0.1:${p}/hook`, `https://0x7f000001:${p}/hook`, `https://127.1:${p}/hook`,
    `HTTP://LOCALHOST:${p}/hook`, `HTTPS://LOCALHOST:${p}/hook`, `https://localhost.:${p}/hook`, `https://127.0.0.1.:${p}/hook`,
    `https://[::1]:${inside6.port}/hook`, `https://[::ffff:127.0.0.1]:${p}/hook`, `https://[::ffff:7f00:1]:${p}/hook`,
    `https://crm.inside.test:${p}/hook`, `https://crm.v6.test:${inside6.port}/hook`, `https://0.0.0.0:${p}/hook`,
  ];
};
const otherInternal = ['https://10.0.0.5/hook', 'https://172.16.3.4/hook', 'https://192.168.0.1/hook', 'https://169.254.169.254/latest/meta-data/',
  'https://100.64.1.1/hook', 'https://[fd00::1]/hook', 'https://[fe80::1]/hook', 'https://crm.lan.test/hook', 'https://metadata.test/hook'];

/** A channel written straight to the table: one saved before this rule, or by hand. */
async function storedChannel(db: Kysely<Database>, shopId: number, kind: 'webhook' | 'sms', url: string, name: string): Promise<number> {
  const at = '2026-11-20T00:00:00.000Z';
  const config = kind === 'webhook'
    ? { url, timeoutMs: 2000 }
    : { preset: 'generic', gatewayUrl: url, userId: null, sender: '0212345678', receivers: ['01011112222'], template: '#{이름}', kakaoTemplateCode: null, kakaoSenderKey: null, fullPhone: false };
  const { id } = await db.insertInto('delivery_channels').values({
    shop_id: shopId, name, kind, enabled: 1, mode: 'instant', digest_at: null, statuses: '[]', landing_ids: '[]', fields: '[]', include_duplicates: 0,
    config: JSON.stringify(config), secret: kind === 'sms' ? 'gw-key' : 'whsec_x', previous_secret: null, previous_secret_until: null,
    disabled_reason: null, disabled_at: null, created_by: null, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  return id;
}

const lead = async (phone: string) => {
  const res = await submit(t, leadBody(t, landingId, { phone }));
  expect(res.statusCode, res.body).toBe(201);
};
const sendDue = () => deliveryWorker(t.app.db, t.app.clock, { random: () => 0.5, deps: { outbound: t.app.outbound } }).tick();
const jobsOf = (channelId: number) =>
  t.app.db.selectFrom('delivery_jobs').select(['status', 'last_error', 'response_code']).where('channel_id', '=', channelId).orderBy('id').execute();
const attemptsOf = (channelId: number) =>
  t.app.db.selectFrom('delivery_attempts').select(['status', 'error', 'response_code', 'response_excerpt']).where('channel_id', '=', channelId).orderBy('id').execute();

describe('with no range allowed (the default)', () => {
  it('refuses to save a webhook or an SMS gateway at any internal address, on its field, in Korean', async () => {
    await start([]);
    for (const url of [...insideForms(), ...otherInternal]) {
      for (const [body, field] of [[webhook(url), 'url'], [sms(url), 'gatewayUrl']] as const) {
        const res = await owner.post(base(), body);
        expect(res.statusCode, `${field} ${url}`).toBe(400);
        expect(res.json().error.fields, `${field} ${url}`).toEqual({ [field]: OUTBOUND_REFUSED });
      }
    }
    // A saved channel cannot be moved inside either.
    const saved = await owner.post(base(), webhook('https://crm.example.test/hook'));
    expect(saved.statusCode, saved.body).toBe(201);
    const moved = await owner.put(`${base()}/${saved.json().id}`, webhook(`HTTP://LOCALHOST:${inside.port}/hook`));
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.fields).toEqual({ url: OUTBOUND_REFUSED });
    // Plain http is for allowed ranges only.
    const plain = await owner.post(base(), webhook('http://crm.example.test/hook'));
    expect(plain.json().error.fields.url).toMatch(/^https:\/\/로 시작하는 주소를 입력하세요/);
    expect(await t.app.db.selectFrom('delivery_channels').select('id').execute()).toHaveLength(1);
    expect(inside.connections + inside6.connections).toBe(0);
  });

  it('sends nothing inside from 테스트 전송 or the worker, for a channel stored with an internal address, and does not try again', async () => {
    await start([]);
    const channels: Array<{ id: number; url: string }> = [];
    for (const [i, url] of insideForms().entries()) {
      channels.push({ id: await storedChannel(t.app.db, t.shopId, i % 2 ? 'sms' : 'webhook', url, `채널 ${i + 1}`), url });
    }
    for (const c of channels) {
      const res = await owner.post(`${base()}/${c.id}/test`);
      expect(res.statusCode, c.url).toBe(200);
      expect(res.json(), c.url).toMatchObject({ ok: false, status: null, excerpt: null, error: OUTBOUND_REFUSED });
    }
    await lead('010-5000-0001');
    expect(await sendDue()).toBe(channels.length);
    for (const c of channels) {
      expect(await jobsOf(c.id), c.url).toEqual([{ status: 'failed', last_error: OUTBOUND_REFUSED, response_code: null }]);
      expect(await attemptsOf(c.id), c.url).toEqual([{ status: 'failed', error: OUTBOUND_REFUSED, response_code: null, response_excerpt: null }]);
    }
    expect(inside.connections + inside6.connections).toBe(0);
  });

  it('refuses at the connect a name that answered outside when saved and inside when sent (DNS rebinding)', async () => {
    await start([]);
    dnsTable['crm.rebind.test'] = ['93.184.215.14'];
    const saved = await owner.post(base(), webhook(`https://crm.rebind.test:${inside.port}/hook`));
    expect(saved.statusCode, saved.body).toBe(201);
    const gateway = await owner.post(base(), sms(`https://crm.rebind.test:${inside.port}/send`));
    expect(gateway.statusCode, gateway.body).toBe(201);
    dnsTable['crm.rebind.test'] = ['127.0.0.1'];
    for (const id of [saved.json().id, gateway.json().id]) {
      expect((await owner.post(`${base()}/${id}/test`)).json()).toMatchObject({ ok: false, excerpt: null, error: OUTBOUND_REFUSED });
    }
    await lead('010-5000-0002');
    expect(await sendDue()).toBe(2);
    for (const id of [saved.json().id, gateway.json().id]) expect((await jobsOf(id)).map((j) => [j.status, j.last_error])).toEqual([['failed', OUTBOUND_REFUSED]]);
    expect(inside.connections).toBe(0);
  });
});

describe('with the operator’s range allowed (OUTBOUND_ALLOW_CIDRS=127.0.0.1/32)', () => {
  it('delivers there — by address, by a name that resolves there, over plain http — and shows the receiver’s words only for a 2xx', async () => {
    await start(['127.0.0.1/32']);
    dnsTable['crm.onprem.test'] = ['127.0.0.1'];
    const hook = await owner.post(base(), webhook(`http://crm.onprem.test:${inside.port}/hook`));
    expect(hook.statusCode, hook.body).toBe(201);
    const gateway = await owner.post(base(), sms(`http://2130706433:${inside.port}/send`));
    expect(gateway.statusCode, gateway.body).toBe(201);
    // Other addresses inside stay refused: 127.0.0.2 is loopback too.
    expect((await owner.post(base(), webhook(`http://127.0.0.2:${inside.port}/hook`))).json().error.fields).toEqual({ url: OUTBOUND_REFUSED });
    expect((await owner.post(base(), webhook(`https://[::1]:${inside6.port}/hook`))).json().error.fields).toEqual({ url: OUTBOUND_REFUSED });

    const ids = [hook.json().id as number, gateway.json().id as number];
    for (const id of ids) expect((await owner.post(`${base()}/${id}/test`)).json()).toMatchObject({ ok: true, status: 200, excerpt: 'internal secret', error: null });
    await lead('010-5000-0003');
    expect(await sendDue()).toBe(2);
    for (const id of ids) expect(await attemptsOf(id)).toEqual([{ status: 'succeeded', error: null, response_code: 200, response_excerpt: 'internal secret' }]);

    // Any other answer's words stay unshown, in the test send and in the history.
    inside.answer = (_req, res) => res.writeHead(500).end('internal secret');
    for (const id of ids) expect((await owner.post(`${base()}/${id}/test`)).json()).toMatchObject({ ok: false, status: 500, excerpt: null });
    await lead('010-5000-0004');
    expect(await sendDue()).toBe(2);
    for (const id of ids) expect((await attemptsOf(id)).at(-1)).toMatchObject({ status: 'failed', response_code: 500, response_excerpt: null });
    expect(inside.requests).toBe(8);
  });

  it('does not follow a redirect into a range that is not allowed', async () => {
    await start(['127.0.0.1/32']);
    const target = await new Inside('127.0.0.2').start();
    try {
      inside.answer = (_req, res) => res.writeHead(307, { location: `http://127.0.0.2:${target.port}/secret` }).end('see there');
      const hook = await owner.post(base(), webhook(`http://127.0.0.1:${inside.port}/hook`));
      const test = (await owner.post(`${base()}/${hook.json().id}/test`)).json();
      expect(test).toMatchObject({ ok: false, status: 307, excerpt: null });
      expect(test.error).toContain(REDIRECT_NOT_FOLLOWED);
      await lead('010-5000-0005');
      expect(await sendDue()).toBe(1);
      expect(await jobsOf(hook.json().id)).toMatchObject([{ status: 'failed', response_code: 307 }]);
      expect(target.connections).toBe(0);
    } finally {
      await target.stop();
    }
  });
});
