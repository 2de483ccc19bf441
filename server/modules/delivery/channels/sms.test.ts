// The SMS / 알림톡 sender against a real HTTP gateway on loopback: the 알리고 preset's
// form-encoded request and result_code answer, the generic preset's JSON with a bearer key,
// SMS or LMS by EUC-KR bytes, digests in one LMS, and how failures read (the gateway's words only
// from a 2xx, nothing sent to an address the outbound client refuses).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cutToBytes, sendSms } from './sms.ts';
import type { DeliveryLeadRow, SendChannel, SendInput, SendItem } from '../channel.ts';
import { smsBytes } from '../../../../contracts/delivery.ts';
import { DEFAULT_SMS_TEMPLATE, type SmsConfig } from '../../../../contracts/delivery-channels.ts';
import { TEST_OUTBOUND } from '../../../test-helpers.ts';
import { OUTBOUND_REFUSED, OUTBOUND_UNREACHABLE } from '../../../lib/outbound.ts';

/** The gateway here listens on 127.0.0.1: allowed as the tests' OUTBOUND_ALLOW_CIDRS allows it. */
const deps = { outbound: TEST_OUTBOUND };

interface Request {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
const requests: Request[] = [];
let answer: (req: Request) => { status: number; body: string } = () => ({ status: 200, body: '{}' });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Request = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(r);
      const a = answer(r);
      res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8' }).end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  requests.length = 0;
});

const ALIGO_OK = JSON.stringify({ result_code: '1', message: 'success', msg_id: '123456789', success_cnt: 2, error_cnt: 0, msg_type: 'SMS' });

const lead = (extra: Partial<DeliveryLeadRow> = {}): DeliveryLeadRow => ({
  id: 41, createdAt: '2026-11-25T05:30:00.000Z', source: 'landing', name: '홍길동', phone: '01012345678', landingId: 3, landingCode: 'implant',
  landingTitle: '임플란트 상담', mediumName: '네이버', answers: [], utm: { source: null, medium: null, campaign: null, content: null, term: null },
  csStatus: '미처리', memo: null, ...extra,
});

const config = (extra: Partial<SmsConfig> = {}): SmsConfig => ({
  preset: 'aligo', gatewayUrl: `${base}/send/`, userId: 'smileclinic', sender: '0212345678', receivers: ['01011112222', '01033334444'],
  template: DEFAULT_SMS_TEMPLATE, kakaoTemplateCode: null, kakaoSenderKey: null, fullPhone: false, ...extra,
});

const channel = (c: SmsConfig = config(), secret: string | null = 'aligo-key-1'): SendChannel => ({
  id: 9, shopId: 1, shopCode: 'smile', shopName: '미소치과', name: '원장님 문자', kind: 'sms', fields: ['name', 'phone'],
  config: c as unknown as Record<string, unknown>, secret, previousSecret: null,
});

const item = (n: number, extra: Partial<DeliveryLeadRow> = {}): SendItem => ({ jobId: n, idempotencyKey: `dj_${n}`, lead: lead({ id: n, ...extra }) });

const input = (o: Partial<SendInput> = {}): SendInput => ({
  channel: channel(), items: [item(1)], event: 'lead.created', attempt: 1, now: new Date('2026-11-25T05:30:02.000Z'), ...o,
});

const form = (r: Request) => Object.fromEntries(new URLSearchParams(r.body));

