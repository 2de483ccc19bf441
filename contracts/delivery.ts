// Delivery to the shop: the channels (webhook, e-mail, SMS / 알림톡 gateway) and what every
// part shares about them — kinds, job statuses, the lead fields a channel may send, the
// payload shape a receiver gets, the SMS byte rule. The endpoints of each screen live in
// their own files (delivery-channels.ts, delivery-history.ts, pull-api.ts).
import { IMPORT_SOURCE, MANUAL_SOURCE } from './data-insertion.ts';

export const DELIVERY_KINDS = ['webhook', 'email', 'sms'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];
export const DELIVERY_KIND_LABELS: Record<DeliveryKind, string> = { webhook: '웹훅', email: '이메일', sms: 'SMS·알림톡' };

export const DELIVERY_MODES = ['instant', 'digest'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export const DELIVERY_MODE_LABELS: Record<DeliveryMode, string> = { instant: '즉시', digest: '하루 한 번 모아서' };

export const JOB_STATUSES = ['pending', 'sending', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_STATUS_LABELS: Record<JobStatus, string> = { pending: '대기', sending: '전송 중', succeeded: '성공', failed: '실패', cancelled: '취소' };

export const JOB_TRIGGERS = ['intake', 'manual', 'test'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];
export const JOB_TRIGGER_LABELS: Record<JobTrigger, string> = { intake: '자동', manual: '수동 전송', test: '테스트' };

/** Attempts before a job stays failed (it can still be retried by hand). */
export const MAX_ATTEMPTS = 8;
/** Backoff before attempt n+1 (n ≥ 1): base · 2^(n−1), at most the cap, with ±20% jitter. */
export const BACKOFF_BASE_MS = 5_000;
const BACKOFF_CAP_MS = 60 * 60_000;
/** How long a claimed job is a worker's own: past it, another worker takes it again. */
export const LEASE_MS = 60_000;

export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + random() * 0.4));
}

/** The lead fields a channel may send, in this order. */
export const DELIVERY_FIELDS = ['id', 'receivedAt', 'name', 'phone', 'landing', 'medium', 'answers', 'utm', 'csStatus', 'memo'] as const;
export type DeliveryField = (typeof DELIVERY_FIELDS)[number];
export const DELIVERY_FIELD_LABELS: Record<DeliveryField, string> = {
  id: 'DB 번호', receivedAt: '접수 일시', name: '이름', phone: '연락처', landing: '랜딩', medium: '매체', answers: '신청 내용', utm: 'UTM', csStatus: '상담 상태', memo: '메모',
};
export const DEFAULT_DELIVERY_FIELDS: readonly DeliveryField[] = ['id', 'receivedAt', 'name', 'phone', 'landing', 'medium', 'answers'];

/**
 * Where a lead came from, in every delivery whatever fields the channel chose: `landing` (a
 * visitor's form — an ad lead), `manual` (entered by hand on DB 등록: a call, a walk-in) or
 * `import` (imported from a file: a trade fair's list, an old CRM). A receiver that counts ad
 * conversions counts only `landing`.
 */
export const LEAD_ORIGINS = ['landing', 'manual', 'import'] as const;
export type LeadOrigin = (typeof LEAD_ORIGINS)[number];

/** leads.source (a landing's, '수기', '가져오기') as the origin a delivery names. */
export function leadOrigin(source: string): LeadOrigin {
  return source === MANUAL_SOURCE ? 'manual' : source === IMPORT_SOURCE ? 'import' : 'landing';
}

/** One lead as a receiver gets it (only the channel's chosen fields are present, and its source). */
export interface DeliveredLead {
  source: LeadOrigin;
  id?: number;
  /** ISO-8601 UTC */
  receivedAt?: string;
  name?: string;
  /** Digits in full, or masked (010-****-5678) where the channel is not allowed the full number. */
  phone?: string;
  /** `variant`: the A/B experiment's variant (A, B …) the lead came from; only on leads of an experiment. */
  landing?: { id: number | null; code: string | null; title: string | null; variant?: string };
  medium?: string | null;
  answers?: Array<{ label: string; value: string }>;
  utm?: { source: string | null; medium: string | null; campaign: string | null; content: string | null; term: string | null };
  csStatus?: string;
  memo?: string | null;
}

/** The webhook body: one lead (instant) or several (a digest). */
export interface WebhookBody {
  event: 'lead.created' | 'lead.digest' | 'lead.test' | 'lead.resent';
  shop: { code: string; name: string };
  /** When this delivery was made (the same for every attempt of it). */
  sentAt: string;
  leads: DeliveredLead[];
}

/** Signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (one v1 per valid secret during a rotation). */
export const SIGNATURE_HEADER = 'X-Leadroom-Signature';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** EUC-KR (CP949) byte length the SMS carriers count: ASCII 1 byte, everything else 2. */
export function smsBytes(text: string): number {
  let n = 0;
  for (const ch of text) n += ch.charCodeAt(0) < 0x80 ? 1 : 2;
  return n;
}
export const SMS_MAX_BYTES = 90;
export const LMS_MAX_BYTES = 2_000;
/** Placeholders an SMS / 알림톡 template may use. */
export const SMS_PLACEHOLDERS = ['#{이름}', '#{연락처}', '#{랜딩}', '#{매체}', '#{접수일시}', '#{업체}'] as const;
