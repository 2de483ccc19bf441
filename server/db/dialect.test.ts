// SQLite: a transaction that waits for another connection's write lock (intake's writer thread
// holds it while it commits a batch) waits without stopping the event loop.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from './dialect.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe.runIf(process.env.LR_TEST_DIALECT !== 'postgres')('SQLite transactions beside another writer', () => {
  it('wait for the write lock on timers, so the lock holder on the same event loop can finish', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lr-dialect-'));
    dirs.push(dir);
    const file = path.join(dir, 'db.sqlite');
    const handle: DbHandle = await openDatabase({ url: file, busyTimeoutMs: 3000 });
    try {
      await sql`create table t (v integer)`.execute(handle.db);
      const other = new Sqlite(file);
      other.exec('begin immediate; insert into t values (1);');
      let ticks = 0;
      const ticking = setInterval(() => ticks++, 5);
      // The other writer finishes on a timer of this same event loop: a begin that slept inside
      // SQLite's busy handler would keep that timer from running until its busy timeout ran out.
      setTimeout(() => other.exec('commit'), 100);
      const started = Date.now();
      await handle.db.transaction().execute((trx) => sql`insert into t values (2)`.execute(trx));
      clearInterval(ticking);
      other.close();
      expect(Date.now() - started).toBeLessThan(2500);
      expect(ticks).toBeGreaterThan(3);
      const rows = await sql<{ v: number }>`select v from t order by v`.execute(handle.db);
      expect(rows.rows.map((r) => r.v)).toEqual([1, 2]);
    } finally {
      await handle.close();
    }
  });

  it('still gives up with SQLITE_BUSY when the lock is held past the busy timeout', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lr-dialect-'));
    dirs.push(dir);
    const file = path.join(dir, 'db.sqlite');
    const handle = await openDatabase({ url: file, busyTimeoutMs: 200 });
    const other = new Sqlite(file);
    try {
      await sql`create table t (v integer)`.execute(handle.db);
      other.exec('begin immediate');
      await expect(handle.db.transaction().execute((trx) => sql`insert into t values (2)`.execute(trx))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      other.exec('rollback');
    } finally {
      other.close();
      await handle.close();
    }
  });
});
