// 계약 관리 / 계약 현황: a shop's contracts (a period of Seoul days, a quantity of valid leads
// at a unit price before VAT, an optional daily cap, the landings and media that count), their
// progress figures, the leads behind each figure, returns (무효 교체) within the contract's
// window and rate, and the monthly settlement (정산서) the agency sends the shop. Every figure
// follows the money rules in contracts/money.ts; the settlement and the status of the same
// leads are computed by the same functions, so they always agree.
import { z } from './zod.ts';
import { isCalendarDay, optionalText, requiredText, rowTimes } from './fields.ts';
import { listEndpoint, shopItemParams, shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { CONTRACT_STATUSES, RETURN_REASONS, RETURN_STATUSES } from './money.ts';
import { CS_STATUSES, VALIDITIES } from './leads.ts';

const CONTRACT_NAME_REQUIRED = '계약명을 입력하세요.';
const CONTRACT_END_BEFORE_START = '종료일은 시작일과 같거나 그 뒤여야 합니다.';
export const RETURN_NOTE_REQUIRED = '기타를 고르면 반품 사유를 메모에 적어 주세요.';
export const REJECT_NOTE_REQUIRED = '반려 사유를 입력하세요.';
const STOP_REASON_REQUIRED = '중지 사유를 입력하세요.';

/** A day the calendar has (the pattern alone lets 2026-02-31 through). */
const day = (message: string) =>
  z
    .string(message)
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine(isCalendarDay, '없는 날짜입니다.');

const count = z.number().int();
const ids = (message: string) => z.array(z.number(message).int(message).positive(message), message).max(500, '500개까지 고를 수 있습니다.');

// ── Contracts ─────────────────────────────────────────────────────────────────────────────

export const contractInput = z
  .object({
    name: requiredText(60, CONTRACT_NAME_REQUIRED),
    /** Seoul days, both included. */
    startsOn: day('시작일을 입력하세요.'),
    endsOn: day('종료일을 입력하세요.'),
    /** Valid leads the shop buys. */
    quantity: z.number('계약 수량을 입력하세요.').int('계약 수량은 정수로 입력하세요.').min(1, '계약 수량은 1 이상으로 입력하세요.').max(10_000_000, '계약 수량이 너무 큽니다.'),
    /** KRW per valid lead, VAT excluded. */
    unitPrice: z.number('단가를 입력하세요.').int('단가는 원 단위 정수로 입력하세요.').min(0, '단가는 0 이상으로 입력하세요.').max(100_000_000, '단가가 너무 큽니다.'),
    /** Valid leads billable per Seoul day; null: no daily cap. */
    dailyCap: z.number('일 한도를 숫자로 입력하세요.').int('일 한도는 정수로 입력하세요.').min(1, '일 한도는 1 이상으로 입력하세요.').nullable().default(null),
    /** Landings that count; empty: every landing of the shop. */
    landingIds: ids('랜딩을 목록에서 고르세요.').default([]),
    /** Media types that count; empty: every medium. */
    mediaTypeIds: ids('매체를 목록에서 고르세요.').default([]),
    /** Days (24-hour periods from receipt) within which a lead may be returned. */
    returnWindowDays: z.number('반품 기간을 입력하세요.').int('반품 기간은 정수로 입력하세요.').min(0, '반품 기간은 0일 이상으로 입력하세요.').max(90, '반품 기간은 90일 이하로 입력하세요.'),
    /** Percent of the leads delivered that may be returned. */
    maxReturnRate: z.number('최대 반품률을 입력하세요.').int('최대 반품률은 정수로 입력하세요.').min(0, '최대 반품률은 0 이상으로 입력하세요.').max(100, '최대 반품률은 100 이하로 입력하세요.'),
    /** Close the contract's landings when the daily cap or the quantity is reached. */
    autoClose: z.boolean('자동 마감 여부를 선택하세요.').default(false),
    memo: optionalText(1000),
  })
  .superRefine((v, ctx) => {
    if (v.startsOn && v.endsOn && v.endsOn < v.startsOn) ctx.addIssue({ code: 'custom', path: ['endsOn'], message: CONTRACT_END_BEFORE_START });
  });
export type ContractInput = z.infer<typeof contractInput>;

export const contractItem = z.object({
  id: z.number(),
  shopId: z.number(),
  name: z.string(),
  startsOn: z.string(),
  endsOn: z.string(),
  quantity: count,
  unitPrice: count,
  dailyCap: count.nullable(),
  returnWindowDays: count,
  maxReturnRate: count,
  autoClose: z.boolean(),
  /** When it was stopped (중지); it counts up to that Seoul day. */
  stoppedAt: z.string().nullable(),
  /** The Seoul day it was stopped on (its effective end), or null. */
  stoppedOn: z.string().nullable(),
  memo: z.string().nullable(),
  /** Empty: every landing of the shop. */
  landingIds: z.array(z.number()),
  landingTitles: z.array(z.string()),
  /** Empty: every medium. */
  mediaTypeIds: z.array(z.number()),
  mediaTypeNames: z.array(z.string()),
  status: z.enum(CONTRACT_STATUSES),
  /** Valid leads billable toward the quantity so far. */
  counted: count,
  ...rowTimes,
});
export type ContractItem = z.infer<typeof contractItem>;

export const contractStopInput = z.object({
  reason: requiredText(200, STOP_REASON_REQUIRED),
});
export type ContractStopInput = z.infer<typeof contractStopInput>;

// ── Status (계약 현황) ────────────────────────────────────────────────────────────────────────

export const contractStatusQuery = z.object({
  /** One contract; default: the shop's contracts not completed long ago, newest first. */
  contractId: z.coerce.number().int().positive().optional(),
});

export const contractDay = z.object({
  day: z.string(),
  /** Valid leads received that day. */
  valid: count,
  /** Of them, billable (within the daily cap and the quantity). */
  billable: count,
  /** Valid past a cap (not billed). */
  over: count,
  /** Billable up to and including that day. */
  cumulative: count,
});
export type ContractDay = z.infer<typeof contractDay>;

export const capEventItem = z.object({
  id: z.number(),
  /** closed-daily | closed-quantity | reopened */
  kind: z.string(),
  landingId: z.number(),
  landingTitle: z.string().nullable(),
  /** The contract's count at the time (today's for a daily cap). */
  count: count.nullable(),
  accountName: z.string().nullable(),
  at: z.string(),
});
export type CapEventItem = z.infer<typeof capEventItem>;

export const contractFigures = z.object({
  contract: contractItem,
  /** The Seoul day the figures were taken on. */
  today: z.string(),
  /** The last day it counts leads on (its end, or the day it was stopped). */
  lastDay: z.string(),
  /** Valid leads billable toward the quantity. */
  counted: count,
  /** Valid leads past the daily cap or the quantity. */
  over: count,
  quantity: count,
  /** quantity − counted, never below 0. */
  remaining: count,
  /** Valid leads received today (0 outside the period), of them billable, against the daily cap. */
  todayCount: z.object({ valid: count, billable: count, dailyCap: count.nullable() }),
  /** counted × unitPrice (VAT excluded), its VAT and the sum. */
  amount: count,
  vat: count,
  total: count,
  /** Billable per day over the days run so far. */
  dailyAverage: z.number(),
  /** When the quantity is met at that pace; null without a pace or when met. */
  projectedOn: z.string().nullable(),
  returns: z.object({ requested: count, approved: count, rejected: count }),
  /** Leads delivered under it: valid or returned (what the return rate divides by). */
  delivered: count,
  /** (approved + requested) / delivered, percent; null with nothing delivered. */
  returnRate: z.number().nullable(),
  maxReturnRate: count,
  /** Approved returns the remaining quantity has not absorbed yet. */
  replacementsOwed: count,
  /** Leads in scope that do not count, by reason. */
  excluded: z.object({ duplicates: count, invalid: count, returned: count, deleted: count }),
  /** Landings this contract's cap has closed, and when each reopens by itself. */
  closedLandings: z.array(z.object({ id: z.number(), title: z.string(), reopenAt: z.string().nullable() })),
  /** Every day of the period up to today (or its last day), oldest first. */
  days: z.array(contractDay),
  /** The latest cap events, newest first (at most 20). */
  capEvents: z.array(capEventItem),
});
export type ContractFigures = z.infer<typeof contractFigures>;

/** A live (open) landing no contract covers today: its valid leads bill nothing (contractGap, contracts/money.ts). */
export const uncoveredLanding = z.object({ landingId: z.number(), title: z.string(), reasons: z.array(z.string()) });
export type UncoveredLandingItem = z.infer<typeof uncoveredLanding>;

export const contractStatusResponse = z.object({
  today: z.string(),
  contracts: z.array(contractFigures),
  /** The shop's open landings no contract covers today. */
  uncoveredLandings: z.array(uncoveredLanding),
});
export type ContractStatusResponse = z.infer<typeof contractStatusResponse>;

// ── The leads behind a count ──────────────────────────────────────────────────────────────

export const CONTRACT_LEAD_KINDS = ['counted', 'over', 'today', 'duplicate', 'invalid', 'returned', 'deleted', 'requested'] as const;
export type ContractLeadKind = (typeof CONTRACT_LEAD_KINDS)[number];
export const CONTRACT_LEAD_KIND_LABELS: Record<ContractLeadKind, string> = {
  counted: '정산 대상', over: '한도 초과', today: '오늘 접수', duplicate: '중복', invalid: '무효', returned: '반품 승인', deleted: '삭제', requested: '반품 요청 중',
};

export const contractLeadItem = z.object({
  id: z.number(),
  createdAt: z.string(),
  landingTitle: z.string().nullable(),
  mediaTypeName: z.string().nullable(),
  name: z.string(),
  /** Always masked (010-****-5678). */
  phone: z.string(),
  csStatus: z.enum(CS_STATUSES),
  validity: z.enum(VALIDITIES),
  duplicateOf: z.number().nullable(),
  deletedAt: z.string().nullable(),
  /** Its latest return's status, if any. */
  returnStatus: z.enum(RETURN_STATUSES).nullable(),
});
export type ContractLeadItem = z.infer<typeof contractLeadItem>;

// ── Returns (무효 교체) ───────────────────────────────────────────────────────────────────────

export const returnItem = z.object({
  id: z.number(),
  contractId: z.number(),
  contractName: z.string(),
  leadId: z.number(),
  leadName: z.string(),
  /** Always masked. */
  leadPhone: z.string(),
  leadCreatedAt: z.string(),
  reason: z.enum(RETURN_REASONS),
  note: z.string().nullable(),
  status: z.enum(RETURN_STATUSES),
  requestedByName: z.string().nullable(),
  requestedAt: z.string(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
});
export type ReturnItem = z.infer<typeof returnItem>;

export const returnRequestInput = z
  .object({
    reason: z.enum(RETURN_REASONS, '반품 사유를 선택하세요.'),
    note: optionalText(500),
  })
  .superRefine((v, ctx) => {
    if (v.reason === '기타' && !v.note) ctx.addIssue({ code: 'custom', path: ['note'], message: RETURN_NOTE_REQUIRED });
  });
export type ReturnRequestInput = z.infer<typeof returnRequestInput>;

export const returnDecisionInput = z
  .object({
    approve: z.boolean('승인 여부를 선택하세요.'),
    note: optionalText(500),
  })
  .superRefine((v, ctx) => {
    if (v.approve === false && !v.note) ctx.addIssue({ code: 'custom', path: ['note'], message: REJECT_NOTE_REQUIRED });
  });
export type ReturnDecisionInput = z.infer<typeof returnDecisionInput>;

/** Whether a lead may be returned now (the lead drawer shows it). */
export const returnable = z.object({
  /** The contract whose scope holds the lead; null: none. */
  contract: z.object({ id: z.number(), name: z.string(), returnWindowDays: count, maxReturnRate: count }).nullable(),
  allowed: z.boolean(),
  /** Why not, in Korean; null when allowed. */
  reason: z.string().nullable(),
  /** Until when a return may be requested (receipt + window days); null without a contract. */
  deadline: z.string().nullable(),
  /** Returns approved or pending under the contract, the leads delivered, and the maximum rate. */
  returnsSoFar: count,
  delivered: count,
  /** Percent used so far; null with nothing delivered. */
  rateUsed: z.number().nullable(),
  maxReturnRate: count.nullable(),
  /** The lead's current return, if any (pending, approved or the latest rejected one). */
  current: returnItem.nullable(),
});
export type Returnable = z.infer<typeof returnable>;

// ── Settlement (정산) ──────────────────────────────────────────────────────────────────────

export const settlementQuery = z.object({
  /** YYYY-MM; default: the current month, or the contract's last month when it has ended. */
  month: z
    .string('정산 월을 입력하세요.')
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, '정산 월은 YYYY-MM 형식으로 입력하세요.')
    .optional(),
});

export const settlementDay = z.object({
  day: z.string(),
  valid: count,
  billable: count,
  over: count,
  /** Returns approved for leads received that day. */
  returned: count,
});
export type SettlementDay = z.infer<typeof settlementDay>;

export const settlement = z.object({
  contract: contractItem,
  month: z.string(),
  /** The days of the month inside the contract's period (empty when none). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  days: z.array(settlementDay),
  totals: z.object({
    valid: count,
    billable: count,
    over: count,
    /** Leads of the month whose return was approved. */
    returned: count,
    /** Returns approved (decided) during the month, whichever month their lead came in. */
    returnsApprovedInMonth: count,
    unitPrice: count,
    /** billable × unitPrice, VAT excluded. */
    amount: count,
    vat: count,
    total: count,
  }),
});
export type Settlement = z.infer<typeof settlement>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────────

