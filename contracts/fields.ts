// Shared field shapes: one copy each of text, required text, phone and e-mail, with the
// messages a person sees on the form and from the API.
import { z } from './zod.ts';
import { isBusinessNumber, isKoreanPhone, normalisePhone, passwordProblem } from './rules.ts';
import { DAY_RE } from './kst.ts';

const tooLong = (max: number) => `${max}자 이하로 입력하세요.`;

/** Trimmed text up to `max` characters; may be empty. */
export const text = (max: number) => z.string().trim().max(max, tooLong(max));

/** Trimmed text that must not be empty (or missing): `message` says what to enter. */
export const requiredText = (max: number, message: string) => z.string(message).trim().min(1, message).max(max, tooLong(max));

/** Trimmed text; empty or missing becomes null. */
export const optionalText = (max: number) =>
  text(max)
    .transform((v) => v || null)
    .nullable()
    .optional();

/** What a person may type into a phone field: digits, spaces, hyphens, parentheses, dots, a leading +82. */
const PHONE_CHARS_RE = /^(?:\+82)?[\d\s\-().]*$/;

const phoneText = (message: string) =>
  z
    .string(message)
    .trim()
    .max(20, message)
    .refine((v) => PHONE_CHARS_RE.test(v), message)
    .transform(normalisePhone);

/** A required Korean phone number, normalised to digits (01012345678). */
export const phone = (message = '올바른 전화번호를 입력하세요.', missing = '전화번호를 입력하세요.') =>
  z
    .string(missing)
    .trim()
    .min(1, missing)
    .pipe(phoneText(message))
    .refine(isKoreanPhone, message);

/** An optional Korean phone number: empty or missing becomes null; anything else must be a phone number. */
export const optionalPhone = (message = '올바른 전화번호를 입력하세요.') =>
  phoneText(message)
    .refine((v) => v === '' || isKoreanPhone(v), message)
    .transform((v) => v || null)
    .nullable()
    .optional();

/** An optional e-mail address: empty becomes null. */
export const optionalEmail = z
  .union([z.literal(''), z.email('올바른 이메일 주소를 입력하세요.').max(120, tooLong(120))])
  .transform((v) => v || null)
  .nullable()
  .optional();

/** A new password under the house policy (see passwordProblem). */
export const passwordField = z.string('비밀번호를 입력하세요.').superRefine((pw, ctx) => {
  const problem = pw ? passwordProblem(pw) : '비밀번호를 입력하세요.';
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** 사업자등록번호 with its check digit, stored as 10 digits; empty becomes null. */
export const optionalBusinessNumber = text(12)
  .refine((v) => v === '' || isBusinessNumber(v), '올바른 사업자등록번호가 아닙니다.')
  .transform((v) => (v ? v.replace(/-/g, '') : null))
  .nullable()
  .optional();

/** A business's public details: a shop's, and the agency's own (the operator). */
export const businessDetails = {
  companyName: optionalText(60),
  representative: optionalText(30),
  businessNumber: optionalBusinessNumber,
  phone: optionalPhone(),
  address: optionalText(200),
  privacyOfficerName: optionalText(30),
  privacyOfficerContact: optionalText(60),
};

/** The same details as answers carry them: each one may be missing. */
const nullableString = () => z.string().nullable();
export const businessDetailsView = Object.fromEntries(Object.keys(businessDetails).map((k) => [k, nullableString()])) as Record<
  keyof typeof businessDetails,
  ReturnType<typeof nullableString>
>;
export type BusinessDetailsView = { [K in keyof typeof businessDetails]: string | null };

/** When a stored row was made and last changed (ISO instants). */
export const rowTimes = { createdAt: z.string(), updatedAt: z.string() };

/** A Seoul calendar day, YYYY-MM-DD (periods in query strings). */
export const dayField = z.string().regex(DAY_RE, '날짜는 YYYY-MM-DD 형식입니다.');

/** Whether a YYYY-MM-DD is a day the calendar has (the pattern alone lets 2026-02-31 through). */
export function isCalendarDay(d: string): boolean {
  const t = Date.parse(`${d}T00:00:00.000Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
}

/** A Seoul calendar day that exists. */
export const calendarDayField = dayField.refine(isCalendarDay, '없는 날짜입니다.');

/** A moment the person picked (ISO-8601 with offset), or null. */
/**
 * An instant with any offset, stored as UTC (`…Z`): times are compared as text, so
 * `2026-12-01T14:00:00+09:00` must become `2026-12-01T05:00:00.000Z` before it is kept.
 */
export const optionalInstant = z.iso
  .datetime({ offset: true, message: '올바른 날짜와 시간을 입력하세요.' })
  .transform((v) => new Date(v).toISOString())
  .nullable()
  .optional();
