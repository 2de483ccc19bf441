// The intake writer thread: its own connection to the SQLite file, committing the batches
// the event loop hands it. SQLite work (and the fsync of each commit) happens here, so the
// event loop goes on reading and checking the next submissions meanwhile. The leads' follow-ups
// (their `created` events and delivery jobs, for many batches at once) are written here too.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/dialect.ts';
import { commitBatch } from './intake-batch.ts';
import { followUpLeads } from '../leads/leads.entry.ts';
import type { WriterReply, WriterRequest } from './intake-writer.ts';

const port = parentPort!;
// A batch waits its turn behind the back office's own writes (which take milliseconds).
const handle = await openDatabase({ url: (workerData as { file: string }).file, busyTimeoutMs: 30_000, waitInBegin: true });

port.on('message', async (m: WriterRequest) => {
  if (m.kind === 'close') {
    await handle.close();
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    reply = m.kind === 'commit'
      ? { id: m.id, outcomes: await commitBatch(handle.db, m.items, new Date(m.now)) }
      : { id: m.id, jobs: (await followUpLeads(handle.db, new Date(m.now))).jobs };
  } catch (err) {
    // The engine's code goes along: the event loop tells a busy database (503) from a bug (500) by it.
    const code = (err as { code?: unknown })?.code;
    reply = { id: m.id, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err), ...(typeof code === 'string' ? { code } : {}) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies WriterReply);
