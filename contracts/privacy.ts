// Versioned privacy policies per shop. A published version is frozen; new submissions
// consent to the latest published one (or the version a landing pins).
import { z } from './zod.ts';
import { requiredText, rowTimes, text } from './fields.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { listEndpoint, shopItemParams, shopParam } from './list.ts';

const required = requiredText;
const optionalText = (max: number) => text(max).transform((v) => v || null).nullable().default(null);

export const thirdParty = z.object({
  recipient: required(60, '제공받는 자를 입력하세요.'),
  purpose: required(200, '제공 목적을 입력하세요.'),
  items: required(200, '제공 항목을 입력하세요.'),
  period: required(100, '보유·이용 기간을 입력하세요.'),
});
export type ThirdParty = z.infer<typeof thirdParty>;

/** Who collects the leads: the agency (providing them to the shop), or the shop itself (the agency processing them for it). */
export const COLLECTORS = ['operator', 'shop'] as const;
type Collector = (typeof COLLECTORS)[number];
export const COLLECTOR_LABELS: Record<Collector, string> = {
  operator: '운영사(대행사)가 수집해 업체에 제공',
  shop: '업체가 직접 수집 (운영사는 처리를 위탁받음)',
};

export const privacyPolicyInput = z.object({
  collector: z.enum(COLLECTORS, '개인정보를 수집하는 자를 선택하세요.').default('operator'),
  purpose: required(1000, '수집·이용 목적을 입력하세요.'),
  items: required(500, '수집 항목을 입력하세요.'),
  retentionDays: z.coerce.number().int('정수로 입력하세요.').min(1, '1일 이상 입력하세요.').max(3650, '3650일 이하로 입력하세요.'),
  thirdParties: z.array(thirdParty).max(10, '10곳 이하로 입력하세요.').default([]),
  /** Defaults to the shop's privacy officer when empty. */
  officerName: optionalText(30),
  officerContact: optionalText(60),
  /** Further text shown below the structured sections; blank lines separate paragraphs. */
  body: text(20000).default(''),
});
export type PrivacyPolicyInput = z.infer<typeof privacyPolicyInput>;

export const POLICY_STATUSES = ['draft', 'published'] as const;
export const POLICY_STATUS_LABELS: Record<(typeof POLICY_STATUSES)[number], string> = { draft: '초안', published: '게시됨' };

export const privacyPolicy = z.object({
  id: z.number(),
  shopId: z.number(),
  version: z.number(),
  status: z.enum(POLICY_STATUSES),
  /** The latest published version: what new submissions consent to by default. */
  current: z.boolean(),
  collector: z.enum(COLLECTORS),
  purpose: z.string(),
  items: z.string(),
  retentionDays: z.number(),
  thirdParties: z.array(thirdParty),
  officerName: z.string().nullable(),
  officerContact: z.string().nullable(),
  body: z.string(),
  publishedAt: z.string().nullable(),
  ...rowTimes,
});
export type PrivacyPolicy = z.infer<typeof privacyPolicy>;

/** Published versions for the landing editor's select (with what they name as collected). */
export const policyOption = z.object({
  id: z.number(), version: z.number(), publishedAt: z.string(), current: z.boolean(), items: z.string(), collector: z.enum(COLLECTORS),
});
export const policyOptionsResponse = z.object({ items: z.array(policyOption) });


/** A policy as the public privacy page and the landing's consent block show it. */
export interface PrivacyPolicyView {
  id: number;
  version: number;
  collector: Collector;
  purpose: string;
  items: string;
  retentionDays: number;
  thirdParties: ThirdParty[];
  officerName: string | null;
  officerContact: string | null;
  body: string;
  publishedAt: string;
}

/** One item of a comma-separated list, compared without spaces or case. */
const itemKey = (s: string) => s.replace(/\s+/g, '').toLowerCase();
const splitItems = (items: string) => items.split(/[,·/\n]+/).map((s) => s.trim()).filter(Boolean);

interface FieldLabel {
  label: string;
  sensitive?: boolean;
}

/** The fields whose labels the policy's items do not name (the marketer is warned on publishing). */
export function uncoveredFields(policyItems: string, fields: readonly FieldLabel[]): string[] {
  const named = new Set(splitItems(policyItems).map(itemKey));
  const text = itemKey(policyItems);
  return fields.map((f) => f.label).filter((l) => !named.has(itemKey(l)) && !text.includes(itemKey(l)));
}

/** What intake records with every submission besides the form (a lead's ip, user_agent, referrer, utm_*). */
export const AUTO_COLLECTED_ITEMS = '접속 IP 주소, 브라우저 정보, 유입 경로(광고 매체·캠페인·검색어)';

/**
 * What one landing collects: 이름, 연락처 and its own fields (sensitive ones are listed apart). Items of the
 * shop's policy that this form does not ask are not named: the policy covers every landing of the shop,
 * the landing's page and consent name only what this one takes.
 */
export function collectedItems(fields: readonly FieldLabel[]): string {
  return ['이름', '연락처', ...fields.filter((f) => !f.sensitive).map((f) => f.label)].join(', ');
}

/** Labels of the fields marked sensitive (건강·민감정보): they need a consent of their own (PIPA art. 23). */
export const sensitiveItems = (fields: readonly FieldLabel[]): string[] => fields.filter((f) => f.sensitive).map((f) => f.label);

export type PrivacyPolicyListQuery = QueryOf<typeof privacyPoliciesApi.list>;

export const privacyPoliciesApi = {
  /** Versions a page at a time, newest first; every page also names the current version and the draft. */
  list: listEndpoint({
    path: '/api/shops/:shopId/privacy-policies',
    item: privacyPolicy,
    sort: ['version', 'publishedAt', 'updatedAt'],
    params: shopParam,
    filters: { status: z.enum(POLICY_STATUSES).optional() },
    extra: { current: privacyPolicy.nullable(), draft: privacyPolicy.nullable() },
  }),
  /** Published versions for the landing editor's policy select. */
  options: endpoint({ method: 'GET', path: '/api/shops/:shopId/privacy-policies/options', params: shopParam, response: policyOptionsResponse }),
  get: endpoint({ method: 'GET', path: '/api/shops/:shopId/privacy-policies/:id', params: shopItemParams, response: privacyPolicy }),
  create: endpoint({ method: 'POST', path: '/api/shops/:shopId/privacy-policies', params: shopParam, body: privacyPolicyInput, response: privacyPolicy, status: 201 }),
  update: endpoint({ method: 'PUT', path: '/api/shops/:shopId/privacy-policies/:id', params: shopItemParams, body: privacyPolicyInput, response: privacyPolicy }),
  remove: endpoint({ method: 'DELETE', path: '/api/shops/:shopId/privacy-policies/:id', params: shopItemParams, response: null }),
  publish: endpoint({ method: 'POST', path: '/api/shops/:shopId/privacy-policies/:id/publish', params: shopItemParams, response: privacyPolicy }),
};
