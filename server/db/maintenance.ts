// The maintenance windows the back office's gate checks on every call (plugins/maintenance.ts):
// read once and kept for CACHE_MS per database handle and process, so the hot path costs a
// lookup, not a query. The cache holds every window not yet over and not cancelled, and whether
// one is under way is decided at each call by the app's clock — a window starts and ends on
// time whether or not the worker has marked it running yet. The system-reservations service
// forgets the cache when it changes a window; other processes see the change within CACHE_MS.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

const MAINTENANCE_CACHE_MS = 2000;

interface MaintenanceWindow {
  id: number;
  title: string;
  message: string | null;
  startsAt: string;
  endsAt: string;
}

interface Cached {
  at: number;
  windows: Promise<MaintenanceWindow[]>;
}

const caches = new WeakMap<Kysely<Database>, Cached>();

async function load(db: Kysely<Database>, now: Date): Promise<MaintenanceWindow[]> {
  const rows = await db
    .selectFrom('system_reservations')
    .select(['id', 'title', 'payload', 'starts_at', 'ends_at'])
    .where('kind', '=', 'maintenance')
    .where('status', 'in', ['scheduled', 'running'])
    .where('ends_at', '>', now.toISOString())
    .orderBy('starts_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    message: (JSON.parse(r.payload) as { message?: string | null }).message ?? null,
    startsAt: r.starts_at,
    endsAt: r.ends_at!,
  }));
}

/** Maintenance windows not over and not cancelled, by start (cached; concurrent callers share one read). */
export function maintenanceWindows(db: Kysely<Database>, now: Date): Promise<MaintenanceWindow[]> {
  const cached = caches.get(db);
  if (cached && performance.now() - cached.at < MAINTENANCE_CACHE_MS) return cached.windows;
  const windows = load(db, now);
  caches.set(db, { at: performance.now(), windows });
  // A failed read is not kept: the next call asks again.
  windows.catch(() => {
    if (caches.get(db)?.windows === windows) caches.delete(db);
  });
  return windows;
}

/** The window under way at `now`, if any. */
export const windowAt = (windows: readonly MaintenanceWindow[], now: Date): MaintenanceWindow | undefined => {
  const iso = now.toISOString();
  return windows.find((w) => w.startsAt <= iso && iso < w.endsAt);
};

/** Windows changed in this process: the next call reads them anew. */
export function forgetMaintenanceWindows(db: Kysely<Database>): void {
  caches.delete(db);
}
