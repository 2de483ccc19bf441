// The reading thread of one uploaded spreadsheet (sheet-reader.ts starts it, with a heap limit):
// it opens the file, says what it is, then hands the rows over a batch at a time, each when
// asked, so that a slow caller never has the whole file waiting in memory.
import { parentPort, workerData } from 'node:worker_threads';
import { openSheet, type SheetInput, type SheetRow } from './sheet-parse.ts';
import { SheetRefusal, type SheetLimits } from './sheet-limits.ts';
import type { ReaderReply } from './sheet-reader.ts';

/** A batch ends at this many rows, or once it holds this many characters. */
const BATCH_ROWS = 1000;
const BATCH_CHARS = 1_000_000;

const port = parentPort!;
const { input, limits } = workerData as { input: SheetInput; limits: SheetLimits };

let asked: (() => void) | null = null;
let pending = 0;
port.on('message', () => {
  pending++;
  asked?.();
});
const nextAsk = async () => {
  if (!pending) await new Promise<void>((resolve) => (asked = resolve));
  asked = null;
  pending--;
};

const send = (reply: ReaderReply) => port.postMessage(reply);

try {
  const sheet = await openSheet(input, limits);
  send({ kind: 'opened', format: sheet.format, encoding: sheet.encoding });
  for (let done = false; !done; ) {
    await nextAsk();
    const rows: SheetRow[] = [];
    let chars = 0;
    while (rows.length < BATCH_ROWS && chars < BATCH_CHARS) {
      const next = await sheet.rows.next();
      if (next.done) {
        done = true;
        break;
      }
      rows.push(next.value);
      for (const c of next.value.cells) chars += c.length;
    }
    send({ kind: 'rows', rows, done });
  }
  await sheet.close();
} catch (err) {
  // Anything else is a fault of ours: the caller says the file could not be read.
  send(err instanceof SheetRefusal ? { kind: 'refused', status: err.status, message: err.message } : { kind: 'failed', message: String(err) });
}
port.close();
