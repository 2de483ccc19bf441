import { z } from './zod.ts';
import { idParam, listEndpoint } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { optionalText, requiredText, rowTimes } from './fields.ts';
import { cidrContains, isCidr, isIPv4, isIPv6, isKoreanPhone, normalisePhone } from './rules.ts';

export const DENY_KINDS = ['ip', 'cidr', 'phone', 'keyword'] as const;
export type DenyKind = (typeof DENY_KINDS)[number];
export const DENY_KIND_LABELS: Record<DenyKind, string> = { ip: 'IP', cidr: 'IP 대역(CIDR)', phone: '전화번호', keyword: '키워드' };

export const DENY_SCOPES = ['intake', 'backoffice-login'] as const;
export type DenyScope = (typeof DENY_SCOPES)[number];
export const DENY_SCOPE_LABELS: Record<DenyScope, string> = { intake: 'DB 접수', 'backoffice-login': '관리자 로그인' };

export const denyRule = z.object({
  id: z.number(),
  kind: z.enum(DENY_KINDS),
  value: z.string(),
  scope: z.enum(DENY_SCOPES),
  reason: z.string().nullable(),
  expiresAt: z.string().nullable(),
  hits: z.number(),
  lastHitAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  ...rowTimes,
});
export type DenyRule = z.infer<typeof denyRule>;

export const denyRuleInput = z
  .object({
    kind: z.enum(DENY_KINDS, '종류를 선택하세요.'),
    value: requiredText(100, '차단할 값을 입력하세요.'),
    scope: z.enum(DENY_SCOPES, '적용 대상을 선택하세요.'),
    reason: optionalText(200),
    expiresAt: z.iso.datetime({ offset: true, message: '올바른 날짜가 아닙니다.' }).nullable().optional(),
  })
  .transform((r, ctx) => {
    let value = r.value;
    if (r.kind === 'ip' && !(isIPv4(value) || isIPv6(value))) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: '올바른 IP 주소를 입력하세요.' });
    }
    if (r.kind === 'cidr' && !isCidr(value)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: '올바른 CIDR(예: 203.0.113.0/24)을 입력하세요.' });
    }
    if (r.kind === 'phone') {
      value = normalisePhone(value);
      if (!isKoreanPhone(value)) ctx.addIssue({ code: 'custom', path: ['value'], message: '올바른 전화번호를 입력하세요.' });
    }
    if (r.kind !== 'keyword' && r.scope === 'backoffice-login' && r.kind === 'phone') {
      ctx.addIssue({ code: 'custom', path: ['scope'], message: '관리자 로그인 차단은 IP 또는 IP 대역만 가능합니다.' });
    }
    if (r.kind === 'keyword' && r.scope === 'backoffice-login') {
      ctx.addIssue({ code: 'custom', path: ['scope'], message: '관리자 로그인 차단은 IP 또는 IP 대역만 가능합니다.' });
    }
    return { ...r, value, reason: r.reason ?? null, expiresAt: r.expiresAt ?? null };
  });
export type DenyRuleInput = z.infer<typeof denyRuleInput>;

export const denyRulesApi = {
  list: listEndpoint({
    path: '/api/deny-rules', item: denyRule, sort: ['createdAt', 'hits', 'expiresAt', 'kind'],
    filters: { kind: z.enum(DENY_KINDS).optional(), scope: z.enum(DENY_SCOPES).optional() },
  }),
  get: endpoint({ method: 'GET', path: '/api/deny-rules/:id', params: idParam, response: denyRule }),
  create: endpoint({ method: 'POST', path: '/api/deny-rules', body: denyRuleInput, response: denyRule, status: 201 }),
  update: endpoint({ method: 'PUT', path: '/api/deny-rules/:id', params: idParam, body: denyRuleInput, response: denyRule }),
  remove: endpoint({ method: 'DELETE', path: '/api/deny-rules/:id', params: idParam, response: null }),
};
export type DenyRuleListQuery = QueryOf<typeof denyRulesApi.list>;

/** Whether a rule matches an IP (ip, cidr kinds). */
export function ruleMatchesIp(rule: { kind: DenyKind; value: string }, ip: string): boolean {
  const bare = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (rule.kind === 'ip') return rule.value === bare || rule.value === ip;
  if (rule.kind === 'cidr') return cidrContains(rule.value, ip);
  return false;
}

export interface DenySubject {
  ip?: string;
  phone?: string;
  /** Free text checked against keyword rules (name, answers …). */
  text?: string;
}

/** The first rule matching the subject, or undefined. */
export function matchDenyRule<R extends { kind: DenyKind; value: string }>(rules: readonly R[], subject: DenySubject): R | undefined {
  const text = subject.text?.toLowerCase() ?? '';
  return rules.find((r) => {
    if (r.kind === 'ip' || r.kind === 'cidr') return !!subject.ip && ruleMatchesIp(r, subject.ip);
    if (r.kind === 'phone') return !!subject.phone && r.value === subject.phone;
    return !!text && text.includes(r.value.toLowerCase());
  });
}
