// The audit trail: who changed which setting, from where. A service records a change with
// the same transaction (or database handle) it made the change on, so the change and its
// record commit together or not at all. (The personal-data access record, lead_events, is
// written by the leads module with the lead it concerns; access that spans many leads or none —
// an export, a search, an import, reading the record itself — is recordAccess()'s.)
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { auditRepository } from './audit.repository.ts';

/** Who is making a change, for rules about oneself and for the trail; routes hand it to handlers. */
export interface Actor {
  id: number;
  loginId: string;
  accountTypeId: number;
  /** The account's type is the built-in 최고관리자. */
  superadmin: boolean;
  /** Which leads the account's type sees: all of a permitted shop's, or only those assigned to it. */
  scope: 'all' | 'assigned';
  /** The agency's or a client's: a client's responses carry none of the agency's figures. */
  side: 'agency' | 'client';
  /** The type may reveal a lead's phone (each time recorded). */
  canUnmask: boolean;
  canExport: boolean;
  ip: string;
}

interface AuditEntry {
  accountId: number | null;
  action: string;
  target: string;
  targetId?: string | number | null;
  detail?: unknown;
  ip?: string | null;
}

/** Records an entry on `db` (pass the change's transaction). */
export async function audit(db: Kysely<Database>, entry: AuditEntry, at: Date): Promise<void> {
  await auditRepository(db).insert({
    account_id: entry.accountId,
    action: entry.action,
    target: entry.target,
    target_id: entry.targetId == null ? null : String(entry.targetId),
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    ip: entry.ip ?? null,
    at: at.toISOString(),
  });
}

/** audit() for a change `actor` makes. */
export function auditBy(db: Kysely<Database>, actor: Actor, entry: Omit<AuditEntry, 'accountId' | 'ip'>, at: Date): Promise<void> {
  return audit(db, { ...entry, accountId: actor.id, ip: actor.ip }, at);
}

/** List-level access to personal data, recorded in access_events. */
type AccessAction = 'export' | 'search' | 'import' | 'import-cancel' | 'history-export' | 'review' | 'api-pull';

export interface AccessEntry {
  /** The shop whose data was reached; null when none was (a search that found nothing). */
  shopId: number | null;
  action: AccessAction;
  /** How many leads (rows) it reached. */
  rowCount?: number | null;
  /** The reason, the filter, the masked search term … never a phone or a name in clear. */
  detail?: unknown;
}

/**
 * Records list-level access by `actor` on `db` (pass the access's own transaction when it has one);
 * a caller without an account (a shop's API key: its detail names the key) records `id: null`,
 * and a scheduled job without a request `ip: null` too.
 */
export async function recordAccess(db: Kysely<Database>, actor: { id: number | null; ip: string | null }, entry: AccessEntry, at: Date): Promise<void> {
  await auditRepository(db).insertAccess({
    shop_id: entry.shopId,
    account_id: actor.id,
    action: entry.action,
    row_count: entry.rowCount ?? null,
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    ip: actor.ip,
    at: at.toISOString(),
  });
}
