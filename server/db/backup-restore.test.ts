// `npm run backup` of a live database while leads keep arriving, restored into an empty database:
// every lead acknowledged (201) before the backup started is there, and the app runs on it.
// The moment: the backup command is started after the last of those acknowledgements; leads
// acknowledged while it runs may or may not be in the copy (SQLite copies the last commit it sees,
// pg_dump a snapshot taken when it starts), and nothing else is.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { landingTestApp, leadBody, openLanding, submit, type LandingTestApp } from '../test-landings.ts';
import { testApp } from '../test-helpers.ts';
import { openDatabase, type DbHandle } from './dialect.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PG_URL = process.env.LR_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
const PG_DUMP = process.env.PG_DUMP ?? 'pg_dump';
const PG_RESTORE = process.env.PG_RESTORE ?? 'pg_restore';
const found = (bin: string) => spawnSync(bin, ['--version']).status === 0;

/** How many submissions are in flight at once while the backup runs. */
const SUBMITTERS = 4;

/** Runs `npm run backup -- <target>` (the script itself) with `env`; resolves with its exit code and output. */
function runBackup(target: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/backup.ts'), target], { cwd: ROOT, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The phones of the leads in a database. */
async function phonesIn(handle: DbHandle): Promise<Set<string>> {
  return new Set((await handle.db.selectFrom('leads').select('phone').execute()).map((r) => r.phone));
}

// A child process (tsx), a dump and a restore: minutes on a slow, busy machine.
it('restores every lead acknowledged before the backup started, taken while intake runs', { timeout: 180_000 }, async (ctx) => {
  if (PG_URL && !(found(PG_DUMP) && found(PG_RESTORE))) ctx.skip('pg_dump and pg_restore are not installed (PATH, or PG_DUMP / PG_RESTORE)');
  const t: LandingTestApp = await landingTestApp({}, { onDisk: !PG_URL });
  const restoreDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-restore-'));
  let restoreDb: string | undefined;
  try {
    const landingId = await openLanding(t);
    let next = 0;
    const acknowledged: Array<{ phone: string; beforeBackup: boolean }> = [];
    const submitOne = async (beforeBackup: boolean) => {
      const n = next++;
      const phone = `0107${String(n).padStart(7, '0')}`;
      const res = await submit(t, leadBody(t, landingId, { phone, name: `백업${n}` }));
      expect(res.statusCode, res.body).toBe(201);
      acknowledged.push({ phone, beforeBackup });
    };
    for (let i = 0; i < 40; i++) await submitOne(true);

    const schema = PG_URL ? (await sql<{ s: string }>`select current_schema() as s`.execute(t.app.db)).rows[0]!.s : undefined;
    const target = path.join(t.dataDir, 'backups', PG_URL ? 'live.dump' : 'live.sqlite');
    const env: Record<string, string> = PG_URL
      ? { DATABASE_URL: Object.assign(new URL(PG_URL), { search: new URLSearchParams({ options: `-c search_path=${schema}` }).toString() }).toString(), DATA_DIR: t.dataDir }
      : { DATABASE_URL: path.join(t.dataDir, 'leadroom.sqlite'), DATA_DIR: t.dataDir, LANDING_SECRET: '' };

    // The backup's moment: every lead above was acknowledged before this line. Intake goes on meanwhile.
    let running = true;
    const backup = runBackup(target, env).finally(() => (running = false));
    const submitters = Array.from({ length: SUBMITTERS }, async () => {
      while (running) await submitOne(false);
    });
    const [{ code, output }] = await Promise.all([backup, ...submitters]);
    expect(code, output).toBe(0);
    const during = acknowledged.filter((a) => !a.beforeBackup).length;
    expect(during, 'leads acknowledged while the backup ran').toBeGreaterThan(0);

    // Restored into an empty database, as README's restore steps do.
    let restored: DbHandle;
    if (PG_URL) {
      restoreDb = `restore_${crypto.randomBytes(6).toString('hex')}`;
      const admin = await openDatabase({ url: PG_URL, poolSize: 1 });
      await sql.raw(`create database "${restoreDb}"`).execute(admin.db);
      await admin.close();
      const url = Object.assign(new URL(PG_URL), { pathname: `/${restoreDb}` }).toString();
      const run = spawnSync(PG_RESTORE, ['--clean', '--if-exists', '--no-owner', '-d', url, target], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      restored = await openDatabase({ url, pgSchema: schema, poolSize: 2 });
    } else {
      const file = path.join(restoreDir, 'leadroom.sqlite');
      fs.copyFileSync(target, file);
      restored = await openDatabase({ url: file });
    }
    // The landing secret goes with the backup (PostgreSQL records its fingerprint: without it the app would not start).
    fs.copyFileSync(`${target}.landing-secret`, path.join(restoreDir, 'landing-secret'));

    const phones = await phonesIn(restored);
    const missing = acknowledged.filter((a) => a.beforeBackup && !phones.has(a.phone)).map((a) => a.phone);
    expect(missing, 'acknowledged before the backup started, missing after the restore').toEqual([]);
    const known = new Set(acknowledged.map((a) => a.phone));
    expect([...phones].filter((p) => !known.has(p)), 'leads in the copy nobody acknowledged').toEqual([]);

    // The app starts on the restored database (its migrations are current) and shows those leads.
    const app = await testApp({ dataDir: restoreDir }, { database: restored }).catch(async (err: unknown) => {
      await restored.close();
      throw err;
    });
    try {
      const admin = await app.login();
      const list = await admin.get(`/api/shops/${t.shopId}/leads?from=2026-11-01&to=2026-11-30&pageSize=1`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().total).toBe(phones.size);
    } finally {
      await app.close();
    }
  } finally {
    await t.close();
    fs.rmSync(restoreDir, { recursive: true, force: true });
    if (restoreDb) {
      const admin = await openDatabase({ url: PG_URL!, poolSize: 1 });
      await sql.raw(`drop database if exists "${restoreDb}" with (force)`).execute(admin.db);
      await admin.close();
    }
  }
});
