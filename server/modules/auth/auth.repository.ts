import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { accountWithType } from '../../db/sessions.ts';

export function authRepository(db: Kysely<Database>) {
  return {
    findAccountByLoginId: (loginId: string) => accountWithType(db).where('a.login_id', '=', loginId).executeTakeFirst(),
    findAccountById: (id: number) => accountWithType(db).where('a.id', '=', id).executeTakeFirst(),

    createSession: (row: Database['sessions']) => db.insertInto('sessions').values(row).execute(),
    deleteSession: (id: string) => db.deleteFrom('sessions').where('id', '=', id).execute(),
    deleteExpiredSessions: (now: string, idleBefore: string) =>
      db.deleteFrom('sessions').where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleBefore)])).execute(),

    /**
     * Counts one failed attempt in the database itself and locks the account on the attempt
     * that reaches `max`, in one statement: parallel guesses cannot read the same count and
     * write it back. Null when the account was not active (already locked, or disabled).
     */
    recordFailure: async (id: number, max: number, lockedUntil: string, now: string) => {
      const reaches = sql<boolean>`failed_logins + 1 >= ${max}`;
      const row = await db
        .updateTable('accounts')
        .set({
          failed_logins: sql<number>`failed_logins + 1`,
          status: sql<'active' | 'locked'>`case when ${reaches} then 'locked' else status end`,
          locked_until: sql<string | null>`case when ${reaches} then ${lockedUntil} else locked_until end`,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('status', '=', 'active')
        .returning(['failed_logins', 'status'])
        .executeTakeFirst();
      return row ? { failedLogins: row.failed_logins, locked: row.status === 'locked' } : null;
    },

    /** A successful login resets the count, unless a lock landed meanwhile (then false). */
    recordSuccess: async (id: number, now: string, ip: string) => {
      const r = await db
        .updateTable('accounts')
        .set({ failed_logins: 0, locked_until: null, last_login_at: now, last_login_ip: ip })
        .where('id', '=', id)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** A lock whose time is up lifts on the next login attempt. */
    liftExpiredLock: (id: number, now: string) =>
      db
        .updateTable('accounts')
        .set({ status: 'active', failed_logins: 0, locked_until: null, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'locked')
        .execute(),

    permittedShops: (accountId: number) =>
      db
        .selectFrom('shops as s')
        .innerJoin('shop_permissions as p', 'p.shop_id', 's.id')
        .select(['s.id', 's.shop_code', 's.name', 's.status'])
        .where('p.account_id', '=', accountId)
        .orderBy('s.name')
        .execute(),

    allShops: () => db.selectFrom('shops').select(['id', 'shop_code', 'name', 'status']).orderBy('name').execute(),

    /** A password the account chose itself: the count of failures and any duty to change it end. */
    updatePassword: (id: number, hash: string, now: string) =>
      db
        .updateTable('accounts')
        .set({ password_hash: hash, password_changed_at: now, must_change_password: 0, failed_logins: 0, updated_at: now })
        .where('id', '=', id)
        .execute(),

    /** Ends every session of an account but `keep` (the one changing its password). */
    deleteOtherSessions: (accountId: number, keep: string | null) =>
      db
        .deleteFrom('sessions')
        .where('account_id', '=', accountId)
        .$if(keep !== null, (q) => q.where('id', '!=', keep!))
        .execute(),
  };
}