describe('the 알리고 preset', () => {
  it('posts the form 알리고 expects and succeeds on result_code 1', async () => {
    answer = () => ({ status: 200, body: ALIGO_OK });
    const r = await sendSms(input(), deps);
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(r.excerpt).toContain('"msg_id":"123456789"');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.path).toBe('/send/');
    expect(requests[0]!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    const text = '[미소치과] 새 DB: 홍길동 010-****-5678 (임플란트 상담)';
    expect(form(requests[0]!)).toEqual({
      key: 'aligo-key-1', user_id: 'smileclinic', sender: '0212345678', receiver: '01011112222,01033334444', msg: text, msg_type: 'SMS',
    });
    expect(smsBytes(text)).toBe(54);
  });

  it('fills every placeholder, the phone in full only when the channel is set to', async () => {
    answer = () => ({ status: 200, body: ALIGO_OK });
    const template = '#{업체}/#{이름}/#{연락처}/#{랜딩}/#{매체}/#{접수일시}/#{모름}';
    await sendSms(input({ channel: channel(config({ template })) }), deps);
    expect(form(requests[0]!).msg).toBe('미소치과/홍길동/010-****-5678/임플란트 상담/네이버/11/25 14:30/#{모름}');
    await sendSms(input({ channel: channel(config({ template: '#{이름} #{연락처}', fullPhone: true })) }), deps);
    expect(form(requests[1]!).msg).toBe('홍길동 010-1234-5678');
  });

  it('sends LMS with a title past 90 bytes', async () => {
    answer = () => ({ status: 200, body: ALIGO_OK });
    const template = `${DEFAULT_SMS_TEMPLATE} 담당자는 10분 안에 전화해 주세요. 부재 시 문자로 안내합니다.`;
    await sendSms(input({ channel: channel(config({ template })) }), deps);
    const sent = form(requests[0]!);
    expect(smsBytes(sent.msg!)).toBe(115);
    expect(sent.msg_type).toBe('LMS');
    expect(sent.title).toBe('[미소치과] 새 DB');
  });

  it('fails on another result_code with 알리고’s message', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ result_code: '-101', message: '인증오류입니다.' }) });
    const r = await sendSms(input(), deps);
    expect(r).toMatchObject({ ok: false, status: 200, retryable: true, error: '알리고가 전송을 거부했습니다 (-101): 인증오류입니다.' });
  });

  it('uses the 알림톡 API shape when the channel has a template code, falling back to SMS', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ code: 0, message: '성공적으로 전송요청 하였습니다.' }) });
    const c = config({ gatewayUrl: `${base}/akv10/alimtalk/send/`, kakaoTemplateCode: 'TM_0001', kakaoSenderKey: 'sk-abc' });
    const r = await sendSms(input({ channel: channel(c) }), deps);
    expect(r.ok).toBe(true);
    const sent = form(requests[0]!);
    expect(sent).toMatchObject({
      apikey: 'aligo-key-1', userid: 'smileclinic', senderkey: 'sk-abc', tpl_code: 'TM_0001', sender: '0212345678', failover: 'Y',
      receiver_1: '01011112222', receiver_2: '01033334444', subject_1: '[미소치과] 새 DB',
    });
    expect(sent.message_1).toBe('[미소치과] 새 DB: 홍길동 010-****-5678 (임플란트 상담)');
    expect(sent.fmessage_2).toBe(sent.message_1);
  });
});

