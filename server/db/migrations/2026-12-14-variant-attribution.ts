// Frozen: an experiment's scheduled stop becomes a 시스템 예약 (kind experiment-stop, payload
// { landingId, experimentId }), run by the reservations job like the others (the experiments'
// own stop job is gone). Experiments not stopped whose stop_at was set before this release get
// their reservation here, at the same moment, made by whoever created the experiment;
// landing_experiments.stop_at stays as the experiment's note of it (changed with the reservation).
// The experiment-stop kind needs no schema change: system_reservations.kind is plain text.
// Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const due = await db
    .selectFrom('landing_experiments as e')
    .innerJoin('landings as l', 'l.id', 'e.landing_id')
    .select(['e.id', 'e.landing_id', 'e.name', 'e.stop_at', 'e.created_by', 'l.title'])
    .where('e.status', '<>', 'stopped')
    .where('e.stop_at', 'is not', null)
    .execute();
  const now = new Date().toISOString();
  for (const e of due as Array<{ id: number; landing_id: number; name: string; stop_at: string; created_by: number | null; title: string }>) {
    await db
      .insertInto('system_reservations')
      .values({
        kind: 'experiment-stop', title: `${e.title} · ${e.name} 종료`, starts_at: e.stop_at, ends_at: null,
        payload: JSON.stringify({ landingId: e.landing_id, experimentId: e.id }), status: 'scheduled', created_by: e.created_by, created_at: now, updated_at: now,
      })
      .execute();
  }
}
