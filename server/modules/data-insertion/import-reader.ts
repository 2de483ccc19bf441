// An import's file as the rules see it: its header row (the first that is not empty) and the
// data rows after it. The file itself is read by server/lib/sheet-reader.ts, in a thread of its
// own and within its limits.
import { isEmptyRow, type SheetRow } from '../../lib/sheet-reader.ts';

export type { SheetFormat as FileFormat, TextEncoding } from '../../lib/sheet-reader.ts';

/** The header row and the data rows after it; empty rows are skipped, the numbering stays the spreadsheet's. */
export async function* rowsWithHeader(rows: AsyncIterable<SheetRow>): AsyncGenerator<{ header: SheetRow } | { data: SheetRow }> {
  let seenHeader = false;
  for await (const r of rows) {
    if (isEmptyRow(r.cells)) continue;
    if (!seenHeader) {
      seenHeader = true;
      yield { header: r };
    } else yield { data: r };
  }
}
