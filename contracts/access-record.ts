// 개인정보 접근 기록: a shop's access record — every event of its leads (lead_events: received,
// viewed, unmasked, changed, deleted, restored, purged, delivered) and every list-level access
// (access_events: exports, searches, imports, exports of this record, monthly reviews) — with
// who, when, from where, which lead and what. Nothing in the product deletes a record: a purge
// scrubs the lead's personal fields and leaves its events. The monthly review flags what the
// privacy officer should look at, and records that they did.
import { z } from './zod.ts';
import { calendarDayField as day, optionalText } from './fields.ts';
import { listEndpoint, shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';

/** The actions the record knows (others, added later, are shown by their key). */
export const ACCESS_RECORD_ACTIONS = [
  'created', 'view', 'unmask', 'call', 'status', 'memo', 'assign', 'delete', 'restore', 'purge', 'deliver',
  'return-request', 'return-approve', 'return-reject',
  'export', 'search', 'import', 'import-cancel', 'history-export', 'review', 'api-pull',
] as const;
export type AccessRecordAction = (typeof ACCESS_RECORD_ACTIONS)[number];

export const ACCESS_ACTION_LABELS: Record<AccessRecordAction, string> = {
  created: '접수', view: '상세 열람', unmask: '전화번호 보기', call: '통화 시도', status: '상태 변경', memo: '메모 변경', assign: '배분',
  delete: '삭제', restore: '복원', purge: '파기', deliver: '전송',
  'return-request': '무효 교체 요청', 'return-approve': '무효 교체 승인', 'return-reject': '무효 교체 반려',
  export: '내보내기', search: '검색', import: '가져오기', 'import-cancel': '가져오기 취소', 'history-export': '기록 내보내기', review: '월간 점검',
  'api-pull': '외부 API 조회',
};

/** antd tag colours: reads grey-blue, changes blue, the life of the data red/green, lists purple. */
export const ACCESS_ACTION_COLORS: Record<AccessRecordAction, string> = {
  created: 'green', view: 'default', unmask: 'gold', call: 'blue', status: 'blue', memo: 'blue', assign: 'cyan',
  delete: 'red', restore: 'lime', purge: 'volcano', deliver: 'geekblue',
  'return-request': 'orange', 'return-approve': 'volcano', 'return-reject': 'default',
  export: 'purple', search: 'default', import: 'green', 'import-cancel': 'volcano', 'history-export': 'purple', review: 'magenta',
  'api-pull': 'geekblue',
};

export const actionLabel = (action: string): string => ACCESS_ACTION_LABELS[action as AccessRecordAction] ?? action;

/** "view,unmask" in a query string → ['view', 'unmask']. */
const actionList = z
  .string()
  .max(300)
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.enum(ACCESS_RECORD_ACTIONS, '없는 작업입니다.')));

const positiveId = z.coerce.number('번호는 숫자로 입력하세요.').int('번호는 숫자로 입력하세요.').positive('번호는 숫자로 입력하세요.');

/** The record's filters (kept in the screen's URL): a period of Seoul days (default this month), account, actions, lead. */
const accessRecordFilters = {
  from: day.optional(),
  to: day.optional(),
  accountId: positiveId.optional(),
  action: actionList.optional(),
  leadId: positiveId.optional(),
};

/** The longest period one request reads. */
export const ACCESS_RECORD_MAX_DAYS = 366;
/** The most rows one export writes. */
export const ACCESS_RECORD_EXPORT_MAX = 100_000;

/** The account that acted (null: none, or one since removed). */
const actingAccount = {
  accountId: z.number().nullable(),
  accountName: z.string().nullable(),
  accountLoginId: z.string().nullable(),
};

export const accessRecordItem = z.object({
  /** Unique across both sources: `l<id>` (a lead's event) or `a<id>` (a list-level access). */
  key: z.string(),
  at: z.string(),
  action: z.string(),
  ...actingAccount,
  ip: z.string().nullable(),
  leadId: z.number().nullable(),
  /** Masked (홍*동); null when the lead was purged or there is none. */
  leadName: z.string().nullable(),
  /** Masked (010-****-5678); null when purged or none. */
  leadPhone: z.string().nullable(),
  /** The lead's personal data was destroyed (shown as 파기됨). */
  leadPurged: z.boolean(),
  /** The lead is deleted (waiting for its purge). */
  leadDeleted: z.boolean(),
  /** How many leads a list-level access reached. */
  rowCount: z.number().nullable(),
  /** What happened, in Korean: before → after, the reason, the count … */
  summary: z.string(),
});
export type AccessRecordItem = z.infer<typeof accessRecordItem>;

