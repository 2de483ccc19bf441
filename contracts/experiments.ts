// Landing experiments (A/B variants): a marketer duplicates the live landing into variant B
// (C, D …), edits its content, sets each variant's traffic weight, starts, reads the results
// (contracts/experiment-stats.ts) and stops — promoting a variant, whose content becomes the
// landing's. Variant A is always the landing's own content.
import { z } from './zod.ts';
import { endpoint } from './endpoint.ts';
import { shopItemParams } from './list.ts';
import { formFields, landingContent } from './landings.ts';
import { requiredText as required } from './fields.ts';

export const EXPERIMENT_STATUSES = ['draft', 'running', 'stopped'] as const;
export const EXPERIMENT_STATUS_LABELS: Record<(typeof EXPERIMENT_STATUSES)[number], string> = { draft: '준비 중', running: '진행 중', stopped: '종료' };
/** Variants A (the landing's own content) … F. */
export const VARIANT_KEYS = ['A', 'B', 'C', 'D', 'E', 'F'] as const;
export type VariantKey = (typeof VARIANT_KEYS)[number];

const isoDateTime = z.iso.datetime({ offset: true, message: '올바른 일시가 아닙니다.' }).transform((v) => new Date(v).toISOString());
const weight = z.number('비중을 입력하세요.').int('비중은 정수로 입력하세요.').min(1, '비중은 1 이상입니다.').max(100, '비중은 100 이하입니다.');

export const experimentParams = shopItemParams.extend({ experimentId: z.coerce.number().int().positive() });

export const experimentCreate = z.object({ name: required(60, '실험 이름을 입력하세요.') });

/**
 * What a variant shows: the landing's content (copy, hero, colours, button) and its form's extra
 * fields in their order — validated exactly as a landing's. `formFields` absent (variants saved
 * before forms could differ): the landing's own fields.
 */
export const variantContent = landingContent.extend({ formFields: formFields.optional() });
export type VariantContent = z.infer<typeof variantContent>;

export const variantInput = z.object({
  key: z.enum(VARIANT_KEYS),
  weight,
  /** Null for A (the landing's own content). */
  content: variantContent.nullable(),
});

export const experimentUpdate = z
  .object({
    name: required(60, '실험 이름을 입력하세요.'),
    variants: z.array(variantInput, '변형을 입력하세요.').min(2, '변형은 2개 이상입니다.').max(VARIANT_KEYS.length, `변형은 ${VARIANT_KEYS.length}개 이하입니다.`),
    /** A scheduled stop (without promoting a variant). */
    stopAt: isoDateTime.nullable().default(null),
  })
  .superRefine((e, ctx) => {
    e.variants.forEach((v, i) => {
      if (v.key !== VARIANT_KEYS[i]) ctx.addIssue({ code: 'custom', path: ['variants', i, 'key'], message: '변형은 A부터 차례로 입력하세요.' });
      if (v.key === 'A' && v.content !== null) ctx.addIssue({ code: 'custom', path: ['variants', i, 'content'], message: 'A안은 랜딩의 현재 내용입니다.' });
      if (v.key !== 'A' && v.content === null) ctx.addIssue({ code: 'custom', path: ['variants', i, 'content'], message: '변형의 내용을 입력하세요.' });
    });
  });
export type ExperimentUpdate = z.input<typeof experimentUpdate>;

export const experimentStop = z.object({
  /** The variant whose content becomes the landing's; null: stop without changing the landing. */
  promote: z.enum(VARIANT_KEYS).nullable(),
});

const interval = z.object({ low: z.number(), high: z.number() });
export const variantResult = z.object({
  key: z.string(),
  weight: z.number(),
  visits: z.number(),
  leads: z.number(),
  validLeads: z.number(),
  spend: z.number().nullable().optional(),
  conversionRate: z.number().nullable(),
  interval: interval.nullable(),
  validRate: z.number().nullable(),
  probabilityToBeBest: z.number().nullable(),
  cpa: z.number().nullable(),
});
export const experimentResults = z.object({
  variants: z.array(variantResult),
  enoughData: z.boolean(),
  winner: z.string().nullable(),
  srm: z.object({ statistic: z.number(), df: z.number(), pValue: z.number(), warning: z.boolean() }),
  summary: z.array(z.string()),
});
export type ExperimentResults = z.infer<typeof experimentResults>;

export const experiment = z.object({
  id: z.number(),
  landingId: z.number(),
  name: z.string(),
  status: z.enum(EXPERIMENT_STATUSES),
  startedAt: z.string().nullable(),
  stoppedAt: z.string().nullable(),
  stopAt: z.string().nullable(),
  winner: z.string().nullable(),
  variants: z.array(z.object({
    key: z.enum(VARIANT_KEYS),
    weight: z.number(),
    /** B …: with its form fields always (the landing's where the variant has none of its own). */
    content: variantContent.nullable(),
    /** Labels of the variant's form fields the landing's privacy policy does not name: the warning publishing gives, before the start. */
    uncoveredFields: z.array(z.string()),
  })),
  /** Live while running; archived at the stop. */
  results: experimentResults,
  createdAt: z.string(),
});
export type Experiment = z.infer<typeof experiment>;

export const experimentsApi = {
  list: endpoint({
    method: 'GET', path: '/api/shops/:shopId/landings/:id/experiments', params: shopItemParams, response: z.object({ items: z.array(experiment) }),
  }),
  /** A draft experiment: A (the live landing) and B, a copy of it to edit, at 50/50. */
  create: endpoint({ method: 'POST', path: '/api/shops/:shopId/landings/:id/experiments', params: shopItemParams, body: experimentCreate, response: experiment, status: 201 }),
  update: endpoint({ method: 'PUT', path: '/api/shops/:shopId/landings/:id/experiments/:experimentId', params: experimentParams, body: experimentUpdate, response: experiment }),
  start: endpoint({ method: 'POST', path: '/api/shops/:shopId/landings/:id/experiments/:experimentId/start', params: experimentParams, response: experiment }),
  stop: endpoint({ method: 'POST', path: '/api/shops/:shopId/landings/:id/experiments/:experimentId/stop', params: experimentParams, body: experimentStop, response: experiment }),
};
