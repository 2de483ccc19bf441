// Counselors' alerts (speed to lead): a lead assigned or re-routed to an account — or, for the
// shop's managers, an SLA deadline missed — reaches the account wherever it is: a notification of
// the open back office, a Web Push to its browsers and phones, an SMS to its own number through
// the shop's SMS channel (a masked phone only). Each account chooses its channels and quiet hours
// (Seoul time) for itself; no one sets them for another.
import { z } from './zod.ts';
import { endpoint } from './endpoint.ts';
import { minuteOfDay } from './lead-sla.ts';

/** Why an account is alerted. */
export const ALERT_REASONS = ['assigned', 'sla-remind', 'sla-reroute', 'sla-notify', 'sla-manager', 'test'] as const;
export type AlertReason = (typeof ALERT_REASONS)[number];

const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

export const alertSettings = z.object({
  enabled: z.boolean(),
  /** The open back office's notification (Web Notifications API) with its tone. */
  browser: z.boolean(),
  /** Web Push to the account's subscribed browsers and phones. */
  push: z.boolean(),
  /** An SMS to the account's own number through the shop's SMS channel. */
  sms: z.boolean(),
  /** HH:mm Seoul; both null: none. During them nothing is pushed or texted. */
  quietStart: z.string().nullable(),
  quietEnd: z.string().nullable(),
  /** The account's phone, masked (SMS goes there); null: none on file. */
  phone: z.string().nullable(),
  /** This account's browsers subscribed to Web Push. */
  subscriptions: z.number(),
  updatedAt: z.string().nullable(),
});
export type AlertSettings = z.infer<typeof alertSettings>;

/** What an account that never saved its choice gets: notifications and push, no SMS, no quiet hours. */
export const ALERT_DEFAULTS = { enabled: true, browser: true, push: true, sms: false, quietStart: null, quietEnd: null } as const;

export const alertSettingsInput = z
  .object({
    enabled: z.boolean('알림 사용 여부를 고르세요.'),
    browser: z.boolean('브라우저 알림 여부를 고르세요.'),
    push: z.boolean('푸시 알림 여부를 고르세요.'),
    sms: z.boolean('문자 알림 여부를 고르세요.'),
    quietStart: z.string('방해 금지 시작 시각을 입력하세요.').regex(HHMM, '시각은 HH:mm 형식으로 입력하세요.').nullable(),
    quietEnd: z.string('방해 금지 종료 시각을 입력하세요.').regex(HHMM, '시각은 HH:mm 형식으로 입력하세요.').nullable(),
  })
  .superRefine((s, ctx) => {
    if (s.quietStart === null && s.quietEnd !== null) ctx.addIssue({ code: 'custom', path: ['quietStart'], message: '방해 금지 시작 시각을 입력하세요.' });
    if (s.quietStart !== null && s.quietEnd === null) ctx.addIssue({ code: 'custom', path: ['quietEnd'], message: '방해 금지 종료 시각을 입력하세요.' });
    if (s.quietStart !== null && s.quietStart === s.quietEnd) ctx.addIssue({ code: 'custom', path: ['quietEnd'], message: '시작과 종료 시각이 같을 수 없습니다.' });
  });
export type AlertSettingsInput = z.infer<typeof alertSettingsInput>;

/** Inside quiet hours at this Seoul minute of the day (a span past midnight wraps). */
export function inQuietHours(s: { quietStart: string | null; quietEnd: string | null }, at: Date): boolean {
  if (s.quietStart === null || s.quietEnd === null) return false;
  const seoul = new Date(at.getTime() + 9 * 3600_000);
  const minute = seoul.getUTCHours() * 60 + seoul.getUTCMinutes();
  const start = minuteOfDay(s.quietStart);
  const end = minuteOfDay(s.quietEnd);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** base64url, as PushSubscription.toJSON() gives the keys. */
const B64URL = /^[A-Za-z0-9_-]+$/;

export const pushSubscriptionInput = z.object({
  endpoint: z.string('푸시 주소가 없습니다.').max(2000, '푸시 주소가 너무 깁니다.').url('푸시 주소가 올바르지 않습니다.').refine((u) => /^https?:\/\//.test(u), '푸시 주소가 올바르지 않습니다.'),
  keys: z.object({
    p256dh: z.string('브라우저 키가 없습니다.').min(80, '브라우저 키가 올바르지 않습니다.').max(100, '브라우저 키가 올바르지 않습니다.').regex(B64URL, '브라우저 키가 올바르지 않습니다.'),
    auth: z.string('브라우저 키가 없습니다.').min(16, '브라우저 키가 올바르지 않습니다.').max(32, '브라우저 키가 올바르지 않습니다.').regex(B64URL, '브라우저 키가 올바르지 않습니다.'),
  }, '브라우저 키가 없습니다.'),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

export const pushEndpointQuery = z.object({ endpoint: z.string('푸시 주소가 없습니다.').max(2000, '푸시 주소가 너무 깁니다.') });

/** One channel's outcome of a send. */
export const alertOutcome = z.object({
  channel: z.enum(['push', 'sms']),
  status: z.enum(['sent', 'failed', 'quiet', 'off']),
  /** Pushes that reached a push service, of those tried. */
  delivered: z.number(),
  attempted: z.number(),
  error: z.string().nullable(),
});
export type AlertOutcome = z.infer<typeof alertOutcome>;

/** What a push carries (the service worker shows it): no unmasked personal data. */
export interface AlertPayload {
  title: string;
  body: string;
  /** The back-office path to open on a click. */
  url: string;
  /** One notification per lead: a later one replaces it. */
  tag: string;
  leadId: number | null;
  reason: AlertReason;
}

export const alertsApi = {
  settings: endpoint({ method: 'GET', path: '/api/alerts/settings', response: alertSettings }),
  updateSettings: endpoint({ method: 'PUT', path: '/api/alerts/settings', body: alertSettingsInput, response: alertSettings }),
  vapidKey: endpoint({ method: 'GET', path: '/api/alerts/vapid-key', response: z.object({ publicKey: z.string() }) }),
  subscribe: endpoint({ method: 'POST', path: '/api/alerts/subscriptions', body: pushSubscriptionInput, response: z.object({ id: z.number() }) }),
  unsubscribe: endpoint({ method: 'DELETE', path: '/api/alerts/subscriptions', query: pushEndpointQuery, response: null }),
  test: endpoint({ method: 'POST', path: '/api/alerts/test', response: z.object({ outcomes: z.array(alertOutcome) }) }),
};
