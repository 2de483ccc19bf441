// Reading an ad platform's export: its rows (the shared reader finds the format, the encoding —
// CP949 is what Korean Excel and the Korean platforms still write — and the delimiter), the
// header row (platforms put a title and a date range above it), which column holds each figure
// (contracts/ad-spend.ts AD_IMPORT_HEADERS), and every row checked into day × medium figures.
// The files are small (a platform's daily report), so their rows are held whole.
import { AppError, badRequest } from '../../lib/errors.ts';
import { isEmptyRow, readSheet, type SheetFormat, type SheetRow, type TextEncoding } from '../../lib/sheet-reader.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import { stripControls } from '../../../contracts/zod.ts';
import {
  AD_FIGURE_MAX, AD_IMPORT_EXPECTED, AD_IMPORT_FIELD_LABELS, AD_IMPORT_FIELDS, AD_IMPORT_HEADERS, AD_IMPORT_MAX_ROWS, AD_IMPORT_REQUIRED,
  adHeaderKey, type AdImportField,
} from '../../../contracts/ad-spend.ts';
import type { SpendEntry } from './ad-spend.repository.ts';

interface Sheet {
  format: SheetFormat;
  encoding: TextEncoding | null;
  /** The rows that are not empty, numbered as in the file. */
  rows: SheetRow[];
}

// ── Reading ─────────────────────────────────────────────────────────────────────────────

/** The text of every cell kept at once (a report is held whole): well below the reader's own limit. */
const KEPT_TEXT_CHARS = 20_000_000;

/** The file's rows that are not empty, as text, read by the shared reader (its own thread, its limits). */
export async function loadSheet(data: Buffer, fileName: string): Promise<Sheet> {
  if (!data.length) throw badRequest('빈 파일입니다.');
  return readSheet(
    { bytes: data, fileName },
    async (sheet) => {
      const rows: SheetRow[] = [];
      for await (const r of sheet.rows) if (!isEmptyRow(r.cells)) rows.push(r);
      return { format: sheet.format, encoding: sheet.encoding, rows };
    },
    { limits: { maxTextChars: KEPT_TEXT_CHARS }, upload: true },
  );
}

// ── Values ──────────────────────────────────────────────────────────────────────────────

const pad = (n: number) => String(n).padStart(2, '0');

const realDay = (y: number, m: number, d: number): string | null => {
  const s = `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
  const t = Date.parse(`${s}T00:00:00.000Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s) ? s : null;
};

/**
 * A day as the platforms write it: 2026-11-01, 2026.11.01, 2026.11.01., 2026. 11. 1.,
 * 2026/11/01, 20261101, 2026년 11월 1일 — a weekday in brackets or a time after it is ignored.
 */
