// The session look-up every request passes (plugins/auth.ts, plugins/event-stream.ts): the
// cookie's session and its account with its type, the idle and absolute limits, and whether
// the account may enter a shop. Logging in, out and changing a password stay in modules/auth,
// which starts and ends the sessions this file reads.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { sha256 } from '../lib/password.ts';
import type { Clock } from '../lib/clock.ts';
import { homePath, matrixForSide, type PermissionMatrix } from '../../contracts/permissions.ts';
import type { SessionAccount } from '../../contracts/auth.ts';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
}

/** An account with what its type grants: what a login checks and what a session carries. */
export const accountWithType = (db: Kysely<Database>) =>
  db
    .selectFrom('accounts as a')
    .innerJoin('account_types as t', 't.id', 'a.account_type_id')
    .select([
      'a.id', 'a.login_id', 'a.name', 'a.status', 'a.password_hash', 'a.failed_logins', 'a.locked_until',
      'a.last_login_at', 'a.account_type_id', 'a.must_change_password',
      't.name as type_name', 't.area', 't.side', 't.data_scope', 't.permissions', 't.can_unmask', 't.can_export',
      't.builtin_key', 't.active as type_active',
    ]);

export type AccountWithType = NonNullable<Awaited<ReturnType<ReturnType<typeof accountWithType>['executeTakeFirst']>>>;

export function toSessionAccount(a: AccountWithType): SessionAccount {
  // A client's stored matrix may still name an agency-only screen (written before the side, or by
  // hand): what the account uses is within its side's reach, so its menu never shows one.
  const permissions = matrixForSide(a.side, JSON.parse(a.permissions) as PermissionMatrix);
  return {
    id: a.id,
    loginId: a.login_id,
    name: a.name,
    accountTypeId: a.account_type_id,
    accountTypeName: a.type_name,
    area: a.area,
    side: a.side,
    dataScope: a.data_scope,
    canUnmask: !!a.can_unmask,
    canExport: !!a.can_export,
    permissions,
    home: homePath(a.area, permissions),
    lastLoginAt: a.last_login_at,
    mustChangePassword: !!a.must_change_password,
  };
}

export function sessionStore(db: Kysely<Database>, clock: Clock, policy: SessionPolicy) {
  return {
    /**
     * The live session for a cookie token; null when missing, idle or expired. A person's
     * request touches it (the idle clock starts again); a background refresh does not.
     */
    async resume(token: string, o: { background?: boolean } = {}) {
      const id = sha256(token);
      const s = await accountWithType(db)
        .innerJoin('sessions as s', 's.account_id', 'a.id')
        .select(['s.id as session_id', 's.created_at as session_created_at', 's.last_seen_at', 's.expires_at'])
        .where('s.id', '=', id)
        .executeTakeFirst();
      if (!s) return null;
      const now = clock();
      const idleLimit = new Date(new Date(s.last_seen_at).getTime() + policy.idleMinutes * 60_000);
      if (new Date(s.expires_at) <= now || idleLimit <= now || s.status !== 'active' || !s.type_active) {
        await db.deleteFrom('sessions').where('id', '=', id).execute();
        return null;
      }
      // Touch at most every 30 s: enough precision for a 60-minute idle timeout.
      if (!o.background && now.getTime() - new Date(s.last_seen_at).getTime() > 30_000) {
        await db.updateTable('sessions').set({ last_seen_at: now.toISOString() }).where('id', '=', id).execute();
      }
      return { sessionId: id, account: s };
    },

    hasShopPermission: async (accountId: number, shopId: number) =>
      !!(await db
        .selectFrom('shop_permissions')
        .select('shop_id')
        .where('account_id', '=', accountId)
        .where('shop_id', '=', shopId)
        .executeTakeFirst()),

    shopExists: async (shopId: number) =>
      !!(await db.selectFrom('shops').select('id').where('id', '=', shopId).executeTakeFirst()),
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
