// DB 전송 설정: a shop's delivery channels (webhook, e-mail, SMS / 알림톡 gateway) — what each
// sends, when, to whom — and the per-kind settings the senders read from the channel's config.
// The form is flat (every kind's fields side by side, as the drawer shows them); the input
// schema checks the chosen kind's fields and hands the service `config` in the stored shape.
import { z } from './zod.ts';
import { listEndpoint, shopItemParams, shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { optionalText, requiredText, rowTimes } from './fields.ts';
import { isKoreanPhone, normalisePhone } from './rules.ts';
import { CS_STATUSES } from './leads.ts';
import {
  DEFAULT_DELIVERY_FIELDS, DELIVERY_FIELDS, DELIVERY_KINDS, DELIVERY_MODES, JOB_STATUSES, LMS_MAX_BYTES, SMS_MAX_BYTES, smsBytes,
  type DeliveryKind,
} from './delivery.ts';

// ---------------------------------------------------------------------------------------------
// Rules shared by the form and the server

/** How long a rotated-out webhook secret still signs (receivers switch over meanwhile). */
export const SECRET_GRACE_HOURS = 24;

/**
 * http(s) without credentials. Which hosts a receiver may be on is the server's to judge (its
 * outbound client: no internal address, plain http only to ranges the operator allowed).
 */
function isAllowedDeliveryUrl(value: string): boolean {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  return u.protocol === 'https:' || u.protocol === 'http:';
}

export const DELIVERY_URL_MESSAGE = 'https://로 시작하는 주소를 입력하세요. (http://는 운영자가 허용한 내부 주소에만 쓸 수 있습니다.)';

/** The URL a receiver listens on. */
const deliveryUrl = (missing: string) =>
  requiredText(500, missing).refine(isAllowedDeliveryUrl, DELIVERY_URL_MESSAGE);

export const SMS_PRESETS = ['aligo', 'generic'] as const;
export type SmsPreset = (typeof SMS_PRESETS)[number];
export const SMS_PRESET_LABELS: Record<SmsPreset, string> = { aligo: '알리고 (aligo.in)', generic: '범용 HTTP (JSON)' };
/** The gateway URL each preset fills in (editable). */
export const SMS_PRESET_URLS: Record<SmsPreset, string> = { aligo: 'https://apis.aligo.in/send/', generic: 'https://' };
/** 알리고's 알림톡 endpoint, used instead of the SMS one when a channel has a 알림톡 template. */
export const ALIGO_ALIMTALK_URL = 'https://kakaoapi.aligo.in/akv10/alimtalk/send/';

/** What the placeholders become in the byte counter (a typical lead; a masked phone is as long as a full one). */
const SMS_SAMPLE_VALUES: Record<string, string> = {
  '#{이름}': '홍길동', '#{연락처}': '010-****-5678', '#{랜딩}': '임플란트 상담 이벤트', '#{매체}': '네이버',
  '#{접수일시}': '11/25 14:30', '#{업체}': '리드룸치과',
};

/** The template with each placeholder replaced (unknown `#{…}` stay as written). */
export function fillSmsTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/#\{[^}]*\}/g, (ph) => values[ph] ?? ph);
}

export type SmsType = 'SMS' | 'LMS';
/** SMS up to 90 bytes, LMS up to 2,000, null past that. */
export function smsTypeOf(bytes: number): SmsType | null {
  return bytes <= SMS_MAX_BYTES ? 'SMS' : bytes <= LMS_MAX_BYTES ? 'LMS' : null;
}

/** The template's length as a sent message (placeholders filled with the sample values). */
export function smsTemplateBytes(template: string): number {
  return smsBytes(fillSmsTemplate(template, SMS_SAMPLE_VALUES));
}

export const DEFAULT_SMS_TEMPLATE = '[#{업체}] 새 DB: #{이름} #{연락처} (#{랜딩})';

const HHMM_RE = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

// ---------------------------------------------------------------------------------------------
// Per-kind settings: the form's rules (zodRule) and, parsed, the stored config

const emailAddress = z.email('올바른 이메일 주소를 입력하세요.').max(120, '120자 이하로 입력하세요.');
const staffPhone = z
  .string('전화번호를 입력하세요.')
  .transform(normalisePhone)
  .refine(isKoreanPhone, '올바른 전화번호를 입력하세요.');

