import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { shopPermissionsRepository, type PermissionAccount } from './shop-permissions.repository.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import type { ShopPermissionRow } from '../../../contracts/shop-permissions.ts';
import type { ShopPermissionListQuery } from '../../../contracts/shop-permissions.ts';

export function shopPermissionsService(db: Kysely<Database>, clock: Clock) {
  const repo = shopPermissionsRepository(db);

  async function withShops(accounts: PermissionAccount[]): Promise<ShopPermissionRow[]> {
    const byAccount = new Map<number, number[]>();
    for (const r of await repo.shopIdsOf(accounts.map((a) => a.id))) {
      byAccount.set(r.account_id, [...(byAccount.get(r.account_id) ?? []), r.shop_id]);
    }
    return accounts.map((a) => ({
      accountId: a.id, loginId: a.login_id, name: a.name, accountTypeName: a.type_name, area: a.area, shopIds: byAccount.get(a.id) ?? [],
    }));
  }

  async function get(accountId: number) {
    const account = await repo.findAccount(accountId);
    if (!account) throw notFound('계정을 찾을 수 없습니다.');
    return (await withShops([account]))[0]!;
  }

  return {
    async list(f: ShopPermissionListQuery) {
      const { rows, total } = await repo.list(f);
      return { items: await withShops(rows), total };
    },

    async update(accountId: number, shopIds: number[], actor: Actor) {
      const before = await get(accountId);
      const ids = [...new Set(shopIds)].sort((a, b) => a - b);
      const existing = await repo.existingShopIds(ids);
      const unknown = ids.filter((id) => !existing.has(id));
      if (unknown.length) {
        const message = `존재하지 않는 업체가 포함되어 있습니다 (ID ${unknown.slice(0, 10).join(', ')}).`;
        throw badRequest(message, { shopIds: message });
      }
      const at = clock();
      const added = ids.filter((id) => !before.shopIds.includes(id));
      const removed = before.shopIds.filter((id) => !ids.includes(id));
      await inTransaction(db, async (trx) => {
        await shopPermissionsRepository(trx).replace(accountId, ids, at.toISOString());
        await auditBy(trx, actor, { action: 'shop-permission.update', target: 'account', targetId: accountId, detail: { loginId: before.loginId, added, removed } }, at);
      });
      return get(accountId);
    },

    shops: async () => ({
      items: (await repo.shops()).map((s) => ({ id: s.id, shopCode: s.shop_code, name: s.name, status: s.status })),
    }),
  };
}
