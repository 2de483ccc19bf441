// The webhook channel: one POST of JSON (WebhookBody) to the shop's own system, signed with the
// channel's secret — during a rotation with the previous one too, so the receiver may switch
// at its own pace — and carrying an Idempotency-Key that stays the same across the retries of
// a delivery, so a receiver that got a repeat (a worker killed after sending, a lost answer)
// drops it. The receiver's answer decides: 2xx delivered; 410 the endpoint is gone for good
// (the worker turns the channel off); 408, 429, 5xx and network errors are worth retrying;
// any other answer is not.
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { IDEMPOTENCY_HEADER, SIGNATURE_HEADER, type WebhookBody } from '../../../../contracts/delivery.ts';
import { withJosa } from '../../../../contracts/korean.ts';
import { deliveredLead, type ChannelSender, type SendResult } from '../channel.ts';

export const WEBHOOK_USER_AGENT = 'Leadroom-Webhook/1';
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;
/** Characters of the receiver's answer kept for the history. */
const EXCERPT_CHARS = 300;

/** Hosts plain http may reach: this machine only (tests, a receiver on the same host). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Why a webhook URL may not be used (in Korean), or null: https, or http to a loopback host. */
export function webhookUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '웹훅 주소가 올바른 URL이 아닙니다.';
  }
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && isLoopbackHost(u.hostname)) return null;
  return '웹훅 주소는 https://로 시작해야 합니다.';
}

const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text).digest('hex');

/** `t=<unix seconds>,v1=<hmac>[,v1=<hmac>]`: one v1 per secret, over "<t>.<body>". */
export function webhookSignature(secrets: readonly string[], t: number, body: string): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${hmac(s, `${t}.${body}`)}`)].join(',');
}

/**
 * Connections kept open between deliveries to the same receiver (a burst of leads, a backlog
 * caught up, several sends in flight). node:http rather than fetch: a third of its CPU a request.
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo', timeout: 60_000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo', timeout: 60_000 }),
};
/** Bytes of an answer read at most: the rest is not waited for (the excerpt needs 300 characters). */
const ANSWER_BYTES = 64 * 1024;

class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * POSTs `body`; answers the status and the start of the answer, or throws a network error or a
 * TimeoutError. A kept-alive connection the receiver closed just as it was reused fails before
 * anything was read: that request is made once more on a new connection, as Node advises.
 */
async function post(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number; excerpt: string }> {
  try {
    return await postOnce(url, headers, body, timeoutMs);
  } catch (err) {
    if ((err as { reusedSocket?: boolean }).reusedSocket && (err as { code?: string }).code === 'ECONNRESET') return postOnce(url, headers, body, timeoutMs);
    throw err;
  }
}

function postOnce(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number; excerpt: string }> {
  return new Promise((resolve, reject) => {
    const agent = AGENTS[url.protocol as keyof typeof AGENTS];
    // Redirects are not followed (node:http never does): they could lead the leads to another host, or to plain http.
    const req = (url.protocol === 'https:' ? https : http).request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      let bytes = 0;
      const done = () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, excerpt: text.slice(0, EXCERPT_CHARS) });
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        bytes += chunk.length;
        if (text.length < EXCERPT_CHARS) text += chunk;
        if (bytes > ANSWER_BYTES) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    const timer = setTimeout(() => req.destroy(new TimeoutError()), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(Object.assign(err, { reusedSocket: req.reusedSocket }));
    });
    req.end(body);
  });
}

/** A network failure in a few words: the system's code (ECONNREFUSED …) where there is one. */
function networkError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e?.name === 'TimeoutError') return `${timeoutMs.toLocaleString('en-US')}ms 안에 응답이 없었습니다.`;
  return `수신 서버에 연결하지 못했습니다 (${e?.code ?? e?.message ?? String(err)}).`;
}

export const sendWebhook: ChannelSender = async (input) => {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const { channel } = input;
  const url = typeof channel.config.url === 'string' ? channel.config.url : '';
  // The settings refuse such an address when saved; checked again here, before any lead leaves.
  const problem = webhookUrlProblem(url);
  if (problem) return { ok: false, status: null, error: problem, durationMs: 0, retryable: false };
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

  let answer: { status: number; excerpt: string };
  try {
    answer = await post(new URL(url), headers, text, timeoutMs);
  } catch (err) {
    return { ok: false, status: null, error: networkError(err, timeoutMs), durationMs: took(), retryable: true };
  }
  const { status, excerpt } = answer;
  const result: SendResult = { ok: status >= 200 && status < 300, status, excerpt, durationMs: took() };
  if (result.ok) return result;
  if (status === 410) return { ...result, gone: true, retryable: false, error: '수신 서버가 410 Gone으로 답했습니다: 이 주소는 더 이상 받지 않습니다.' };
  const retryable = status === 408 || status === 429 || status >= 500;
  return { ...result, retryable, error: `수신 서버가 ${withJosa(`HTTP ${status}`, '으로/로')} 답했습니다.` };
};
