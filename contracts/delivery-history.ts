// DB 전송 and DB 전송 이력: sending chosen leads (or every lead the DB 현황 filters find) to one
// of the shop's channels now, with a reason, and following them as they go; every attempt the
// worker made, with the receiver's answer; the jobs still waiting or failed, retried by hand.
// Phones leave the server masked. A send's jobs travel in URLs as id ranges ("12-40,45"): the
// jobs of one send are written together and their ids are nearly always consecutive.
import { z } from './zod.ts';
import { dayField, requiredText, rowTimes } from './fields.ts';
import { listEndpoint, listQuery, shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { BULK_MAX, leadFilters } from './leads.ts';
import { DELIVERY_KINDS, DELIVERY_MODES, JOB_STATUSES, JOB_TRIGGERS, type JobStatus } from './delivery.ts';

const SEND_REASON_REQUIRED = '전송 사유를 입력하세요.';
const SEND_CHANNEL_REQUIRED = '보낼 채널을 선택하세요.';
const SEND_TARGET_REQUIRED = '보낼 DB를 선택하세요.';
const RETRY_TARGET_REQUIRED = '다시 보낼 전송을 선택하세요.';

/** Leads one send of "every lead the filter finds" takes at most: more, and the filter must be narrowed. */
export const SEND_MATCHING_MAX = 5_000;
/** Jobs one progress or history request follows at most (one send's). */
const JOB_IDS_MAX = SEND_MATCHING_MAX;
/** Attempt outcomes (a job's attempts are each one of these). */
export const ATTEMPT_STATUSES = ['succeeded', 'failed'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];
export const ATTEMPT_STATUS_LABELS: Record<AttemptStatus, string> = { succeeded: '성공', failed: '실패' };
/** The jobs 대기·실패 중 shows unless asked otherwise: those not delivered and not given up. */
export const OPEN_JOB_STATUSES: readonly JobStatus[] = ['pending', 'sending', 'failed'];

// ── Job ids in a URL ────────────────────────────────────────────────────────────────────

/** Ids as ranges, ascending: [3, 4, 5, 9] → "3-5,9". */
export function formatJobIds(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** "3-5,9" → [3, 4, 5, 9]; null when it is not such a list or holds more than `max` ids. */
export function parseJobIds(text: string, max = JOB_IDS_MAX): number[] | null {
  const ranges: Array<[number, number]> = [];
  let n = 0;
  for (const part of text.split(',')) {
    const m = /^\s*(\d{1,15})(?:-(\d{1,15}))?\s*$/.exec(part);
    if (!m) return null;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (a < 1 || b < a) return null;
    n += b - a + 1;
    // Counted before any range is spelled out: "1-999999999" is refused, not expanded.
    if (n > max) return null;
    ranges.push([a, b]);
  }
  const out = new Set<number>();
  for (const [a, b] of ranges) for (let i = a; i <= b; i++) out.add(i);
  return [...out].sort((x, y) => x - y);
}

const JOB_IDS_MESSAGE = `전송 번호 목록이 올바르지 않습니다. (최대 ${JOB_IDS_MAX.toLocaleString('ko-KR')}건)`;
/** A query-string list of job ids ("12-40,45"). */
const jobIdsParam = z
  .string(JOB_IDS_MESSAGE)
  .max(20_000, JOB_IDS_MESSAGE)
  .refine((v) => !!parseJobIds(v)?.length, JOB_IDS_MESSAGE)
  .transform((v) => parseJobIds(v)!);

const positiveId = (message: string) => z.coerce.number(message).int(message).positive(message);

/** "pending,failed" in a query string → ['pending', 'failed']. */
const jobStatusList = z
  .string()
  .max(100)
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.enum(JOB_STATUSES, '전송 상태를 목록에서 고르세요.')));

// ── Sending ─────────────────────────────────────────────────────────────────────────────

/** The DB 현황 list's filters and its search, as the send screen shows them (query-string forms, as in the URL). */
export const deliverySendFilter = z.object({
  ...leadFilters,
  /** A name, or phone digits. */
  q: listQuery.shape.q,
});

