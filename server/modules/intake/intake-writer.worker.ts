// The intake writer thread: its own connection to the SQLite file, committing the batches
// the event loop hands it. SQLite work (and the fsync of each commit) happens here, so the
// event loop goes on reading and checking the next submissions meanwhile. The leads' follow-ups
// (their `created` events and delivery jobs, for many batches at once) are written here too.
//
// A batch commits with synchronous = NORMAL on this connection: its WAL frames reach the OS at
// the commit, and the batch is answered once an fdatasync of the WAL that began after the commit
// has finished (CoalescedFlush). That is synchronous = FULL's promise — nothing is acknowledged
// before it is on disk — but the fsync runs on libuv's thread pool while this thread already
// commits the next batch (the event loop sends two at once), and one fsync serves every batch
// committed while the previous one ran. The follow-ups are answered to no one: they are on disk
// with the next batch's flush (the WAL is written in order), or redone from their cursor.
import fs from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import { CoalescedFlush } from '../../lib/coalesced-flush.ts';
import { openDatabase } from '../../db/dialect.ts';
import { commitBatch } from './intake-batch.ts';
import { followUpLeads } from '../leads/leads.entry.ts';
import type { WriterReply, WriterRequest } from './intake-writer.ts';

const port = parentPort!;
// A batch waits its turn behind the back office's own writes (which take milliseconds).
const file = (workerData as { file: string }).file;
const handle = await openDatabase({ url: file, busyTimeoutMs: 30_000 });
await sql`pragma synchronous = NORMAL`.execute(handle.db);
const wal = new CoalescedFlush(async () => {
  // Opened for each flush: the WAL file is the one there now (SQLite may have truncated it).
  const fh = await fs.open(`${file}-wal`, 'r');
  try {
    await fh.datasync();
  } finally {
    await fh.close();
  }
});

/** Commits a batch and waits until its commit is on disk. */
async function commitDurably(items: Parameters<typeof commitBatch>[1], now: Date) {
  const outcomes = await commitBatch(handle.db, items, now);
  try {
    await wal.after();
  } catch (err) {
    // Committed, but not known to be on disk: not acknowledged (503, the visitor may send again;
    // the duplicate rule marks a second copy). An fsync failing is the disk's, not the batch's.
    throw Object.assign(new Error(`the WAL could not be flushed: ${(err as Error).message}`), { code: 'SQLITE_IOERR_FSYNC', cause: err });
  }
  return outcomes;
}

port.on('message', async (m: WriterRequest) => {
  if (m.kind === 'close') {
    await handle.close();
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    reply = m.kind === 'commit'
      ? { id: m.id, outcomes: await commitDurably(m.items, new Date(m.now)) }
      : { id: m.id, jobs: (await followUpLeads(handle.db, new Date(m.now))).jobs };
  } catch (err) {
    // The engine's code goes along: the event loop tells a busy database (503) from a bug (500) by it.
    const code = (err as { code?: unknown })?.code;
    reply = { id: m.id, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err), ...(typeof code === 'string' ? { code } : {}) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies WriterReply);
