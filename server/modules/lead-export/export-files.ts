// The files an export sends, written as the rows are read: CSV (UTF-8 with a byte-order mark,
// so Korean Excel opens it as UTF-8) and XLSX (exceljs' streaming writer), optionally
// encrypted with a password (ECMA-376, as Excel itself does). Every text cell that a
// spreadsheet would take for a formula is neutralised first. An instant is Seoul wall time in
// both: text in the CSV, a real date cell (formatted) in the XLSX; a number stays a number.
import { PassThrough, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import officeCrypto from 'officecrypto-tool';
import { neutralise } from '../../lib/formula-safety.ts';

/** Text, a number, an instant (a Date, shown in Seoul time), or nothing. */
type Cell = string | number | Date | null;
export type Cells = Cell[];

const SEOUL_MS = 9 * 3600_000;
/** The format of a date-time cell, as Excel shows it in any locale. */
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** An instant as Seoul wall time, "2026-11-21 10:00:00". */
const seoulText = (at: Date) => new Date(at.getTime() + SEOUL_MS).toISOString().slice(0, 19).replace('T', ' ');

const csvCell = (c: Cell) => (c === null ? '' : c instanceof Date ? seoulText(c) : typeof c === 'number' ? String(c) : neutralise(c));

/**
 * A cell's value as exceljs writes it: an instant moves to Seoul wall time (a spreadsheet date
 * has no zone, and exceljs writes a Date's UTC fields), text is neutralised.
 */
const xlsxCell = (c: Cell) => (c instanceof Date ? new Date(c.getTime() + SEOUL_MS) : typeof c === 'string' ? neutralise(c) : c);

/** CSV: the headers (after a BOM), then each page of rows as one chunk. */
export async function* csvFile(headers: string[], pages: AsyncIterable<Cells[]>): AsyncGenerator<string> {
  yield stringify([headers.map(neutralise)], { bom: true, record_delimiter: 'windows' });
  for await (const page of pages) yield stringify(page.map((row) => row.map(csvCell)), { record_delimiter: 'windows' });
}

/** Whether `s` asked its writer to wait (archiver's streams are readable-stream's, without `writableNeedDrain`). */
function needsDrain(s: Writable): boolean {
  return s.writableNeedDrain ?? !!(s as unknown as { _writableState?: { needDrain?: boolean } })._writableState?.needDrain;
}

/** Resolves when `s` may take more, or when `s` or `out` is gone (a download the browser dropped). */
function drained(s: Writable, out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      s.off('drain', done);
      s.off('close', done);
      out.off('close', done);
      resolve();
    };
    s.on('drain', done);
    s.on('close', done);
    out.on('close', done);
  });
}

/**
 * The zip entry a worksheet's XML flows into, once the zip has begun reading it. exceljs hands
 * the XML on in 64 KB batches without waiting for the entry (its StreamBuf keeps its readers in
 * `pipes` and ignores their backpressure): waiting for this entry to drain is what keeps the
 * unzipped XML of a whole export from piling up in front of the compressor.
 */
function sheetEntry(sheet: ExcelJS.Worksheet): Writable | undefined {
  return (sheet as unknown as { stream?: { pipes?: Writable[] } }).stream?.pipes?.[0];
}

interface XlsxOptions {
  sheetName: string;
  /** Column widths in characters, by column. */
  widths?: number[];
}

/**
 * XLSX: one sheet, headers frozen on top with an autofilter over every row, rows written and
 * committed a page at a time into a PassThrough that this generator hands on; a page waits
 * while the reader is behind, so neither the rows nor the zipped file pile up in memory.
 */
export async function* xlsxFile(headers: string[], pages: AsyncIterable<Cells[]>, o: XlsxOptions): AsyncGenerator<Buffer> {
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet(o.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  if (o.widths) sheet.columns = o.widths.map((width) => ({ width }));
  const writing = (async () => {
    const head = sheet.addRow(headers.map(neutralise));
    head.font = { bold: true };
    head.commit();
    let rows = 1;
    for await (const page of pages) {
      if (out.destroyed) return;
      for (const cells of page) {
        const row = sheet.addRow(cells.map(xlsxCell));
        cells.forEach((c, i) => c instanceof Date && (row.getCell(i + 1).numFmt = DATE_TIME_FORMAT));
        row.commit();
      }
      rows += page.length;
      // A turn of the event loop: reading a page from SQLite never leaves it, and the zip, the
      // compressor and the socket (and other requests) move on only outside it.
      await nextTurn();
      const entry = sheetEntry(sheet);
      if (entry && needsDrain(entry)) await drained(entry, out);
      if (needsDrain(out)) await drained(out, out);
    }
    // Written after the rows (exceljs puts it behind the sheet's data), so it spans them all.
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: rows, column: headers.length } };
    sheet.commit();
    await book.commit();
  })();
  // A failed read ends the file with the error (the download breaks off rather than ending short).
  writing.catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  for await (const chunk of out) yield chunk as Buffer;
  await writing;
}

/** The whole of a streamed file in one buffer (an encrypted file needs all of it at once). */
export async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

/** An XLSX that opens only with `password` (ECMA-376 agile encryption). */
export function encryptXlsx(file: Buffer, password: string): Buffer {
  return officeCrypto.encrypt(file, { password });
}
