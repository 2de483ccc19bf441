// The SMS / 알림톡 channel: the shop's template filled per lead (a digest: one LMS summing up
// the leads), sent to the shop staff's phones through an HTTP gateway. The request shape is
// the preset's: 알리고 (form-encoded POST, JSON answer with result_code, its 알림톡 API when
// the channel has a template code) or a generic JSON POST with a bearer key.
import crypto from 'node:crypto';
import type { ChannelSender, SenderDeps, SendInput, SendItem, SendResult } from '../channel.ts';
import { defaultOutbound, outboundError, type OutboundAnswer } from '../../../lib/outbound.ts';
import { maskPhone, formatPhone } from '../../../../contracts/rules.ts';
import { LMS_MAX_BYTES, smsBytes } from '../../../../contracts/delivery.ts';
import { fillSmsTemplate, smsTypeOf, type SmsConfig, type SmsType } from '../../../../contracts/delivery-channels.ts';

const TIMEOUT_MS = 10_000;
const EXCERPT_CHARS = 300;
/** How many leads a digest's message names before "외 n건". */
const DIGEST_NAMED = 5;

/** "11/25 14:30" in Seoul. */
export function shortSeoul(iso: string | Date): string {
  const s = new Date(new Date(iso).getTime() + 9 * 3600_000).toISOString();
  return `${s.slice(5, 7)}/${s.slice(8, 10)} ${s.slice(11, 16)}`;
}

const phoneOf = (digits: string, full: boolean) => (full ? formatPhone(digits) : maskPhone(digits));

/** The placeholders' values for one lead. */
export function placeholderValues(item: SendItem, shopName: string, fullPhone: boolean): Record<string, string> {
  const l = item.lead;
  return {
    '#{이름}': l.name, '#{연락처}': phoneOf(l.phone, fullPhone), '#{랜딩}': l.landingTitle ?? l.landingCode ?? '',
    '#{매체}': l.mediumName ?? '', '#{접수일시}': shortSeoul(l.createdAt), '#{업체}': shopName,
  };
}

/** The text cut to at most `max` EUC-KR bytes (a digest of many leads must still fit an LMS). */
export function cutToBytes(text: string, max: number): string {
  if (smsBytes(text) <= max) return text;
  let out = '';
  let n = 0;
  for (const ch of text) {
    const b = ch.charCodeAt(0) < 0x80 ? 1 : 2;
    if (n + b > max - 3) break;
    out += ch;
    n += b;
  }
  return `${out}...`;
}

/** The message (and its LMS title) a send carries. */
export function smsMessage(input: SendInput, config: SmsConfig): { text: string; title: string; type: SmsType } {
  const shop = input.channel.shopName;
  const items = input.items;
  let text: string;
  if (items.length === 1) {
    text = fillSmsTemplate(config.template, placeholderValues(items[0]!, shop, config.fullPhone));
    if (input.event === 'lead.test') text = `[테스트] ${text}`;
  } else {
    const head = input.event === 'lead.digest' ? `[${shop}] ${shortSeoul(input.now)} 기준 DB ${items.length}건` : `[${shop}] DB ${items.length}건`;
    const lines = items.slice(0, DIGEST_NAMED).map((i, n) => {
      const l = i.lead;
      return `${n + 1}. ${l.name} ${phoneOf(l.phone, config.fullPhone)}${l.landingTitle ? ` (${l.landingTitle})` : ''}`;
    });
    const rest = items.length - DIGEST_NAMED;
    text = [head, ...lines, ...(rest > 0 ? [`외 ${rest}건`] : []), '자세한 내용은 Leadroom에서 확인하세요.'].join('\n');
  }
  text = cutToBytes(text, LMS_MAX_BYTES);
  const type = smsTypeOf(smsBytes(text)) ?? 'LMS';
  const title = cutToBytes(items.length === 1 ? `[${shop}] 새 DB` : `[${shop}] DB ${items.length}건`, 44);
  return { text, title, type };
}

type Post = (url: string, init: { body: string; headers: Record<string, string> }) => Promise<OutboundAnswer>;

/** Through the outbound client: the address it connects to is checked there, redirects are not followed. */
const poster = (deps: SenderDeps): Post => (url, init) => (deps.outbound ?? defaultOutbound()).post(new URL(url), { ...init, timeoutMs: TIMEOUT_MS });

/** An HTTP status's verdict: 2xx fine; 410 gone; 408/429/5xx worth retrying; other 4xx not. */
function httpFailure(a: OutboundAnswer): Omit<SendResult, 'durationMs'> | null {
  if (a.status >= 200 && a.status < 300) return null;
  const retryable = a.status === 408 || a.status === 429 || a.status >= 500 || a.status < 200;
  // No excerpt: only a gateway that took the request has its words shown (a redirect or an error page could be anyone's).
  return {
    ok: false, status: a.status, retryable, gone: a.status === 410,
    error: a.status === 410 ? '게이트웨이가 410(Gone)을 응답했습니다.' : `게이트웨이가 ${a.status} 오류를 응답했습니다.`,
  };
}

