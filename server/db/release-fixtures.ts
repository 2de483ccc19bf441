// The databases earlier releases made (server/db/fixtures/releases/<version>/, written by
// `npm run release:fixture`), and how a test opens one as a fresh database of its engine.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { openDatabase, type DbHandle } from './dialect.ts';

export const RELEASES_DIR = path.join(import.meta.dirname, 'fixtures', 'releases');

/** The logins and landing secret of every release fixture: test data, kept with the fixture. */
export const FIXTURE_CREDENTIALS = {
  adminLogin: 'admin',
  adminPassword: 'Release-admin-2026!',
  /** Every demo account's (manager, marketer, owner, counselor…). */
  demoPassword: 'Release-demo-2026!',
  /** LANDING_SECRET the release ran with: forms of its landings are signed with it. */
  landingSecret: 'leadroom-release-fixture-landing-secret',
} as const;

export interface ReleaseManifest {
  version: string;
  /** The commit whose code made the fixture. */
  commit: string;
  /** When the SQLite database was seeded: its demo data (leads of the last 60 days…) is relative to this moment. */
  seededAt: string;
  /** When the PostgreSQL one was (a moment later). */
  pgSeededAt: string;
  /** The schema the PostgreSQL dump names (a test loads it under a fresh name). */
  pgSchema: string;
  /** The migrations the release had applied, in order. */
  migrations: string[];
  adminLogin: string;
  adminPassword: string;
  demoPassword: string;
  landingSecret: string;
}

/** The schema a release's PostgreSQL fixture is made in: a name no data contains, so the loader may rename it. */
export const releaseSchema = (version: string) => `leadroom_release_${version.replace(/\W/g, '_')}`;

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** Every release fixture, oldest first. */
export function releaseFixtures(): ReleaseManifest[] {
  if (!fs.existsSync(RELEASES_DIR)) return [];
  return fs.readdirSync(RELEASES_DIR)
    .filter((v) => fs.existsSync(path.join(RELEASES_DIR, v, 'manifest.json')))
    .sort(compareVersions)
    .map((v) => JSON.parse(fs.readFileSync(path.join(RELEASES_DIR, v, 'manifest.json'), 'utf8')) as ReleaseManifest);
}

/**
 * A release's PostgreSQL dump, ready to run through `pg` into `schema`: its schema renamed, and
 * psql's meta-commands (pg_dump's `\restrict` lines) dropped — the statements are plain SQL.
 */
function releaseDumpSql(manifest: ReleaseManifest, schema: string): string {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(RELEASES_DIR, manifest.version, 'leadroom.pg.sql.gz'))).toString('utf8');
  return text
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n')
    .replace(new RegExp(`\\b${manifest.pgSchema}\\b`, 'g'), schema);
}

/**
 * A fresh database holding what `manifest`'s release left: SQLite — a copy of its file in a
 * folder of its own; PostgreSQL (`postgresUrl`) — its dump loaded into a new schema. Its close
 * removes the copy or drops the schema. Not migrated: that is the test's.
 */
export async function openReleaseFixture(manifest: ReleaseManifest, postgresUrl?: string): Promise<DbHandle> {
  if (postgresUrl) {
    const pg = (await import('pg')).default;
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const run = async (query: string) => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      try {
        await c.query(query);
      } finally {
        await c.end();
      }
    };
    await run(releaseDumpSql(manifest, schema));
    const handle = await openDatabase({ url: postgresUrl, pgSchema: schema, poolSize: 4 });
    return {
      ...handle,
      async close() {
        await handle.close();
        await run(`drop schema if exists "${schema}" cascade`);
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `leadroom-release-${manifest.version}-`));
  const file = path.join(dir, 'leadroom.sqlite');
  fs.writeFileSync(file, zlib.gunzipSync(fs.readFileSync(path.join(RELEASES_DIR, manifest.version, 'leadroom.sqlite.gz'))));
  const handle = await openDatabase({ url: file });
  return {
    ...handle,
    async close() {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