export const webhookConfigInput = z.object({
  url: deliveryUrl('받을 주소(URL)를 입력하세요.'),
  timeoutMs: z.coerce
    .number('응답 대기 시간을 입력하세요.')
    .int('정수로 입력하세요.')
    .min(1000, '응답 대기 시간은 1,000ms 이상입니다.')
    .max(30000, '응답 대기 시간은 30,000ms 이하입니다.')
    .default(5000),
});
type WebhookConfig = z.output<typeof webhookConfigInput>;

export const emailConfigInput = z.object({
  recipients: z
    .array(emailAddress, '받는 사람 이메일을 입력하세요.')
    .min(1, '받는 사람 이메일을 1개 이상 입력하세요.')
    .max(10, '받는 사람은 10명까지입니다.')
    .refine((a) => new Set(a.map((e) => e.toLowerCase())).size === a.length, '같은 이메일이 두 번 있습니다.'),
  subjectPrefix: optionalText(30),
  fullPhone: z.boolean().default(false),
});
export type EmailConfig = Omit<z.output<typeof emailConfigInput>, 'subjectPrefix'> & { subjectPrefix: string | null };

export const smsConfigInput = z
  .object({
    preset: z.enum(SMS_PRESETS, '전송 방식(프리셋)을 선택하세요.'),
    gatewayUrl: deliveryUrl('게이트웨이 주소(URL)를 입력하세요.'),
    /** 알리고 user_id (the generic preset needs none). */
    userId: optionalText(60),
    sender: z
      .string('발신번호를 입력하세요.')
      .transform(normalisePhone)
      .refine((v) => v.length > 0, '발신번호를 입력하세요.')
      .refine(isKoreanPhone, '발신번호는 등록된 전화번호(숫자)로 입력하세요.'),
    receivers: z
      .array(staffPhone, '받을 전화번호를 입력하세요.')
      .min(1, '받을 전화번호를 1개 이상 입력하세요.')
      .max(5, '받을 전화번호는 5개까지입니다.')
      .refine((a) => new Set(a).size === a.length, '같은 전화번호가 두 번 있습니다.'),
    template: requiredText(2000, '보낼 문자 내용을 입력하세요.').superRefine((t, ctx) => {
      const bytes = smsTemplateBytes(t);
      if (bytes > LMS_MAX_BYTES) {
        ctx.addIssue({ code: 'custom', message: `문자 내용이 ${bytes.toLocaleString('ko-KR')}바이트입니다. LMS 최대 ${LMS_MAX_BYTES.toLocaleString('ko-KR')}바이트 이하로 줄이세요.` });
      }
    }),
    /** 카카오 알림톡: the approved template's code (empty: plain SMS/LMS). */
    kakaoTemplateCode: optionalText(40),
    /** 카카오 알림톡 발신 프로필 키 (알리고 senderkey). */
    kakaoSenderKey: optionalText(80),
    fullPhone: z.boolean().default(false),
  })
  .superRefine((s, ctx) => {
    if (s.preset === 'aligo' && !s.userId) ctx.addIssue({ code: 'custom', path: ['userId'], message: '알리고 아이디(user_id)를 입력하세요.' });
    if (s.kakaoTemplateCode && s.preset === 'aligo' && !s.kakaoSenderKey) {
      ctx.addIssue({ code: 'custom', path: ['kakaoSenderKey'], message: '알림톡 발신 프로필 키를 입력하세요.' });
    }
  });
/** The stored SMS config (the gateway key itself is the channel's secret, never here). */
export interface SmsConfig {
  preset: SmsPreset;
  gatewayUrl: string;
  userId: string | null;
  sender: string;
  receivers: string[];
  template: string;
  kakaoTemplateCode: string | null;
  kakaoSenderKey: string | null;
  fullPhone: boolean;
}

export type ChannelConfig = WebhookConfig | EmailConfig | SmsConfig;

const KIND_INPUTS: Record<DeliveryKind, z.ZodType> = { webhook: webhookConfigInput, email: emailConfigInput, sms: smsConfigInput };
const KIND_FIELDS: Record<DeliveryKind, readonly string[]> = {
  webhook: ['url', 'timeoutMs'],
  email: ['recipients', 'subjectPrefix', 'fullPhone'],
  sms: ['preset', 'gatewayUrl', 'userId', 'sender', 'receivers', 'template', 'kakaoTemplateCode', 'kakaoSenderKey', 'fullPhone'],
};

// ---------------------------------------------------------------------------------------------
// The channel form