const base = '/api/shops/:shopId/contracts';
const leadParams = z.object({ shopId: z.coerce.number().int().positive(), leadId: z.coerce.number().int().positive() });

export const shopContractsApi = {
  /** 계약 관리's table. */
  list: listEndpoint({
    path: base,
    params: shopParam,
    item: contractItem,
    sort: ['startsOn', 'name', 'endsOn', 'updatedAt'],
    filters: { status: z.enum(CONTRACT_STATUSES, '목록에 있는 상태를 고르세요.').optional() },
  }),
  get: endpoint({ method: 'GET', path: `${base}/:id`, params: shopItemParams, response: contractItem }),
  /** 409 when it overlaps another contract of the shop (same day, landing and medium). */
  create: endpoint({ method: 'POST', path: base, params: shopParam, body: contractInput, response: contractItem, status: 201 }),
  update: endpoint({ method: 'PUT', path: `${base}/:id`, params: shopItemParams, body: contractInput, response: contractItem }),
  /** 중지: stops counting from the next day on (stopped_at now). */
  stop: endpoint({ method: 'POST', path: `${base}/:id/stop`, params: shopItemParams, body: contractStopInput, response: contractItem }),
  /** Undoes 중지: its whole period counts again, the days it was stopped included (refused when another contract took over some of them). */
  resume: endpoint({ method: 'POST', path: `${base}/:id/resume`, params: shopItemParams, response: contractItem }),
  /** Only without counted leads and returns; otherwise 409 (stop it instead). */
  remove: endpoint({ method: 'DELETE', path: `${base}/:id`, params: shopItemParams, response: null }),

  /** 계약 현황: the figures of one contract or of the shop's current ones. */
  status: endpoint({ method: 'GET', path: `${base}/status`, params: shopParam, query: contractStatusQuery, response: contractStatusResponse }),
  /** The leads behind a figure (masked phones; recorded in the access record). */
  leads: listEndpoint({
    path: `${base}/:id/leads`,
    params: shopItemParams,
    item: contractLeadItem,
    sort: ['createdAt'],
    filters: { kind: z.enum(CONTRACT_LEAD_KINDS, '목록에 있는 항목을 고르세요.').default('counted') },
  }),

  /** The shop's returns. */
  returns: listEndpoint({
    path: `${base}/returns`,
    params: shopParam,
    item: returnItem,
    sort: ['requestedAt', 'decidedAt'],
    filters: {
      status: z.enum(RETURN_STATUSES, '목록에 있는 상태를 고르세요.').optional(),
      contractId: z.coerce.number().int().positive().optional(),
    },
  }),
  /** Whether (and why not) a lead may be returned now. */
  returnable: endpoint({ method: 'GET', path: '/api/shops/:shopId/leads/:leadId/return', params: leadParams, response: returnable }),
  requestReturn: endpoint({ method: 'POST', path: '/api/shops/:shopId/leads/:leadId/return', params: leadParams, body: returnRequestInput, response: returnItem, status: 201 }),
  decideReturn: endpoint({ method: 'POST', path: `${base}/returns/:id/decision`, params: shopItemParams, body: returnDecisionInput, response: returnItem }),

  /** One month of a contract, per Seoul day. */
  settlement: endpoint({ method: 'GET', path: `${base}/:id/settlement`, params: shopItemParams, query: settlementQuery, response: settlement }),
  /** The same as an XLSX 정산서. */
  settlementXlsx: endpoint({ method: 'GET', path: `${base}/:id/settlement.xlsx`, params: shopItemParams, query: settlementQuery, response: 'file' }),
};

export type ContractListQuery = QueryOf<typeof shopContractsApi.list>;
export type ContractLeadsQuery = QueryOf<typeof shopContractsApi.leads>;
export type ReturnListQuery = QueryOf<typeof shopContractsApi.returns>;
export type SettlementQuery = QueryOf<typeof shopContractsApi.settlement>;
