// Reading an uploaded spreadsheet row by row, within the limits of sheet-limits.ts: CSV through
// csv-parse (UTF-8 with or without a BOM, UTF-16 by its BOM, or CP949/EUC-KR, which Korean
// Excel still writes), XLSX through exceljs's streaming parts (the first worksheet) fed from
// our own zip reader. Every cell comes out as text. This runs in the reading thread
// (sheet-reader.worker.ts); the server reaches it only through sheet-reader.ts.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import type ExcelJS from 'exceljs';
import { refuse, SheetRefusal, type SheetLimits } from './sheet-limits.ts';
import { bufferSource, centralDirectory, entryText, fileSource, type ByteSource, type ZipEntry } from './zip-entries.ts';

export type SheetFormat = 'csv' | 'xlsx';
/** UTF-16 is what Excel's "유니코드 텍스트" writes (tab-separated, with a BOM). */
export type TextEncoding = 'utf-8' | 'cp949' | 'utf-16le' | 'utf-16be';

export interface SheetRow {
  /** The spreadsheet's row number (the first line or row is 1). */
  row: number;
  cells: string[];
}

export interface SheetInput {
  /** The file on disk, or its bytes. */
  path?: string;
  bytes?: Uint8Array;
  fileName: string;
  /** Known from an earlier read: not detected again. */
  format?: SheetFormat;
  encoding?: TextEncoding | null;
}

interface OpenSheet {
  format: SheetFormat;
  encoding: TextEncoding | null;
  rows: AsyncGenerator<SheetRow>;
}

// ── What the file is ────────────────────────────────────────────────────────────────────

const utf16 = (start: Buffer): TextEncoding | null =>
  start[0] === 0xff && start[1] === 0xfe ? 'utf-16le' : start[0] === 0xfe && start[1] === 0xff ? 'utf-16be' : null;

/** XLSX (a zip) or CSV (text), by the bytes; old or encrypted Excel files and anything binary are refused. */
async function detectFormat(src: ByteSource, fileName: string): Promise<SheetFormat> {
  const start = await src.read(0, 4096);
  if (start.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
  if (start.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) throw refuse.oldExcel();
  if (/\.xlsx$/i.test(fileName)) throw refuse.unreadableXlsx();
  if (utf16(start)) return 'csv';
  if (start.includes(0)) throw refuse.notASheet();
  return 'csv';
}

/** UTF-16 by its BOM; else UTF-8 if every byte of the file is valid UTF-8, otherwise CP949 (a superset of EUC-KR). */
async function detectEncoding(src: ByteSource): Promise<TextEncoding> {
  const wide = utf16(await src.read(0, 2));
  if (wide) return wide;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of src.stream(0, src.size)) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return 'utf-8';
  } catch {
    return 'cp949';
  }
}

// ── CSV ─────────────────────────────────────────────────────────────────────────────────

/** The delimiter the first lines use most: comma, tab or semicolon (a report's title lines above the header have none). */
async function detectDelimiter(src: ByteSource, encoding: TextEncoding): Promise<string> {
  const bytes = await src.read(0, 64 * 1024);
  const text = encoding === 'utf-8' ? bytes.toString('utf8') : iconv.decode(bytes, encoding);
  const lines = text.split(/\r?\n/, 20).join('\n');
  const counts = [',', '\t', ';'].map((d) => [d, lines.split(d).length - 1] as const).sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ',';
}

async function* csvRows(src: ByteSource, encoding: TextEncoding, limits: SheetLimits): AsyncGenerator<SheetRow> {
  const delimiter = await detectDelimiter(src, encoding);
  const file = src.stream(0, src.size);
  // iconv drops a UTF-16 BOM; csv-parse drops a UTF-8 one.
  const text: NodeJS.ReadableStream = encoding === 'utf-8' ? file : file.pipe(iconv.decodeStream(encoding));
  const parser = text.pipe(
    parse({
      bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false,
      // One cell past the cell limit is refused after the row; this stops a row that never ends.
      max_record_size: limits.maxCellChars * limits.maxColumns,
    }),
  );
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      yield { row, cells: record };
    }
  } catch (err) {
    if (err instanceof SheetRefusal) throw err;
    if ((err as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') throw refuse.record(limits, row + 1);
    throw refuse.csvQuotes(row + 1);
  } finally {
    file.destroy();
    parser.destroy();
  }
}

// ── XLSX ────────────────────────────────────────────────────────────────────────────────

const pad = (n: number) => String(n).padStart(2, '0');

/** An XLSX cell's value as text: numbers without exponents, dates as Excel shows them (no zone), formulas by their result. */
function cellText(v: unknown): string {
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
    const o = v as { richText?: Array<{ text: string | null }>; text?: unknown; result?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text ?? '').join('');
    if ('result' in o) return cellText(o.result);
    if (o.text !== undefined) return cellText(o.text);
  }
  return '';
}

