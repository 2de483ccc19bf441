// Test support: an XLSX as a reader other than exceljs sees it — openpyxl (Debian's
// python3-openpyxl, which `.ci/run` installs), the library much of the Python world opens Excel
// files with. It reports each cell's type and number format, the sheet's autofilter and frozen
// panes, as Excel stores them; reading our files back with the writer's own library would agree
// with whatever the writer got wrong.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PYTHON = '/usr/bin/python3';

const SCRIPT = `
import datetime, json, sys, openpyxl
book = openpyxl.load_workbook(sys.argv[1])
out = []
for ws in book.worksheets:
    cells = {}
    for row in ws.iter_rows():
        for c in row:
            if c.value is None:
                continue
            v = c.value
            if isinstance(v, (datetime.datetime, datetime.date)):
                v = v.isoformat()
            cells[c.coordinate] = {'type': c.data_type, 'format': c.number_format, 'value': v}
    out.append({'title': ws.title, 'autoFilter': ws.auto_filter.ref, 'freezePanes': ws.freeze_panes, 'cells': cells})
print(json.dumps(out, ensure_ascii=False))
`;

export interface OpenpyxlCell {
  /** openpyxl's data_type: 'n' number, 's' text, 'd' date (a number with a date format), 'b', 'f'. */
  type: string;
  format: string;
  /** A date as ISO text without a zone ("2026-11-21T10:00:00"), as the cell holds it. */
  value: string | number | boolean;
}

export interface OpenpyxlSheet {
  title: string;
  autoFilter: string | null;
  /** The first cell below and right of the frozen panes ("A2"), or null. */
  freezePanes: string | null;
  cells: Record<string, OpenpyxlCell>;
}

/** Why openpyxl cannot be used here, or null when it can. */
export const openpyxlMissing: string | null = (() => {
  const r = spawnSync(PYTHON, ['-c', 'import openpyxl'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    const why = 'skipped: /usr/bin/python3 with openpyxl is missing (apt-get install python3-openpyxl; .ci/run installs it)';
    console.warn(why);
    return why;
  }
  return null;
})();

/** The sheets of `file` as openpyxl reads them. */
export function readWithOpenpyxl(file: Buffer | Uint8Array): OpenpyxlSheet[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openpyxl-'));
  try {
    const at = path.join(dir, 'file.xlsx');
    fs.writeFileSync(at, file);
    const r = spawnSync(PYTHON, ['-c', SCRIPT, at], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`openpyxl could not read the file: ${r.stderr || r.error?.message}`);
    return JSON.parse(r.stdout) as OpenpyxlSheet[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
