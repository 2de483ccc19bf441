// A new migration sorts after every migration a live database may have applied: the newest
// release's and main's. Otherwise the databases that did refuse to start after the upgrade.
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, otherSchemaVanished } from './migrate.ts';
import { migrationOrderProblems, migrationsOnMain, renamedAfter } from './migration-order.ts';
import { releaseFixtures } from './release-fixtures.ts';
import { seoulDay } from '../../contracts/kst.ts';

const newestRelease = releaseFixtures().at(-1);
const released = newestRelease && { version: newestRelease.version, migrations: newestRelease.migrations };

describe('migration names', () => {
  it('sort after every migration released or on main, and MIGRATIONS lists them in name order', () => {
    const main = migrationsOnMain();
    const problems = migrationOrderProblems({ listed: MIGRATION_NAMES, released, main: main ?? undefined, today: seoulDay(new Date()) });
    expect(problems, problems.join('\n')).toEqual([]);
    expect(released, 'a release fixture under server/db/fixtures/releases/').toBeDefined();
  });

  it('refuses a migration dated before those already applied, saying what to rename it to', () => {
    // As the walk-through once led to: a migration named for today (2026-11-27), appended, while main had reached 2026-12-01.
    const main = ['2026-11-21-foundation', '2026-11-28-landing-images', '2026-11-29-operations', '2026-11-30-shared-state', '2026-12-01-agency-side'];
    const problems = migrationOrderProblems({
      listed: [...main, '2026-11-27-memo-templates'], main, today: '2026-11-27',
      released: { version: '0.1.0', migrations: main.slice(0, -1) },
    });
    expect(problems).toEqual([
      'server/db/migrate.ts lists 2026-11-27-memo-templates after 2026-12-01-agency-side: keep MIGRATIONS in name order, the order Kysely runs them in.',
      'Migration 2026-11-27-memo-templates sorts before 2026-12-01-agency-side (on main): a database that applied 2026-12-01-agency-side would refuse ' +
        'to start ("corrupted migrations"). Rename 2026-11-27-memo-templates to 2026-12-02-memo-templates, after 2026-12-01-agency-side, ' +
        'in server/db/migrations/ and server/db/migrate.ts.',
    ]);
    // Renamed as told, it passes.
    expect(migrationOrderProblems({ listed: [...main, '2026-12-02-memo-templates'], main, today: '2026-11-27' })).toEqual([]);
  });

  it('measures a branch against the release when main is unknown, and keeps released migrations', () => {
    const release = { version: '0.1.0', migrations: ['2026-11-21-foundation', '2026-11-30-shared-state'] };
    expect(migrationOrderProblems({ listed: ['2026-11-21-foundation', '2026-11-29-late', '2026-11-30-shared-state'], released: release, today: '2026-12-05' }))
      .toEqual([
        'Migration 2026-11-29-late sorts before 2026-11-30-shared-state (applied by release 0.1.0): a database that applied 2026-11-30-shared-state ' +
          'would refuse to start ("corrupted migrations"). Rename 2026-11-29-late to 2026-12-05-late, after 2026-11-30-shared-state, ' +
          'in server/db/migrations/ and server/db/migrate.ts.',
      ]);
    expect(migrationOrderProblems({ listed: ['2026-11-21-foundation'], released: release, today: '2026-12-05' }))
      .toEqual(['Migration 2026-11-30-shared-state was applied by release 0.1.0: it stays in server/db/migrations/ and MIGRATIONS, unchanged (migrations are frozen).']);
    expect(migrationOrderProblems({ listed: ['2026-12-06-Memo_Templates'], today: '2026-12-06' })).toEqual([expect.stringContaining('name it <YYYY-MM-DD>-<what, in kebab-case>')]);
  });

  it('names the renamed migration for today, or the day after the newest when today is not later', () => {
    expect(renamedAfter('2026-11-27-memo', '2026-12-01-agency-side', '2026-11-27')).toBe('2026-12-02-memo');
    expect(renamedAfter('2026-11-27-memo', '2026-12-01-agency-side', '2026-12-01')).toBe('2026-12-02-memo');
    expect(renamedAfter('2026-11-27-memo', '2026-12-01-agency-side', '2026-12-09')).toBe('2026-12-09-memo');
    expect(renamedAfter('2026-12-31-memo', '2026-12-31-agency-side', '2026-12-31')).toBe('2027-01-01-memo');
  });
});

describe('a parallel schema vanishing under the migrator', () => {
  it('is retried for the errors a dropped schema causes, and not for a failure naming our own schema', () => {
    const ours = 't_abc';
    expect(otherSchemaVanished({ code: 'XX000', message: 'cache lookup failed for namespace 958291' }, ours)).toBe(true);
    expect(otherSchemaVanished({ code: '42P01', message: 'relation "x" does not exist' }, ours)).toBe(true);
    expect(otherSchemaVanished({ code: 'XX000', message: 'could not read block 0' }, ours)).toBe(false);
    expect(otherSchemaVanished({ code: '42P01', message: `relation "${ours}.leads" does not exist` }, ours)).toBe(false);
  });
});
