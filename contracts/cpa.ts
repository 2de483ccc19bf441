// CPA 관리: per medium and month, the target CPA the agency sets against the actual one
// (spend ÷ valid leads), and what the medium earned under the shop's contracts — revenue is
// the contract's unit price × the medium's billable valid leads (within the daily cap and the
// quantity), margin is revenue − spend. A month is Seoul days; spend comes from 광고 현황
// (ad_spend), leads and validity from the lead rules (server/db/valid-leads.ts), the CPA and the
// variance from contracts/money.ts (adMetrics, cpaVariance), so every screen agrees.
import { z } from './zod.ts';
import { shopParam } from './list.ts';
import { endpoint } from './endpoint.ts';

export const CPA_MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
export const CPA_TREND_MONTHS_DEFAULT = 6;
const CPA_TREND_MONTHS_MAX = 24;
const TARGET_CPA_MAX = 10_000_000;

const TARGET_CPA_REQUIRED = '목표 CPA를 숫자로 입력하세요.';
const TARGET_CPA_POSITIVE = '목표 CPA는 0원보다 커야 합니다.';
const TARGET_CPA_TOO_BIG = '목표 CPA는 10,000,000원 이하로 입력하세요.';
const COPY_SAME_MONTH = '복사할 달과 받을 달이 같습니다.';
export const COPY_NOTHING = '복사할 목표가 없습니다.';

const month = (missing: string) => z.string(missing).regex(CPA_MONTH_RE, '달은 YYYY-MM 형식으로 입력하세요.');

