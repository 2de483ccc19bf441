// 상담 통계: how a period's leads were worked — counts by CS status per counselor (a shop) or
// per shop (across shops), per Seoul day, the contact and contract rates, and the time to
// first contact. A period is Seoul days of receipt (created_at); deleted leads never count.
import { z } from './zod.ts';
import { calendarDayField as day } from './fields.ts';
import { shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { CS_STATUSES } from './leads.ts';
import { slaFigures } from './lead-sla.ts';

export const csStatsQuery = z.object({
  /** Seoul days, inclusive; default this month up to today. */
  from: day.optional(),
  to: day.optional(),
});

const count = z.number().int();
/** Every status, zero included, so each row has every column. */
const statusCounts = z.record(z.enum(CS_STATUSES), count);

/** The figures of one group of leads (a counselor's, a shop's, or all of them). */
export const csFigures = z.object({
  /** Every lead received, duplicates included. */
  total: count,
  /** Leads that are not duplicates (duplicate_of is null): what the rates divide by. */
  unique: count,
  byStatus: statusCounts,
  /** Non-duplicate leads reached (CONTACTED_STATUSES). */
  contacted: count,
  /** Non-duplicate leads at 계약. */
  contracted: count,
  /** contacted / unique (0–1); null without leads. */
  contactRate: z.number().nullable(),
  /** contracted / unique (0–1); null without leads. */
  conversionRate: z.number().nullable(),
  /** Non-duplicate leads with a first contact: what the times below are of. */
  firstContacts: count,
  /** Minutes from receipt to first contact; null when no lead was contacted yet. */
  firstContactAvgMinutes: z.number().nullable(),
  firstContactMedianMinutes: z.number().nullable(),
});
export type CsFigures = z.infer<typeof csFigures>;

export const csDay = z.object({ day: z.string(), total: count, byStatus: statusCounts });
export type CsDay = z.infer<typeof csDay>;

const period = z.object({ from: z.string(), to: z.string() });

/** Per counselor; counselorId null is 미배분. */
const counselorRow = csFigures.extend({ counselorId: z.number().nullable(), name: z.string() });

export const csStatsShop = z.object({
  period,
  /** 'assigned': the figures are of the asker's own leads only (a counselor). */
  scope: z.enum(['all', 'assigned']),
  totals: csFigures,
  /** Per counselor; counselorId null is 미배분. The shop's counselors appear even without leads. */
  counselors: z.array(counselorRow),
  /** Every day of the period, in order. */
  byDay: z.array(csDay),
});
export type CsStatsShop = z.infer<typeof csStatsShop>;
export type CsCounselorRow = CsStatsShop['counselors'][number];

export const csStatsAdminQuery = csStatsQuery.extend({
  /** Narrows to one shop. */
  shopId: z.coerce.number('업체를 목록에서 고르세요.').int('업체를 목록에서 고르세요.').positive('업체를 목록에서 고르세요.').optional(),
});

export const csStatsAdmin = z.object({
  period,
  scope: z.enum(['all', 'assigned']),
  totals: csFigures,
  /** Every shop the asker may enter that is active or received leads in the period. */
  shops: z.array(csFigures.extend({ shopId: z.number(), shopName: z.string(), active: z.boolean() })),
  /** With one shop chosen: its counselors, as 상담 통계 shows them; otherwise null. */
  counselors: z.array(counselorRow).nullable(),
  byDay: z.array(csDay),
});
export type CsStatsAdmin = z.infer<typeof csStatsAdmin>;
export type CsShopRow = CsStatsAdmin['shops'][number];

export const csStatsApi = {
  shop: endpoint({ method: 'GET', path: '/api/shops/:shopId/cs-stats', params: shopParam, query: csStatsQuery, response: csStatsShop }),
  admin: endpoint({ method: 'GET', path: '/api/cs-stats', query: csStatsAdminQuery, response: csStatsAdmin }),
  /** The period's speed to lead: SLA met, time to first contact, re-routes (lead-sla.ts). */
  sla: endpoint({ method: 'GET', path: '/api/shops/:shopId/cs-stats/sla', params: shopParam, query: csStatsQuery, response: slaFigures }),
};

export type CsStatsQuery = QueryOf<typeof csStatsApi.shop>;
export type CsStatsAdminQuery = QueryOf<typeof csStatsApi.admin>;
