// Reading an ad platform's export, without I/O beyond the uploaded bytes: the text encoding
// (UTF-16 by its BOM, UTF-8 when every byte is valid UTF-8, else CP949, which Korean Excel and
// the Korean platforms still write), the delimiter, the header row (platforms put a title and
// a date range above it), which column holds each figure (contracts/ad-spend.ts
// AD_IMPORT_HEADERS), and every row checked into day × medium figures. XLSX is read too
// (the first worksheet). The files are small (a platform's daily report), so they are read whole.
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { AppError, badRequest } from '../../lib/errors.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import { stripControls } from '../../../contracts/zod.ts';
import {
  AD_FIGURE_MAX, AD_IMPORT_EXPECTED, AD_IMPORT_FIELD_LABELS, AD_IMPORT_FIELDS, AD_IMPORT_HEADERS, AD_IMPORT_MAX_ROWS, AD_IMPORT_REQUIRED,
  adHeaderKey, type AdImportField,
} from '../../../contracts/ad-spend.ts';

export type TextEncoding = 'utf-8' | 'cp949' | 'utf-16le' | 'utf-16be';

export interface SheetRow {
  /** The line (CSV) or row (XLSX) number: the first is 1. */
  row: number;
  cells: string[];
}

export interface Sheet {
  format: 'csv' | 'xlsx';
  encoding: TextEncoding | null;
  rows: SheetRow[];
}

const unreadable = (message: string) => new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, message);

// ── Reading ─────────────────────────────────────────────────────────────────────────────

export function detectEncoding(data: Buffer): TextEncoding {
  if (data[0] === 0xff && data[1] === 0xfe) return 'utf-16le';
  if (data[0] === 0xfe && data[1] === 0xff) return 'utf-16be';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return 'utf-8';
  } catch {
    return 'cp949';
  }
}

/** The delimiter the first lines use most: comma, tab or semicolon. */
function detectDelimiter(text: string): string {
  const lines = text.split(/\r?\n/, 20).join('\n');
  const counts = [',', '\t', ';'].map((d) => [d, lines.split(d).length - 1] as const).sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ',';
}

function csvRows(data: Buffer): Sheet {
  const encoding = detectEncoding(data);
  // iconv drops the BOM of each encoding.
  const text = iconv.decode(data, encoding);
  if (text.includes('\u0000')) throw unreadable('CSV 또는 엑셀(.xlsx) 파일만 올릴 수 있습니다.');
  let records: string[][];
  try {
    records = parse(text, { delimiter: detectDelimiter(text), relax_column_count: true, relax_quotes: true, skip_empty_lines: false, bom: true }) as string[][];
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    throw badRequest(`CSV 파일${line ? `의 ${line}행` : ''}을 읽을 수 없습니다. 따옴표가 짝이 맞는지 확인해 주세요.`);
  }
  return { format: 'csv', encoding, rows: records.map((cells, i) => ({ row: i + 1, cells })) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An XLSX cell as text: whole numbers without exponents, dates as their day (Excel's dates have no zone). */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e21 ? v.toFixed(0) : String(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  // exceljs reads Excel's zone-less date as if it were UTC.
  if (v instanceof Date) return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  if (typeof v === 'object') {
    const o = v as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
    if ('result' in o) return cellText(o.result);
    if (o.text !== undefined) return cellText(o.text);
  }
  return '';
}

async function xlsxRows(data: Buffer): Promise<Sheet> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw unreadable('엑셀 파일을 읽을 수 없습니다. 파일이 손상되지 않았는지 확인해 주세요.');
  }
  const sheet = book.worksheets[0];
  const rows: SheetRow[] = [];
  sheet?.eachRow({ includeEmpty: false }, (r) => {
    const values = (r.values ?? []) as unknown[];
    const cells: string[] = [];
    // row.values is 1-based and sparse.
    for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
    rows.push({ row: r.number, cells });
  });
  return { format: 'xlsx', encoding: null, rows };
}

/** The file's rows as text, by its bytes: XLSX (a zip) or CSV/TSV text; old or encrypted Excel files are refused. */
export async function readSheet(data: Buffer, fileName: string): Promise<Sheet> {
  if (!data.length) throw badRequest('빈 파일입니다.');
  if (data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return xlsxRows(data);
  if (data.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) {
    throw unreadable('예전 엑셀 형식(.xls)이나 암호가 걸린 파일은 읽을 수 없습니다. CSV 또는 .xlsx로 저장해 올려 주세요.');
  }
  if (/\.xlsx$/i.test(fileName)) throw unreadable('엑셀 파일을 읽을 수 없습니다. 파일이 손상되지 않았는지 확인해 주세요.');
  return csvRows(data);
}

// ── Values ──────────────────────────────────────────────────────────────────────────────

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

export type FigureResult = { value: number } | { error: string };

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
export function matchColumns(cells: readonly string[]): Partial<Record<AdImportField, number>> {
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
export function findHeader(rows: readonly SheetRow[]): { index: number; columns: Partial<Record<AdImportField, number>> } {
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

export interface MediaRef {
  id: number;
  name: string;
  code: string;
}

export interface CheckContext {
  /** The medium chosen on upload; null: the file's 매체 column names it. */
  mediaTypeId: number | null;
  landingId: number;
  /** Active media types, matched by name or code. */
  mediaTypes: readonly MediaRef[];
  /** Seoul today: later days are refused. */
  today: string;
}

export interface RowError {
  row: number;
  column: string;
  message: string;
}

/** The figures of one day × medium, the file's rows of it added up. */
export interface CheckedGroup {
  day: string;
  mediaTypeId: number;
  landingId: number;
  impressions: number;
  clicks: number;
  spend: number;
  fileRows: number[];
  /** One of its rows has an error: it is not imported. */
  blocked: boolean;
}

export interface CheckedSheet {
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
