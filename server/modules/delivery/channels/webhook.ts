// The webhook channel: one POST of JSON (WebhookBody) to the shop's own system, signed with the
// channel's secret — during a rotation with the previous one too, so the receiver may switch
// at its own pace — and carrying an Idempotency-Key that stays the same across the retries of
// a delivery, so a receiver that got a repeat (a worker killed after sending, a lost answer)
// drops it. The receiver's answer decides: 2xx delivered; 410 the endpoint is gone for good
// (the worker turns the channel off); 408, 429, 5xx and network errors are worth retrying;
// any other answer is not, nor an address the outbound client refuses (server/lib/outbound.ts).
import crypto from 'node:crypto';
import { IDEMPOTENCY_HEADER, SIGNATURE_HEADER, type WebhookBody } from '../../../../contracts/delivery.ts';
import { withJosa } from '../../../../contracts/korean.ts';
import { defaultOutbound, outboundError, REDIRECT_NOT_FOLLOWED, type OutboundAnswer } from '../../../lib/outbound.ts';
import { deliveredLead, type ChannelSender, type SendResult } from '../channel.ts';

export const WEBHOOK_USER_AGENT = 'Leadroom-Webhook/1';
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;
/** Characters of the receiver's answer kept for the history. */
const EXCERPT_CHARS = 300;

const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text).digest('hex');

/** `t=<unix seconds>,v1=<hmac>[,v1=<hmac>]`: one v1 per secret, over "<t>.<body>". */
export function webhookSignature(secrets: readonly string[], t: number, body: string): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${hmac(s, `${t}.${body}`)}`)].join(',');
}

export const sendWebhook: ChannelSender = async (input, deps) => {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const { channel } = input;
  let url: URL;
  try {
    url = new URL(typeof channel.config.url === 'string' ? channel.config.url : '');
  } catch {
    return { ok: false, status: null, error: '웹훅 주소가 올바른 URL이 아닙니다.', durationMs: 0, retryable: false };
  }
  const configured = Number(channel.config.timeoutMs);
  const timeoutMs = Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_WEBHOOK_TIMEOUT_MS;

  // Jobs in id order: a digest's key (its first job's, with the count) is the same at every attempt.
  const items = [...input.items].sort((a, b) => a.jobId - b.jobId);
  const body: WebhookBody = {
    event: input.event,
    shop: { code: channel.shopCode, name: channel.shopName },
    sentAt: input.sentAt ?? input.now.toISOString(),
    // HTTPS to the shop's own system: the number in full.
    leads: items.map((i) => deliveredLead(i.lead, channel.fields, true)),
  };
  const text = JSON.stringify(body);
  const key = items.length === 1 ? items[0]!.idempotencyKey : `${items[0]?.idempotencyKey ?? ''}-${items.length}`;
  const secrets = [channel.secret, channel.previousSecret].filter((s): s is string => !!s);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': WEBHOOK_USER_AGENT,
    [IDEMPOTENCY_HEADER]: key,
    ...(secrets.length ? { [SIGNATURE_HEADER]: webhookSignature(secrets, Math.floor(input.now.getTime() / 1000), text) } : {}),
  };

  // Through the outbound client: the address it connects to is checked there, redirects are not followed.
  let answer: OutboundAnswer;
  try {
    answer = await (deps.outbound ?? defaultOutbound()).post(url, { headers, body: text, timeoutMs });
  } catch (err) {
    const e = outboundError(err);
    return { ok: false, status: null, error: e.message, durationMs: took(), retryable: e.failure !== 'refused' };
  }
  const { status } = answer;
  // The receiver's words only from a receiver that took the delivery: any other answer could be someone else's page.
  if (status >= 200 && status < 300) return { ok: true, status, excerpt: answer.body.slice(0, EXCERPT_CHARS), durationMs: took() };
  const result: SendResult = { ok: false, status, durationMs: took() };
  if (status === 410) return { ...result, gone: true, retryable: false, error: '수신 서버가 410 Gone으로 답했습니다: 이 주소는 더 이상 받지 않습니다.' };
  const retryable = status === 408 || status === 429 || status >= 500;
  const redirect = status >= 300 && status < 400 ? ` ${REDIRECT_NOT_FOLLOWED}` : '';
  return { ...result, retryable, error: `수신 서버가 ${withJosa(`HTTP ${status}`, '으로/로')} 답했습니다.${redirect}` };
};
