// Leads (DB) as the back office works them: the list with its filters, a lead's detail and
// access record, status / memo / appointment changes, unmasking a phone, the shop's lead
// settings. Phones leave the server masked; the full number only through `unmask`.
import type { RefinementCtx } from 'zod';
import { z } from './zod.ts';
import { dayField, optionalInstant, optionalText, text } from './fields.ts';
import { listEndpoint, shopItemParams, shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';

/** CS statuses, stored as their Korean labels. */
export const CS_STATUSES = ['미처리', '부재', '통화완료', '상담예약', '계약', '보류', '거절', '결번', '무효', '중복'] as const;
export type CsStatus = (typeof CS_STATUSES)[number];
/** Statuses a person sets (중복 is the intake's finding, shown by its own tag). */
export const SETTABLE_STATUSES = CS_STATUSES.filter((s) => s !== '중복');
/** Still waiting for a call: these count toward a counselor's open-lead maximum. */
export const OPEN_STATUSES: readonly CsStatus[] = ['미처리', '부재', '상담예약'];
/** The person was reached: the contact rate counts these. */
export const CONTACTED_STATUSES: readonly CsStatus[] = ['통화완료', '상담예약', '계약'];

export const VALIDITIES = ['valid', 'invalid', 'returned'] as const;
export type Validity = (typeof VALIDITIES)[number];

export const RESERVATION_REQUIRED = '상담예약은 예약 시간을 입력하세요.';
export const INVALID_REASON_REQUIRED = '무효 사유를 입력하세요.';
export const RESERVATION_PAST = '지난 시각으로는 상담 예약을 잡을 수 없습니다. 지금 이후의 시각을 고르세요.';

/**
 * A call a counselor places from the lead (the `tel:` link): recorded in its access record as
 * this action, with the time; the first call is the lead's first contact (its SLA clock stops).
 */
export const CALL_ATTEMPT_ACTION = 'call';
export const CALL_ATTEMPT_LABEL = '통화 시도';

/**
 * The earliest appointment that can be booked at `now`: the start of the current minute (a time
 * picked as "now" is not refused for the seconds that passed while the dialog was open).
 */
export const earliestAppointment = (now: Date): number => Math.floor(now.getTime() / 60_000) * 60_000;

const csStatus = z.enum(CS_STATUSES, '상담 상태를 선택하세요.');
const settableStatus = z.enum(SETTABLE_STATUSES as [CsStatus, ...CsStatus[]], '상담 상태를 선택하세요.');
const id = z.coerce.number().int().positive();

/** "미처리,부재" in a query string → ['미처리', '부재']. */
const statusList = z
  .string()
  .max(200)
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(csStatus));

export const leadListItem = z.object({
  id: z.number(),
  createdAt: z.string(),
  landingId: z.number().nullable(),
  landingTitle: z.string().nullable(),
  mediaTypeName: z.string().nullable(),
  source: z.string(),
  name: z.string(),
  /** Always masked (010-****-5678); `unmask` gives the number. */
  phone: z.string(),
  csStatus: csStatus,
  assigneeId: z.number().nullable(),
  assigneeName: z.string().nullable(),
  reservedAt: z.string().nullable(),
  /** The memo's first line, shortened. */
  memo: z.string().nullable(),
  duplicateOf: z.number().nullable(),
  validity: z.enum(VALIDITIES),
  invalidReason: z.string().nullable(),
  firstContactAt: z.string().nullable(),
  utmSource: z.string().nullable(),
  utmCampaign: z.string().nullable(),
  /** The landing experiment's variant (실험안 A, B …) the lead came from; null outside experiments. */
  variant: z.string().nullable(),
  /** 미처리 and never called for longer than the shop's threshold. */
  overdue: z.boolean(),
  /**
   * Speed to lead: when the shop's first-contact promise runs out for this lead (its clock from
   * arrival or the last re-route, in working time) — null when the shop has no SLA, the lead was
   * contacted, is a duplicate, or arrived before the SLA was turned on.
   */
  slaDueAt: z.string().nullable(),
  /** Working minutes left to slaDueAt when the list was read (0 once it passed; null with slaDueAt). */
  slaLeftMinutes: z.number().nullable(),
});
export type LeadListItem = z.infer<typeof leadListItem>;

