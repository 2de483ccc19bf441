// Administrative audit trail: who changed which setting, from where.
import type { Kysely } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/schema.ts';
import type { AuthContext } from '../plugins/auth.ts';

/** Who is making a change, for rules about oneself and for the audit trail. */
export interface Actor {
  id: number;
  loginId: string;
  accountTypeId: number;
  /** The account's type is the built-in 최고관리자. */
  superadmin: boolean;
  ip: string;
}

export const actorOf = ({ auth, req }: { auth: AuthContext; req: FastifyRequest }): Actor => ({
  id: auth.account.id,
  loginId: auth.account.loginId,
  accountTypeId: auth.account.accountTypeId,
  superadmin: auth.row.builtin_key === 'superadmin',
  ip: req.ip,
});

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

/** audit() for a change `actor` makes. */
export function auditBy(db: Kysely<Database>, actor: Actor, entry: Omit<AuditEntry, 'accountId' | 'ip'>, at: Date): Promise<void> {
  return audit(db, { ...entry, accountId: actor.id, ip: actor.ip }, at);
}
