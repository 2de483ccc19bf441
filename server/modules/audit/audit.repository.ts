import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface AuditRow {
  account_id: number | null;
  action: string;
  target: string;
  target_id: string | null;
  detail: string | null;
  ip: string | null;
  at: string;
}

/** The administrative audit trail (audit_events). */
export function auditRepository(db: Kysely<Database>) {
  return {
    insert: (row: AuditRow) => db.insertInto('audit_events').values(row).execute(),
  };
}
