// Reading an uploaded file row by row, never whole: CSV through csv-parse (UTF-8 with or
// without a BOM, or CP949/EUC-KR, which Korean Excel still writes), XLSX through exceljs's
// streaming reader (the first worksheet). Every cell comes out as text.
import fs from 'node:fs';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { AppError } from '../../lib/errors.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';

export type FileFormat = 'csv' | 'xlsx';
/** UTF-16 is what Excel's "유니코드 텍스트" writes (tab-separated, with a BOM). */
export type TextEncoding = 'utf-8' | 'cp949' | 'utf-16le' | 'utf-16be';

export interface SourceFile {
  path: string;
  format: FileFormat;
  encoding: TextEncoding | null;
}

export interface FileRow {
  /** The spreadsheet row number (the first line or row is 1). */
  row: number;
  cells: string[];
}

const unreadable = (message: string) => new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, message);

async function head(path: string, bytes: number): Promise<Buffer> {
  const fd = await fs.promises.open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fd.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fd.close();
  }
}

/** XLSX (a zip) or CSV (text), by the bytes; old or encrypted Excel files and anything binary are refused. */
export async function detectFormat(path: string, fileName: string): Promise<FileFormat> {
  const start = await head(path, 4096);
  if (start.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
  if (start.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) {
    throw unreadable('암호가 걸린 엑셀 파일이나 예전 형식(.xls)은 읽을 수 없습니다. 암호를 풀고 .xlsx 또는 CSV로 저장해 올려 주세요.');
  }
  if (/\.xlsx$/i.test(fileName)) throw unreadable('엑셀 파일을 읽을 수 없습니다. 파일이 손상되지 않았는지 확인해 주세요.');
  if (utf16(start)) return 'csv';
  if (start.includes(0)) throw unreadable('CSV 또는 엑셀(.xlsx) 파일만 올릴 수 있습니다.');
  return 'csv';
}

const utf16 = (start: Buffer): TextEncoding | null =>
  start[0] === 0xff && start[1] === 0xfe ? 'utf-16le' : start[0] === 0xfe && start[1] === 0xff ? 'utf-16be' : null;

/** UTF-16 by its BOM; else UTF-8 if every byte of the file is valid UTF-8, otherwise CP949 (a superset of EUC-KR). */
export async function detectEncoding(path: string): Promise<TextEncoding> {
  const wide = utf16(await head(path, 2));
  if (wide) return wide;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of fs.createReadStream(path, { highWaterMark: 256 * 1024 })) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return 'utf-8';
  } catch {
    return 'cp949';
  }
}

/** The delimiter of the first line: comma, tab or semicolon, whichever it has most of. */
async function detectDelimiter(src: SourceFile): Promise<string> {
  const bytes = await head(src.path, 64 * 1024);
  const text = src.encoding && src.encoding !== 'utf-8' ? iconv.decode(bytes, src.encoding) : bytes.toString('utf8');
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  const counts = [',', '\t', ';'].map((d) => [d, line.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ',';
}

async function* csvRows(src: SourceFile): AsyncGenerator<FileRow> {
  const delimiter = await detectDelimiter(src);
  const file = fs.createReadStream(src.path, { highWaterMark: 256 * 1024 });
  // iconv drops a UTF-16 BOM; csv-parse drops a UTF-8 one.
  const text: NodeJS.ReadableStream = src.encoding && src.encoding !== 'utf-8' ? file.pipe(iconv.decodeStream(src.encoding)) : file;
  const parser = text.pipe(parse({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false }));
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      yield { row, cells: record };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError(400, ERROR_CODES.VALIDATION, `CSV 파일의 ${row + 1}행을 읽을 수 없습니다. 따옴표가 짝이 맞는지 확인해 주세요.`);
  } finally {
    file.destroy();
    parser.destroy();
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An XLSX cell's value as text: numbers without exponents, dates as Excel shows them (no zone), formulas by their result. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e21 ? v.toFixed(0) : String(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) {
    // exceljs reads Excel's zone-less date as if it were UTC.
    const date = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    const time = v.getUTCHours() || v.getUTCMinutes() || v.getUTCSeconds() ? ` ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}` : '';
    return date + time;
  }
  if (typeof v === 'object') {
    const o = v as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
    if ('result' in o) return cellText(o.result);
    if (o.text !== undefined) return cellText(o.text);
  }
  return '';
}

async function* xlsxRows(src: SourceFile): AsyncGenerator<FileRow> {
  const file = fs.createReadStream(src.path, { highWaterMark: 256 * 1024 });
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      for await (const r of sheet) {
        const values = (r.values ?? []) as unknown[];
        const cells: string[] = [];
        // row.values is 1-based and sparse.
        for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
        yield { row: r.number, cells };
      }
      // The first worksheet only.
      break;
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unreadable('엑셀 파일을 읽을 수 없습니다. 파일이 손상되지 않았는지 확인해 주세요.');
  } finally {
    file.destroy();
  }
}

/** Every row of the file, in order (empty rows too: the caller skips them, the numbering stays the spreadsheet's). */
export function readRows(src: SourceFile): AsyncGenerator<FileRow> {
  return src.format === 'xlsx' ? xlsxRows(src) : csvRows(src);
}

export const isEmptyRow = (cells: readonly string[]) => cells.every((c) => !c || !c.trim());

/** The header row (the first that is not empty) and the data rows after it. */
export async function* rowsWithHeader(src: SourceFile): AsyncGenerator<{ header: FileRow } | { data: FileRow }> {
  let seenHeader = false;
  for await (const r of readRows(src)) {
    if (isEmptyRow(r.cells)) continue;
    if (!seenHeader) {
      seenHeader = true;
      yield { header: r };
    } else yield { data: r };
  }
}
