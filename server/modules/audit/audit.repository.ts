import type { Insertable, Kysely } from 'kysely';
import type { AuditEventsTable, Database } from '../../db/schema.ts';

export type AuditRow = Insertable<AuditEventsTable>;

/** The administrative audit trail (audit_events). */
export function auditRepository(db: Kysely<Database>) {
  return {
    insert: (row: AuditRow) => db.insertInto('audit_events').values(row).execute(),
  };
}
