// Zod configured once; every schema in contracts/ imports `z` from here, so two rules hold
// for every input the product takes:
// - Control characters never get in. `z.string()` drops them (all C0 but tab and line
//   breaks, DEL and C1) before any other check, so a NUL byte is gone on both databases
//   alike (PostgreSQL would refuse it, SQLite would store it), and a field that held
//   nothing else is empty and fails as empty.
// - No raw schema message reaches a person. Korean messages come from the locale; a value
//   of the wrong type gets a plain sentence instead of "예상 타입은 string…". Required
//   fields carry their own message (contracts/fields.ts); a test walks every schema.
import { z as zod } from 'zod';

// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** The text without control characters (tab, LF and CR stay). */
export function stripControls(s: string): string {
  return CONTROL_RE.test(s) ? s.replace(CONTROL_RE, '') : s;
}

export const MISSING_MESSAGE = '필수 입력 항목입니다.';
export const WRONG_TYPE_MESSAGE = '올바른 형식으로 입력하세요.';

type Issue = zod.core.$ZodRawIssue;

const UNITS: Record<string, string> = { string: '자', array: '개', set: '개', file: '바이트' };

/** The house's Korean messages: plain sentences a person can act on, never a type name. */
function message(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return MISSING_MESSAGE;
      if (issue.expected === 'int') return '정수로 입력하세요.';
      if (issue.expected === 'number' || issue.expected === 'bigint') return '숫자로 입력하세요.';
      return WRONG_TYPE_MESSAGE;
    case 'too_big': {
      const unit = UNITS[issue.origin ?? ''];
      return unit ? `${issue.maximum}${unit} 이하로 입력하세요.` : `${issue.maximum} ${issue.inclusive ? '이하' : '미만'}로 입력하세요.`;
    }
    case 'too_small': {
      const unit = UNITS[issue.origin ?? ''];
      if (issue.origin === 'string' && Number(issue.minimum) <= 1) return MISSING_MESSAGE;
      return unit ? `${issue.minimum}${unit} 이상 입력하세요.` : `${issue.minimum} ${issue.inclusive ? '이상' : '초과'}으로 입력하세요.`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return '올바른 이메일 주소를 입력하세요.';
      if (issue.format === 'datetime' || issue.format === 'date') return '올바른 날짜를 입력하세요.';
      return WRONG_TYPE_MESSAGE;
    case 'invalid_value':
      return '목록에 있는 값 중에서 선택하세요.';
    case 'not_multiple_of':
      return `${issue.divisor}의 배수로 입력하세요.`;
    case 'unrecognized_keys':
      return '알 수 없는 항목이 있습니다.';
    default:
      return '입력값을 확인하세요.';
  }
}
zod.config({ localeError: message });

function string(params?: Parameters<typeof zod.string>[0]) {
  return zod.string(params).overwrite(stripControls);
}

/**
 * zod, with `string()` dropping control characters first. The builders are listed rather than
 * spread from the namespace: a spread would carry every zod locale into the back office's
 * bundle. A builder not listed here is a type error; add it when a schema needs it.
 */
export const z = {
  object: zod.object, array: zod.array, record: zod.record, number: zod.number, boolean: zod.boolean, enum: zod.enum,
  literal: zod.literal, union: zod.union, null: zod.null, unknown: zod.unknown, coerce: zod.coerce, iso: zod.iso, email: zod.email, string,
};

// The type-level half of the namespace (z.infer<…>, z.ZodType …), unchanged.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace z {
  export type infer<T> = zod.infer<T>;
  export type input<T> = zod.input<T>;
  export type output<T> = zod.output<T>;
  export type ZodType<O = unknown, I = unknown> = zod.ZodType<O, I>;
  export type ZodRawShape = zod.ZodRawShape;
}