const json = (body: string): Record<string, unknown> | null => {
  try {
    const v = JSON.parse(body) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

async function sendAligo(
  post: Post, config: SmsConfig, key: string, msg: { text: string; title: string; type: SmsType },
): Promise<Omit<SendResult, 'durationMs'>> {
  const form = new URLSearchParams();
  if (config.kakaoTemplateCode) {
    // 알림톡: one numbered receiver each; an undelivered 알림톡 falls back to SMS/LMS (failover).
    form.set('apikey', key);
    form.set('userid', config.userId ?? '');
    form.set('senderkey', config.kakaoSenderKey ?? '');
    form.set('tpl_code', config.kakaoTemplateCode);
    form.set('sender', config.sender);
    config.receivers.forEach((r, i) => {
      form.set(`receiver_${i + 1}`, r);
      form.set(`subject_${i + 1}`, msg.title);
      form.set(`message_${i + 1}`, msg.text);
      form.set(`fsubject_${i + 1}`, msg.title);
      form.set(`fmessage_${i + 1}`, msg.text);
    });
    form.set('failover', 'Y');
  } else {
    form.set('key', key);
    form.set('user_id', config.userId ?? '');
    form.set('sender', config.sender);
    form.set('receiver', config.receivers.join(','));
    form.set('msg', msg.text);
    form.set('msg_type', msg.type);
    if (msg.type === 'LMS') form.set('title', msg.title);
  }
  const a = await post(config.gatewayUrl, { body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' } });
  const failed = httpFailure(a);
  if (failed) return failed;
  const excerpt = a.body.slice(0, EXCERPT_CHARS);
  const answer = json(a.body);
  // SMS API: result_code '1' is success; 알림톡 API: code 0.
  const ok = config.kakaoTemplateCode ? answer !== null && Number(answer.code) === 0 : answer !== null && String(answer.result_code) === '1';
  if (ok) return { ok: true, status: a.status, excerpt };
  const code = answer ? String(config.kakaoTemplateCode ? answer.code : answer.result_code) : '응답 없음';
  const message = answer && typeof answer.message === 'string' ? answer.message : '알 수 없는 응답';
  return { ok: false, status: a.status, excerpt, retryable: true, error: `알리고가 전송을 거부했습니다 (${code}): ${message}` };
}

async function sendGeneric(
  post: Post, config: SmsConfig, key: string, msg: { text: string; title: string; type: SmsType }, idempotencyKey: string,
): Promise<Omit<SendResult, 'durationMs'>> {
  const excerpts: string[] = [];
  let last = 0;
  // One request per receiver; each with a key of its own, stable across attempts, so the gateway can drop a repeat.
  for (const [i, to] of config.receivers.entries()) {
    const body: Record<string, unknown> = { to, from: config.sender, text: msg.text, type: config.kakaoTemplateCode ? 'ALIMTALK' : msg.type };
    if (msg.type === 'LMS') body.subject = msg.title;
    if (config.kakaoTemplateCode) body.templateCode = config.kakaoTemplateCode;
    const a = await post(config.gatewayUrl, {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'idempotency-key': `${idempotencyKey}-${i + 1}` },
    });
    last = a.status;
    const failed = httpFailure(a);
    if (failed) {
      if (i > 0) failed.error = `${failed.error} (받는 번호 ${config.receivers.length}개 중 ${i}개는 보냈습니다)`;
      return failed;
    }
    excerpts.push(a.body.slice(0, 120));
  }
  return { ok: true, status: last, excerpt: excerpts.join(' | ').slice(0, EXCERPT_CHARS) };
}

export const sendSms: ChannelSender = async (input, deps): Promise<SendResult> => {
  const started = Date.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Date.now() - started });
  const config = input.channel.config as unknown as SmsConfig;
  const key = input.channel.secret;
  if (!key) return done({ ok: false, status: null, error: '게이트웨이 API 키가 없습니다.', retryable: false });
  if (!config.receivers?.length) return done({ ok: false, status: null, error: '받을 전화번호가 없습니다.', retryable: false });
  if (input.items.length === 0) return done({ ok: true, status: null, excerpt: '보낼 DB가 없습니다.' });
  const msg = smsMessage(input, config);
  const idempotencyKey = input.items.length === 1
    ? input.items[0]!.idempotencyKey
    : `digest-${crypto.createHash('sha256').update(input.items.map((i) => i.idempotencyKey).join('\n')).digest('hex').slice(0, 32)}`;
  const post = poster(deps);
  try {
    return done(config.preset === 'aligo' ? await sendAligo(post, config, key, msg) : await sendGeneric(post, config, key, msg, idempotencyKey));
  } catch (err) {
    const e = outboundError(err);
    return done({ ok: false, status: null, retryable: e.failure !== 'refused', error: e.message });
  }
};
