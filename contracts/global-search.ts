// 통합 DB 검색: one phone or name across every shop the account may enter (a counselor: only
// the leads assigned to them), newest first, at most GLOBAL_SEARCH_MAX results. Each search is
// itself recorded in the shops' access record, its term masked.
import { z } from './zod.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { normalisePhone } from './rules.ts';
import { CS_STATUSES } from './leads.ts';

/** The most results a search answers; more means the term should be narrower. */
export const GLOBAL_SEARCH_MAX = 200;
/** A phone search needs this many digits (the last four, at least). */
export const SEARCH_MIN_DIGITS = 4;
/** From this many digits a phone search also matches the number's start (010-1234 …). */
export const SEARCH_PREFIX_DIGITS = 7;
/** A name search needs this many letters (it matches names that start with them). */
export const SEARCH_MIN_NAME = 2;

export const SEARCH_TERM_REQUIRED = '검색할 전화번호나 이름을 입력하세요.';

/**
 * What a search term is:
 * - `last4`: exactly four digits, the phone's last four;
 * - `phone`: five or more digits, the end of the number (or, from SEARCH_PREFIX_DIGITS on, its start);
 * - `name`: anything else, a name's start.
 */
export type SearchTerm = { kind: 'last4' | 'phone'; digits: string } | { kind: 'name'; name: string };

/** A phone as people type it: digits with spaces, dashes, dots, parentheses, a leading +82. */
const PHONE_LIKE = /^\+?[\d\s\-().]+$/;

export function parseSearchTerm(input: string): SearchTerm | { error: string } {
  const q = input.trim();
  if (!q) return { error: SEARCH_TERM_REQUIRED };
  if (PHONE_LIKE.test(q)) {
    const digits = normalisePhone(q);
    if (digits.length < SEARCH_MIN_DIGITS) return { error: `전화번호는 ${SEARCH_MIN_DIGITS}자리 이상 입력하세요.` };
    return { kind: digits.length === 4 ? 'last4' : 'phone', digits };
  }
  if ([...q].length < SEARCH_MIN_NAME) return { error: `이름은 ${SEARCH_MIN_NAME}자 이상 입력하세요.` };
  return { kind: 'name', name: q };
}

export const globalSearchQuery = z.object({
  q: z
    .string(SEARCH_TERM_REQUIRED)
    .trim()
    .max(40, '40자 이하로 입력하세요.')
    .superRefine((v, ctx) => {
      const t = parseSearchTerm(v);
      if ('error' in t) ctx.addIssue({ code: 'custom', message: t.error });
    }),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type GlobalSearchQuery = QueryOf<typeof globalSearchApi.search>;

export const globalSearchItem = z.object({
  id: z.number(),
  shopId: z.number(),
  shopName: z.string(),
  landingTitle: z.string().nullable(),
  source: z.string(),
  createdAt: z.string(),
  name: z.string(),
  /** Always masked (010-****-5678). */
  phone: z.string(),
  /** The last four digits (what DB 현황 is opened filtered by). */
  phoneLast4: z.string(),
  csStatus: z.enum(CS_STATUSES),
  assigneeName: z.string().nullable(),
});
export type GlobalSearchItem = z.infer<typeof globalSearchItem>;

export const globalSearchResult = z.object({
  items: z.array(globalSearchItem),
  /** Results found, at most GLOBAL_SEARCH_MAX. */
  total: z.number().int(),
  /** More than GLOBAL_SEARCH_MAX matched: only the newest are answered. */
  capped: z.boolean(),
  kind: z.enum(['last4', 'phone', 'name']),
  /** How many shops were searched (those the account may enter). */
  shopCount: z.number().int(),
  /** How many distinct shops the answered leads are in. */
  foundShopCount: z.number().int(),
  /** Only the account's own leads were searched (a counselor). */
  scope: z.enum(['all', 'assigned']),
});
export type GlobalSearchResult = z.infer<typeof globalSearchResult>;

export const globalSearchApi = {
  search: endpoint({ method: 'GET', path: '/api/global-search', query: globalSearchQuery, response: globalSearchResult }),
};
