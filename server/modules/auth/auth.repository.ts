import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function authRepository(db: Kysely<Database>) {
  const accountWithType = () =>
    db
      .selectFrom('accounts as a')
      .innerJoin('account_types as t', 't.id', 'a.account_type_id')
      .select([
        'a.id', 'a.login_id', 'a.name', 'a.status', 'a.password_hash', 'a.failed_logins', 'a.locked_until',
        'a.last_login_at', 'a.account_type_id',
        't.name as type_name', 't.area', 't.data_scope', 't.permissions', 't.can_unmask', 't.can_export',
        't.builtin_key', 't.active as type_active',
      ]);

  return {
    findAccountByLoginId: (loginId: string) => accountWithType().where('a.login_id', '=', loginId).executeTakeFirst(),
    findAccountById: (id: number) => accountWithType().where('a.id', '=', id).executeTakeFirst(),

    findSession: (id: string) =>
      accountWithType()
        .innerJoin('sessions as s', 's.account_id', 'a.id')
        .select(['s.id as session_id', 's.created_at as session_created_at', 's.last_seen_at', 's.expires_at'])
        .where('s.id', '=', id)
        .executeTakeFirst(),

    createSession: (row: Database['sessions']) => db.insertInto('sessions').values(row).execute(),
    touchSession: (id: string, at: string) => db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute(),
    deleteSession: (id: string) => db.deleteFrom('sessions').where('id', '=', id).execute(),
    deleteExpiredSessions: (now: string, idleBefore: string) =>
      db.deleteFrom('sessions').where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleBefore)])).execute(),

    recordFailure: (id: number, failedLogins: number, lockedUntil: string | null, now: string) =>
      db
        .updateTable('accounts')
        .set({
          failed_logins: failedLogins,
          ...(lockedUntil ? { status: 'locked' as const, locked_until: lockedUntil } : {}),
          updated_at: now,
        })
        .where('id', '=', id)
        .execute(),

    recordSuccess: (id: number, now: string, ip: string) =>
      db
        .updateTable('accounts')
        .set({ failed_logins: 0, locked_until: null, status: 'active', last_login_at: now, last_login_ip: ip })
        .where('id', '=', id)
        .execute(),

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

    hasShopPermission: async (accountId: number, shopId: number) =>
      !!(await db
        .selectFrom('shop_permissions')
        .select('shop_id')
        .where('account_id', '=', accountId)
        .where('shop_id', '=', shopId)
        .executeTakeFirst()),

    shopExists: async (shopId: number) =>
      !!(await db.selectFrom('shops').select('id').where('id', '=', shopId).executeTakeFirst()),

    updatePassword: (id: number, hash: string, now: string) =>
      db.updateTable('accounts').set({ password_hash: hash, password_changed_at: now, updated_at: now }).where('id', '=', id).execute(),
  };
}

export type AuthRepository = ReturnType<typeof authRepository>;
export type AccountWithType = NonNullable<Awaited<ReturnType<AuthRepository['findAccountById']>>>;
