// Speed to lead (SLA): a shop's promise of a first contact within N working minutes of its
// calendar (work days, hours and holidays, in Seoul time), a reminder to the lead's holder before
// the deadline, and what happens when it passes — re-routing to the next counselor by the shop's
// allocation rule, notifying the manager, or both; after the last re-route the lead goes to the
// manager's queue (미배분). Agency staff set it; the shop reads it.
import { z } from './zod.ts';
import { calendarDayField } from './fields.ts';
import { shopParam } from './list.ts';
import { endpoint } from './endpoint.ts';

export const SLA_ON_DEADLINE = ['reroute', 'notify', 'both'] as const;
export type SlaOnDeadline = (typeof SLA_ON_DEADLINE)[number];
export const SLA_ON_DEADLINE_LABELS: Record<SlaOnDeadline, string> = { reroute: '다음 상담원에게 재배분', notify: '관리자에게 알림', both: '재배분과 알림' };

/** The events escalation writes in a lead's access record. */
export const SLA_ACTIONS = ['sla-remind', 'sla-reroute', 'sla-notify', 'sla-manager'] as const;
export type SlaAction = (typeof SLA_ACTIONS)[number];
/** How a lead's history names each step. */
export const SLA_ACTION_LABELS: Record<SlaAction, string> = {
  'sla-remind': 'SLA 알림', 'sla-reroute': 'SLA 재배분', 'sla-notify': 'SLA 기한 초과', 'sla-manager': '관리자 대기열',
};

/**
 * One escalation step of a lead's history in words: who held it, who has it now, and why.
 * `before`/`after` are the event's as the server wrote them (server/modules/leads/sla.ts).
 */
export function describeSlaStep(action: SlaAction, before: Record<string, unknown>, after: Record<string, unknown>): string {
  const name = (v: unknown) => (v ? String(v) : '미배분');
  const minutes = typeof after.minutes === 'number' ? `${after.minutes}분 기한` : '';
  switch (action) {
    case 'sla-remind':
      return [`담당 ${name(after.assigneeName)}에게 알림`, typeof after.percent === 'number' ? `기한의 ${after.percent}%` : ''].filter(Boolean).join(' · ');
    case 'sla-notify':
      return [`담당 ${name(after.assigneeName)} 기한 초과 — 관리자에게 알림`, minutes].filter(Boolean).join(' · ');
    case 'sla-reroute':
      return [`${name(before.assigneeName)} → ${name(after.assigneeName)}`, typeof after.reroute === 'number' ? `${after.reroute}번째 재배분` : '', minutes].filter(Boolean).join(' · ');
    case 'sla-manager':
      return [
        `${name(before.assigneeName)} → 관리자 대기열`,
        after.reason === 'max-reroutes' ? '재배분 횟수를 다 씀' : after.reason === 'no-counselor' ? '받을 수 있는 상담원이 없음' : '',
      ].filter(Boolean).join(' · ');
  }
}

