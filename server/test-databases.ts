// Test support for tests that open one database as several processes would: PostgreSQL — one
// handle, with its own pool, per entry of `pools`, on one fresh schema; SQLite — one handle on a
// fresh file (a second connection in this thread would only wait on the first's write lock;
// the file is there for a writer thread or a child process). Migrated, ready to use.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DbHandle } from './db/dialect.ts';
import { migrateToLatest } from './db/migrate.ts';

export interface SharedDatabase {
  /** PostgreSQL: one per pool; SQLite: one. */
  handles: DbHandle[];
  /** The i-th process's handle (SQLite: always the one). */
  handle(i: number): DbHandle;
  /** The SQLite file, or null on PostgreSQL. */
  file: string | null;
  /** A folder of its own (a child process's DATA_DIR). */
  dir: string;
  /** What a child process needs to open the same database. */
  env: { DATABASE_URL: string };
  close(): Promise<void>;
}

export async function sharedDatabase(pools: readonly number[]): Promise<SharedDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-shared-'));
  const pgUrl = process.env.LR_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (pgUrl) {
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const handles: DbHandle[] = [];
    for (const poolSize of pools) handles.push(await openDatabase({ url: pgUrl, pgSchema: schema, poolSize }));
    await migrateToLatest(handles[0]!.db);
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      handles, handle: (i) => handles[i]!, file: null, dir, env: { DATABASE_URL: url.toString() },
      async close() {
        await handles[0]!.db.schema.dropSchema(schema).ifExists().cascade().execute();
        for (const h of handles) await h.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const file = path.join(dir, 'leadroom.sqlite');
  const h = await openDatabase({ url: file });
  await migrateToLatest(h.db);
  return {
    handles: [h], handle: () => h, file, dir, env: { DATABASE_URL: file },
    async close() {
      await h.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
