import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, ReservationStatus, SystemReservationsTable } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import type { SystemReservationListQuery } from '../../../contracts/system-reservations.ts';

export type ReservationRow = Selectable<SystemReservationsTable>;
export type ReservationListRow = ReservationRow & { created_by_name: string | null };
type Changes = Updateable<SystemReservationsTable>;

/** What a reservation's payload column holds (JSON). */
export interface ReservationPayload {
  landingId?: number | null;
  /** The experiment an experiment-stop stops. */
  experimentId?: number | null;
  message?: string | null;
  /** Who sees an announcement; empty: everyone. */
  accountTypeIds?: number[];
  /** The screen an announcement is about: only accounts that can open it see it. */
  screen?: string | null;
}

export const payloadOf = (r: Pick<ReservationRow, 'payload'>): ReservationPayload => JSON.parse(r.payload) as ReservationPayload;

const LIVE: ReservationStatus[] = ['scheduled', 'running'];

export function systemReservationsRepository(db: Kysely<Database>) {
  return {
    list(q: SystemReservationListQuery) {
      const qb = db
        .selectFrom('system_reservations as r')
        .leftJoin('accounts as a', 'a.id', 'r.created_by')
        .selectAll('r')
        .select('a.name as created_by_name');
      return paginate(qb, q, {
        search: ['r.title'],
        equals: { 'r.kind': q.kind, 'r.status': q.status },
        sortable: { startsAt: 'r.starts_at', createdAt: 'r.created_at', executedAt: 'r.executed_at' },
        defaultSort: { column: 'r.starts_at', desc: true },
        tieBreaker: 'r.id',
      });
    },

    find: (id: number): Promise<ReservationListRow | undefined> =>
      db
        .selectFrom('system_reservations as r')
        .leftJoin('accounts as a', 'a.id', 'r.created_by')
        .selectAll('r')
        .select('a.name as created_by_name')
        .where('r.id', '=', id)
        .executeTakeFirst(),

    insert: (row: Omit<ReservationRow, 'id' | 'status' | 'executed_at' | 'finished_at' | 'result' | 'cancelled_at'>) =>
      db.insertInto('system_reservations').values(row).returning('id').executeTakeFirstOrThrow(),

    /**
     * Changes a reservation only while it is in one of `from` (a conditional update, so of two
     * racing changers — two workers, a worker and a person — exactly one wins). Answers whether it did.
     */
    async transition(id: number, from: readonly ReservationStatus[], changes: Changes): Promise<boolean> {
      const r = await db.updateTable('system_reservations').set(changes).where('id', '=', id).where('status', 'in', [...from]).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Reservations the worker has to act on at `now`: due to start, or under way and due to end. */
    due: (now: string, limit: number) =>
      db
        .selectFrom('system_reservations')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'scheduled'), eb('starts_at', '<=', now)]),
            eb.and([eb('status', '=', 'running'), eb('kind', 'in', ['maintenance', 'announcement']), eb('ends_at', '<=', now)]),
          ]),
        )
        .orderBy('starts_at')
        .orderBy('id')
        .limit(limit)
        .execute(),

    /** Landing open/close runs that started before `before` and never finished (their process died mid-run). */
    stalled: (before: string) =>
      db
        .selectFrom('system_reservations')
        .selectAll()
        .where('status', '=', 'running')
        .where('kind', 'in', ['landing-open', 'landing-close', 'experiment-stop'])
        .where('executed_at', '<', before)
        .execute(),

    /** Maintenance windows due within `horizon` or under way, and announcements up at `now`: what the banner may show. */
    notices: (now: string, horizon: string) =>
      db
        .selectFrom('system_reservations')
        .selectAll()
        .where('status', 'in', LIVE)
        .where('ends_at', '>', now)
        .where((eb) =>
          eb.or([
            eb.and([eb('kind', '=', 'maintenance'), eb('starts_at', '<=', horizon)]),
            eb.and([eb('kind', '=', 'announcement'), eb('starts_at', '<=', now)]),
          ]),
        )
        .orderBy('starts_at')
        .orderBy('id')
        .execute(),

    landings: (ids: readonly number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('landings as l')
            .innerJoin('shops as s', 's.id', 'l.shop_id')
            .select(['l.id', 'l.title', 'l.landing_code', 'l.status', 'l.shop_id', 's.name as shop_name'])
            .where('l.id', 'in', [...ids])
            .execute(),

    experiments: (ids: readonly number[]) =>
      ids.length === 0 ? Promise.resolve([]) : db.selectFrom('landing_experiments').select(['id', 'name', 'landing_id', 'status']).where('id', 'in', [...ids]).execute(),

    /** The experiment's own note of its scheduled stop (what 랜딩 관리 › A/B 실험 shows), kept with the reservation. */
    setExperimentStop: (experimentId: number, stopAt: string | null) =>
      db.updateTable('landing_experiments').set({ stop_at: stopAt }).where('id', '=', experimentId).where('status', '<>', 'stopped').execute(),

    /** Every landing of every shop, by shop and title (the form's picker). */
    allLandings: () =>
      db
        .selectFrom('landings as l')
        .innerJoin('shops as s', 's.id', 'l.shop_id')
        .select(['l.id', 'l.title', 'l.landing_code', 'l.status', 'l.shop_id', 's.name as shop_name'])
        .orderBy('s.name')
        .orderBy('l.title')
        .orderBy('l.id')
        .execute(),

    /** Account types by id (all of them without ids), in their own order. */
    accountTypes: (ids?: readonly number[]) => {
      let qb = db.selectFrom('account_types').select(['id', 'name', 'area', 'active']).orderBy('sort_order').orderBy('id');
      if (ids) qb = qb.where('id', 'in', ids.length ? [...ids] : [0]);
      return qb.execute();
    },
  };
}
