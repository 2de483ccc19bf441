// Allocating leads to a shop's counselors: their settings (weight, daily cap, open-lead maximum,
// availability), the automatic rule on intake, a previewed and applied allocation of chosen or
// filtered unassigned leads, taking leads back or handing them over with a reason, and the
// history of it all.
import { z } from './zod.ts';
import { dayField, requiredText, text } from './fields.ts';
import { listEndpoint, shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';

const ALLOCATION_MODES = ['manual', 'round-robin', 'weighted'] as const;
export type AllocationMode = (typeof ALLOCATION_MODES)[number];
export const ALLOCATION_MODE_LABELS: Record<AllocationMode, string> = { manual: '수동 (한 명에게)', 'round-robin': '순환', weighted: '가중치' };

export const AUTO_MODES = ['off', 'round-robin', 'weighted'] as const;
export type AutoMode = (typeof AUTO_MODES)[number];
export const AUTO_MODE_LABELS: Record<AutoMode, string> = { off: '끄기', 'round-robin': '순환', weighted: '가중치' };

export const counselorLoad = z.object({
  id: z.number(),
  name: z.string(),
  loginId: z.string(),
  weight: z.number(),
  /** Leads a day at most (null: no cap). */
  dailyCap: z.number().nullable(),
  /** 미처리 + 부재 + 상담예약 leads held at most (null: no maximum). */
  maxOpen: z.number().nullable(),
  available: z.boolean(),
  /** Assigned today (Seoul). */
  today: z.number(),
  /** Open leads held now. */
  open: z.number(),
});
export type CounselorLoad = z.infer<typeof counselorLoad>;

export const allocationState = z.object({
  counselors: z.array(counselorLoad),
  autoMode: z.enum(AUTO_MODES),
  /** Unassigned leads of the shop (not duplicates, not deleted). */
  unassigned: z.number(),
});
export type AllocationState = z.infer<typeof allocationState>;

const cap = z.number('숫자로 입력하세요.').int('정수로 입력하세요.').min(1, '1 이상으로 정하세요.').max(10_000, '10,000 이하로 정하세요.').nullable();

export const counselorSettingsInput = z.object({
  weight: z.number('가중치를 입력하세요.').int('정수로 입력하세요.').min(1, '가중치는 1 이상입니다.').max(100, '가중치는 100 이하입니다.'),
  dailyCap: cap,
  maxOpen: cap,
  available: z.boolean('근무 여부를 고르세요.'),
});
export type CounselorSettingsInput = z.infer<typeof counselorSettingsInput>;

export const autoRuleInput = z.object({ autoMode: z.enum(AUTO_MODES, '자동 배분 방식을 고르세요.') });

/** Which unassigned leads: chosen ones, or every one matching the list's filters. */
export const allocationTarget = z.object({
  leadIds: z.array(z.number().int().positive()).max(5000, '한 번에 5,000건까지 배분할 수 있습니다.').optional(),
  filter: z
    .object({
      from: dayField.optional(),
      to: dayField.optional(),
      landingId: z.number().int().positive().optional(),
      mediaTypeId: z.number().int().positive().optional(),
      q: text(100).optional(),
    })
    .optional(),
});

const MANUAL_NEEDS_COUNSELOR = '배분받을 상담원을 고르세요.';

export const allocationInput = allocationTarget
  .extend({
    mode: z.enum(ALLOCATION_MODES, '배분 방식을 고르세요.'),
    /** The counselors to share among (round-robin, weighted), or the one (manual). */
    counselorIds: z.array(z.number().int().positive(), '상담원을 고르세요.').min(1, '상담원을 한 명 이상 고르세요.'),
  })
  .superRefine((v, ctx) => {
    if (!v.leadIds?.length && !v.filter) ctx.addIssue({ code: 'custom', path: ['leadIds'], message: '배분할 DB를 고르세요.' });
    if (v.mode === 'manual' && v.counselorIds.length !== 1) ctx.addIssue({ code: 'custom', path: ['counselorIds'], message: MANUAL_NEEDS_COUNSELOR });
  });
export type AllocationInput = z.infer<typeof allocationInput>;

export const allocationPlan = z.object({
  total: z.number(),
  rows: z.array(z.object({
    counselorId: z.number(),
    name: z.string(),
    count: z.number(),
    /** Room left today and in open leads after this plan (null: no cap). */
    dailyLeft: z.number().nullable(),
    openLeft: z.number().nullable(),
    /** A manual plan past the counselor's cap (allowed, and said). */
    overCap: z.boolean(),
  })),
  /** Leads no counselor had room for (they stay unassigned). */
  unplaced: z.number(),
});
export type AllocationPlan = z.infer<typeof allocationPlan>;

const REASON_REQUIRED = '사유를 입력하세요.';

/** Taking leads back (to 미배분) or handing them to another counselor, with the reason. */
export const reassignInput = z.object({
  leadIds: z.array(z.number().int().positive(), '옮길 DB를 고르세요.').min(1, '옮길 DB를 고르세요.').max(1000, '한 번에 1,000건까지 옮길 수 있습니다.'),
  /** The counselor to hand them to; null returns them to 미배분. */
  to: z.number('옮길 담당을 고르세요.').int().positive().nullable(),
  reason: requiredText(200, REASON_REQUIRED),
});
export type ReassignInput = z.infer<typeof reassignInput>;

export const allocationEvent = z.object({
  id: z.number(),
  at: z.string(),
  leadId: z.number(),
  leadName: z.string(),
  fromName: z.string().nullable(),
  toName: z.string().nullable(),
  /** manual, round-robin, weighted, auto-round-robin, auto-weighted, reassign, return */
  mode: z.string().nullable(),
  reason: z.string().nullable(),
  byName: z.string().nullable(),
});
export type AllocationEvent = z.infer<typeof allocationEvent>;

export const allocationApi = {
  state: endpoint({ method: 'GET', path: '/api/shops/:shopId/allocation', params: shopParam, response: allocationState }),
  updateCounselor: endpoint({
    method: 'PUT', path: '/api/shops/:shopId/allocation/counselors/:accountId',
    params: z.object({ shopId: z.coerce.number().int().positive(), accountId: z.coerce.number().int().positive() }),
    body: counselorSettingsInput, response: counselorLoad,
  }),
  updateRule: endpoint({ method: 'PUT', path: '/api/shops/:shopId/allocation/rule', params: shopParam, body: autoRuleInput, response: allocationState }),
  preview: endpoint({ method: 'POST', path: '/api/shops/:shopId/allocation/preview', params: shopParam, body: allocationInput, response: allocationPlan }),
  apply: endpoint({ method: 'POST', path: '/api/shops/:shopId/allocation/apply', params: shopParam, body: allocationInput, response: allocationPlan }),
  reassign: endpoint({ method: 'POST', path: '/api/shops/:shopId/allocation/reassign', params: shopParam, body: reassignInput, response: z.object({ moved: z.number() }) }),
  history: listEndpoint({
    path: '/api/shops/:shopId/allocation/history', params: shopParam, item: allocationEvent, sort: ['at'],
    filters: { from: dayField.optional(), to: dayField.optional() },
  }),
};

export type AllocationHistoryQuery = QueryOf<typeof allocationApi.history>;
