// The rule every new migration keeps: its name sorts after every migration a database may already
// have applied — those of the newest release, and those on main (merged, so on someone's database
// soon). Kysely runs migrations in name order and refuses to start on a database that applied a
// later one ("corrupted migrations"); a fresh test database never shows it, so this check does.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

interface MigrationOrderInput {
  /** MIGRATIONS in server/db/migrate.ts, in the order written. */
  listed: readonly string[];
  /** The migrations the newest release applied (its fixture's manifest). */
  released?: { version: string; migrations: readonly string[] };
  /** The migrations on main, when known. */
  main?: readonly string[];
  /** Today in Seoul (YYYY-MM-DD): a renamed migration takes today's date when that is late enough. */
  today: string;
}

const NAME = /^(\d{4}-\d{2}-\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$/;

const newest = (names: readonly string[]) => [...names].sort().at(-1);

function dayAfter(day: string): string {
  return new Date(new Date(`${day}T00:00:00.000Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
}

/** The name `name` should take to sort after `after`: today's date, or the day after `after`'s if that is later. */
export function renamedAfter(name: string, after: string, today: string): string {
  const what = NAME.exec(name)?.[2] ?? name;
  const next = dayAfter(after.slice(0, 10));
  return `${today > after.slice(0, 10) ? today : next}-${what}`;
}

/** What is wrong with the migrations' names and order, each with what to do; empty when nothing is. */
export function migrationOrderProblems(i: MigrationOrderInput): string[] {
  const problems: string[] = [];
  for (const name of i.listed) {
    if (!NAME.test(name)) problems.push(`Migration ${name}: name it <YYYY-MM-DD>-<what, in kebab-case>, e.g. ${i.today}-memo-templates.`);
  }
  for (let k = 1; k < i.listed.length; k++) {
    if (i.listed[k]! <= i.listed[k - 1]!) {
      problems.push(`server/db/migrate.ts lists ${i.listed[k]} after ${i.listed[k - 1]}: keep MIGRATIONS in name order, the order Kysely runs them in.`);
    }
  }
  if (i.released) {
    for (const name of i.released.migrations) {
      if (!i.listed.includes(name)) problems.push(`Migration ${name} was applied by release ${i.released.version}: it stays in server/db/migrations/ and MIGRATIONS, unchanged (migrations are frozen).`);
    }
  }
  for (const name of i.listed) {
    // The latest migration this one must follow: the release's newest unless it was in the release, main's newest unless it is on main.
    const bounds: Array<{ after: string; where: string }> = [];
    const releasedNewest = i.released && newest(i.released.migrations);
    if (releasedNewest && !i.released!.migrations.includes(name)) bounds.push({ after: releasedNewest, where: `applied by release ${i.released!.version}` });
    const mainNewest = i.main && newest(i.main);
    if (mainNewest && !i.main!.includes(name)) bounds.push({ after: mainNewest, where: 'on main' });
    const bound = bounds.sort((a, b) => (a.after < b.after ? 1 : a.after > b.after ? -1 : 0))[0];
    if (bound && name <= bound.after) {
      problems.push(
        `Migration ${name} sorts before ${bound.after} (${bound.where}): a database that applied ${bound.after} would refuse to start ` +
          `("corrupted migrations"). Rename ${name} to ${renamedAfter(name, bound.after, i.today)}, after ${bound.after}, ` +
          'in server/db/migrations/ and server/db/migrate.ts.',
      );
    }
  }
  return problems;
}

/**
 * The migrations on main (the local `main` branch, else `origin/main`), or null where git or
 * such a ref is not available (a tarball, a shallow CI checkout): that part of the check is skipped.
 */
export function migrationsOnMain(root = path.join(import.meta.dirname, '..', '..')): string[] | null {
  for (const ref of ['main', 'origin/main']) {
    try {
      const out = execFileSync('git', ['-C', root, 'ls-tree', '--name-only', ref, '--', 'server/db/migrations/'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const names = out.split('\n').filter((f) => f.endsWith('.ts')).map((f) => path.basename(f, '.ts'));
      if (names.length) return names;
    } catch {
      // not a git checkout, or no such ref: try the next
    }
  }
  return null;
}