/** Chosen leads, or every lead the filter finds (at most SEND_MATCHING_MAX), to one channel, with the reason. */
export const deliverySendInput = z
  .object({
    channelId: z.number(SEND_CHANNEL_REQUIRED).int(SEND_CHANNEL_REQUIRED).positive(SEND_CHANNEL_REQUIRED),
    leadIds: z.array(z.number().int().positive(), SEND_TARGET_REQUIRED).max(BULK_MAX, `한 번에 ${BULK_MAX}건까지 선택해 보낼 수 있습니다.`).optional(),
    filter: deliverySendFilter.optional(),
    /** Duplicates (중복) are left out unless asked for. */
    includeDuplicates: z.boolean('중복 DB 포함 여부를 선택하세요.').default(false),
    reason: requiredText(200, SEND_REASON_REQUIRED),
  })
  .superRefine((v, ctx) => {
    if (!v.leadIds?.length && !v.filter) ctx.addIssue({ code: 'custom', path: ['leadIds'], message: SEND_TARGET_REQUIRED });
  });
export type DeliverySendInput = z.infer<typeof deliverySendInput>;

export const deliverySendResult = z.object({
  /** Jobs written (one per lead sent). */
  queued: z.number().int(),
  jobIds: z.array(z.number()),
  /** Leads left out: deleted (or destroyed) ones, and duplicates when not asked for. */
  skipped: z.object({ deleted: z.number().int(), duplicates: z.number().int() }),
});
export type DeliverySendResult = z.infer<typeof deliverySendResult>;

/** A channel as the send screen's picker and the history's filter show it. */
export const deliveryChannelOption = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(DELIVERY_KINDS),
  mode: z.enum(DELIVERY_MODES),
  enabled: z.boolean(),
  /** Why the system turned it off (a receiver answered 410); null when a person did, or it is on. */
  disabledReason: z.string().nullable(),
});
export type DeliveryChannelOption = z.infer<typeof deliveryChannelOption>;

/** How a send's jobs stand: counts by status, and how many still wait for their first attempt. */
export const deliveryProgress = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  sending: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  /** Of pending, those that failed before and wait for their next attempt. */
  retrying: z.number().int(),
  /** Pending or sending and never attempted yet: the progress bar runs until this is 0. */
  untried: z.number().int(),
});
export type DeliveryProgress = z.infer<typeof deliveryProgress>;

/** The shop's open jobs now, and its latest attempt: what the history screen polls to know when to refresh. */
export const deliverySummary = z.object({
  pending: z.number().int(),
  sending: z.number().int(),
  failed: z.number().int(),
  latestAttemptId: z.number().nullable(),
});
export type DeliverySummary = z.infer<typeof deliverySummary>;

// ── The history ─────────────────────────────────────────────────────────────────────────

const leadOf = {
  leadId: z.number(),
  /** The name; '파기됨' once the lead was destroyed. */
  leadName: z.string(),
  /** Always masked (010-****-5678); empty once destroyed. */
  leadPhone: z.string(),
  leadDeleted: z.boolean(),
  leadPurged: z.boolean(),
};
const channelOf = {
  channelId: z.number(),
  channelName: z.string(),
  channelKind: z.enum(DELIVERY_KINDS),
};

/** One attempt to deliver one lead. */
export const deliveryAttemptItem = z.object({
  id: z.number(),
  at: z.string(),
  jobId: z.number(),
  ...leadOf,
  ...channelOf,
  trigger: z.enum(JOB_TRIGGERS),
  status: z.enum(ATTEMPT_STATUSES),
  /** HTTP status (or SMTP reply code); null when none came. */
  responseCode: z.number().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
  /** 1 for a job's first attempt. */
  attempt: z.number(),
  /** The job's state now (a failed attempt may have been followed by a success). */
  jobStatus: z.enum(JOB_STATUSES),
});
export type DeliveryAttemptItem = z.infer<typeof deliveryAttemptItem>;

