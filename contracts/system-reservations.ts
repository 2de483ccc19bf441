// 시스템 예약: what administrators schedule for the whole system — maintenance windows (the
// back office answers 503 to all but 최고관리자 while one runs; landing pages, intake and delivery
// keep working), landings opened or closed at a time, and announcements shown to chosen account
// types. The worker runs each once, on time; the list is also the history of what ran.
import { z } from './zod.ts';
import { idParam, listEndpoint } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { optionalText, requiredText, rowTimes } from './fields.ts';
import { LANDING_STATUSES } from './landings.ts';
import { SCREEN_KEYS } from './screens.ts';

export const RESERVATION_KINDS = ['maintenance', 'landing-open', 'landing-close', 'announcement', 'experiment-stop'] as const;
export type ReservationKind = (typeof RESERVATION_KINDS)[number];
export const RESERVATION_KIND_LABELS: Record<ReservationKind, string> = {
  maintenance: '시스템 점검', 'landing-open': '랜딩 게시', 'landing-close': '랜딩 종료', announcement: '공지', 'experiment-stop': '실험 종료',
};
/** Kinds that last from their start to their end (the others happen at one instant). */
export const lastsAWhile = (kind: ReservationKind) => kind === 'maintenance' || kind === 'announcement';
export const isLandingKind = (kind: ReservationKind) => kind === 'landing-open' || kind === 'landing-close';
/**
 * A landing experiment's scheduled stop (without promoting a variant): made from the experiment's
 * 종료 예약 in 랜딩 관리 › A/B 실험; here its time and title can be changed and it can be cancelled.
 */
export const isExperimentKind = (kind: ReservationKind) => kind === 'experiment-stop';

// ended: a window or an announcement someone ended while it was under way (조기 종료) — it did run,
// unlike one cancelled before its start.
export const RESERVATION_STATUSES = ['scheduled', 'running', 'done', 'ended', 'cancelled', 'failed'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];
export const RESERVATION_STATUS_LABELS: Record<ReservationStatus, string> = {
  scheduled: '예약됨', running: '진행 중', done: '완료', ended: '조기 종료', cancelled: '취소', failed: '실패',
};

/** A start may lie this far in the past when saved (the form took a while to fill in). */
export const START_SLACK_MS = 5 * 60_000;
/** The longest maintenance window: the back office is closed to all but 최고관리자 meanwhile. */
export const MAINTENANCE_MAX_HOURS = 12;
/** The longest an announcement stays up. */
export const ANNOUNCEMENT_MAX_DAYS = 90;
/** How long before a maintenance window the back office's banner announces it. */
export const MAINTENANCE_NOTICE_HOURS = 24;

const instant = (missing: string) =>
  z.iso.datetime({ offset: true, error: (issue) => (issue.input === undefined || issue.input === null ? missing : '올바른 날짜를 선택하세요.') });

export const reservationLanding = z.object({
  id: z.number(),
  title: z.string(),
  landingCode: z.string(),
  status: z.enum(LANDING_STATUSES),
  shopId: z.number(),
  shopName: z.string(),
});

export const systemReservation = z.object({
  id: z.number(),
  kind: z.enum(RESERVATION_KINDS),
  title: z.string(),
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  message: z.string().nullable(),
  /** The landing a landing-open/close or an experiment stop acts on (null when gone since). */
  landingId: z.number().nullable(),
  /** The experiment an experiment-stop stops, with its name (null for other kinds, or when gone since). */
  experimentId: z.number().nullable(),
  experimentName: z.string().nullable(),
  landing: reservationLanding.nullable(),
  /** Who sees an announcement; empty: every account. */
  accountTypes: z.array(z.object({ id: z.number(), name: z.string() })),
  /** The screen an announcement is about: only accounts that can open it see it (null: about none). */
  screen: z.string().nullable(),
  status: z.enum(RESERVATION_STATUSES),
  executedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** What the run did or why it failed; the cancellation's reason. */
  result: z.string().nullable(),
  createdBy: z.string().nullable(),
  ...rowTimes,
  cancelledAt: z.string().nullable(),
});
export type SystemReservation = z.infer<typeof systemReservation>;

/**
 * What an administrator schedules. Kind-specific parts: a landing for open/close, an end and a
 * message for maintenance and announcements, account types for announcements. That the start
 * lies ahead is the server's check (its clock), and the form's.
 */