describe('the generic preset', () => {
  it('posts JSON {to, from, text, type} per receiver with the bearer key and a stable idempotency key', async () => {
    answer = () => ({ status: 202, body: '{"id":"m-1"}' });
    const r = await sendSms(input({ channel: channel(config({ preset: 'generic', gatewayUrl: `${base}/v1/messages`, userId: null }), 'gw-secret') }), deps);
    expect(r).toMatchObject({ ok: true, status: 202, excerpt: '{"id":"m-1"} | {"id":"m-1"}' });
    expect(requests.map((q) => q.path)).toEqual(['/v1/messages', '/v1/messages']);
    expect(requests[0]!.headers.authorization).toBe('Bearer gw-secret');
    expect(requests[0]!.headers['content-type']).toBe('application/json');
    expect(requests.map((q) => q.headers['idempotency-key'])).toEqual(['dj_1-1', 'dj_1-2']);
    expect(requests.map((q) => JSON.parse(q.body))).toEqual([
      { to: '01011112222', from: '0212345678', text: '[미소치과] 새 DB: 홍길동 010-****-5678 (임플란트 상담)', type: 'SMS' },
      { to: '01033334444', from: '0212345678', text: '[미소치과] 새 DB: 홍길동 010-****-5678 (임플란트 상담)', type: 'SMS' },
    ]);
  });

  it('answers 5xx as worth retrying, other 4xx not, and 410 as gone, keeping none of their words', async () => {
    const generic = channel(config({ preset: 'generic', gatewayUrl: `${base}/v1/messages`, receivers: ['01011112222'] }), 'k');
    answer = () => ({ status: 503, body: 'busy' });
    const busy = await sendSms(input({ channel: generic }), deps);
    expect(busy).toMatchObject({ ok: false, status: 503, retryable: true });
    expect(busy).not.toHaveProperty('excerpt');
    answer = () => ({ status: 401, body: '{"error":"bad key"}' });
    expect(await sendSms(input({ channel: generic }), deps)).toMatchObject({ ok: false, status: 401, retryable: false, error: '게이트웨이가 401 오류를 응답했습니다.' });
    answer = () => ({ status: 410, body: '' });
    expect(await sendSms(input({ channel: generic }), deps)).toMatchObject({ ok: false, status: 410, gone: true, retryable: false });
  });

  it('sends a digest as one LMS naming the first five leads', async () => {
    answer = () => ({ status: 200, body: 'ok' });
    const items = [1, 2, 3, 4, 5, 6, 7].map((n) => item(n, { name: `고객${n}`, phone: `0101234567${n}` }));
    const generic = channel(config({ preset: 'generic', gatewayUrl: `${base}/v1/messages`, receivers: ['01011112222'] }), 'k');
    await sendSms(input({ channel: generic, items, event: 'lead.digest', now: new Date('2026-11-25T00:00:00.000Z') }), deps);
    expect(requests).toHaveLength(1);
    const body = JSON.parse(requests[0]!.body) as { text: string; type: string; subject: string };
    expect(body.type).toBe('LMS');
    expect(body.subject).toBe('[미소치과] DB 7건');
    expect(body.text).toBe([
      '[미소치과] 11/25 09:00 기준 DB 7건',
      '1. 고객1 010-****-5671 (임플란트 상담)', '2. 고객2 010-****-5672 (임플란트 상담)', '3. 고객3 010-****-5673 (임플란트 상담)',
      '4. 고객4 010-****-5674 (임플란트 상담)', '5. 고객5 010-****-5675 (임플란트 상담)', '외 2건', '자세한 내용은 Leadroom에서 확인하세요.',
    ].join('\n'));
  });

  it('answers a gateway that is down as worth retrying', async () => {
    const r = await sendSms(input({ channel: channel(config({ preset: 'generic', gatewayUrl: 'http://127.0.0.1:1/send' }), 'k') }), deps);
    expect(r).toMatchObject({ ok: false, status: null, retryable: true, error: OUTBOUND_UNREACHABLE });
  });

  it('sends nothing to a gateway on an address the outbound client refuses, and does not try again', async () => {
    const port = new URL(base).port;
    for (const [url, d] of [[`http://127.0.0.2:${port}/send`, deps], [`${base}/send`, {}], [`https://[::ffff:127.0.0.1]:${port}/send`, {}]] as const) {
      const r = await sendSms(input({ channel: channel(config({ preset: 'generic', gatewayUrl: url }), 'k') }), d);
      expect(r, url).toMatchObject({ ok: false, status: null, retryable: false, error: OUTBOUND_REFUSED });
    }
    expect(requests).toHaveLength(0);
  });

  it('refuses without a key or receivers, without retrying', async () => {
    expect(await sendSms(input({ channel: channel(config(), null) }), deps)).toMatchObject({ ok: false, retryable: false, error: '게이트웨이 API 키가 없습니다.' });
    expect(requests).toHaveLength(0);
  });
});

describe('byte limits', () => {
  it('cuts a message to the LMS limit on a character boundary', () => {
    const long = '가'.repeat(1500);
    const cut = cutToBytes(long, 2000);
    expect(smsBytes(cut)).toBe(1999);
    expect(cut.endsWith('...')).toBe(true);
    expect(cutToBytes('짧은 글', 90)).toBe('짧은 글');
  });
});
