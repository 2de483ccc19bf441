// Durable commits without holding the writer: a SQLite connection opened with `syncCommits:
// false` (synchronous = NORMAL in WAL mode) writes each commit's pages into the WAL file but
// does not wait for the disk; its caller makes the commit durable with walSync's after(), which
// flushes the WAL file (fdatasync, on libuv's thread pool) and resolves once a flush that began
// after the call has finished. Nobody is answered before that, so what was acknowledged is on
// disk exactly as with synchronous = FULL (which syncs the WAL at every commit) — but the next
// batch is written while this one's flush runs, and one flush serves every commit before it.
// SQLite itself still syncs the WAL before each checkpoint and the database after it.
import fs from 'node:fs/promises';

export interface WalSync {
  /** Resolves once everything committed before the call is on disk. */
  after(): Promise<void>;
  close(): Promise<void>;
}

/** `flush` stands in for the file's fdatasync in tests. */
export function walSync(databaseFile: string, flush?: () => Promise<void>): WalSync {
  const wal = `${databaseFile}-wal`;
  let handle: fs.FileHandle | null = null;

  /** The WAL file as it is now: SQLite keeps it while a connection is open, but a new one is opened if it was replaced. */
  async function flushWal(): Promise<void> {
    if (handle) {
      const [open, now] = await Promise.all([handle.stat(), fs.stat(wal).catch(() => null)]);
      if (!now || now.ino !== open.ino || now.dev !== open.dev) {
        await handle.close().catch(() => {});
        handle = null;
      }
    }
    handle ??= await fs.open(wal, 'r+');
    await handle.datasync();
  }

  const run = flush ?? flushWal;
  /** The flush under way, and the one that must follow it (for commits made after it began). */
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  function after(): Promise<void> {
    if (!running) {
      running = run().finally(() => {
        running = null;
      });
      return running;
    }
    // The flush under way may have begun before this commit: one more, after it, covers this
    // commit and every other that asks meanwhile.
    next ??= running.catch(() => {}).then(() => {
      next = null;
      return after();
    });
    return next;
  }

  return {
    after,
    async close() {
      await Promise.allSettled([running, next]);
      await handle?.close();
      handle = null;
    },
  };
}
