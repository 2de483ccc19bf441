import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import type { ShopPermissionListQuery } from '../../../contracts/shop-permissions.ts';

const CHUNK = 500;

export function shopPermissionsRepository(db: Kysely<Database>) {
  const accounts = () =>
    db
      .selectFrom('accounts as a')
      .innerJoin('account_types as t', 't.id', 'a.account_type_id')
      .select(['a.id', 'a.login_id', 'a.name', 't.name as type_name', 't.area']);

  return {
    list(f: ShopPermissionListQuery) {
      return paginate(accounts(), f, {
        search: ['a.login_id', 'a.name'],
        equals: { 't.area': f.area },
        sortable: { loginId: 'a.login_id', name: 'a.name', accountTypeName: 't.name' },
        defaultSort: { column: 'a.login_id' },
      });
    },
    findAccount: (id: number) => accounts().where('a.id', '=', id).executeTakeFirst(),
    shopIdsOf: (accountIds: number[]) =>
      accountIds.length
        ? db.selectFrom('shop_permissions').select(['account_id', 'shop_id']).where('account_id', 'in', accountIds).orderBy('shop_id').execute()
        : Promise.resolve([]),
    async existingShopIds(ids: number[]) {
      const found: number[] = [];
      for (let i = 0; i < ids.length; i += CHUNK) {
        const rows = await db.selectFrom('shops').select('id').where('id', 'in', ids.slice(i, i + CHUNK)).execute();
        found.push(...rows.map((r) => r.id));
      }
      return new Set(found);
    },
    /** Replaces the account's shop list (run it in the change's transaction). */
    async replace(accountId: number, shopIds: number[], now: string) {
      await db.deleteFrom('shop_permissions').where('account_id', '=', accountId).execute();
      for (let i = 0; i < shopIds.length; i += CHUNK) {
        await db
          .insertInto('shop_permissions')
          .values(shopIds.slice(i, i + CHUNK).map((shop_id) => ({ account_id: accountId, shop_id, created_at: now })))
          .execute();
      }
    },
    shops: () => db.selectFrom('shops').select(['id', 'shop_code', 'name', 'status']).orderBy('name').orderBy('id').execute(),
  };
}

export type PermissionAccount = NonNullable<Awaited<ReturnType<ReturnType<typeof shopPermissionsRepository>['findAccount']>>>;
