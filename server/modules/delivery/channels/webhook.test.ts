// The webhook sender against a real HTTP receiver on 127.0.0.1: the body, the headers, a
// signature the receiver verifies (both secrets during a rotation), the digest's key, and how
// each kind of answer is read (2xx, 410, retryable, not retryable, refused, timeout, redirect),
// the receiver's words kept only from a 2xx, and an address the outbound client refuses.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook, webhookSignature } from './webhook.ts';
import { TEST_OUTBOUND } from '../../../test-helpers.ts';
import { OUTBOUND_REFUSED, OUTBOUND_UNREACHABLE, outboundNoAnswer } from '../../../lib/outbound.ts';
import type { DeliveryLeadRow, SendChannel, SendInput } from '../channel.ts';
import type { WebhookBody } from '../../../../contracts/delivery.ts';
import { verified } from '../../../test-webhooks.ts';

interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
let hits: Hit[];
let answer: (hit: Hit, res: http.ServerResponse) => void;

beforeEach(async () => {
  hits = [];
  answer = (_hit, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      hits.push(hit);
      answer(hit, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const lead = (id: number, extra: Partial<DeliveryLeadRow> = {}): DeliveryLeadRow => ({
  id, createdAt: '2026-11-21T01:00:00.000Z', source: 'landing', name: '홍길동', phone: '01012345678', landingId: 7, landingCode: 'implant', landingTitle: '임플란트 상담',
  mediumName: '네이버', answers: [{ label: '지역', value: '서울' }], utm: { source: 'naver', medium: 'cpc', campaign: 'nov', content: null, term: null },
  csStatus: '미처리', memo: null, ...extra,
});

const channel = (extra: Partial<SendChannel> = {}): SendChannel => ({
  id: 1, shopId: 1, shopCode: 'smile', shopName: '미소치과', name: '미소 CRM', kind: 'webhook', fields: ['id', 'receivedAt', 'name', 'phone', 'landing', 'answers'],
  config: { url: `${base}/hooks/leads`, timeoutMs: 2000 }, secret: 'whsec_new', previousSecret: null, ...extra,
});

const NOW = new Date('2026-11-21T01:00:05.000Z');
/** The receivers here listen on 127.0.0.1: allowed as the tests' OUTBOUND_ALLOW_CIDRS allows it. */
const deps = { outbound: TEST_OUTBOUND };
const input = (extra: Partial<SendInput> = {}): SendInput => ({
  channel: channel(), items: [{ jobId: 11, idempotencyKey: 'key-11', lead: lead(101) }], event: 'lead.created', attempt: 1, now: NOW, ...extra,
});

describe('webhook sender', () => {
  it('posts the chosen fields as JSON with its headers and a signature the receiver verifies', async () => {
    const result = await sendWebhook(input(), deps);
    expect(result).toMatchObject({ ok: true, status: 200, excerpt: '{"received":true}' });
    expect(hits).toHaveLength(1);
    const [hit] = hits;
    expect(hit!.method).toBe('POST');
    expect(hit!.url).toBe('/hooks/leads');
    expect(hit!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(hit!.headers['user-agent']).toBe('Leadroom-Webhook/1');
    expect(hit!.headers['idempotency-key']).toBe('key-11');
    const body = JSON.parse(hit!.body) as WebhookBody;
    expect(body).toEqual({
      event: 'lead.created', shop: { code: 'smile', name: '미소치과' }, sentAt: NOW.toISOString(),
      leads: [{ id: 101, receivedAt: '2026-11-21T01:00:00.000Z', source: 'landing', name: '홍길동', phone: '01012345678', landing: { id: 7, code: 'implant', title: '임플란트 상담' }, answers: [{ label: '지역', value: '서울' }] }],
    });
    const header = hit!.headers['x-leadroom-signature'] as string;
    expect(header).toMatch(new RegExp(`^t=${NOW.getTime() / 1000},v1=[0-9a-f]{64}$`));
    expect(verified(header, hit!.body, ['whsec_new'])).toEqual(['whsec_new']);
    // A body changed on the way no longer verifies.
    expect(verified(header, hit!.body.replace('홍길동', '김길동'), ['whsec_new'])).toEqual([]);
  });

  it('signs with both secrets during a rotation, and keeps sentAt as given', async () => {
    const result = await sendWebhook(input({ channel: channel({ previousSecret: 'whsec_old' }), sentAt: '2026-11-21T00:59:00.000Z' }), deps);
    expect(result.ok).toBe(true);
    const [hit] = hits;
    const header = hit!.headers['x-leadroom-signature'] as string;
    expect(header.split(',').filter((p) => p.startsWith('v1='))).toHaveLength(2);
    expect(verified(header, hit!.body, ['whsec_new', 'whsec_old'])).toEqual(['whsec_new', 'whsec_old']);
    expect(verified(header, hit!.body, ['whsec_other'])).toEqual([]);
    expect((JSON.parse(hit!.body) as WebhookBody).sentAt).toBe('2026-11-21T00:59:00.000Z');
    expect(webhookSignature(['a'], 1, 'x')).toBe(`t=1,v1=${crypto.createHmac('sha256', 'a').update('1.x').digest('hex')}`);
  });

  it('sends a digest as one message whose key is its first job\'s and the count, in job order', async () => {
    const items = [
      { jobId: 13, idempotencyKey: 'key-13', lead: lead(103) },
      { jobId: 12, idempotencyKey: 'key-12', lead: lead(102) },
      { jobId: 14, idempotencyKey: 'key-14', lead: lead(104) },
    ];
    await sendWebhook(input({ items, event: 'lead.digest' }), deps);
    await sendWebhook(input({ items: [...items].reverse(), event: 'lead.digest' }), deps);
    expect(hits.map((h) => h.headers['idempotency-key'])).toEqual(['key-12-3', 'key-12-3']);
    const body = JSON.parse(hits[0]!.body) as WebhookBody;
    expect(body.event).toBe('lead.digest');
    expect(body.leads.map((l) => l.id)).toEqual([102, 103, 104]);
  });

  it('reads the answer: 2xx delivered, 410 gone, 408/429/5xx retryable, other 4xx not; keeps 300 characters of a 2xx answer only', async () => {
    const cases: Array<[number, { ok: boolean; gone?: boolean; retryable?: boolean }]> = [
      [201, { ok: true }], [204, { ok: true }], [410, { ok: false, gone: true, retryable: false }], [408, { ok: false, retryable: true }],
      [429, { ok: false, retryable: true }], [500, { ok: false, retryable: true }], [503, { ok: false, retryable: true }],
      [400, { ok: false, retryable: false }], [401, { ok: false, retryable: false }], [404, { ok: false, retryable: false }],
    ];
    for (const [status, expected] of cases) {
      answer = (_hit, res) => res.writeHead(status).end(status === 204 ? undefined : 'x'.repeat(1000));
      const r = await sendWebhook(input(), deps);
      expect({ ok: r.ok, ...(r.gone ? { gone: r.gone } : {}), ...(r.ok ? {} : { retryable: r.retryable }) }, `HTTP ${status}`).toEqual(expected);
      expect(r.status).toBe(status);
      expect(r.excerpt).toBe(status === 204 ? '' : r.ok ? 'x'.repeat(300) : undefined);
      if (!r.ok) expect(r.error).toContain(status === 410 ? '410 Gone' : `HTTP ${status}`);
    }
    expect(hits).toHaveLength(cases.length);
  });

  it('does not follow a redirect, and says so', async () => {
    answer = (_hit, res) => res.writeHead(302, { location: 'http://example.com/elsewhere' }).end('moved');
    const r = await sendWebhook(input(), deps);
    expect(r).toMatchObject({ ok: false, status: 302, retryable: false, error: '수신 서버가 HTTP 302로 답했습니다. 다른 주소로 넘기는 응답은 따라가지 않습니다. 최종 주소를 입력하세요.' });
    expect(r.excerpt).toBeUndefined();
    expect(hits).toHaveLength(1);
  });

  it('a refused connection and a receiver that does not answer in time are worth retrying, told in words that name no system error', async () => {
    answer = () => {}; // never answers
    const slow = await sendWebhook(input({ channel: channel({ config: { url: `${base}/slow`, timeoutMs: 1000 } }) }), deps);
    expect(slow).toMatchObject({ ok: false, status: null, retryable: true, error: outboundNoAnswer(1000) });
    expect(slow.error).toBe('수신 서버가 1초 안에 응답하지 않았습니다.');

    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const refused = await sendWebhook(input(), deps);
    expect(refused).toMatchObject({ ok: false, status: null, retryable: true, error: OUTBOUND_UNREACHABLE });
    server = http.createServer().listen(0, '127.0.0.1'); // for afterEach
  });

  it('sends nothing to an address the outbound client refuses, and does not try again', async () => {
    // 127.0.0.2 is loopback too, outside the tests' allowed 127.0.0.1/32; without a client, nothing inside is allowed.
    const port = new URL(base).port;
    for (const [url, d] of [[`http://127.0.0.2:${port}/hook`, deps], [`${base}/hook`, {}], [`http://2130706433:${port}/hook`, {}]] as const) {
      const r = await sendWebhook(input({ channel: channel({ config: { url } }) }), d);
      expect(r, url).toMatchObject({ ok: false, status: null, error: OUTBOUND_REFUSED, retryable: false });
    }
    expect(hits).toHaveLength(0);
  });
});