export const deliveryChannelInput = z
  .object({
    name: requiredText(60, '채널 이름을 입력하세요.'),
    kind: z.enum(DELIVERY_KINDS, '채널 종류를 선택하세요.'),
    enabled: z.boolean().default(true),
    mode: z.enum(DELIVERY_MODES, '보내는 시점을 선택하세요.').default('instant'),
    /** HH:mm Seoul, digest mode. */
    digestAt: z.string().trim().nullable().optional(),
    /** CS statuses delivered (empty: all). */
    statuses: z.array(z.enum(CS_STATUSES, '목록에 있는 상담 상태를 선택하세요.')).default([]),
    /** Landing ids delivered (empty: all). */
    landingIds: z.array(z.coerce.number().int().positive()).default([]),
    includeDuplicates: z.boolean().default(false),
    fields: z
      .array(z.enum(DELIVERY_FIELDS, '목록에 있는 항목을 선택하세요.'))
      .min(1, '보낼 항목을 1개 이상 선택하세요.')
      .default([...DEFAULT_DELIVERY_FIELDS]),
    // Each kind's own fields (checked against the kind's schema below).
    url: z.unknown().optional(),
    timeoutMs: z.unknown().optional(),
    recipients: z.unknown().optional(),
    subjectPrefix: z.unknown().optional(),
    fullPhone: z.unknown().optional(),
    preset: z.unknown().optional(),
    gatewayUrl: z.unknown().optional(),
    /** The gateway key (SMS): write-only; empty on update keeps the stored one. */
    apiKey: z.string().trim().max(200, '200자 이하로 입력하세요.').nullable().optional(),
    userId: z.unknown().optional(),
    sender: z.unknown().optional(),
    receivers: z.unknown().optional(),
    template: z.unknown().optional(),
    kakaoTemplateCode: z.unknown().optional(),
    kakaoSenderKey: z.unknown().optional(),
  })
  .transform((r, ctx) => {
    let digestAt: string | null = r.digestAt || null;
    if (r.mode === 'digest' && !digestAt) ctx.addIssue({ code: 'custom', path: ['digestAt'], message: '모아 보낼 시각을 입력하세요.' });
    else if (digestAt && !HHMM_RE.test(digestAt)) ctx.addIssue({ code: 'custom', path: ['digestAt'], message: '시각은 HH:mm(예: 09:00) 형식으로 입력하세요.' });
    if (r.mode === 'instant') digestAt = null;
    const raw: Record<string, unknown> = {};
    for (const f of KIND_FIELDS[r.kind]) raw[f] = (r as Record<string, unknown>)[f];
    const parsed = KIND_INPUTS[r.kind].safeParse(raw);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path as PropertyKey[], message: issue.message });
    const config = (parsed.success ? parsed.data : {}) as ChannelConfig;
    if (r.kind === 'email') (config as EmailConfig).subjectPrefix ??= null;
    if (r.kind === 'sms') {
      const s = config as SmsConfig;
      s.userId ??= null;
      s.kakaoTemplateCode ??= null;
      s.kakaoSenderKey ??= null;
    }
    return {
      name: r.name, kind: r.kind, enabled: r.enabled, mode: r.mode, digestAt,
      statuses: [...new Set(r.statuses)], landingIds: [...new Set(r.landingIds)], includeDuplicates: r.includeDuplicates,
      fields: DELIVERY_FIELDS.filter((f) => r.fields.includes(f)),
      config,
      apiKey: r.kind === 'sms' ? r.apiKey || null : null,
    };
  });
export type DeliveryChannelInput = z.output<typeof deliveryChannelInput>;
export type DeliveryChannelForm = z.input<typeof deliveryChannelInput>;

// ---------------------------------------------------------------------------------------------
// What the screen shows

/** A channel's settings as the form edits them (every kind's fields; the secret never). */
export const channelConfigView = z.object({
  url: z.string().optional(),
  timeoutMs: z.number().optional(),
  recipients: z.array(z.string()).optional(),
  subjectPrefix: z.string().nullable().optional(),
  fullPhone: z.boolean().optional(),
  preset: z.enum(SMS_PRESETS).optional(),
  gatewayUrl: z.string().optional(),
  userId: z.string().nullable().optional(),
  sender: z.string().optional(),
  receivers: z.array(z.string()).optional(),
  template: z.string().optional(),
  kakaoTemplateCode: z.string().nullable().optional(),
  kakaoSenderKey: z.string().nullable().optional(),
});

