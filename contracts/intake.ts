// Lead intake from a landing form: POST /api/public/leads (JSON or form-encoded).
import { z } from './zod.ts';
import { stripControls } from './zod.ts';
import { phone } from './fields.ts';
import { withJosa } from './korean.ts';
import type { FormField } from './landings.ts';

export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const;
/** Hidden field people never see; bots fill it in. */
export const HONEYPOT_FIELD = 'website';
/** Hidden field carrying the signed render stamp. */
export const TOKEN_FIELD = '_t';
/** An experiment page's variant, `<experiment id>:<key>` (the form and the visit beacon carry it). */
export const VARIANT_FIELD = '_x';
export const variantValue = (experimentId: number, key: string) => `${experimentId}:${key}`;
/** The experiment and variant a form or beacon carried; null when absent or malformed. */
export function parseVariant(raw: string): { experimentId: number; key: string } | null {
  const m = /^(\d{1,12}):([A-Z])$/.exec(raw);
  return m ? { experimentId: Number(m[1]), key: m[2]! } : null;
}
/** Submissions faster than this after the page was rendered are refused. */
export const MIN_FILL_MS = 2000;

export const INTAKE_MESSAGES = {
  badRequest: '잘못된 요청입니다. 페이지를 새로고침한 뒤 다시 시도해 주세요.',
  notFound: '신청 페이지를 찾을 수 없습니다. 주소를 확인해 주세요.',
  closed: '신청이 마감된 페이지입니다.',
  validation: '입력 내용을 확인해 주세요.',
  tooFast: '입력이 너무 빨라 접수되지 않았습니다. 잠시 후 다시 제출해 주세요.',
  bot: '비정상적인 제출로 판단되어 접수되지 않았습니다.',
  token: '페이지 정보가 올바르지 않습니다. 페이지를 새로고침한 뒤 다시 시도해 주세요.',
  expired: '페이지를 연 지 오래되어 접수하지 못했습니다. 페이지를 새로고침한 뒤 다시 신청해 주세요.',
  denied: '접수가 제한되었습니다. 다른 방법으로 문의해 주세요.',
  rateLimited: '짧은 시간에 너무 많이 신청하셨습니다. 잠시 후 다시 시도해 주세요.',
  tooLarge: '보낸 내용이 너무 큽니다.',
  sensitiveConsent: '민감정보 처리에 따로 동의해 주세요.',
  internal: '일시적인 오류로 접수하지 못했습니다. 잠시 후 다시 시도해 주세요.',
  unavailable: '접수 서버가 잠시 응답하지 않아 접수하지 못했습니다. 잠시 후 다시 신청해 주세요.',
} as const;

/** Checkbox-ish values from JSON or a form post. */
const consentFlag = z
  .union([z.boolean(), z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => v === true || v === 1 || (typeof v === 'string' && ['1', 'on', 'true', 'yes', 'y', 'Y'].includes(v.trim())));

const optional = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null));

export const intakeTarget = z.object({
  shopCode: z.string().trim().min(1).max(40),
  landingCode: z.string().trim().min(1).max(40),
});

/** The fixed part of every landing form. */
export const intakeFields = z.object({
  name: z.string('이름을 입력해 주세요.').trim().min(1, '이름을 입력해 주세요.').max(30, '이름은 30자 이하로 입력해 주세요.'),
  phone: phone('올바른 연락처를 입력해 주세요. (예: 010-1234-5678)', '연락처를 입력해 주세요.'),
  privacyConsent: consentFlag.refine((v) => v, '개인정보 수집·이용에 동의해 주세요.'),
  marketingConsent: consentFlag,
  /** The separate consent a landing with sensitive fields asks for (checked against the landing). */
  sensitiveConsent: consentFlag,
  utm_source: optional(200),
  utm_medium: optional(200),
  utm_campaign: optional(200),
  utm_content: optional(200),
  utm_term: optional(200),
  referrer: optional(500),
});
type AnswerValue = string | string[];

/**
 * The consents a lead records, as its landing asked them: marketing only where the form shows its
 * box (a crafted post cannot add it), sensitive exactly when a sensitive field was answered (which
 * intake accepts only with that consent). Intake and the demo data both go through it.
 */
export function leadConsents(
  landing: { formFields: ReadonlyArray<{ key: string; sensitive?: boolean }>; asksMarketing: boolean },
  answers: Record<string, unknown>,
  marketingConsent: boolean,
): { gaveSensitive: boolean; marketing_consent: 0 | 1; sensitive_consent: 0 | 1 } {
  const gaveSensitive = landing.formFields.some((f) => f.sensitive && answers[f.key] !== undefined);
  return { gaveSensitive, marketing_consent: landing.asksMarketing && marketingConsent ? 1 : 0, sensitive_consent: gaveSensitive ? 1 : 0 };
}

/** Whether a landing's form shows the marketing consent box: it has a text for it. */
export const asksMarketing = (marketingConsentText: string | null | undefined) => !!marketingConsentText?.trim();

/** Validates a landing's extra fields; unknown keys are ignored. */
export function validateAnswers(
  fields: readonly FormField[],
  raw: Record<string, unknown>,
): { answers: Record<string, AnswerValue>; errors: Record<string, string> } {
  const answers: Record<string, AnswerValue> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const value = raw[f.key];
    if (f.type === 'checkbox') {
      const list = (Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value]).map((v) => stripControls(String(v)).trim());
      if (list.some((v) => !f.options.includes(v))) errors[f.key] = `${f.label}: 목록에 있는 항목을 선택해 주세요.`;
      else if (f.required && list.length === 0) errors[f.key] = `${withJosa(f.label, '을/를')} 선택해 주세요.`;
      else if (list.length) answers[f.key] = [...new Set(list)];
      continue;
    }
    const s = Array.isArray(value) ? String(value[0] ?? '') : value === undefined || value === null ? '' : String(value);
    const v = stripControls(s).trim();
    if (!v) {
      if (f.required) errors[f.key] = `${withJosa(f.label, '을/를')} ${f.type === 'short-text' ? '입력해' : '선택해'} 주세요.`;
      continue;
    }
    if (f.type === 'short-text') {
      if (v.length > 200) errors[f.key] = `${withJosa(f.label, '은/는')} 200자 이하로 입력해 주세요.`;
      else answers[f.key] = v;
    } else if (!f.options.includes(v)) {
      errors[f.key] = `${f.label}: 목록에 있는 항목을 선택해 주세요.`;
    } else {
      answers[f.key] = v;
    }
  }
  return { answers, errors };
}

/** utm_source, else the referrer's host, else "direct" — lower-case, at most 40 characters. */
export function visitSource(raw: string | undefined | null): string {
  const s = String(raw ?? '').trim().toLowerCase().replace(/[^a-z0-9._-]/g, '').slice(0, 40);
  return s || 'direct';
}
