import { sql, type Kysely } from 'kysely';
import type { Database, ShopRow } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import type { ShopListQuery } from '../../../contracts/shops.ts';

export type ShopFields = Omit<ShopRow, 'id' | 'created_at' | 'updated_at'>;

export function shopsRepository(db: Kysely<Database>) {
  const view = () =>
    db.selectFrom('shops as s').leftJoin('code_items as c', 'c.id', 's.client_type_id').selectAll('s').select('c.name as client_type_name');

  /** Leads per shop (every lead, deleted ones too); shops without leads are absent. */
  async function leadCounts(shopIds: number[]): Promise<Map<number, number>> {
    if (!shopIds.length) return new Map();
    const rows = await db
      .selectFrom('leads')
      .select(['shop_id', sql<number>`count(*)`.as('n')])
      .where('shop_id', 'in', shopIds)
      .groupBy('shop_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.shop_id), Number(r.n)]));
  }

  return {
    list(f: ShopListQuery) {
      return paginate(view(), f, {
        search: ['s.name', 's.shop_code', 's.company_name'],
        equals: { 's.status': f.status, 's.client_type_id': f.clientTypeId },
        sortable: { name: 's.name', shopCode: 's.shop_code', createdAt: 's.created_at', status: 's.status' },
        defaultSort: { column: 's.name' },
        tieBreaker: 's.id',
      });
    },
    find: (id: number) => view().where('s.id', '=', id).executeTakeFirst(),
    findByCode: (shopCode: string) => db.selectFrom('shops').select('id').where('shop_code', '=', shopCode).executeTakeFirst(),
    activeClientType: (id: number) =>
      db.selectFrom('code_items').select('id').where('kind', '=', 'client-type').where('id', '=', id).where('active', '=', 1).executeTakeFirst(),
    leadCounts,
    leadCount: async (shopId: number) => (await leadCounts([shopId])).get(shopId) ?? 0,
    async permissionCount(shopId: number) {
      const row = await db.selectFrom('shop_permissions').select(sql<number>`count(*)`.as('n')).where('shop_id', '=', shopId).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    insert: (row: ShopFields & { created_at: string; updated_at: string }) =>
      db.insertInto('shops').values(row).returning('id').executeTakeFirstOrThrow(),
    update: (id: number, row: Partial<ShopFields> & { updated_at: string }) => db.updateTable('shops').set(row).where('id', '=', id).execute(),
    remove: (id: number) => db.deleteFrom('shops').where('id', '=', id).execute(),
  };
}

export type ShopView = NonNullable<Awaited<ReturnType<ReturnType<typeof shopsRepository>['find']>>>;
