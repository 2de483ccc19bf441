// The intake writer thread: its own connection to the SQLite file, committing the batches
// the event loop hands it. SQLite work happens here, so the event loop goes on reading and
// checking the next submissions meanwhile. A batch's commit is made durable by flushing the WAL
// (wal-sync.ts) before its outcomes go back; batches commit one after the other, in the order
// they came, while an earlier batch's flush is still running — two batches in flight.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/dialect.ts';
import { walSync } from '../../db/wal-sync.ts';
import { commitBatch } from './intake-batch.ts';
import type { WriterReply, WriterRequest } from './intake-writer.ts';

const port = parentPort!;
const file = (workerData as { file: string }).file;
// A batch waits its turn behind the back office's own writes (which take milliseconds).
const handle = await openDatabase({ url: file, busyTimeoutMs: 30_000, syncCommits: false });
const durable = walSync(file);
/** The last batch's commit: the next one starts after it (one transaction at a time on this connection). */
let committed: Promise<unknown> = Promise.resolve();

/** An error as it crosses to the event loop, with the engine's code: it tells a busy database (503) from a bug (500) by it. */
function failure(id: number, err: unknown): { id: number; error: string; code?: string } {
  const code = (err as { code?: unknown })?.code;
  return { id, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err), ...(typeof code === 'string' ? { code } : {}) };
}

port.on('message', async (m: WriterRequest) => {
  if (m.kind === 'close') {
    await committed.catch(() => {});
    await durable.close();
    await handle.close();
    port.close();
    return;
  }
  const commit = committed.then(() => commitBatch(handle.db, m.items, new Date(m.now)));
  committed = commit.catch(() => {});
  let reply: WriterReply;
  try {
    const outcomes = await commit;
    try {
      await durable.after();
      reply = { id: m.id, outcomes };
    } catch (err) {
      // Committed but perhaps not on disk: not acknowledged, and not tried again lead by lead
      // (that would store them twice) — an I/O error of the database, answered 503.
      reply = { ...failure(m.id, err), code: 'SQLITE_IOERR' };
    }
  } catch (err) {
    reply = failure(m.id, err);
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies WriterReply);
