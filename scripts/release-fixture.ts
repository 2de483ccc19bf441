// npm run release:fixture [-- --checkout <dir>] [--force]
//
// A release's database as that release made it, for the upgrade test (server/db/upgrade.test.ts):
// the code of a checkout (this one by default, or an older release's `git worktree`) starts on an
// empty SQLite file and on an empty PostgreSQL schema, seeds its demo data, and stops. Written to
// server/db/fixtures/releases/<version of the checkout's package.json>/:
//   leadroom.sqlite.gz   the SQLite file (compacted)
//   leadroom.pg.sql.gz   pg_dump --inserts --no-owner --no-privileges of the schema (the test loads it through `pg`)
//   manifest.json        the release, its commit, when it was seeded, the migrations it applied, and the
//                        logins and landing secret of this test data
// PostgreSQL: FIXTURE_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test;
// pg_dump from PATH (or PG_DUMP). The schema it uses is dropped before and after.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import type { build as Build } from '../server/app.ts';
import type { openDatabase as OpenDatabase } from '../server/db/dialect.ts';
import { FIXTURE_CREDENTIALS, RELEASES_DIR, type ReleaseManifest, releaseSchema } from '../server/db/release-fixtures.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const checkout = path.resolve(option('--checkout') ?? path.join(import.meta.dirname, '..'));
const force = args.includes('--force');
const pgUrl = process.env.FIXTURE_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const version = (JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8')) as { version: string }).version;
const git = (...a: string[]) => execFileSync('git', ['-C', checkout, ...a], { encoding: 'utf8' }).trim();
const commit = git('rev-parse', 'HEAD');
if (git('status', '--porcelain', '--untracked-files=no', '--', 'server', 'contracts')) {
  process.stderr.write(`커밋되지 않은 서버 코드가 있습니다 (${checkout}): 릴리스의 픽스처는 커밋된 코드로 만듭니다.\n`);
  process.exit(1);
}
const out = path.join(RELEASES_DIR, version);
if (fs.existsSync(out) && !force) {
  process.stderr.write(`이미 있습니다: ${out} (다시 만들려면 --force)\n`);
  process.exit(1);
}

// The checkout's own code, not this one's: the fixture is what that release made.
const { build } = (await import(path.join(checkout, 'server/app.ts'))) as { build: typeof Build };
const { openDatabase } = (await import(path.join(checkout, 'server/db/dialect.ts'))) as { openDatabase: typeof OpenDatabase };
// Forms of the fixture's landings are signed with this secret; the test signs its own with it.
process.env.LANDING_SECRET = FIXTURE_CREDENTIALS.landingSecret;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-release-'));
const config = {
  dataDir: work, seedDemo: true, initialAdminPassword: FIXTURE_CREDENTIALS.adminPassword, demoPassword: FIXTURE_CREDENTIALS.demoPassword,
  workerEnabled: false, logLevel: 'silent', distDir: path.join(work, 'no-dist'), redisUrl: undefined, intakeWriterThread: false, cluster: false,
};

/** Starts the release on `url` (seeding it), stops it, and answers when it seeded and the migrations it applied. */
async function startAndStop(url: string, pgSchema?: string): Promise<{ seededAt: string; migrations: string[] }> {
  const handle = await openDatabase({ url, ...(pgSchema ? { pgSchema } : {}) });
  try {
    const seededAt = new Date().toISOString();
    const app = await build({ config, database: handle, onSeed: () => {} });
    await app.ready();
    await app.close();
    const rows = await handle.db.selectFrom('kysely_migration' as never).select('name' as never).orderBy('name' as never).execute();
    return { seededAt, migrations: (rows as Array<{ name: string }>).map((r) => r.name) };
  } finally {
    await handle.close();
  }
}

const gzipTo = (file: string, data: Buffer) => fs.writeFileSync(file, zlib.gzipSync(data, { level: 9 }));

try {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });

  // SQLite: the file, compacted into one (no -wal beside it).
  const file = path.join(work, 'leadroom.sqlite');
  const sqlite = await startAndStop(file);
  const compact = path.join(work, 'compact.sqlite');
  const db = new Sqlite(file);
  db.prepare('vacuum into ?').run(compact);
  db.close();
  gzipTo(path.join(out, 'leadroom.sqlite.gz'), fs.readFileSync(compact));

  // PostgreSQL: a schema of its own, dumped as plain SQL.
  const schema = releaseSchema(version);
  const dropSchema = async () => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  };
  await dropSchema();
  let postgres: { seededAt: string; migrations: string[] };
  try {
    postgres = await startAndStop(pgUrl, schema);
    const dump = spawnSync(process.env.PG_DUMP ?? 'pg_dump', ['--inserts', '--no-owner', '--no-privileges', `--schema=${schema}`, pgUrl], { maxBuffer: 1 << 30 });
    if (dump.status !== 0) throw new Error(`pg_dump: ${dump.error?.message ?? dump.stderr.toString()}`);
    gzipTo(path.join(out, 'leadroom.pg.sql.gz'), dump.stdout);
  } finally {
    await dropSchema();
  }

  if (sqlite.migrations.join() !== postgres.migrations.join()) throw new Error('SQLite and PostgreSQL applied different migrations');
  const manifest: ReleaseManifest = {
    version, commit, seededAt: sqlite.seededAt, pgSeededAt: postgres.seededAt, pgSchema: schema, migrations: sqlite.migrations,
    ...FIXTURE_CREDENTIALS,
  };
  fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const size = fs.readdirSync(out).reduce((n, f) => n + fs.statSync(path.join(out, f)).size, 0);
  process.stdout.write(`릴리스 ${version} (${commit.slice(0, 7)})의 픽스처를 만들었습니다: ${path.relative(process.cwd(), out)} (${Math.round(size / 1024)} KB, 마이그레이션 ${sqlite.migrations.length}개)\n`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
