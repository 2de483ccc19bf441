// The rules of an imported file, without I/O: which column is what (from its Korean header),
// the identifiers a file must not hold at all (resident registration, card and bank account
// numbers), and each row checked into a lead the way a landing's form is.
import { z } from '../../../contracts/zod.ts';
import { stripControls } from '../../../contracts/zod.ts';
import { optionalText, phone, requiredText } from '../../../contracts/fields.ts';
import { isKoreanPhone, normalisePhone } from '../../../contracts/rules.ts';
import { quoted } from '../../../contracts/korean.ts';
import { IMPORT_FIELD_LABELS, SINGLE_FIELDS, type ImportField } from '../../../contracts/data-insertion.ts';

// ── Headers ─────────────────────────────────────────────────────────────────────────────

/** A header without spaces, brackets and punctuation, lower-case: what the rules compare. */
export const headerKey = (h: string) => h.toLowerCase().replace(/[\s()[\]{}_\-./·:*]/g, '');

/** The header row as columns get their names: trimmed, empty ones named by position, repeats numbered. */
export function normaliseHeaders(cells: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((c, i) => {
    const base = stripControls(c).trim().slice(0, 60) || `열 ${i + 1}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/** Header words of each field, looked for in this order (상담내용 is a memo before 전화 makes it a phone). */
const HEADER_WORDS: Array<[ImportField, RegExp]> = [
  ['receivedAt', /접수일|신청일|등록일|접수시간|신청시간|접수일시|신청일시|receivedat|createdat|^date$/],
  ['memo', /메모|비고|상담내용|상담메모|특이사항|memo|note|comment/],
  ['phone', /연락처|전화번호|휴대폰|핸드폰|휴대전화|휴대번호|전화|phone|mobile|^tel$|^hp$/],
  ['name', /이름|성명|고객명|성함|신청자|^name$|fullname/],
  ['medium', /매체|유입경로|media|medium/],
  ['landing', /랜딩|landing/],
];

/** A field per column from the headers' names; columns no rule names become answers labelled by their header. */
export function suggestMapping(headers: readonly string[]): ImportField[] {
  const taken = new Set<ImportField>();
  return headers.map((h) => {
    const key = headerKey(h);
    for (const [field, re] of HEADER_WORDS) {
      if (!taken.has(field) && re.test(key)) {
        taken.add(field);
        return field;
      }
    }
    return 'answer';
  });
}

/** A mapping the file can take: one field per column, name and phone present, single fields once. */
export function mappingProblem(mapping: readonly ImportField[], columns: number): string | null {
  if (mapping.length !== columns) return `열 ${columns}개마다 가져올 항목을 고르세요.`;
  for (const f of ['name', 'phone'] as const) if (!mapping.includes(f)) return `${IMPORT_FIELD_LABELS[f]} 열을 고르세요.`;
  for (const f of SINGLE_FIELDS) if (mapping.filter((x) => x === f).length > 1) return `${IMPORT_FIELD_LABELS[f]} 항목은 한 열에만 연결할 수 있습니다.`;
  return null;
}

// ── Identifiers a file must not hold ────────────────────────────────────────────────────

type SensitiveKind = 'rrn' | 'card' | 'account';
const SENSITIVE_LABELS: Record<SensitiveKind, string> = { rrn: '주민등록번호', card: '카드번호', account: '계좌번호' };

const SENSITIVE_HEADERS: Array<[SensitiveKind, RegExp]> = [
  ['rrn', /주민번호|주민등록|외국인등록번호|residentregistration|(^|[^a-z])(rrn|ssn)([^a-z]|$)/],
  ['card', /카드번호|신용카드|체크카드|cardno|cardnumber|creditcard/],
  ['account', /계좌|bankaccount|accountno|accountnumber/],
];

export function sensitiveHeader(header: string): SensitiveKind | null {
  const key = headerKey(header);
  return SENSITIVE_HEADERS.find(([, re]) => re.test(key))?.[0] ?? null;
}

/** YYMMDD (a real month and day), the 7th digit 1–8 (1–4 citizens, 5–8 foreigners), six more. */
const RRN_RE = /(?<!\d)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\s?-?\s?[1-8]\d{6}(?!\d)/;
/** Card numbers as written: 13–19 digits in one run, in groups of four, or Amex's 4-6-5. */
const CARD_RE = /(?<![\d-])(?:\d{4}[- ]){3}\d{1,7}(?![\d-])|(?<![\d-])\d{4}[- ]\d{6}[- ]\d{5}(?![\d-])|(?<!\d)\d{13,19}(?!\d)/g;
/** An account number beside a word that says it is one (account numbers have no format of their own). */
const ACCOUNT_RE = /(?:계좌|은행|뱅크|농협|신협|수협|새마을금고|우체국)\D{0,12}?(\d{2,6}-\d{2,6}-\d{2,7}(?:-\d{1,3})?|\d{10,14})(?![\d-])/g;

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The kind of identifier a cell holds, if any. */
export function sensitiveValue(value: string): SensitiveKind | null {
  if (value.length < 10 || !/\d{4}/.test(value)) return null;
  if (RRN_RE.test(value)) return 'rrn';
  for (const m of value.matchAll(CARD_RE)) {
    const digits = m[0].replace(/\D/g, '');
    if (digits.length >= 13 && digits.length <= 19 && luhn(digits)) return 'card';
  }
  for (const m of value.matchAll(ACCOUNT_RE)) {
    if (!isKoreanPhone(m[1]!.replace(/\D/g, ''))) return 'account';
  }
  return null;
}

export interface SensitiveFinding {
  kind: SensitiveKind;
  column: string;
  /** The spreadsheet row (the header is row 1); absent when the header named it. */
  row?: number;
}

/** The refusal, in Korean, naming where each identifier was found. */
export function sensitiveMessage(findings: readonly SensitiveFinding[]): string {
  const parts = findings.slice(0, 3).map((f) => `${f.row ? `${f.row}행 ` : ''}'${f.column}' 열(${SENSITIVE_LABELS[f.kind]})`);
  const more = findings.length > 3 ? ` 외 ${findings.length - 3}건` : '';
  return `주민등록번호·카드번호·계좌번호는 가져올 수 없습니다. 발견된 곳: ${parts.join(', ')}${more}. 해당 열이나 값을 지운 뒤 다시 올려 주세요.`;
}

// ── Rows ────────────────────────────────────────────────────────────────────────────────

interface RowError {
  /** The column's header, or '' when the row as a whole is wrong. */
  column: string;
  reason: string;
}

export interface LandingRef {
  id: number;
  mediaTypeId: number | null;
  duplicateWindowDays: number;
  policyId: number | null;
  /** Field label → key: answers under a landing field's label are stored under its key. */
  fieldKeys: Map<string, string>;
  /** Keys of the landing's sensitive fields (건강·민감정보): they need a consent of their own, which a file cannot show. */
  sensitiveKeys: Set<string>;
}

export interface RowContext {
  mapping: readonly ImportField[];
  headers: readonly string[];
  /** Media type name or code (headerKey'd) → id. */
  media: Map<string, number>;
  /** Landing title or code (headerKey'd) → landing. */
  landings: Map<string, LandingRef>;
  now: Date;
}

/** A row checked: what becomes the lead. */
interface CheckedRow {
  name: string;
  phone: string;
  memo: string | null;
  mediaTypeId: number | null;
  landing: LandingRef | null;
  receivedAt: string | null;
  answers: Record<string, string>;
}

const ANSWER_MAX = 200;
const rowShape = z.object({
  name: requiredText(30, '이름이 비어 있습니다.'),
  phone: phone('올바른 전화번호가 아닙니다.', '전화번호가 비어 있습니다.'),
  memo: optionalText(2000),
});

/** Excel keeps a phone typed as a number without its leading 0 (1012345678): put it back when that makes a phone number. */
function restoreLeadingZero(value: string): string {
  const digits = normalisePhone(value);
  if (!/^[1-9]/.test(digits) || isKoreanPhone(digits) || !/^[\d\s\-().]*$/.test(value.trim())) return value;
  return isKoreanPhone(`0${digits}`) ? `0${digits}` : value;
}

const DATE_RE =
  /^(\d{4})\s*[-./년]\s*(\d{1,2})\s*[-./월]\s*(\d{1,2})\s*[.일]?\s*(?:(오전|오후|am|pm)?\s*(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(오전|오후|am|pm)?)?$/i;
const COMPACT_DATE_RE = /^(\d{4})(\d{2})(\d{2})$/;

/** A received date as people and Excel write it, in Seoul time; null when it cannot be read. */
export function parseReceivedAt(value: string): Date | null {
  const v = value.trim();
  if (/^\d{4}-\d{2}-\d{2}T/.test(v)) {
    const t = Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}+09:00`);
    return Number.isNaN(t) ? null : new Date(t);
  }
  // An Excel date serial (days since 1899-12-30) left as a number.
  if (/^\d{5}(\.\d+)?$/.test(v)) {
    const serial = Number(v);
    if (serial < 20000 || serial > 80000) return null;
    return new Date(Math.round((serial - 25569) * 86_400_000) - 9 * 3_600_000);
  }
  const m = DATE_RE.exec(v) ?? COMPACT_DATE_RE.exec(v);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let h = m[5] ? Number(m[5]) : 0;
  const mi = m[6] ? Number(m[6]) : 0;
  const s = m[7] ? Number(m[7]) : 0;
  const half = (m[4] ?? m[8] ?? '').toLowerCase();
  if (half === '오후' || half === 'pm') h = h === 12 ? 12 : h + 12;
  else if ((half === '오전' || half === 'am') && h === 12) h = 0;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const at = new Date(Date.UTC(y, mo - 1, d, h - 9, mi, s));
  // 2월 30일 and the like roll over: refuse them.
  const seoul = new Date(at.getTime() + 9 * 3_600_000);
  if (seoul.getUTCDate() !== d || seoul.getUTCMonth() !== mo - 1) return null;
  return at;
}

