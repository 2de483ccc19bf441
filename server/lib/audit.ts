// Administrative audit trail: who changed which setting, from where.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface AuditEntry {
  accountId: number | null;
  action: string;
  target: string;
  targetId?: string | number | null;
  detail?: unknown;
  ip?: string | null;
}

export async function audit(db: Kysely<Database>, entry: AuditEntry, at: Date): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      account_id: entry.accountId,
      action: entry.action,
      target: entry.target,
      target_id: entry.targetId == null ? null : String(entry.targetId),
      detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
      ip: entry.ip ?? null,
      at: at.toISOString(),
    })
    .execute();
}
