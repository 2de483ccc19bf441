// npm run backup [-- <file>]: a consistent copy of the database while the app keeps running.
// SQLite: the online backup API (better-sqlite3 db.backup()) copies pages while other
// connections go on writing (WAL), then the copy is checked (quick_check) and its leads counted.
// PostgreSQL: pg_dump -Fc (custom format, for pg_restore) of the app's schema.
// Default file: <DATA_DIR>/backups/leadroom-<UTC time>.sqlite | .dump. The landing secret file
// (DATA_DIR/landing-secret, unless LANDING_SECRET is set) is copied next to the backup:
// without it, forms rendered before a restore would be refused.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { loadConfig } from '../server/config.ts';

const config = loadConfig();
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
const isPg = /^postgres(ql)?:\/\//.test(config.databaseUrl);
const target = path.resolve(process.argv[2] ?? path.join(config.dataDir, 'backups', `leadroom-${stamp}.${isPg ? 'dump' : 'sqlite'}`));
fs.mkdirSync(path.dirname(target), { recursive: true });
if (fs.existsSync(target)) {
  process.stderr.write(`이미 있는 파일입니다: ${target}\n`);
  process.exit(1);
}

if (isPg) {
  const url = new URL(config.databaseUrl);
  // A schema named in the URL (options=-c search_path=…) is the app's: dump that one alone.
  const schema = /search_path=([^\s,]+)/.exec(url.searchParams.get('options') ?? '')?.[1];
  url.searchParams.delete('options');
  const args = ['-Fc', '--no-owner', '-f', target, ...(schema ? ['--schema', schema] : []), url.toString()];
  const run = spawnSync(process.env.PG_DUMP ?? 'pg_dump', args, { stdio: 'inherit' });
  if (run.status !== 0) {
    process.stderr.write(`pg_dump가 실패했습니다${run.error ? `: ${run.error.message}` : ''}\n`);
    process.exit(1);
  }
  process.stdout.write(`백업했습니다 (PostgreSQL${schema ? `, 스키마 ${schema}` : ''}): ${target} (${fs.statSync(target).size} bytes)\n복원: pg_restore --clean --if-exists --no-owner -d <DATABASE_URL> ${target}\n`);
} else {
  const file = path.resolve(config.databaseUrl);
  if (!fs.existsSync(file)) {
    process.stderr.write(`데이터베이스 파일이 없습니다: ${file}\n`);
    process.exit(1);
  }
  const source = new Sqlite(file, { fileMustExist: true });
  // A writer may hold the lock for a moment: wait for it rather than fail.
  source.pragma('busy_timeout = 5000');
  await source.backup(target);
  source.close();
  const copy = new Sqlite(target, { readonly: true, fileMustExist: true });
  const check = copy.pragma('quick_check', { simple: true });
  const leads = (copy.prepare('select count(*) as n from leads').get() as { n: number }).n;
  copy.close();
  if (check !== 'ok') {
    process.stderr.write(`백업 파일 검사에 실패했습니다: ${String(check)}\n`);
    process.exit(1);
  }
  process.stdout.write(`백업했습니다 (SQLite, DB ${leads}건): ${target} (${fs.statSync(target).size} bytes)\n`);
}
// Forms are signed with the landing secret, and PostgreSQL records its fingerprint: a restore without it
// refuses forms rendered before, or (PostgreSQL) refuses to start.
const secret = path.join(config.dataDir, 'landing-secret');
if (!process.env.LANDING_SECRET && fs.existsSync(secret)) fs.copyFileSync(secret, `${target}.landing-secret`);