/** A month (YYYY-MM) plus n months. */
export function addMonths(m: string, n: number): string {
  const [y, mm] = m.split('-').map(Number) as [number, number];
  const i = y * 12 + (mm - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/** The first and last Seoul days of a month (YYYY-MM). */
export function monthBounds(m: string): { from: string; to: string } {
  const next = addMonths(m, 1);
  const last = new Date(Date.parse(`${next}-01T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);
  return { from: `${m}-01`, to: last };
}

/** "2026-11" → "2026년 11월". */
export const monthLabel = (m: string) => `${m.slice(0, 4)}년 ${Number(m.slice(5))}월`;

// ── Overview ──────────────────────────────────────────────────────────────────────────────

export const cpaOverviewQuery = z.object({
  /** YYYY-MM; the current Seoul month when absent. */
  month: month('달을 고르세요.').optional(),
  /** How many months the trend covers, ending at `month`. */
  months: z.coerce
    .number('개월 수를 숫자로 입력하세요.')
    .int('개월 수는 정수로 입력하세요.')
    .min(1, '개월 수는 1 이상으로 입력하세요.')
    .max(CPA_TREND_MONTHS_MAX, `개월 수는 ${CPA_TREND_MONTHS_MAX} 이하로 입력하세요.`)
    .default(CPA_TREND_MONTHS_DEFAULT),
});

const won = z.number().int();
const count = z.number().int();
export const cpaVarianceShape = z.object({
  /** actual − target, KRW: positive is above target (worse). */
  diff: z.number(),
  /** diff ÷ target, percent to one decimal. */
  percent: z.number(),
});

/** One medium's (or the total's) figures for a month. */
export const cpaFigures = z.object({
  /** Null: no target that month. The total's is the targets weighted by valid leads. */
  targetCpa: won.nullable(),
  /** Σ ad spend (every landing). */
  spend: won,
  /** Leads received, not deleted (duplicates and 무효 included). */
  leads: count,
  /** Leads that count (not deleted, not duplicates, valid). */
  validLeads: count,
  /** spend ÷ valid leads, KRW; null without valid leads. */
  actualCpa: won.nullable(),
  /** Null when there is no target or no actual CPA. */
  variance: cpaVarianceShape.nullable(),
  /** Valid leads billed under a contract (within its daily cap and quantity). */
  billableLeads: count,
  /** Valid leads a contract covers but past its daily cap or quantity: they earn nothing. */
  overCapLeads: count,
  /** Valid leads no contract covers (계약 외): they earn nothing. */
  outsideLeads: count,
  /** Σ unit price × billable leads, KRW, VAT excluded. */
  revenue: won,
  /** revenue − spend. */
  margin: won,
  /** margin ÷ revenue, percent to one decimal; null without revenue. */
  marginRate: z.number().nullable(),
});
export type CpaFigures = z.infer<typeof cpaFigures>;

export const cpaMediumRow = cpaFigures.extend({
  /** Null: leads without a medium (매체 미지정). */
  mediaTypeId: z.number().nullable(),
  name: z.string(),
  /** The media type is in use (a deactivated one still shows while it has figures). */
  active: z.boolean(),
});
export type CpaMediumRow = z.infer<typeof cpaMediumRow>;

export const cpaTrendPoint = z.object({
  month: z.string(),
  targetCpa: won.nullable(),
  actualCpa: won.nullable(),
  spend: won,
  validLeads: count,
  revenue: won,
  margin: won,
});
export type CpaTrendPoint = z.infer<typeof cpaTrendPoint>;

export const cpaOverview = z.object({
  month: z.string(),
  /** The current Seoul month (the picker goes no further). */
  currentMonth: z.string(),
  /** Media with a target, spend or leads in the month, in the code table's order; 매체 미지정 last. */
  rows: z.array(cpaMediumRow),
  totals: cpaFigures,
  /**
   * The month's leads that did not come from an ad (entered by hand, imported, or without a
   * medium): shown apart, never in the rows, the totals, CPA or margin. What they earn under a
   * contract is billed as ever (계약 현황); here it is only named.
   */
  other: z.object({ leads: count, validLeads: count, billableLeads: count, revenue: won }),
  trend: z.object({
    /** Oldest first, ending at `month`. */
    months: z.array(z.string()),
    /** Media with a target, spend or leads in any of the months; one point per month. */
    media: z.array(z.object({ mediaTypeId: z.number().nullable(), name: z.string(), points: z.array(cpaTrendPoint) })),
    total: z.array(cpaTrendPoint),
  }),
});
export type CpaOverview = z.infer<typeof cpaOverview>;

// ── Targets ───────────────────────────────────────────────────────────────────────────────

export const cpaTargetsQuery = z.object({
  month: month('달을 고르세요.').optional(),
});

export const cpaTargetItem = z.object({
  mediaTypeId: z.number(),
  name: z.string(),
  active: z.boolean(),
  /** Null: none set for the month. */
  targetCpa: won.nullable(),
  updatedAt: z.string().nullable(),
  updatedByName: z.string().nullable(),
});

export const cpaTargets = z.object({
  month: z.string(),
  /** Every active medium, and a deactivated one that still has a target that month. */
  items: z.array(cpaTargetItem),
  /** Targets set for the month before (what 지난달 목표 복사 would bring). */
  previousMonthTargets: count,
});
export type CpaTargets = z.infer<typeof cpaTargets>;

export const targetCpaField = z
  .number(TARGET_CPA_REQUIRED)
  .int('목표 CPA는 원 단위 정수로 입력하세요.')
  .positive(TARGET_CPA_POSITIVE)
  .max(TARGET_CPA_MAX, TARGET_CPA_TOO_BIG);

export const cpaTargetsInput = z.object({
  month: month('목표를 정할 달을 고르세요.'),
  /** Only the media listed change; null removes the medium's target for the month. */
  targets: z
    .array(
      z.object({
        mediaTypeId: z.number('매체를 목록에서 고르세요.').int('매체를 목록에서 고르세요.').positive('매체를 목록에서 고르세요.'),
        targetCpa: targetCpaField.nullable(),
      }),
      '저장할 목표를 입력하세요.',
    )
    .min(1, '저장할 목표를 입력하세요.')
    .max(500, '한 번에 500개까지 저장할 수 있습니다.'),
});
export type CpaTargetsInput = z.infer<typeof cpaTargetsInput>;

export const cpaTargetsCopyInput = z
  .object({
    from: month('복사할 달을 고르세요.'),
    to: month('목표를 받을 달을 고르세요.'),
  })
  .superRefine((v, ctx) => {
    if (v.from && v.from === v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: COPY_SAME_MONTH });
  });
export type CpaTargetsCopyInput = z.infer<typeof cpaTargetsCopyInput>;

export const cpaTargetsSaved = cpaTargets.extend({
  /** Targets set, changed or removed by the call. */
  changed: count,
});
export type CpaTargetsSaved = z.infer<typeof cpaTargetsSaved>;

export const cpaApi = {
  overview: endpoint({ method: 'GET', path: '/api/shops/:shopId/cpa', params: shopParam, query: cpaOverviewQuery, response: cpaOverview }),
  targets: endpoint({ method: 'GET', path: '/api/shops/:shopId/cpa/targets', params: shopParam, query: cpaTargetsQuery, response: cpaTargets }),
  saveTargets: endpoint({ method: 'PUT', path: '/api/shops/:shopId/cpa/targets', params: shopParam, body: cpaTargetsInput, response: cpaTargetsSaved }),
  copyTargets: endpoint({ method: 'POST', path: '/api/shops/:shopId/cpa/targets/copy', params: shopParam, body: cpaTargetsCopyInput, response: cpaTargetsSaved }),
};