export const systemReservationInput = z
  .object({
    kind: z.enum(RESERVATION_KINDS, '종류를 선택하세요.'),
    title: requiredText(100, '제목을 입력하세요.'),
    startsAt: instant('시작 일시를 선택하세요.'),
    endsAt: instant('종료 일시를 선택하세요.').nullable().optional(),
    message: optionalText(500),
    landingId: z.number('랜딩을 선택하세요.').int('랜딩을 선택하세요.').positive('랜딩을 선택하세요.').nullable().optional(),
    experimentId: z.number('실험을 선택하세요.').int('실험을 선택하세요.').positive('실험을 선택하세요.').nullable().optional(),
    accountTypeIds: z.array(z.number().int().positive(), '계정 유형을 선택하세요.').max(50, '계정 유형은 50개까지 고를 수 있습니다.').default([]),
    screen: z
      .string()
      .refine((k) => SCREEN_KEYS.includes(k), '관련 화면을 다시 선택하세요.')
      .nullable()
      .optional(),
  })
  .superRefine((r, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if ((isLandingKind(r.kind) || isExperimentKind(r.kind)) && !r.landingId) issue('landingId', '랜딩을 선택하세요.');
    if (isExperimentKind(r.kind) && !r.experimentId) issue('experimentId', '실험 종료 예약은 랜딩 관리의 A/B 실험에서 만드세요.');
    if (!lastsAWhile(r.kind)) return;
    if (!r.message) issue('message', r.kind === 'maintenance' ? '점검 안내 문구를 입력하세요.' : '공지 내용을 입력하세요.');
    if (!r.endsAt) return issue('endsAt', '종료 일시를 선택하세요.');
    const ms = Date.parse(r.endsAt) - Date.parse(r.startsAt);
    if (ms <= 0) return issue('endsAt', '종료 일시는 시작 일시보다 늦어야 합니다.');
    if (r.kind === 'maintenance' && ms > MAINTENANCE_MAX_HOURS * 3600_000) issue('endsAt', `점검은 ${MAINTENANCE_MAX_HOURS}시간 이내로 잡으세요.`);
    if (r.kind === 'announcement' && ms > ANNOUNCEMENT_MAX_DAYS * 86400_000) issue('endsAt', `공지는 ${ANNOUNCEMENT_MAX_DAYS}일 이내로 게시하세요.`);
  })
  // Only what the kind uses is kept; instants are stored in UTC so they compare as text.
  .transform((r) => ({
    kind: r.kind,
    title: r.title,
    startsAt: new Date(r.startsAt).toISOString(),
    endsAt: lastsAWhile(r.kind) && r.endsAt ? new Date(r.endsAt).toISOString() : null,
    message: lastsAWhile(r.kind) ? (r.message ?? null) : null,
    landingId: isLandingKind(r.kind) || isExperimentKind(r.kind) ? (r.landingId ?? null) : null,
    experimentId: isExperimentKind(r.kind) ? (r.experimentId ?? null) : null,
    accountTypeIds: r.kind === 'announcement' ? [...new Set(r.accountTypeIds)] : [],
    screen: r.kind === 'announcement' ? (r.screen ?? null) : null,
  }));
export type SystemReservationInput = z.output<typeof systemReservationInput>;

export const reservationCancelInput = z.object({ reason: requiredText(200, '취소 사유를 입력하세요.') });

/** The form's pickers: every landing of every shop, and the account types. */
export const reservationOptions = z.object({
  landings: z.array(reservationLanding),
  accountTypes: z.array(z.object({ id: z.number(), name: z.string(), area: z.enum(['admin', 'shop']), active: z.boolean() })),
});

export const maintenanceNotice = z.object({
  id: z.number(),
  title: z.string(),
  message: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** Under way now (else due within MAINTENANCE_NOTICE_HOURS). */
  running: z.boolean(),
});
export type MaintenanceNotice = z.infer<typeof maintenanceNotice>;

export const announcementNotice = z.object({ id: z.number(), title: z.string(), message: z.string().nullable(), startsAt: z.string(), endsAt: z.string() });

export const notices = z.object({
  maintenance: z.array(maintenanceNotice),
  announcements: z.array(announcementNotice),
  /** The account may use the back office during a window (최고관리자). */
  maintenanceExempt: z.boolean(),
});
export type Notices = z.infer<typeof notices>;

export const systemReservationsApi = {
  list: listEndpoint({
    path: '/api/system-reservations', item: systemReservation, sort: ['startsAt', 'createdAt', 'executedAt'],
    filters: { kind: z.enum(RESERVATION_KINDS).optional(), status: z.enum(RESERVATION_STATUSES).optional() },
  }),
  options: endpoint({ method: 'GET', path: '/api/system-reservations/options', response: reservationOptions }),
  create: endpoint({ method: 'POST', path: '/api/system-reservations', body: systemReservationInput, response: systemReservation, status: 201 }),
  /** Only while it has not run. */
  update: endpoint({ method: 'PUT', path: '/api/system-reservations/:id', params: idParam, body: systemReservationInput, response: systemReservation }),
  /** Before it runs; a maintenance window or an announcement under way ends at once. */
  cancel: endpoint({ method: 'POST', path: '/api/system-reservations/:id/cancel', params: idParam, body: reservationCancelInput, response: systemReservation }),
  /** What the back office's banner shows this account (every logged-in account may ask). */
  notices: endpoint({ method: 'GET', path: '/api/notices', response: notices }),
};
export type SystemReservationListQuery = QueryOf<typeof systemReservationsApi.list>;

/** Whether a reservation may still be cancelled: before it ran, or while a window is under way. */
export const cancellable = (r: { kind: ReservationKind; status: ReservationStatus }) =>
  r.status === 'scheduled' || (r.status === 'running' && lastsAWhile(r.kind));

const OFFSET_MS = 9 * 3600_000;
const seoulParts = (at: string | Date) => {
  const d = new Date(new Date(at).getTime() + OFFSET_MS);
  const hm = d.toISOString().slice(11, 16);
  return { day: d.toISOString().slice(0, 10), label: `${d.getUTCMonth() + 1}월 ${d.getUTCDate()}일`, hm };
};

/** "11월 25일 02:00~04:00" (Seoul); the end's day is named when it is another. */
export function windowLabel(startsAt: string, endsAt: string): string {
  const s = seoulParts(startsAt);
  const e = seoulParts(endsAt);
  return `${s.label} ${s.hm}~${e.day === s.day ? '' : `${e.label} `}${e.hm}`;
}

/** "04:00" when the end is on `now`'s Seoul day, else "11월 26일 04:00". */
export function untilLabel(endsAt: string, now: Date): string {
  const e = seoulParts(endsAt);
  return e.day === seoulParts(now).day ? e.hm : `${e.label} ${e.hm}`;
}

/** What a refused back-office call says during a maintenance window. */
export function maintenanceRefusal(w: { message: string | null; endsAt: string }, now: Date): string {
  return ['시스템 점검 중입니다.', w.message, `(~${untilLabel(w.endsAt, now)}까지)`].filter(Boolean).join(' ');
}
