import type { Kysely } from 'kysely';
import type { Database, OperatorSettingsTable } from '../../db/schema.ts';

export type OperatorRow = OperatorSettingsTable;

/** The agency's details: one row, id 1. */
export function operatorRepository(db: Kysely<Database>) {
  return {
    find: () => db.selectFrom('operator_settings').selectAll().where('id', '=', 1).executeTakeFirst(),
    save: (row: Omit<OperatorRow, 'id'>) =>
      db
        .insertInto('operator_settings')
        .values({ id: 1, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute(),
  };
}
