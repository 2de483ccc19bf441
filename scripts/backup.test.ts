// npm run backup on a live SQLite file: the app keeps writing while the copy is taken, and the
// copy opens, passes its check and has the rows.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { expect, it } from 'vitest';
import { landingTestApp, leadBody, openLanding, submit } from '../server/test-landings.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

it('copies a live SQLite database with its leads and the landing secret', async () => {
  const t = await landingTestApp({}, { onDisk: true });
  try {
    const landingId = await openLanding(t);
    for (let i = 0; i < 5; i++) expect((await submit(t, leadBody(t, landingId, { phone: `010-1234-00${10 + i}` }))).statusCode).toBe(201);
    const target = path.join(t.dataDir, 'copy', 'backup.sqlite');
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/backup.ts'), target], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: path.join(t.dataDir, 'leadroom.sqlite'), LANDING_SECRET: '' },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('DB 5건');
    // The app still works on the original after the copy.
    expect((await submit(t, leadBody(t, landingId, { phone: '010-1234-0099' }))).statusCode).toBe(201);
    const copy = new Sqlite(target, { readonly: true });
    try {
      expect(copy.prepare('select count(*) as n from leads').get()).toEqual({ n: 5 });
      expect((copy.prepare("select count(*) as n from accounts where login_id = 'admin'").get() as { n: number }).n).toBe(1);
    } finally {
      copy.close();
    }
    expect(fs.existsSync(`${target}.landing-secret`)).toBe(true);
    // A second run to the same file refuses rather than overwrite.
    expect(spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/backup.ts'), target], { cwd: ROOT, env: { ...process.env, DATABASE_URL: path.join(t.dataDir, 'leadroom.sqlite') } }).status).toBe(1);
  } finally {
    await t.close();
  }
});
