import type { Insertable, Kysely } from 'kysely';
import type { AccessEventsTable, AuditEventsTable, Database } from '../../db/schema.ts';

type AuditRow = Insertable<AuditEventsTable>;

/** The administrative audit trail (audit_events) and list-level access to personal data (access_events). */
export function auditRepository(db: Kysely<Database>) {
  return {
    insert: (row: AuditRow) => db.insertInto('audit_events').values(row).execute(),
    insertAccess: (row: Insertable<AccessEventsTable>) => db.insertInto('access_events').values(row).execute(),
  };
}