export const deliveryChannel = z.object({
  id: z.number(),
  shopId: z.number(),
  name: z.string(),
  kind: z.enum(DELIVERY_KINDS),
  enabled: z.boolean(),
  mode: z.enum(DELIVERY_MODES),
  digestAt: z.string().nullable(),
  statuses: z.array(z.string()),
  landingIds: z.array(z.number()),
  includeDuplicates: z.boolean(),
  fields: z.array(z.enum(DELIVERY_FIELDS)),
  config: channelConfigView,
  /** Where it goes, in a few words: the URL's host, "수신자 3명", masked receivers. */
  target: z.string(),
  /** Whether a secret is stored (webhook signing secret; SMS gateway key). */
  hasSecret: z.boolean(),
  /** The webhook secret's first characters, to tell it apart (never the secret). */
  secretPrefix: z.string().nullable(),
  /** Until when the rotated-out secret still signs, or null. */
  previousSecretUntil: z.string().nullable(),
  /** Why the system turned it off (a receiver answered 410), with when. */
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  /** The last finished delivery (succeeded or failed). */
  lastDelivery: z.object({ at: z.string(), status: z.enum(JOB_STATUSES), responseCode: z.number().nullable() }).nullable(),
  pendingJobs: z.number().int(),
  failedJobs: z.number().int(),
  ...rowTimes,
});
export type DeliveryChannel = z.infer<typeof deliveryChannel>;

/** After create: the channel and, for a webhook, its new secret — shown this once. */
export const deliveryChannelCreated = deliveryChannel.extend({ newSecret: z.string().nullable() });

export const rotatedSecret = z.object({
  /** The new secret, shown this once. */
  secret: z.string(),
  secretPrefix: z.string(),
  /** The old secret keeps signing until then. */
  previousValidUntil: z.string().nullable(),
});
export type RotatedSecret = z.infer<typeof rotatedSecret>;

/** What the receiver answered a test send. */
export const deliveryTestResult = z.object({
  ok: z.boolean(),
  /** HTTP status, SMTP reply code; null when none came. */
  status: z.number().nullable(),
  durationMs: z.number(),
  excerpt: z.string().nullable(),
  error: z.string().nullable(),
});
export type DeliveryTestResult = z.infer<typeof deliveryTestResult>;

export const smtpStatus = z.object({ configured: z.boolean(), from: z.string() });
export type SmtpStatus = z.infer<typeof smtpStatus>;

export const deliveryLandingOption = z.object({ id: z.number(), title: z.string(), code: z.string() });

export const deliveryChannelsApi = {
  list: listEndpoint({
    path: '/api/shops/:shopId/delivery-channels', params: shopParam, item: deliveryChannel, sort: ['name', 'createdAt', 'kind'],
    filters: { kind: z.enum(DELIVERY_KINDS).optional() },
  }),
  get: endpoint({ method: 'GET', path: '/api/shops/:shopId/delivery-channels/:id', params: shopItemParams, response: deliveryChannel }),
  create: endpoint({
    method: 'POST', path: '/api/shops/:shopId/delivery-channels', params: shopParam, body: deliveryChannelInput, response: deliveryChannelCreated, status: 201,
  }),
  update: endpoint({ method: 'PUT', path: '/api/shops/:shopId/delivery-channels/:id', params: shopItemParams, body: deliveryChannelInput, response: deliveryChannel }),
  /** Only a channel that never delivered; one with history is turned off (사용 중지) instead. */
  remove: endpoint({ method: 'DELETE', path: '/api/shops/:shopId/delivery-channels/:id', params: shopItemParams, response: null }),
  /** Turn on or off (the list's switch): off cancels its pending jobs; on clears a system stop. */
  setEnabled: endpoint({
    method: 'POST', path: '/api/shops/:shopId/delivery-channels/:id/enabled', params: shopItemParams,
    body: z.object({ enabled: z.boolean('사용 여부를 선택하세요.') }), response: deliveryChannel,
  }),
  /** Webhook: a new signing secret, shown once; the old one signs too for SECRET_GRACE_HOURS. */
  rotateSecret: endpoint({ method: 'POST', path: '/api/shops/:shopId/delivery-channels/:id/rotate-secret', params: shopItemParams, response: rotatedSecret }),
  /** Sends a sample lead now and answers what the receiver said. */
  test: endpoint({ method: 'POST', path: '/api/shops/:shopId/delivery-channels/:id/test', params: shopItemParams, response: deliveryTestResult }),
  smtpStatus: endpoint({ method: 'GET', path: '/api/shops/:shopId/delivery-channels/smtp-status', params: shopParam, response: smtpStatus }),
  /** The shop's landings, for the channel's landing filter. */
  landings: endpoint({
    method: 'GET', path: '/api/shops/:shopId/delivery-channels/landings', params: shopParam, response: z.array(deliveryLandingOption),
  }),
};
export type DeliveryChannelListQuery = QueryOf<typeof deliveryChannelsApi.list>;
