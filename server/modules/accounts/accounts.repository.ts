import { sql, type Kysely } from 'kysely';
import type { AccountUpdateRow, Database, NewAccount } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import type { AccountListQuery } from '../../../contracts/accounts.ts';

const shopCount = sql<number>`(select count(*) from shop_permissions p where p.account_id = a.id)`;

/** An account as the screens show it, with its type's name: never the password hash. */
const VIEW_COLUMNS = [
  'a.id', 'a.login_id', 'a.name', 'a.phone', 'a.email', 'a.account_type_id', 'a.status', 'a.failed_logins',
  'a.locked_until', 'a.last_login_at', 'a.created_at', 'a.updated_at', 't.name as type_name', 't.builtin_key',
] as const;

export function accountsRepository(db: Kysely<Database>) {
  const view = () =>
    db.selectFrom('accounts as a').innerJoin('account_types as t', 't.id', 'a.account_type_id').select(VIEW_COLUMNS).select(shopCount.as('shop_count'));

  return {
    list(f: AccountListQuery) {
      return paginate(view(), f, {
        search: ['a.login_id', 'a.name', 'a.email'],
        equals: { 'a.status': f.status, 'a.account_type_id': f.accountTypeId },
        sortable: { loginId: 'a.login_id', name: 'a.name', lastLoginAt: 'a.last_login_at', createdAt: 'a.created_at', status: 'a.status' },
        defaultSort: { column: 'a.login_id' },
      });
    },
    find: (id: number) => view().where('a.id', '=', id).executeTakeFirst(),
    findByLoginId: (loginId: string) => db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirst(),
    findType: (id: number) =>
      db.selectFrom('account_types').select(['id', 'builtin_key', 'active', 'area']).where('id', '=', id).executeTakeFirst(),
    /** The account the reset script works on: the named one, else the first 최고관리자. */
    findForConsoleReset: (loginId: string | undefined) =>
      view()
        .$if(!!loginId, (q) => q.where('a.login_id', '=', loginId!))
        .$if(!loginId, (q) => q.where('t.builtin_key', '=', 'superadmin').orderBy('a.id'))
        .executeTakeFirst(),
    async existingShopIds(ids: number[]) {
      if (!ids.length) return new Set<number>();
      return new Set((await db.selectFrom('shops').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
    },
    grantShops: (accountId: number, shopIds: number[], now: string) =>
      shopIds.length
        ? db.insertInto('shop_permissions').values(shopIds.map((shop_id) => ({ account_id: accountId, shop_id, created_at: now }))).execute()
        : Promise.resolve([]),
    /** Active 최고관리자 accounts other than `exceptId`. */
    async otherActiveSuperadmins(exceptId: number) {
      const row = await db
        .selectFrom('accounts as a')
        .innerJoin('account_types as t', 't.id', 'a.account_type_id')
        .select(sql<number>`count(*)`.as('n'))
        .where('t.builtin_key', '=', 'superadmin')
        .where('a.status', '=', 'active')
        .where('a.id', '<>', exceptId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    insert: (row: NewAccount) => db.insertInto('accounts').values(row).returning('id').executeTakeFirstOrThrow(),
    update: (id: number, row: AccountUpdateRow) => db.updateTable('accounts').set(row).where('id', '=', id).execute(),
    deleteSessions: (accountId: number) => db.deleteFrom('sessions').where('account_id', '=', accountId).execute(),
  };
}

export type AccountView = NonNullable<Awaited<ReturnType<ReturnType<typeof accountsRepository>['find']>>>;