/** One job: a lead to a channel, with where it stands. */
export const deliveryJobItem = z.object({
  id: z.number(),
  ...rowTimes,
  ...leadOf,
  ...channelOf,
  channelEnabled: z.boolean(),
  trigger: z.enum(JOB_TRIGGERS),
  /** A manual send's reason. */
  reason: z.string().nullable(),
  /** Who sent it by hand. */
  createdByName: z.string().nullable(),
  status: z.enum(JOB_STATUSES),
  attempts: z.number(),
  /** When a pending job is tried next. */
  nextAttemptAt: z.string(),
  lastError: z.string().nullable(),
  responseCode: z.number().nullable(),
  deliveredAt: z.string().nullable(),
});
export type DeliveryJobItem = z.infer<typeof deliveryJobItem>;

const period = {
  /** Seoul days, inclusive; default the last 7 days. Ignored when `jobIds` names a send's jobs. */
  from: dayField.optional(),
  to: dayField.optional(),
};
const common = {
  channelId: positiveId('채널을 목록에서 고르세요.').optional(),
  trigger: z.enum(JOB_TRIGGERS, '전송 구분을 목록에서 고르세요.').optional(),
  /** One send's jobs ("12-40,45"). */
  jobIds: jobIdsParam.optional(),
  leadId: positiveId('DB 번호는 숫자로 입력하세요.').optional(),
};

export const retryInput = z.object({
  jobIds: z.array(z.number().int().positive(), RETRY_TARGET_REQUIRED).min(1, RETRY_TARGET_REQUIRED).max(BULK_MAX, `한 번에 ${BULK_MAX}건까지 다시 보낼 수 있습니다.`),
});
export type RetryInput = z.infer<typeof retryInput>;

export const deliveryApi = {
  /** Queues chosen leads, or every lead the filter finds, to one enabled channel now (DB 전송). */
  send: endpoint({ method: 'POST', path: '/api/shops/:shopId/deliveries', params: shopParam, body: deliverySendInput, response: deliverySendResult, status: 201 }),
  /** The shop's channels for the picker and the history's filter (disabled ones too, with why). */
  channels: endpoint({
    method: 'GET', path: '/api/shops/:shopId/deliveries/channels', params: shopParam, response: z.object({ items: z.array(deliveryChannelOption) }),
  }),
  /** How a send's jobs stand (the progress bar polls it). */
  progress: endpoint({
    method: 'GET', path: '/api/shops/:shopId/deliveries/progress', params: shopParam,
    query: z.object({ jobIds: jobIdsParam }), response: deliveryProgress,
  }),
  /** The shop's open jobs and latest attempt (the history polls it while anything is under way). */
  summary: endpoint({ method: 'GET', path: '/api/shops/:shopId/deliveries/summary', params: shopParam, response: deliverySummary }),
  /** Every attempt, newest first (DB 전송 이력). */
  history: listEndpoint({
    path: '/api/shops/:shopId/delivery-attempts',
    params: shopParam,
    item: deliveryAttemptItem,
    sort: ['at', 'durationMs', 'attempt'],
    filters: {
      ...period,
      ...common,
      status: z.enum(ATTEMPT_STATUSES, '결과를 목록에서 고르세요.').optional(),
      jobStatus: z.enum(JOB_STATUSES, '현재 상태를 목록에서 고르세요.').optional(),
    },
    extra: { period: z.object({ from: z.string(), to: z.string() }).nullable() },
  }),
  /** Jobs with where they stand; by default those pending, sending or failed (대기·실패 중). */
  jobs: listEndpoint({
    path: '/api/shops/:shopId/delivery-jobs',
    params: shopParam,
    item: deliveryJobItem,
    sort: ['createdAt', 'updatedAt', 'nextAttemptAt', 'attempts'],
    filters: { ...common, status: jobStatusList.optional() },
  }),
  /** Failed or cancelled jobs back to pending, tried at once. */
  retry: endpoint({
    method: 'POST', path: '/api/shops/:shopId/deliveries/retry', params: shopParam, body: retryInput,
    response: z.object({ retried: z.number().int(), skipped: z.number().int() }),
  }),
};

export type DeliveryHistoryQuery = QueryOf<typeof deliveryApi.history>;
export type DeliveryJobsQuery = QueryOf<typeof deliveryApi.jobs>;
