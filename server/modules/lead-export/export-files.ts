// The files an export sends, written as the rows are read: CSV (UTF-8 with a byte-order mark,
// so Korean Excel opens it as UTF-8) and XLSX (exceljs' streaming writer), optionally
// encrypted with a password (ECMA-376, as Excel itself does). Every text cell that a
// spreadsheet would take for a formula is neutralised first.
import { PassThrough, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import officeCrypto from 'officecrypto-tool';
import { neutralise } from '../../lib/formula-safety.ts';

export type Cells = string[];

/** CSV: the headers (after a BOM), then each page of rows as one chunk. */
export async function* csvFile(headers: Cells, pages: AsyncIterable<Cells[]>): AsyncGenerator<string> {
  yield stringify([headers.map(neutralise)], { bom: true, record_delimiter: 'windows' });
  for await (const page of pages) yield stringify(page.map((row) => row.map(neutralise)), { record_delimiter: 'windows' });
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

export interface XlsxOptions {
  sheetName: string;
  /** Column widths in characters, by column. */
  widths?: number[];
}

/**
 * XLSX: one sheet, headers frozen on top, rows written and committed a page at a time into a
 * PassThrough that this generator hands on; a page waits while the reader is behind, so
 * neither the rows nor the zipped file pile up in memory.
 */
export async function* xlsxFile(headers: Cells, pages: AsyncIterable<Cells[]>, o: XlsxOptions): AsyncGenerator<Buffer> {
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet(o.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  if (o.widths) sheet.columns = o.widths.map((width) => ({ width }));
  const writing = (async () => {
    const head = sheet.addRow(headers.map(neutralise));
    head.font = { bold: true };
    head.commit();
    for await (const page of pages) {
      if (out.destroyed) return;
      for (const row of page) sheet.addRow(row.map(neutralise)).commit();
      // A turn of the event loop: reading a page from SQLite never leaves it, and the zip, the
      // compressor and the socket (and other requests) move on only outside it.
      await nextTurn();
      const entry = sheetEntry(sheet);
      if (entry && needsDrain(entry)) await drained(entry, out);
      if (needsDrain(out)) await drained(out, out);
    }
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
