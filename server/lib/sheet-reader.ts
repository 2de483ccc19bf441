// Every spreadsheet a user uploads is read here: in a thread of its own with a heap limit, within
// the limits of sheet-limits.ts, and under a deadline. A file past a limit ends its thread and
// fails with the Korean reason naming the limit; the event loop only ever receives rows in
// bounded batches, so the server and every other request carry on meanwhile. At most
// SHEET_READERS files are read at once (the others wait for a turn, an upload only while a few
// wait), which bounds the memory all readers together may take.
import type { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { AppError } from './errors.ts';
import { startWorker } from './worker.ts';
import { QueueFull, workQueue } from './work-queue.ts';
import { refuse, SHEET_LIMITS, SHEET_READERS, SheetRefusal, type SheetLimits } from './sheet-limits.ts';
import type { SheetFormat, SheetInput, SheetRow, TextEncoding } from './sheet-parse.ts';
import { ERROR_CODES } from '../../contracts/errors.ts';

export type { SheetFormat, SheetInput, SheetRow, TextEncoding } from './sheet-parse.ts';

export type ReaderReply =
  | { kind: 'opened'; format: SheetFormat; encoding: TextEncoding | null }
  | { kind: 'rows'; rows: SheetRow[]; done: boolean }
  | { kind: 'refused'; status: SheetRefusal['status']; message: string }
  | { kind: 'failed'; message: string };

interface OpenedSheet {
  format: SheetFormat;
  encoding: TextEncoding | null;
  /** Every row, in order (empty rows too, so that the numbering stays the spreadsheet's). */
  rows: AsyncIterable<SheetRow>;
}

const CODES = { 413: ERROR_CODES.PAYLOAD_TOO_LARGE, 415: ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 400: ERROR_CODES.VALIDATION } as const;
const appError = (r: SheetRefusal) => new AppError(r.status, CODES[r.status], r.message);

export const isEmptyRow = (cells: readonly string[]) => cells.every((c) => !c || !c.trim());

/** Files waiting for a reader past which an upload is turned away (work already under way always waits). */
const WAITING_UPLOADS = 8;
const readers = workQueue({ concurrency: SHEET_READERS, capacity: WAITING_UPLOADS });
export const BUSY_MESSAGE = '다른 파일을 읽는 중이라 지금은 읽을 수 없습니다. 잠시 후 다시 시도하세요.';

// ── Talking to the thread ───────────────────────────────────────────────────────────────

/**
 * The thread's replies, one at a time. The deadline counts only the time the caller waits for
 * one (not the time it spends on rows it has); past it, or past the heap limit, the thread ends.
 */
function replies(worker: Worker, limits: SheetLimits) {
  const queue: ReaderReply[] = [];
  let failure: Error | null = null;
  let waiter: { resolve: (r: ReaderReply) => void; reject: (e: Error) => void } | null = null;
  let budget = limits.deadlineMs;

  const fail = (err: Error) => {
    failure ??= err;
    waiter?.reject(failure);
    waiter = null;
  };
  worker.on('message', (m: ReaderReply) => {
    if (waiter) {
      waiter.resolve(m);
      waiter = null;
    } else queue.push(m);
  });
  worker.on('error', (err: Error & { code?: string }) => {
    fail(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? appError(refuse.heap(limits)) : err);
  });
  worker.on('exit', () => fail(new Error('the sheet reader stopped')));

  return {
    next(): Promise<ReaderReply> {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (failure) return Promise.reject(failure);
      const started = performance.now();
      return new Promise<ReaderReply>((resolve, reject) => {
        const timer = setTimeout(() => {
          fail(appError(refuse.deadline(limits)));
          void worker.terminate();
        }, Math.max(0, budget));
        const settle = () => {
          clearTimeout(timer);
          budget -= performance.now() - started;
        };
        waiter = {
          resolve: (r) => {
            settle();
            resolve(r);
          },
          reject: (e) => {
            settle();
            reject(e);
          },
        };
      });
    },
  };
}

/** A reply that is not what was asked for: the file is refused, or the thread failed. */
function unexpected(r: ReaderReply, format: SheetFormat | undefined): Error {
  if (r.kind === 'refused') return new AppError(r.status, CODES[r.status], r.message);
  if (r.kind === 'failed') return Object.assign(appError(format === 'csv' ? refuse.notASheet() : refuse.unreadableXlsx()), { cause: r.message });
  return new Error(`the sheet reader answered ${r.kind}`);
}

interface ReadOptions {
  /** Lower limits (tests, and callers that keep every row). */
  limits?: Partial<SheetLimits>;
  /** An upload a person waits for: refused (503) rather than queued when several files already wait. */
  upload?: boolean;
}

/**
 * Reads an uploaded spreadsheet in a thread of its own and hands `consume` its format, encoding and
 * rows; the thread ends when `consume` returns (having read every row or not) or throws. A file past a
 * limit, or one that cannot be read, throws an AppError with the Korean reason.
 */
export async function readSheet<T>(input: SheetInput, consume: (sheet: OpenedSheet) => Promise<T>, options: ReadOptions = {}): Promise<T> {
  try {
    return await readers.run(() => readInThread(input, consume, { ...SHEET_LIMITS, ...options.limits }), { refuseWhenFull: options.upload });
  } catch (err) {
    if (err instanceof QueueFull) throw new AppError(503, ERROR_CODES.BUSY, BUSY_MESSAGE);
    throw err;
  }
}

async function readInThread<T>(input: SheetInput, consume: (sheet: OpenedSheet) => Promise<T>, limits: SheetLimits): Promise<T> {
  const worker = startWorker(import.meta.url, 'sheet-reader.worker', { input, limits }, {
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
  });
  try {
    const talk = replies(worker, limits);
    const opened = await talk.next();
    if (opened.kind !== 'opened') throw unexpected(opened, input.format);
    async function* rows(): AsyncGenerator<SheetRow> {
      worker.postMessage('more');
      for (;;) {
        const r = await talk.next();
        if (r.kind !== 'rows') throw unexpected(r, opened.kind === 'opened' ? opened.format : undefined);
        // The next batch is read while the caller works through this one.
        if (!r.done) worker.postMessage('more');
        yield* r.rows;
        if (r.done) return;
      }
    }
    return await consume({ format: opened.format, encoding: opened.encoding, rows: rows() });
  } finally {
    // Its memory is given back before the next file takes the turn.
    await worker.terminate();
  }
}