/**
 * The parts of exceljs's streaming workbook reader we drive ourselves (exceljs 4.4): it would
 * read the zip with unzipper, trusting its headers, and keep every shared string; here each
 * part comes from entryText and the shared strings are emitted one by one, so that both are
 * bounded. The worksheet reader and the styles (for telling dates from numbers) stay exceljs's.
 */
interface ExcelReaderParts {
  sharedStrings?: string[];
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<{ index: number; text: unknown }>;
  _parseWorksheet(entry: Readable, sheetNo: string): Generator<{ eventType: string; value: AsyncIterable<ExcelJS.Row> }>;
}

const WORKSHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

async function* xlsxRows(src: ByteSource, limits: SheetLimits): AsyncGenerator<SheetRow> {
  const entries = await centralDirectory(src);
  const part = (name: string) => entries.find((e) => e.name === name);
  // The first worksheet the zip holds, as exceljs's own streaming reader took it.
  const sheet = entries.find((e) => WORKSHEET.test(e.name));
  const parts = [part('xl/workbook.xml'), part('xl/styles.xml'), part('xl/sharedStrings.xml'), sheet].filter((e): e is ZipEntry => !!e);
  // Declared sizes first: most bombs say what they are. entryText holds each part to its declared size.
  if (parts.reduce((sum, e) => sum + e.size, 0) > limits.maxUnpackedBytes) throw refuse.unpacked(limits);

  // Loaded only for XLSX: a CSV's reading thread starts without it.
  const { default: excel } = await import('exceljs');
  const reader = new excel.stream.xlsx.WorkbookReader(Readable.from([]), {
    worksheets: 'emit', sharedStrings: 'emit', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore',
  }) as unknown as ExcelReaderParts;
  const workbook = part('xl/workbook.xml');
  if (workbook) await reader._parseWorkbook(await entryText(src, workbook));
  const styles = part('xl/styles.xml');
  if (styles) await reader._parseStyles(await entryText(src, styles));
  const shared = part('xl/sharedStrings.xml');
  const strings: string[] = [];
  if (shared) {
    let chars = 0;
    for await (const { text } of reader._parseSharedStrings(await entryText(src, shared))) {
      const s = cellText(text);
      if (s.length > limits.maxCellChars) throw refuse.cell(limits, null);
      chars += s.length;
      if (chars > limits.maxSharedChars) throw refuse.sharedChars(limits);
      if (strings.push(s) > limits.maxSharedStrings) throw refuse.sharedStrings(limits);
    }
  }
  // The worksheet reader looks cells' shared strings up here.
  reader.sharedStrings = strings;
  if (!sheet) return;

  const worksheet = reader._parseWorksheet(await entryText(src, sheet), WORKSHEET.exec(sheet.name)![1]!).next().value!.value;
  let scanned = 0;
  for await (const r of worksheet) {
    scanned++;
    // A row without its number (r is optional in the format) is the one after the last.
    const row = Number.isFinite(r.number) ? r.number : scanned;
    // Before `values`, which spreads the row into an array as long as its last column.
    if (r.cellCount > limits.maxColumns) throw refuse.columns(limits, row);
    const values = (r.values ?? []) as unknown[];
    const cells: string[] = [];
    // row.values is 1-based and sparse.
    for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
    yield { row, cells };
  }
}

// ── Both ────────────────────────────────────────────────────────────────────────────────

/** The rows, refused past the limits on rows (empty ones too), columns and characters. */
async function* bounded(rows: AsyncIterable<SheetRow>, limits: SheetLimits): AsyncGenerator<SheetRow> {
  let scanned = 0;
  let chars = 0;
  for await (const r of rows) {
    if (++scanned > limits.maxRows) throw refuse.rows(limits);
    if (r.cells.length > limits.maxColumns) throw refuse.columns(limits, r.row);
    for (const c of r.cells) {
      if (c.length > limits.maxCellChars) throw refuse.cell(limits, r.row);
      chars += c.length;
    }
    if (chars > limits.maxTextChars) throw refuse.text(limits);
    yield r;
  }
}

async function* unreadableAs(rows: AsyncGenerator<SheetRow>, format: SheetFormat): AsyncGenerator<SheetRow> {
  try {
    yield* rows;
  } catch (err) {
    if (err instanceof SheetRefusal || format === 'csv') throw err;
    throw refuse.unreadableXlsx();
  }
}

/** The file's format and encoding (detected unless given) and its rows, read as they are asked for. */
export async function openSheet(input: SheetInput, limits: SheetLimits): Promise<OpenSheet & { close(): Promise<void> }> {
  const src = input.bytes ? bufferSource(input.bytes) : await fileSource(input.path!);
  try {
    const format = input.format ?? (await detectFormat(src, input.fileName));
    const encoding = format === 'csv' ? (input.encoding ?? (await detectEncoding(src))) : null;
    const rows = format === 'xlsx' ? xlsxRows(src, limits) : csvRows(src, encoding!, limits);
    return { format, encoding, rows: bounded(unreadableAs(rows, format), limits), close: () => src.close() };
  } catch (err) {
    await src.close();
    throw err;
  }
}