export const accessRecordAccount = z.object({ id: z.number(), name: z.string(), loginId: z.string() });

// ── The monthly review ──────────────────────────────────────────────────────────────────

/** What the review flags, per account and Seoul day. */
export const REVIEW_THRESHOLDS = {
  /** Phones revealed in a day, more than this. */
  unmaskPerDay: 30,
  /** Lead details opened in a day, more than this. */
  viewPerDay: 300,
  /** Exports in a day, more than this. */
  exportPerDay: 5,
  /** One export of more rows than this. */
  exportRows: 1000,
  /** Night in Seoul: from this hour … */
  nightFromHour: 22,
  /** … to this one. */
  nightToHour: 6,
} as const;

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

const REVIEW_FLAG_KINDS = ['unmask', 'view', 'export', 'night', 'big-export'] as const;
export type ReviewFlagKind = (typeof REVIEW_FLAG_KINDS)[number];
export const REVIEW_FLAG_LABELS: Record<ReviewFlagKind, string> = {
  unmask: `전화번호 보기 하루 ${REVIEW_THRESHOLDS.unmaskPerDay}회 초과`,
  view: `상세 열람 하루 ${REVIEW_THRESHOLDS.viewPerDay}회 초과`,
  export: `내보내기 하루 ${REVIEW_THRESHOLDS.exportPerDay}회 초과`,
  night: `야간 접근 (${hh(REVIEW_THRESHOLDS.nightFromHour)}–${hh(REVIEW_THRESHOLDS.nightToHour)})`,
  'big-export': `${REVIEW_THRESHOLDS.exportRows.toLocaleString('ko-KR')}건 초과 내보내기`,
};

const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
const month = z.string('점검할 달을 고르세요.').regex(MONTH_RE, '달은 YYYY-MM 형식으로 입력하세요.');

export const reviewFlag = z.object({
  kind: z.enum(REVIEW_FLAG_KINDS),
  ...actingAccount,
  /** The Seoul day. */
  day: z.string(),
  /** The events that day (for a big export: its rows). */
  count: z.number(),
  /** The moment of a big export. */
  at: z.string().nullable(),
});
export type ReviewFlag = z.infer<typeof reviewFlag>;

export const accessReview = z.object({
  month: z.string(),
  reviewedAt: z.string(),
  reviewerName: z.string().nullable(),
  reviewerLoginId: z.string().nullable(),
  note: z.string().nullable(),
});
export type AccessReview = z.infer<typeof accessReview>;

export const accessReviewReport = z.object({
  month: z.string(),
  /** The month has ended in Seoul (only then can it be marked reviewed). */
  over: z.boolean(),
  flags: z.array(reviewFlag),
  review: accessReview.nullable(),
});
export type AccessReviewReport = z.infer<typeof accessReviewReport>;

export const accessReviewQuery = z.object({ month: month.optional() });
export const accessReviewInput = z.object({ month, note: optionalText(500) });
export type AccessReviewInput = z.infer<typeof accessReviewInput>;

export const accessRecordApi = {
  list: listEndpoint({
    path: '/api/shops/:shopId/access-record', params: shopParam, item: accessRecordItem, sort: ['at'], filters: accessRecordFilters,
    extra: { period: z.object({ from: z.string(), to: z.string() }) },
  }),
  /** The filtered record as CSV (UTF-8 with BOM, for Excel); the export is itself recorded. */
  export: endpoint({
    method: 'GET', path: '/api/shops/:shopId/access-record/export', params: shopParam,
    query: z.object(accessRecordFilters), response: 'file',
  }),
  /** Accounts that may reach the shop's data (the account filter's options). */
  accounts: endpoint({
    method: 'GET', path: '/api/shops/:shopId/access-record/accounts', params: shopParam,
    response: z.object({ items: z.array(accessRecordAccount) }),
  }),
  review: endpoint({ method: 'GET', path: '/api/shops/:shopId/access-record/review', params: shopParam, query: accessReviewQuery, response: accessReviewReport }),
  markReviewed: endpoint({
    method: 'POST', path: '/api/shops/:shopId/access-record/review', params: shopParam, body: accessReviewInput, response: accessReview, status: 201,
  }),
};

export type AccessRecordQuery = QueryOf<typeof accessRecordApi.list>;
export type AccessRecordFilter = QueryOf<typeof accessRecordApi.export>;

/** The Seoul month before the one `day` (YYYY-MM-DD) is in. */
export function previousMonth(day: string): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** The first and last Seoul days of a month (YYYY-MM). */
export function monthDays(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}