/** HH:mm → minutes of the day (24:00 → 1440). */
export function minuteOfDay(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/** Working minutes in one week of the calendar (holidays aside). */
export const weeklyMinutes = (s: { workDays: readonly number[]; workStart: string; workEnd: string }) =>
  new Set(s.workDays).size * Math.max(0, minuteOfDay(s.workEnd) - minuteOfDay(s.workStart));

export const leadSlaSettings = z.object({
  enabled: z.boolean(),
  minutes: z.number(),
  remindPercent: z.number().nullable(),
  onDeadline: z.enum(SLA_ON_DEADLINE),
  maxReroutes: z.number(),
  workDays: z.array(z.number()),
  workStart: z.string(),
  workEnd: z.string(),
  holidays: z.array(z.string()),
  updatedAt: z.string().nullable(),
});
export type LeadSlaSettings = z.infer<typeof leadSlaSettings>;

/** What a shop that never saved its SLA reads (off). */
export const SLA_DEFAULTS: Omit<LeadSlaSettings, 'updatedAt'> = {
  enabled: false, minutes: 30, remindPercent: 80, onDeadline: 'both', maxReroutes: 2,
  workDays: [1, 2, 3, 4, 5], workStart: '09:00', workEnd: '18:00', holidays: [],
};

const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

export const leadSlaSettingsInput = z
  .object({
    enabled: z.boolean('사용 여부를 고르세요.'),
    minutes: z.number('첫 연락 기한(분)을 입력하세요.').int('정수로 입력하세요.').min(1, '1분 이상으로 정하세요.').max(2400, '2400분 이하로 정하세요.'),
    remindPercent: z.number('알림 시점(%)을 입력하세요.').int('정수로 입력하세요.').min(10, '10% 이상으로 정하세요.').max(95, '95% 이하로 정하세요.').nullable(),
    onDeadline: z.enum(SLA_ON_DEADLINE, '기한이 지나면 할 일을 고르세요.'),
    maxReroutes: z.number('재배분 횟수를 입력하세요.').int('정수로 입력하세요.').min(0, '0 이상으로 정하세요.').max(10, '10회 이하로 정하세요.'),
    workDays: z
      .array(z.number('근무 요일을 고르세요.').int('근무 요일을 고르세요.').min(1, '근무 요일을 고르세요.').max(7, '근무 요일을 고르세요.'), '근무 요일을 고르세요.')
      .min(1, '근무 요일을 하나 이상 고르세요.')
      .max(7, '근무 요일은 일곱 개까지입니다.')
      .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
    workStart: z.string('근무 시작 시각을 입력하세요.').regex(HHMM, '시각은 HH:mm 형식으로 입력하세요.'),
    workEnd: z.string('근무 종료 시각을 입력하세요.').regex(/^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/, '시각은 HH:mm 형식으로 입력하세요.'),
    holidays: z
      .array(calendarDayField, '휴일은 날짜 목록으로 입력하세요.')
      .max(366, '휴일은 366일까지 정할 수 있습니다.')
      .transform((days) => [...new Set(days)].sort()),
  })
  .superRefine((s, ctx) => {
    if (minuteOfDay(s.workEnd) <= minuteOfDay(s.workStart)) {
      ctx.addIssue({ code: 'custom', path: ['workEnd'], message: '종료 시각은 시작 시각보다 늦어야 합니다.' });
      return;
    }
    // The job looks back 14 days for leads still waiting: a promise longer than a week of work
    // could outlast that window over a long holiday.
    const week = weeklyMinutes(s);
    if (s.minutes > week) ctx.addIssue({ code: 'custom', path: ['minutes'], message: `한 주의 근무 시간(${week}분) 이하로 정하세요.` });
  });
export type LeadSlaSettingsInput = z.infer<typeof leadSlaSettingsInput>;

export const leadSlaApi = {
  settings: endpoint({ method: 'GET', path: '/api/shops/:shopId/lead-sla', params: shopParam, response: leadSlaSettings }),
  updateSettings: endpoint({ method: 'PUT', path: '/api/shops/:shopId/lead-sla', params: shopParam, body: leadSlaSettingsInput, response: leadSlaSettings }),
};

// ── Figures (업체 대시보드, 상담 통계, the administrators' dashboard) ───────────────────────
// Of a shop's leads with the SLA on — arrived at or after it was turned on, not duplicates, not
// deleted — in a period of arrival: time to first contact in working minutes of the shop's
// calendar, from arrival to first contact; met when within the SLA's minutes, missed when later
// or still not contacted past the deadline, pending (left out of the rate) when not contacted
// and not yet due. Per counselor means the lead's holder now: escalation stops at the first
// contact, so a contacted lead's holder is who reached it (unless moved by hand since).

/** Where a lead's time to first contact falls (working minutes; 'open-missed' / 'open-pending': not contacted yet, deadline passed / not yet). */
export const SLA_BUCKETS = ['1', '5', '15', '30', '60', 'over', 'open-missed', 'open-pending'] as const;
export type SlaBucket = (typeof SLA_BUCKETS)[number];
export const SLA_BUCKET_LABELS: Record<SlaBucket, string> = {
  1: '1분 이내', 5: '5분 이내', 15: '15분 이내', 30: '30분 이내', 60: '60분 이내', over: '60분 초과', 'open-missed': '미연락 (기한 지남)', 'open-pending': '미연락 (기한 전)',
};
/** The upper bound (working minutes) of each timed bucket. */
export const SLA_BUCKET_LIMITS = [1, 5, 15, 30, 60] as const;

/** Why escalation moved or flagged a lead (its events' reasons). */
export const SLA_REROUTE_REASONS = ['reroute', 'max-reroutes', 'no-counselor', 'notify'] as const;
export type SlaRerouteReason = (typeof SLA_REROUTE_REASONS)[number];
export const SLA_REROUTE_REASON_LABELS: Record<SlaRerouteReason, string> = {
  reroute: '기한 경과 → 다음 상담원에게 재배분',
  'max-reroutes': '재배분 한도 소진 → 관리자 대기열',
  'no-counselor': '받을 상담원 없음 → 관리자 대기열',
  notify: '기한 경과 → 관리자 알림',
};

const count = z.number().int();

/** The SLA figures of one group of leads. */
export const slaGroup = z.object({
  /** Leads counted: met + missed + pending. */
  leads: count,
  met: count,
  missed: count,
  /** Not contacted and not yet due: not in the rate. */
  pending: count,
  /** met / (met + missed), 0–1; null when none is decided yet. */
  metRate: z.number().nullable(),
  /** Leads contacted: what the median and p90 are of. */
  contacted: count,
  /** Working minutes from arrival to first contact, one decimal; null without a contacted lead. */
  medianMinutes: z.number().nullable(),
  p90Minutes: z.number().nullable(),
  /** Leads escalation re-routed at least once. */
  rerouted: count,
});
export type SlaGroup = z.infer<typeof slaGroup>;

const keyed = slaGroup.extend({ key: z.number().nullable(), name: z.string() });
export type SlaKeyedGroup = z.infer<typeof keyed>;

export const slaFigures = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  /** 'assigned': of the asker's own leads only (a counselor). */
  scope: z.enum(['all', 'assigned']),
  /** The shop's SLA as the figures measured it; null when it is off (no figures). */
  sla: z.object({ minutes: z.number(), workDays: z.array(z.number()), workStart: z.string(), workEnd: z.string(), holidays: count, enabledAt: z.string() }).nullable(),
  totals: slaGroup,
  /** Every bucket, in SLA_BUCKETS order. */
  distribution: z.array(z.object({ bucket: z.enum(SLA_BUCKETS), count })),
  /** Escalation's moves of the period's leads, per reason: the leads and the events. */
  reroutes: z.array(z.object({ reason: z.enum(SLA_REROUTE_REASONS), leads: count, events: count })),
  /** Per holder (key null: 미배분), landing, medium: most leads first. */
  byCounselor: z.array(keyed),
  byLanding: z.array(keyed),
  byMedium: z.array(keyed),
  /** Hour of arrival (Seoul), 0–23, each one. */
  byHour: z.array(slaGroup.extend({ hour: count })),
});
export type SlaFigures = z.infer<typeof slaFigures>;

/** The shops with the SLA on, by SLA met (the administrators' dashboard). */
export const slaRanking = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  items: z.array(slaGroup.extend({ shopId: z.number(), shopName: z.string(), minutes: z.number() })),
});
export type SlaRanking = z.infer<typeof slaRanking>;
