// The SQL of a shop's API keys: the list, making and revoking one, finding one by its hash and
// noting its last use.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { ApiKeysTable, Database } from '../../db/schema.ts';

export type ApiKeyRow = Awaited<ReturnType<ReturnType<typeof apiKeysRepository>['list']>>[number];

export function apiKeysRepository(db: Kysely<Database>) {
  const rows = () =>
    db
      .selectFrom('api_keys as k')
      .leftJoin('accounts as a', 'a.id', 'k.created_by')
      .select(['k.id', 'k.shop_id', 'k.name', 'k.prefix', 'k.full_phone', 'k.created_at', 'a.name as created_by_name', 'k.last_used_at', 'k.last_used_ip', 'k.revoked_at']);

  return {
    /** The shop's keys: those in use first, newest first. */
    list: (shopId: number) =>
      rows()
        .where('k.shop_id', '=', shopId)
        .orderBy(sql`case when k.revoked_at is null then 0 else 1 end`)
        .orderBy('k.id', 'desc')
        .execute(),

    find: (shopId: number, id: number) => rows().where('k.shop_id', '=', shopId).where('k.id', '=', id).executeTakeFirst(),

    async countActive(shopId: number): Promise<number> {
      const row = await db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('shop_id', '=', shopId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async insert(values: Insertable<ApiKeysTable>): Promise<number> {
      const { id } = await db.insertInto('api_keys').values(values).returning('id').executeTakeFirstOrThrow();
      return Number(id);
    },

    revoke: (id: number, at: string) => db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute(),

    /** A key by its hash (the unique api_keys_hash_idx), with whether its shop is in service. */
    byHash: (keyHash: string) =>
      db
        .selectFrom('api_keys as k')
        .innerJoin('shops as s', 's.id', 'k.shop_id')
        .select(['k.id', 'k.shop_id', 'k.name', 'k.prefix', 'k.full_phone', 'k.last_used_at', 'k.revoked_at', 's.status as shop_status'])
        .where('k.key_hash', '=', keyHash)
        .executeTakeFirst(),

    /** Notes a use, unless one was noted since `staleBefore` (a pull loop stays a read). */
    touch: (id: number, at: string, ip: string, staleBefore: string) =>
      db
        .updateTable('api_keys')
        .set({ last_used_at: at, last_used_ip: ip })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
        .execute(),
  };
}
