// Test support for two intake writers racing on one database, as two processes would: on
// PostgreSQL the last two handles of a shared database (each its own pool), on SQLite this thread
// and the writer thread on the same file. Registers its own beforeEach/afterEach.
import { afterEach, beforeEach } from 'vitest';
import type { DbHandle } from './db/dialect.ts';
import { sharedDatabase } from './test-databases.ts';
import { commitBatch, type Outcome, type PendingLead } from './modules/intake/intake-batch.ts';
import { threadWriter, type BatchWriter } from './modules/intake/intake-writer.ts';

export type Committer = (items: PendingLead[], now: Date) => Promise<Outcome[]>;

/** A fresh shared database for each test (`pools` as sharedDatabase takes them), and its two writers. */
export function eachTwoWriters(pools: readonly number[]) {
  let handles: DbHandle[] = [];
  let cleanup: () => Promise<void>;
  let writer: BatchWriter | undefined;
  beforeEach(async () => {
    const shared = await sharedDatabase(pools);
    handles = shared.handles;
    cleanup = shared.close;
  });
  afterEach(async () => {
    await writer?.close();
    writer = undefined;
    await cleanup();
  });
  return {
    /** PostgreSQL: one per pool; SQLite: the one. */
    handles: () => handles,
    /** The two writers, each committing batches as intake does. */
    committers(): [Committer, Committer] {
      if (handles.length > 1) {
        const [a, b] = handles.slice(-2) as [DbHandle, DbHandle];
        return [(items, now) => commitBatch(a.db, items, now), (items, now) => commitBatch(b.db, items, now)];
      }
      const w = (writer = threadWriter(handles[0]!.sqliteFile!, (err) => {
        throw err;
      }));
      return [(items, now) => commitBatch(handles[0]!.db, items, now), (items, now) => w.commit(items, now)];
    },
  };
}