export function parseDay(raw: string): string | null {
  const s = raw
    .trim()
    .replace(/\s*\((?:[월화수목금토일]|mon|tue|wed|thu|fri|sat|sun)[a-z]*\)\s*$/i, '')
    .replace(/[T\s]+\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/, '')
    .trim();
  const m =
    /^(\d{4})\s*[-./]\s*(\d{1,2})\s*[-./]\s*(\d{1,2})\.?$/.exec(s) ??
    /^(\d{4})(\d{2})(\d{2})$/.exec(s) ??
    /^(\d{4})\s*년\s*(\d{1,2})\s*월\s*(\d{1,2})\s*일$/.exec(s);
  return m ? realDay(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

type FigureResult = { value: number } | { error: string };

/**
 * A count or an amount as exports write it: 1,234 · ₩1,234 · 1,234원 · 1234.00; empty, "-" and
 * "--" are 0. Amounts are rounded to the won; counts must be whole.
 */
export function parseFigure(raw: string, kind: 'count' | 'amount'): FigureResult {
  const s = raw.replace(/[\s,₩원]|krw/gi, '');
  if (s === '' || s === '-' || s === '--') return { value: 0 };
  if (/^[-−]\d/.test(s)) return { error: '음수는 가져올 수 없습니다. 0 이상인지 확인해 주세요.' };
  if (!/^\d+(?:\.\d+)?$/.test(s)) return { error: `숫자가 아닙니다: '${raw.trim().slice(0, 20)}'` };
  const n = Number(s);
  if (kind === 'count' && !Number.isInteger(n)) return { error: `정수가 아닙니다: '${raw.trim().slice(0, 20)}'` };
  const value = Math.round(n);
  if (value > AD_FIGURE_MAX) return { error: `${AD_FIGURE_MAX.toLocaleString('ko-KR')} 이하여야 합니다.` };
  return { value };
}

/** 합계, 총계, Total: Account … — a platform's totals row (a campaign named 전체 타겟 is not one). */
const TOTAL_RE = /^(?:(?:합계|총계|총합|소계|전체)(?:\s*[:：].*)?|(?:grand\s*)?total(?:\b.*)?|summary|sum)$/i;

// ── The header ──────────────────────────────────────────────────────────────────────────

/** How far down a header may sit under a report's title lines. */
const HEADER_SEARCH_ROWS = 20;

/** The column of each figure in a header row (the first alias the row has wins). */
function matchColumns(cells: readonly string[]): Partial<Record<AdImportField, number>> {
  const keys = cells.map((c) => adHeaderKey(stripControls(c).trim()));
  const taken = new Set<number>();
  const found: Partial<Record<AdImportField, number>> = {};
  for (const field of AD_IMPORT_FIELDS) {
    for (const alias of AD_IMPORT_HEADERS[field]) {
      const i = keys.findIndex((k, idx) => k === adHeaderKey(alias) && !taken.has(idx));
      if (i >= 0) {
        found[field] = i;
        taken.add(i);
        break;
      }
    }
  }
  return found;
}

export const UNKNOWN_HEADERS = `열 이름을 알아볼 수 없습니다. ${AD_IMPORT_EXPECTED}`;

/** The header row: the first of the top rows that names a day and an amount. */
function findHeader(rows: readonly SheetRow[]): { index: number; columns: Partial<Record<AdImportField, number>> } {
  let best: { index: number; columns: Partial<Record<AdImportField, number>> } | null = null;
  let seen = 0;
  for (let i = 0; i < rows.length && seen < HEADER_SEARCH_ROWS; i++) {
    if (rows[i]!.cells.every((c) => !c.trim())) continue;
    seen++;
    const columns = matchColumns(rows[i]!.cells);
    if (AD_IMPORT_REQUIRED.every((f) => columns[f] !== undefined)) return { index: i, columns };
    if (!best || Object.keys(columns).length > Object.keys(best.columns).length) best = { index: i, columns };
  }
  // A row that names some figures but not all that are needed: say which are missing.
  if (best && Object.keys(best.columns).length >= 2) {
    const missing = AD_IMPORT_REQUIRED.filter((f) => best.columns[f] === undefined).map((f) => AD_IMPORT_FIELD_LABELS[f]);
    throw badRequest(`${missing.join('·')} 열을 찾을 수 없습니다. ${AD_IMPORT_EXPECTED}`);
  }
  throw badRequest(UNKNOWN_HEADERS);
}

// ── Checking ────────────────────────────────────────────────────────────────────────────

interface MediaRef {
  id: number;
  name: string;
  code: string;
}

interface CheckContext {
  /** The medium chosen on upload; null: the file's 매체 column names it. */
  mediaTypeId: number | null;
  landingId: number;
  /** Active media types, matched by name or code. */
  mediaTypes: readonly MediaRef[];
  /** Seoul today: later days are refused. */
  today: string;
}

interface RowError {
  row: number;
  column: string;
  message: string;
}

/** The figures of one day × medium, the file's rows of it added up. */
export interface CheckedGroup extends SpendEntry {
  fileRows: number[];
  /** One of its rows has an error: it is not imported. */
  blocked: boolean;
}

interface CheckedSheet {
  columns: Array<{ field: AdImportField; header: string }>;
  totalRows: number;
  skippedTotals: number;
  groups: CheckedGroup[];
  errors: RowError[];
}

export function checkSheet(rows: readonly SheetRow[], ctx: CheckContext): CheckedSheet {
  const { index, columns } = findHeader(rows);
  const header = rows[index]!.cells.map((c) => stripControls(c).trim());
  if (columns.clicks !== undefined && columns.impressions === undefined) {
    throw badRequest(`클릭수 열(${header[columns.clicks]})이 있으면 노출수 열도 있어야 합니다. ${AD_IMPORT_EXPECTED}`);
  }
  if (ctx.mediaTypeId === null && columns.medium === undefined) {
    throw badRequest('매체를 고르세요. 파일에 매체 열이 없으면 어느 매체의 광고비인지 올릴 때 골라야 합니다.', { mediaTypeId: '매체를 고르세요.' });
  }
  const media = new Map<string, number>();
  for (const m of ctx.mediaTypes) {
    media.set(adHeaderKey(m.code), m.id);
    media.set(adHeaderKey(m.name), m.id);
  }
  const label = (f: AdImportField) => header[columns[f]!] || AD_IMPORT_FIELD_LABELS[f];
  const cell = (cells: readonly string[], f: AdImportField) => (columns[f] === undefined ? '' : stripControls(cells[columns[f]!] ?? '').trim());

  const errors: RowError[] = [];
  const groups = new Map<string, CheckedGroup>();
  let totalRows = 0;
  let skippedTotals = 0;
  for (const r of rows.slice(index + 1)) {
    if (r.cells.every((c) => !c.trim())) continue;
    const dayText = cell(r.cells, 'day');
    const day = parseDay(dayText);
    const figureTexts = (['impressions', 'clicks', 'spend'] as const).map((f) => cell(r.cells, f));
    if (!day) {
      // The platforms' totals rows (합계, Total: Account, a summary row without a day).
      if (!dayText || TOTAL_RE.test(dayText) || r.cells.slice(0, 3).some((c) => TOTAL_RE.test(c.trim()))) {
        skippedTotals++;
        continue;
      }
      // A note under the table (※ 부가세 포함 …): no figures, not a row.
      if (figureTexts.every((t) => !t)) continue;
    }
    totalRows++;
    if (totalRows > AD_IMPORT_MAX_ROWS) {
      throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, `한 번에 ${AD_IMPORT_MAX_ROWS.toLocaleString('ko-KR')}행까지 가져올 수 있습니다. 파일을 나눠서 올려 주세요.`);
    }
    const rowErrors: RowError[] = [];
    const fail = (f: AdImportField, message: string) => rowErrors.push({ row: r.row, column: label(f), message });

    if (!day) fail('day', `날짜를 읽을 수 없습니다: '${dayText.slice(0, 20)}'. 2026-11-01, 2026.11.01, 20261101 형식으로 적어 주세요.`);
    else if (day > ctx.today) fail('day', '오늘 이후 날짜입니다. 지난 날짜의 광고비만 가져올 수 있습니다.');

    let mediaTypeId = ctx.mediaTypeId;
    const mediumText = cell(r.cells, 'medium');
    if (mediumText) {
      const named = media.get(adHeaderKey(mediumText));
      if (named !== undefined) mediaTypeId = named;
      else if (ctx.mediaTypeId === null) fail('medium', `등록된 매체가 아닙니다: '${mediumText.slice(0, 30)}'. 매체 이름이나 코드를 적거나, 올릴 때 매체를 고르세요.`);
    } else if (ctx.mediaTypeId === null) fail('medium', '매체가 비어 있습니다. 매체 이름이나 코드를 적거나, 올릴 때 매체를 고르세요.');

    const values = { impressions: 0, clicks: 0, spend: 0 };
    (['impressions', 'clicks', 'spend'] as const).forEach((f, i) => {
      if (columns[f] === undefined) return;
      const v = parseFigure(figureTexts[i]!, f === 'spend' ? 'amount' : 'count');
      if ('error' in v) fail(f, v.error);
      else values[f] = v.value;
    });
    if (!rowErrors.some((e) => e.column === label('clicks') || e.column === label('impressions')) && values.clicks > values.impressions) {
      fail('clicks', `클릭수(${values.clicks.toLocaleString('ko-KR')})가 노출수(${values.impressions.toLocaleString('ko-KR')})보다 큽니다.`);
    }
    errors.push(...rowErrors);
    if (!day || mediaTypeId === null) continue;

    const key = `${day}|${mediaTypeId}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { day, mediaTypeId, landingId: ctx.landingId, impressions: 0, clicks: 0, spend: 0, fileRows: [], blocked: false }));
    g.fileRows.push(r.row);
    if (rowErrors.length) {
      g.blocked = true;
      continue;
    }
    g.impressions += values.impressions;
    g.clicks += values.clicks;
    g.spend += values.spend;
    if (g.impressions > AD_FIGURE_MAX || g.spend > AD_FIGURE_MAX) {
      g.blocked = true;
      errors.push({ row: r.row, column: label('spend'), message: `이 날짜의 합계가 ${AD_FIGURE_MAX.toLocaleString('ko-KR')}를 넘습니다.` });
    }
  }
  if (!totalRows) throw badRequest('열 이름 아래에 가져올 행이 없습니다.');

  return {
    columns: AD_IMPORT_FIELDS.filter((f) => columns[f] !== undefined).map((f) => ({ field: f, header: header[columns[f]!]! })),
    totalRows,
    skippedTotals,
    groups: [...groups.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.mediaTypeId - b.mediaTypeId)),
    errors,
  };
}
