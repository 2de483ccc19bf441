// The e-mail channel: the lead (or a digest's leads) as a plain-text and a simple HTML table,
// through the SMTP server of SMTP_URL. Names and answers are visitor input: every value is
// escaped in the HTML. Phones are masked unless the channel is set to send them in full. The
// Message-ID comes from the job's idempotency key, so a repeat after a lost answer is the same
// message to the receiving mail system.
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { ChannelSender, SendInput, SendResult } from '../channel.ts';
import { deliveredLead } from '../channel.ts';
import { DELIVERY_FIELD_LABELS, type DeliveredLead, type DeliveryField } from '../../../../contracts/delivery.ts';
import type { EmailConfig } from '../../../../contracts/delivery-channels.ts';
import { escapeHtml } from '../../../../contracts/page-safety.ts';
import { formatSeoul, seoulDay } from '../../../../contracts/kst.ts';
import { formatPhone } from '../../../../contracts/rules.ts';

export const SMTP_MISSING = '메일 서버(SMTP_URL)가 설정되지 않았습니다.';

const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

/** A field's value as one line of text. */
export function fieldText(lead: DeliveredLead, f: DeliveryField): string {
  switch (f) {
    case 'id': return lead.id === undefined ? '' : String(lead.id);
    case 'receivedAt': return lead.receivedAt ? formatSeoul(lead.receivedAt) : '';
    case 'name': return lead.name ?? '';
    // Full numbers arrive as digits: written as people read them (masked ones already are).
    case 'phone': return lead.phone ? (/^\d+$/.test(lead.phone) ? formatPhone(lead.phone) : lead.phone) : '';
    case 'landing': {
      const name = lead.landing?.title ?? lead.landing?.code ?? '';
      return lead.landing?.variant ? `${name} (실험안 ${lead.landing.variant})` : name;
    }
    case 'medium': return lead.medium ?? '';
    case 'answers': return (lead.answers ?? []).map((a) => `${a.label}: ${a.value}`).join(', ');
    case 'utm': {
      const u = lead.utm;
      if (!u) return '';
      return (['source', 'medium', 'campaign', 'content', 'term'] as const).filter((k) => u[k]).map((k) => `${k}=${u[k]}`).join(' ');
    }
    case 'csStatus': return lead.csStatus ?? '';
    case 'memo': return lead.memo ?? '';
  }
}

/** "11월 25일" of a Seoul day. */
const monthDay = (at: Date) => {
  const [, m, d] = seoulDay(at).split('-');
  return `${Number(m)}월 ${Number(d)}일`;
};

export function emailSubject(input: SendInput, prefix: string | null): string {
  const head = prefix?.trim() || '[Leadroom]';
  const n = input.items.length;
  const first = input.items[0]?.lead;
  switch (input.event) {
    case 'lead.test': return `${head} 테스트 전송 — ${input.channel.name}`;
    case 'lead.digest': return `${head} ${monthDay(input.now)} DB ${n}건`;
    case 'lead.resent': return `${head} DB ${n}건 재전송`;
    default: return n === 1 ? `${head} 새 DB 1건 — ${first?.landingTitle ?? first?.landingCode ?? '랜딩 없음'}` : `${head} 새 DB ${n}건`;
  }
}

const INTRO: Record<SendInput['event'], string> = {
  'lead.created': '새 DB가 접수되었습니다.',
  'lead.digest': '모아 보내는 DB입니다.',
  'lead.resent': '요청에 따라 다시 보내는 DB입니다.',
  'lead.test': '테스트 전송입니다. 아래는 예시 DB이며 실제 신청이 아닙니다.',
};