/** Checks one row; every problem is reported, each with its column. */
export function checkRow(cells: readonly string[], ctx: RowContext): { row: CheckedRow } | { errors: RowError[] } {
  const errors: RowError[] = [];
  const single = new Map<ImportField, { value: string; column: string }>();
  const answerCells: Array<{ header: string; value: string }> = [];
  ctx.mapping.forEach((field, i) => {
    const value = stripControls(cells[i] ?? '').trim();
    const column = ctx.headers[i] ?? `열 ${i + 1}`;
    if (field === 'answer') {
      if (value) answerCells.push({ header: column, value });
    } else if (field !== 'skip') single.set(field, { value, column });
  });
  const cell = (f: ImportField) => single.get(f) ?? { value: '', column: IMPORT_FIELD_LABELS[f] };

  const phoneCell = cell('phone');
  const parsed = rowShape.safeParse({ name: cell('name').value, phone: restoreLeadingZero(phoneCell.value), memo: cell('memo').value });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as 'name' | 'phone' | 'memo';
      errors.push({ column: cell(field).column, reason: issue.message });
    }
  }

  let landing: LandingRef | null = null;
  const landingCell = cell('landing');
  if (landingCell.value) {
    landing = ctx.landings.get(headerKey(landingCell.value)) ?? null;
    if (!landing) errors.push({ column: landingCell.column, reason: `이 업체에 없는 랜딩입니다: ${quoted(landingCell.value, '을/를')} 찾지 못했습니다.` });
  }

  let mediaTypeId = landing?.mediaTypeId ?? null;
  const mediumCell = cell('medium');
  if (mediumCell.value) {
    const found = ctx.media.get(headerKey(mediumCell.value));
    if (found === undefined) errors.push({ column: mediumCell.column, reason: `등록되지 않은 매체입니다: '${mediumCell.value}'` });
    else mediaTypeId = found;
  }

  let receivedAt: string | null = null;
  const receivedCell = cell('receivedAt');
  if (receivedCell.value) {
    const at = parseReceivedAt(receivedCell.value);
    if (!at) errors.push({ column: receivedCell.column, reason: '접수일을 읽을 수 없습니다. (예: 2026-11-20 14:30)' });
    else if (at.getTime() > ctx.now.getTime() + 60_000) errors.push({ column: receivedCell.column, reason: '접수일이 지금보다 늦습니다.' });
    else if (at.getUTCFullYear() < 2000) errors.push({ column: receivedCell.column, reason: '접수일이 너무 이릅니다.' });
    else receivedAt = at.toISOString();
  }

  // No prototype: a label may be any text, 'constructor' too.
  const answers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const a of answerCells) {
    const key = landing?.fieldKeys.get(a.header) ?? a.header;
    if (landing?.sensitiveKeys.has(key)) errors.push({ column: a.header, reason: '민감정보 항목은 별도 동의를 확인할 수 없어 가져올 수 없습니다. 이 열은 가져오지 않음으로 두세요.' });
    else if (a.value.length > ANSWER_MAX) errors.push({ column: a.header, reason: `${ANSWER_MAX}자 이하여야 합니다.` });
    else answers[key] = a.value;
  }

  if (errors.length || !parsed.success) return { errors };
  return { row: { name: parsed.data.name, phone: parsed.data.phone, memo: parsed.data.memo ?? null, mediaTypeId, landing, receivedAt, answers } };
}