export const leadEventItem = z.object({
  id: z.number(),
  at: z.string(),
  action: z.string(),
  accountName: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type LeadEventItem = z.infer<typeof leadEventItem>;

/** A refetch of an open drawer names its opening (the openingId its first reading answered): no new view is recorded. */
export const leadOpeningQuery = z.object({ opening: z.coerce.number().int().positive().optional() });

export const leadDetail = leadListItem.extend({
  /** The recorded view this reading belongs to: pass it back as `opening` while the drawer stays open (null: an answer to a change, not a reading). */
  openingId: z.number().nullable(),
  /** The whole memo. */
  memo: z.string().nullable(),
  /** The form's answers, labelled as the landing asked them. */
  answers: z.array(z.object({ label: z.string(), value: z.string() })),
  utmMedium: z.string().nullable(),
  utmContent: z.string().nullable(),
  utmTerm: z.string().nullable(),
  referrer: z.string().nullable(),
  userAgent: z.string().nullable(),
  privacyConsent: z.boolean(),
  marketingConsent: z.boolean(),
  sensitiveConsent: z.boolean(),
  policyVersion: z.number().nullable(),
  /** The earlier lead this one duplicates. */
  duplicateOfLead: z.object({ id: z.number(), createdAt: z.string(), name: z.string(), csStatus: csStatus }).nullable(),
  /** Later leads that duplicate this one. */
  duplicates: z.array(z.object({ id: z.number(), createdAt: z.string(), name: z.string() })),
  history: z.array(leadEventItem),
});
export type LeadDetail = z.infer<typeof leadDetail>;

/**
 * A lead's form answers with the landing's labels (a field since removed keeps its key as
 * label): the lead drawer shows them so, the pull API and the delivery channels send them so.
 * A lead from an experiment variant with a form of its own (`variantContentJson`): that form's
 * labels first.
 */
export function labelledAnswers(answersJson: string, formFieldsJson: string | null, variantContentJson?: string | null): LeadDetail['answers'] {
  const answers = JSON.parse(answersJson) as Record<string, string | string[]>;
  const fields = formFieldsJson ? (JSON.parse(formFieldsJson) as Array<{ key: string; label: string }>) : [];
  const variantFields = variantContentJson ? ((JSON.parse(variantContentJson) as { formFields?: Array<{ key: string; label: string }> }).formFields ?? []) : [];
  const label = new Map([...fields, ...variantFields].map((f) => [f.key, f.label]));
  return Object.entries(answers).map(([k, v]) => ({ label: label.get(k) ?? k, value: Array.isArray(v) ? v.join(', ') : String(v) }));
}

/** The checks a status change carries: an appointment needs its time, 무효 its reason. */
function statusRules<T extends { csStatus?: CsStatus; reservedAt?: string | null; reason?: string | null }>(v: T, ctx: RefinementCtx) {
  if (v.csStatus === '상담예약' && !v.reservedAt) ctx.addIssue({ code: 'custom', path: ['reservedAt'], message: RESERVATION_REQUIRED });
  if (v.csStatus === '무효' && !v.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: INVALID_REASON_REQUIRED });
}

/** An inline edit: any of status, appointment and memo. */
export const leadUpdate = z
  .object({
    csStatus: settableStatus.optional(),
    reservedAt: optionalInstant,
    memo: optionalText(2000),
    /** Why the lead is 무효. */
    reason: optionalText(200),
  })
  .superRefine(statusRules);
export type LeadUpdate = z.infer<typeof leadUpdate>;

export const BULK_MAX = 500;

/** One status for many chosen leads. */
export const leadBulkStatus = z
  .object({
    ids: z.array(z.number().int().positive(), '바꿀 DB를 선택하세요.').min(1, '바꿀 DB를 선택하세요.').max(BULK_MAX, `한 번에 ${BULK_MAX}건까지 바꿀 수 있습니다.`),
    csStatus: settableStatus,
    reservedAt: optionalInstant,
    reason: optionalText(200),
  })
  .superRefine(statusRules);
export type LeadBulkStatus = z.infer<typeof leadBulkStatus>;

export const leadSettings = z.object({
  overdueMinutes: z.number(),
  autoMode: z.enum(['off', 'round-robin', 'weighted']),
  updatedAt: z.string().nullable(),
});
export type LeadSettings = z.infer<typeof leadSettings>;

export const leadSettingsInput = z.object({
  overdueMinutes: z.number('분을 입력하세요.').int('정수로 입력하세요.').min(5, '5분 이상으로 정하세요.').max(1440, '1440분(하루) 이하로 정하세요.'),
});

/** An account leads can be assigned to in a shop (a shop-area account of an 'assigned' scope type). */
export const counselorOption = z.object({ id: z.number(), name: z.string(), loginId: z.string() });

/** A change to leads as the server announces it, between processes too (the leads module's feed). */
export interface LeadChange {
  shopId: number;
  kind: 'created' | 'changed';
  /** Each lead with its assignee now and, when that changed, before (who must see it leave). */
  leads: Array<{ id: number; assigneeId: number | null; previousAssigneeId?: number | null }>;
  /** 'sla': the SLA's escalation moved them (its steps are alerted in its own words). */
  cause?: 'sla';
}

/** One event of a browser's lead stream: the leads of a change that this account may see. */
export const leadStreamEvent = z.object({
  kind: z.enum(['created', 'changed']),
  ids: z.array(z.number()),
  /** Of `ids`, those just assigned to the account itself (new, or handed over from someone else). */
  mine: z.array(z.number()),
});
export type LeadStreamEvent = z.infer<typeof leadStreamEvent>;
/** The event name of lead changes in the stream (EventSource listens for it). */
export const LEAD_STREAM_EVENT = 'leads';

/** The list's filters (beside its search `q`), shared with what narrows an export (contracts/lead-export.ts). */
export const leadFilters = {
  /** Seoul days, inclusive; default today. */
  from: dayField.optional(),
  to: dayField.optional(),
  landingId: id.optional(),
  mediaTypeId: id.optional(),
  utmSource: text(100).optional(),
  utmCampaign: text(100).optional(),
  status: statusList.optional(),
  /** An account id, or 'none' for 미배분. */
  assignee: z.string().regex(/^(none|\d+)$/, '담당자를 목록에서 고르세요.').optional(),
  duplicate: z.enum(['duplicate', 'unique']).optional(),
  validity: z.enum(['valid', 'invalid']).optional(),
};

export const leadsApi = {
  list: listEndpoint({
    path: '/api/shops/:shopId/leads',
    params: shopParam,
    item: leadListItem,
    sort: ['createdAt', 'name', 'csStatus', 'reservedAt', 'firstContactAt', 'assigneeName'],
    filters: leadFilters,
    extra: {
      period: z.object({ from: z.string(), to: z.string() }),
      overdueMinutes: z.number(),
      /** The shop's first-contact promise in working minutes (null: no SLA): the countdown shows only with one. */
      slaMinutes: z.number().nullable(),
    },
  }),
  /** Lead changes as they happen (server-sent events named LEAD_STREAM_EVENT, data a leadStreamEvent). */
  stream: endpoint({ method: 'GET', path: '/api/shops/:shopId/leads/stream', params: shopParam, response: 'events' }),
  get: endpoint({ method: 'GET', path: '/api/shops/:shopId/leads/:id', params: shopItemParams, query: leadOpeningQuery, response: leadDetail }),
  update: endpoint({ method: 'PATCH', path: '/api/shops/:shopId/leads/:id', params: shopItemParams, body: leadUpdate, response: leadDetail }),
  bulkStatus: endpoint({
    method: 'POST', path: '/api/shops/:shopId/leads/bulk-status', params: shopParam, body: leadBulkStatus, response: z.object({ updated: z.number() }),
  }),
  unmask: endpoint({ method: 'POST', path: '/api/shops/:shopId/leads/:id/unmask', params: shopItemParams, response: z.object({ phone: z.string() }) }),
  /** 통화 시도: reveals the number to dial (recorded as a reveal) and records the call with its time; the first call stops the SLA clock. */
  callAttempt: endpoint({
    method: 'POST', path: '/api/shops/:shopId/leads/:id/call', params: shopItemParams, response: z.object({ phone: z.string(), at: z.string() }),
  }),
  counselors: endpoint({ method: 'GET', path: '/api/shops/:shopId/counselors', params: shopParam, response: z.object({ items: z.array(counselorOption) }) }),
  settings: endpoint({ method: 'GET', path: '/api/shops/:shopId/lead-settings', params: shopParam, response: leadSettings }),
  updateSettings: endpoint({ method: 'PUT', path: '/api/shops/:shopId/lead-settings', params: shopParam, body: leadSettingsInput, response: leadSettings }),
};

export type LeadListQuery = QueryOf<typeof leadsApi.list>;
