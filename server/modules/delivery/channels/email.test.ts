// The e-mail sender against a real SMTP server on loopback (smtp-server): what arrives —
// subject, escaped HTML, masked or full phones, the Message-ID — and how refusals read.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { sendEmail, SMTP_MISSING } from './email.ts';
import type { DeliveryLeadRow, SendChannel, SendInput } from '../channel.ts';
import { DEFAULT_DELIVERY_FIELDS } from '../../../../contracts/delivery.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let server: SMTPServer;
let port: number;
const inbox: Received[] = [];
/** The reply RCPT TO gets, when set (e.g. 550 or 451). */
let refuseRcpt: { code: number; message: string } | null = null;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, cb) {
      if (!refuseRcpt) return cb();
      const err = new Error(refuseRcpt.message) as Error & { responseCode: number };
      err.responseCode = refuseRcpt.code;
      cb(err);
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  inbox.length = 0;
  refuseRcpt = null;
});

// ---- a small MIME reader (enough for what nodemailer writes) ----

function decodeWords(v: string): string {
  return v.replace(/\s*=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
  );
}

function headersOf(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function parseMail(raw: string) {
  const split = raw.indexOf('\r\n\r\n');
  const headers = headersOf(raw.slice(0, split));
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  const parts: Record<string, string> = {};
  if (boundary) {
    for (const chunk of raw.slice(split + 4).split(`--${boundary}`)) {
      const at = chunk.indexOf('\r\n\r\n');
      if (at < 0) continue;
      const h = headersOf(chunk.slice(0, at).replace(/^\r\n/, ''));
      const type = (h['content-type'] ?? '').split(';')[0]!;
      if (type) parts[type] = decodeBody(chunk.slice(at + 4), h['content-transfer-encoding']);
    }
  }
  return { subject: decodeWords(headers.subject ?? ''), messageId: headers['message-id'], text: parts['text/plain'] ?? '', html: parts['text/html'] ?? '' };
}

// ---- inputs ----

const lead = (extra: Partial<DeliveryLeadRow> = {}): DeliveryLeadRow => ({
  id: 41, createdAt: '2026-11-25T05:30:00.000Z', source: 'landing', name: '홍길동', phone: '01012345678', landingId: 3, landingCode: 'implant',
  landingTitle: '임플란트 상담 이벤트', mediumName: '네이버', answers: [{ label: '지역', value: '서울' }],
  utm: { source: 'naver', medium: 'cpc', campaign: null, content: null, term: null }, csStatus: '미처리', memo: null, ...extra,
});

const channel = (config: Record<string, unknown> = {}): SendChannel => ({
  id: 7, shopId: 1, shopCode: 'smile', shopName: '미소치과', name: '상담실 메일', kind: 'email', fields: [...DEFAULT_DELIVERY_FIELDS],
  config: { recipients: ['desk@smile.kr', 'boss@smile.kr'], subjectPrefix: null, fullPhone: false, ...config }, secret: null, previousSecret: null,
});

const input = (o: Partial<SendInput> = {}): SendInput => ({
  channel: channel(), items: [{ jobId: 100, idempotencyKey: 'dj_100_abc', lead: lead() }], event: 'lead.created', attempt: 1,
  now: new Date('2026-11-25T05:30:02.000Z'), ...o,
});

const deps = () => ({ smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'Leadroom <no-reply@leadroom.local>' });

describe('the e-mail channel', () => {
  it('sends one lead with its landing in the subject, a table of the chosen fields, the phone masked, and a Message-ID from the job key', async () => {
    const r = await sendEmail(input(), deps());
    expect(r).toMatchObject({ ok: true, status: 250 });
    expect(r.excerpt).toMatch(/^250/);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]!.from).toBe('no-reply@leadroom.local');
    expect(inbox[0]!.to).toEqual(['desk@smile.kr', 'boss@smile.kr']);
    const mail = parseMail(inbox[0]!.raw);
    expect(mail.subject).toBe('[Leadroom] 새 DB 1건 — 임플란트 상담 이벤트');
    expect(mail.messageId).toBe('<dj_100_abc@leadroom>');
    expect(mail.text).toContain('이름: 홍길동');
    expect(mail.text).toContain('연락처: 010-****-5678');
    expect(mail.text).toContain('접수 일시: 2026-11-25 14:30');
    expect(mail.text).toContain('신청 내용: 지역: 서울');
    expect(mail.html).toContain('<th style="border:1px solid #d9d9d9;padding:6px 8px;text-align:left;vertical-align:top;background:#fafafa">연락처</th>');
    expect(mail.html).toContain('>010-****-5678</td>');
    expect(mail.text + mail.html).not.toMatch(/01012345678|010-1234-5678/);
  });

  it('names the A/B experiment’s variant beside the landing', async () => {
    await sendEmail(input({ items: [{ jobId: 102, idempotencyKey: 'dj_102', lead: lead({ variant: 'B' }) }] }), deps());
    expect(parseMail(inbox[0]!.raw).text).toContain('랜딩: 임플란트 상담 이벤트 (실험안 B)');
  });

  it('sends the full number only when the channel is set to', async () => {
    const r = await sendEmail(input({ channel: channel({ fullPhone: true }) }), deps());
    expect(r.ok).toBe(true);
    const mail = parseMail(inbox[0]!.raw);
    expect(mail.text).toContain('연락처: 010-1234-5678');
    expect(mail.html).toContain('>010-1234-5678</td>');
    expect(mail.text).not.toContain('가려서');
  });

  it('escapes what visitors typed: a name of <script> arrives as text', async () => {
    const evil = lead({ name: '<script>alert("x")</script>', answers: [{ label: '문의', value: '<img src=x onerror=alert(1)> & "따옴표"' }] });
    await sendEmail(input({ items: [{ jobId: 101, idempotencyKey: 'dj_101', lead: evil }] }), deps());
    const mail = parseMail(inbox[0]!.raw);
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;따옴표&quot;');
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<img');
    // Plain text carries the name as typed (a mail client shows it as text).
    expect(mail.text).toContain('이름: <script>alert("x")</script>');
  });

  it('puts a digest of several leads in one mail with the day and count in the subject', async () => {
    const items = [1, 2, 3].map((n) => ({ jobId: 200 + n, idempotencyKey: `dj_${200 + n}`, lead: lead({ id: n, name: `고객${n}`, phone: `0101234000${n}` }) }));
    const r = await sendEmail(input({ items, event: 'lead.digest', now: new Date('2026-11-25T00:00:00.000Z') }), deps());
    expect(r.ok).toBe(true);
    expect(inbox).toHaveLength(1);
    const mail = parseMail(inbox[0]!.raw);
    expect(mail.subject).toBe('[Leadroom] 11월 25일 DB 3건');
    expect(mail.messageId).toMatch(/^<digest-[0-9a-f]{32}@leadroom>$/);
    expect(mail.html.match(/<tr>/g)).toHaveLength(4);
    expect(mail.text).toContain('고객3');
    // The same digest again has the same Message-ID (a repeat is recognisable).
    await sendEmail(input({ items, event: 'lead.digest', now: new Date('2026-11-25T00:05:00.000Z') }), deps());
    expect(parseMail(inbox[1]!.raw).messageId).toBe(mail.messageId);
  });

  it('uses the channel’s subject prefix and names a test send as such', async () => {
    await sendEmail(input({ channel: channel({ subjectPrefix: '[미소치과 DB]' }), event: 'lead.test' }), deps());
    expect(parseMail(inbox[0]!.raw).subject).toBe('[미소치과 DB] 테스트 전송 — 상담실 메일');
  });

  it('answers a permanent refusal (5xx) as not worth retrying, a temporary one (4xx) as worth it', async () => {
    refuseRcpt = { code: 550, message: 'No such user here' };
    const permanent = await sendEmail(input(), deps());
    expect(permanent).toMatchObject({ ok: false, status: 550, retryable: false });
    expect(permanent.error).toContain('메일 서버가 거부했습니다 (550)');
    refuseRcpt = { code: 451, message: 'Try again later' };
    const temporary = await sendEmail(input(), deps());
    expect(temporary).toMatchObject({ ok: false, status: 451, retryable: true });
    expect(temporary.error).toContain('(451)');
    expect(inbox).toHaveLength(0);
  });

  it('answers an unreachable server as worth retrying, without a status', async () => {
    const closed = new SMTPServer({ authOptional: true, logger: false });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await sendEmail(input(), { smtpUrl: `smtp://127.0.0.1:${freePort}` });
    expect(r).toMatchObject({ ok: false, status: null, retryable: true });
    expect(r.error).toMatch(/^메일 서버에 연결하지 못했습니다/);
  });

  it('says SMTP_URL is missing, in Korean, and does not retry', async () => {
    const r = await sendEmail(input(), {});
    expect(r).toMatchObject({ ok: false, status: null, retryable: false, error: SMTP_MISSING });
    expect(SMTP_MISSING).toBe('메일 서버(SMTP_URL)가 설정되지 않았습니다.');
  });
});
