// Landing experiments (A/B variants): all their SQL. See migrations/2026-12-12-landing-experiments.ts.
import { sql, type Kysely } from 'kysely';
import type { Database, LandingExperimentsTable } from '../../db/schema.ts';
import { validLead } from '../../db/valid-leads.ts';

export function experimentsRepository(db: Kysely<Database>) {
  return {
    /** The running experiment of a landing with its variants (the page cache and intake read it). */
    async running(landingId: number) {
      const e = await db
        .selectFrom('landing_experiments')
        .select(['id', 'updated_at'])
        .where('landing_id', '=', landingId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (!e) return null;
      const variants = await db.selectFrom('landing_experiment_variants').select(['key', 'weight', 'content']).where('experiment_id', '=', e.id).orderBy('key').execute();
      return { ...e, variants };
    },

    list: (landingId: number) => db.selectFrom('landing_experiments').selectAll().where('landing_id', '=', landingId).orderBy('id', 'desc').execute(),
    find: (landingId: number, id: number) =>
      db.selectFrom('landing_experiments').selectAll().where('landing_id', '=', landingId).where('id', '=', id).executeTakeFirst(),
    variants: (experimentId: number) =>
      db.selectFrom('landing_experiment_variants').selectAll().where('experiment_id', '=', experimentId).orderBy('key').execute(),
    insert: (row: Omit<LandingExperimentsTable, 'id' | 'started_at' | 'stopped_at' | 'stop_at' | 'winner' | 'results' | 'stopped_by'>) =>
      db.insertInto('landing_experiments').values(row).returning('id').executeTakeFirstOrThrow(),
    insertVariant: (row: { experiment_id: number; key: string; weight: number; content: string | null; created_at: string; updated_at: string }) =>
      db.insertInto('landing_experiment_variants').values(row).execute(),
    deleteVariant: (experimentId: number, key: string) =>
      db.deleteFrom('landing_experiment_variants').where('experiment_id', '=', experimentId).where('key', '=', key).execute(),
    updateVariant: (experimentId: number, key: string, row: { weight?: number; content?: string | null; updated_at: string }) =>
      db.updateTable('landing_experiment_variants').set(row).where('experiment_id', '=', experimentId).where('key', '=', key).execute(),
    /** Conditioned on the status the caller read: two staff acting at once cannot both start or stop it. */
    update: async (id: number, from: LandingExperimentsTable['status'], row: Partial<Omit<LandingExperimentsTable, 'id' | 'landing_id' | 'created_by' | 'created_at'>> & { updated_at: string }) =>
      Number((await db.updateTable('landing_experiments').set(row).where('id', '=', id).where('status', '=', from).executeTakeFirst()).numUpdatedRows),
    // A scheduled stop is a 시스템 예약 (kind experiment-stop, payload { landingId, experimentId }):
    // the reservations job runs it; stop_at notes it on the experiment. Both change together.
    /** The experiment's scheduled stop (a 시스템 예약 still scheduled), if any: few are scheduled at once, matched by payload. */
    async scheduledStop(experimentId: number) {
      const rows = await db.selectFrom('system_reservations').select(['id', 'payload']).where('kind', '=', 'experiment-stop').where('status', '=', 'scheduled').execute();
      return rows.find((r) => (JSON.parse(r.payload) as { experimentId?: number }).experimentId === experimentId) ?? null;
    },
    insertStop: (row: { title: string; starts_at: string; landingId: number; experimentId: number; created_by: number; at: string }) =>
      db
        .insertInto('system_reservations')
        .values({
          kind: 'experiment-stop', title: row.title, starts_at: row.starts_at, ends_at: null, payload: JSON.stringify({ landingId: row.landingId, experimentId: row.experimentId }),
          created_by: row.created_by, created_at: row.at, updated_at: row.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    moveStop: (id: number, startsAt: string, at: string) =>
      db.updateTable('system_reservations').set({ starts_at: startsAt, updated_at: at }).where('id', '=', id).where('status', '=', 'scheduled').execute(),
    cancelStop: (id: number, result: string, at: string) =>
      db.updateTable('system_reservations').set({ status: 'cancelled', cancelled_at: at, updated_at: at, result }).where('id', '=', id).where('status', '=', 'scheduled').execute(),

    /** The landing's own ad spend (광고 현황's rows for it, not a medium's whole) over Seoul days [fromDay, toDay]. */
    landingSpend: async (landingId: number, fromDay: string, toDay: string) =>
      (await db
        .selectFrom('ad_spend')
        .select((eb) => eb.fn.sum<number | null>('spend').as('spend'))
        .where('landing_id', '=', landingId)
        .where('day', '>=', fromDay)
        .where('day', '<=', toDay)
        .executeTakeFirst())?.spend ?? null,

    /** Visits per variant (the beacon's count) over the experiment's life. */
    visits: (experimentId: number) =>
      db
        .selectFrom('visit_variants')
        .select(['variant', sql<number>`sum(count)`.as('visits')])
        .where('experiment_id', '=', experimentId)
        .groupBy('variant')
        .execute(),
    /** Leads per variant, and those that count (not deleted, duplicates, 무효 or returned). */
    leads: (experimentId: number) =>
      db
        .selectFrom('leads as l')
        .select((eb) => [
          'l.variant',
          eb.fn.countAll<number>().as('leads'),
          eb.fn.sum<number>(eb.case().when(validLead(eb)).then(1).else(0).end()).as('valid'),
        ])
        .where('l.experiment_id', '=', experimentId)
        .where('l.deleted_at', 'is', null)
        .groupBy('l.variant')
        .execute(),
  };
}
