import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { dialectOf } from './dialect-sql.ts';
import * as foundation from './migrations/2026-11-21-foundation.ts';
import * as landings from './migrations/2026-11-21-landings.ts';
import * as accountsPassword from './migrations/2026-11-23-accounts-password.ts';
import * as trackingTags from './migrations/2026-11-23-tracking-tags.ts';
import * as privacyCollector from './migrations/2026-11-23-privacy-collector.ts';
import * as leadWork from './migrations/2026-11-23-lead-work.ts';

/** Migrations in order; file names are dated and frozen. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21-foundation': foundation,
  '2026-11-21-landings': landings,
  '2026-11-23-accounts-password': accountsPassword,
  '2026-11-23-tracking-tags': trackingTags,
  '2026-11-23-privacy-collector': privacyCollector,
  '2026-11-23-lead-work': leadWork,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // On PostgreSQL Kysely looks for its migration tables in every schema unless told which one:
  // name ours (the first on the search path), so another schema's tables (another app's, a
  // parallel test's) are never taken for ours.
  const schema =
    dialectOf(db) === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const migrator = new Migrator({ db, provider: new StaticProvider(), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
