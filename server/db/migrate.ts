import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { dialectOf } from './dialect-sql.ts';
import * as foundation from './migrations/2026-11-21-foundation.ts';
import * as landings from './migrations/2026-11-21-landings.ts';
import * as accountsPassword from './migrations/2026-11-23-accounts-password.ts';
import * as leadWork from './migrations/2026-11-23-lead-work.ts';
import * as privacyCollector from './migrations/2026-11-23-privacy-collector.ts';
import * as trackingTags from './migrations/2026-11-23-tracking-tags.ts';
import * as leadIndexes from './migrations/2026-11-24-lead-indexes.ts';
import * as personalData from './migrations/2026-11-24-personal-data.ts';
import * as dataInsertion from './migrations/2026-11-25-data-insertion.ts';
import * as leadsNameIndex from './migrations/2026-11-25-leads-name-index.ts';
import * as purgeIndexes from './migrations/2026-11-25-purge-indexes.ts';
import * as recordIndexes from './migrations/2026-11-25-record-indexes.ts';
import * as money from './migrations/2026-11-26-money.ts';
import * as delivery from './migrations/2026-11-27-delivery.ts';
import * as landingImages from './migrations/2026-11-28-landing-images.ts';
import * as operations from './migrations/2026-11-29-operations.ts';
import * as sharedState from './migrations/2026-11-30-shared-state.ts';
import * as agencySide from './migrations/2026-12-01-agency-side.ts';
import * as leadFeedCounter from './migrations/2026-12-05-lead-feed-counter.ts';
import * as leanLeadIndexes from './migrations/2026-12-05-lead-indexes.ts';
import * as intakeIndexes from './migrations/2026-12-06-intake-indexes.ts';
import * as recordAccountIndex from './migrations/2026-12-06-record-account-index.ts';
import * as leadFollowUp from './migrations/2026-12-07-lead-follow-up.ts';
import * as speedToLead from './migrations/2026-12-08-speed-to-lead.ts';
import * as counselorAlerts from './migrations/2026-12-09-counselor-alerts.ts';
import * as slaFigures from './migrations/2026-12-11-sla-figures.ts';
import * as landingExperiments from './migrations/2026-12-12-landing-experiments.ts';
import * as variantAttribution from './migrations/2026-12-14-variant-attribution.ts';

/**
 * Migrations in name order (the order Kysely runs them in); file names are dated and frozen, and a
 * new one sorts after every migration already released or on main (migration-order.test.ts).
 */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21-foundation': foundation,
  '2026-11-21-landings': landings,
  '2026-11-23-accounts-password': accountsPassword,
  '2026-11-23-lead-work': leadWork,
  '2026-11-23-privacy-collector': privacyCollector,
  '2026-11-23-tracking-tags': trackingTags,
  '2026-11-24-lead-indexes': leadIndexes,
  '2026-11-24-personal-data': personalData,
  '2026-11-25-data-insertion': dataInsertion,
  '2026-11-25-leads-name-index': leadsNameIndex,
  '2026-11-25-purge-indexes': purgeIndexes,
  '2026-11-25-record-indexes': recordIndexes,
  '2026-11-26-money': money,
  '2026-11-27-delivery': delivery,
  '2026-11-28-landing-images': landingImages,
  '2026-11-29-operations': operations,
  '2026-11-30-shared-state': sharedState,
  '2026-12-01-agency-side': agencySide,
  '2026-12-05-lead-feed-counter': leadFeedCounter,
  '2026-12-05-lead-indexes': leanLeadIndexes,
  '2026-12-06-intake-indexes': intakeIndexes,
  '2026-12-06-record-account-index': recordAccountIndex,
  '2026-12-07-lead-follow-up': leadFollowUp,
  '2026-12-08-speed-to-lead': speedToLead,
  '2026-12-09-counselor-alerts': counselorAlerts,
  '2026-12-11-sla-figures': slaFigures,
  '2026-12-12-landing-experiments': landingExperiments,
  '2026-12-14-variant-attribution': variantAttribution,
};

/** Every migration's name, as MIGRATIONS lists them. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

/**
 * PostgreSQL's invalid_schema_name, undefined_table, undefined_column or a failed catalogue look-up about a schema that is not
 * `ours`: another schema changing under Kysely's catalogue look-up (a parallel test migrating or
 * dropping its own) — "column "landing_id" of relation "leads" does not exist" names no schema.
 * A real failure of one of our migrations fails again on the next attempt and is thrown.
 */
export function otherSchemaVanished(error: unknown, ours: string | undefined): boolean {
  const e = error as { code?: string; message?: string };
  // XX000 "cache lookup failed for namespace …": the catalogue scan met a schema dropped under it.
  const vanished = e?.code === '3F000' || e?.code === '42P01' || e?.code === '42703' || (e?.code === 'XX000' && /cache lookup failed for/.test(e.message ?? ''));
  return vanished && !!ours && !(e.message ?? '').includes(ours);
}

/** Runs the migrations up to and including `target` (the latest when absent). */
async function migrate(db: Kysely<any>, target?: string) {
  // On PostgreSQL Kysely looks for its migration tables in every schema unless told which one:
  // name ours (the first on the search path), so another schema's tables (another app's, a
  // parallel test's) are never taken for ours.
  const schema =
    dialectOf(db) === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const migrator = new Migrator({ db, provider: new StaticProvider(), ...(schema ? { migrationTableSchema: schema } : {}) });
  const run = () => (target ? migrator.migrateTo(target) : migrator.migrateToLatest());
  // Kysely looks for its tables through the catalogue of every schema: another schema dropped at
  // that moment (another app's, a parallel test's) fails the look-up. Ours is unaffected: look again.
  let { error, results } = await run();
  for (let attempt = 1; error && attempt < 5 && otherSchemaVanished(error, schema); attempt++) ({ error, results } = await run());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results;
}

/** A database as an earlier release left it (upgrade tests): the migrations up to `name`. */
export async function migrateUpTo(db: Kysely<any>, name: string): Promise<void> {
  if (!(name in MIGRATIONS)) throw new Error(`no migration ${name}`);
  await migrate(db, name);
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const results = await migrate(db);
  // SQLite plans from the statistics ANALYZE keeps, and nothing else gathers them (PostgreSQL's
  // autovacuum does): without them, or without those of an index a migration just made, it
  // takes a shop's year of leads by created_at for a phone search (240 ms on a million leads)
  // instead of two index probes. optimize analyzes only the tables that need it — never
  // analyzed, a new index, grown a lot — on a sample, so it costs nothing on most starts and
  // about a second on a million leads when it does run.
  if (dialectOf(db) === 'sqlite') await sql`pragma optimize=0x10002`.execute(db);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