export function emailBodies(input: SendInput, fullPhone: boolean): { text: string; html: string } {
  const fields = input.channel.fields;
  const leads = input.items.map((i) => deliveredLead(i.lead, fields, fullPhone));
  const intro = `${input.channel.shopName} — ${INTRO[input.event]} (${leads.length}건)`;
  const text = [
    intro,
    '',
    ...leads.flatMap((l, i) => [`[${i + 1}]`, ...fields.map((f) => `${DELIVERY_FIELD_LABELS[f]}: ${fieldText(l, f)}`), '']),
    fullPhone ? '' : '연락처는 가려서 보냅니다. 전체 번호는 Leadroom에서 확인하세요.',
    `보낸 시각: ${formatSeoul(input.now)} (한국 시간)`,
  ].join('\n');
  const cell = 'border:1px solid #d9d9d9;padding:6px 8px;text-align:left;vertical-align:top';
  const head = fields.map((f) => `<th style="${cell};background:#fafafa">${escapeHtml(DELIVERY_FIELD_LABELS[f])}</th>`).join('');
  const rows = leads.map((l) => `<tr>${fields.map((f) => `<td style="${cell}">${escapeHtml(fieldText(l, f))}</td>`).join('')}</tr>`).join('');
  const html = [
    '<!doctype html><html lang="ko"><head><meta charset="utf-8"></head>',
    '<body style="font-family:-apple-system,\'Malgun Gothic\',sans-serif;font-size:14px;color:#222">',
    `<p>${escapeHtml(intro)}</p>`,
    `<table style="border-collapse:collapse"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`,
    fullPhone ? '' : '<p style="color:#888;font-size:12px">연락처는 가려서 보냅니다. 전체 번호는 Leadroom에서 확인하세요.</p>',
    `<p style="color:#888;font-size:12px">보낸 시각: ${escapeHtml(formatSeoul(input.now))} (한국 시간)</p>`,
    '</body></html>',
  ].join('');
  return { text, html };
}

/** The Message-ID: the job's idempotency key (a digest's: their hash), the same on every attempt. */
export function messageIdOf(input: SendInput): string {
  const keys = input.items.map((i) => i.idempotencyKey);
  const local = keys.length === 1
    ? keys[0]!.replace(/[^A-Za-z0-9._-]/g, '-')
    : `digest-${crypto.createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 32)}`;
  return `<${local}@leadroom>`;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

const replyCode = (response: string | undefined) => {
  const m = /^(\d{3})/.exec(response ?? '');
  return m ? Number(m[1]) : null;
};

export const sendEmail: ChannelSender = async (input, deps): Promise<SendResult> => {
  const started = Date.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Date.now() - started });
  if (!deps.smtpUrl) return done({ ok: false, status: null, error: SMTP_MISSING, retryable: false });
  const config = input.channel.config as Partial<EmailConfig>;
  const recipients = config.recipients ?? [];
  if (recipients.length === 0) return done({ ok: false, status: null, error: '받는 사람 이메일이 없습니다.', retryable: false });
  const { text, html } = emailBodies(input, config.fullPhone === true);

  let transport: nodemailer.Transporter<SMTPTransport.SentMessageInfo>;
  try {
    transport = nodemailer.createTransport(
      new SMTPTransport({ url: deps.smtpUrl, connectionTimeout: CONNECT_TIMEOUT_MS, greetingTimeout: CONNECT_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS }),
    );
  } catch (err) {
    return done({ ok: false, status: null, error: `메일 서버 설정(SMTP_URL)을 읽을 수 없습니다: ${(err as Error).message}`, retryable: false });
  }
  try {
    const info = await transport.sendMail({
      from: deps.mailFrom ?? 'Leadroom <no-reply@leadroom.local>',
      to: recipients,
      subject: emailSubject(input, config.subjectPrefix ?? null),
      text,
      html,
      messageId: messageIdOf(input),
      headers: { 'X-Leadroom-Event': input.event },
    });
    const rejected = info.rejected.length;
    const excerpt = `${info.response}${rejected ? ` (받는 사람 ${rejected}명 거부)` : ''}`.slice(0, 300);
    return done({ ok: true, status: replyCode(info.response), excerpt });
  } catch (e) {
    const err = e as SmtpError;
    const code = err.responseCode ?? replyCode(err.response);
    if (code) {
      const permanent = code >= 500;
      return done({
        ok: false, status: code, retryable: !permanent, excerpt: (err.response ?? '').slice(0, 300),
        error: `메일 서버가 ${permanent ? '거부했습니다' : '잠시 받지 않습니다'} (${code}): ${err.response ?? err.message}`.slice(0, 500),
      });
    }
    return done({ ok: false, status: null, retryable: true, error: `메일 서버에 연결하지 못했습니다: ${err.message}`.slice(0, 500) });
  } finally {
    transport.close();
  }
};
