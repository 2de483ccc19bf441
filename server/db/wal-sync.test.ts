// walSync: a caller is answered only by a flush that began after it asked; callers asking while a
// flush runs share the one after it; and on a real SQLite file the flush reaches the WAL.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { walSync } from './wal-sync.ts';
import { openDatabase } from './dialect.ts';
import { sql } from 'kysely';

/** A flush the test finishes by hand, recording the order of starts and ends. */
function manualFlush() {
  const log: string[] = [];
  const open: Array<() => void> = [];
  let n = 0;
  return {
    log,
    flush: () => {
      const k = ++n;
      log.push(`start ${k}`);
      return new Promise<void>((resolve) => open.push(() => (log.push(`end ${k}`), resolve())));
    },
    finishNext: async () => {
      open.shift()!();
      // Let the continuations run (the next flush starts in one).
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

describe('walSync', () => {
  it('answers a commit made during a flush only after the next flush, which serves every such commit', async () => {
    const f = manualFlush();
    const w = walSync('/nonexistent', f.flush);
    const done: string[] = [];
    const a = w.after().then(() => done.push('a'));
    // b and c commit while flush 1 runs: it may have begun before their commits.
    const b = w.after().then(() => done.push('b'));
    const c = w.after().then(() => done.push('c'));
    expect(f.log).toEqual(['start 1']);
    await f.finishNext();
    await a;
    expect(done).toEqual(['a']);
    expect(f.log).toEqual(['start 1', 'end 1', 'start 2']);
    await f.finishNext();
    await Promise.all([b, c]);
    expect(done).toEqual(['a', 'b', 'c']);
    // Nothing pending: no flush runs for nobody.
    expect(f.log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    const d = w.after();
    expect(f.log.at(-1)).toBe('start 3');
    await f.finishNext();
    await d;
  });

  it('fails the callers of a flush that fails, and flushes again for the next', async () => {
    let fail = true;
    const w = walSync('/nonexistent', async () => {
      if (fail) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    });
    await expect(w.after()).rejects.toMatchObject({ code: 'EIO' });
    fail = false;
    await expect(w.after()).resolves.toBeUndefined();
  });

  it('flushes the WAL file of a SQLite database whose connection leaves commits to it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lr-wal-'));
    const file = path.join(dir, 'db.sqlite');
    const handle = await openDatabase({ url: file, syncCommits: false });
    try {
      expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db)).rows[0]!.synchronous).toBe(1);
      await sql`create table t (v text)`.execute(handle.db);
      await sql`insert into t values ('lead')`.execute(handle.db);
      const w = walSync(file);
      await w.after();
      await w.after();
      await w.close();
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
