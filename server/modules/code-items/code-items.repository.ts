import { sql, type Kysely } from 'kysely';
import type { CodeItemRow, Database } from '../../db/schema.ts';
import type { CodeKind } from '../../../contracts/code-items.ts';
import { paginate } from '../../db/paging.ts';
import type { CodeItemListQuery } from '../../../contracts/code-items.ts';

/**
 * Every column that refers to a code item, by kind: a referenced item counts as in use and
 * cannot be deleted. A new table that refers to codes adds its column here.
 */
const USAGE: Record<CodeKind, ReadonlyArray<{ table: keyof Database; column: string }>> = {
  'client-type': [{ table: 'shops', column: 'client_type_id' }],
  'media-type': [
    { table: 'landings', column: 'media_type_id' },
    { table: 'leads', column: 'media_type_id' },
    { table: 'ad_spend', column: 'media_type_id' },
    { table: 'cpa_targets', column: 'media_type_id' },
    { table: 'shop_contract_media', column: 'media_type_id' },
  ],
  'event-type': [{ table: 'landings', column: 'event_type_id' }],
};

export function codeItemsRepository(db: Kysely<Database>) {
  const usageExpr = (kind: CodeKind) => {
    const refs = USAGE[kind];
    if (!refs.length) return sql<number>`0`;
    return sql<number>`(${sql.join(
      refs.map((r) => sql`(select count(*) from ${sql.table(r.table)} u where u.${sql.ref(r.column)} = c.id)`),
      sql` + `,
    )})`;
  };

  return {
    async list(kind: CodeKind, f: CodeItemListQuery) {
      const qb = db.selectFrom('code_items as c').selectAll('c').select(usageExpr(kind).as('usage')).where('c.kind', '=', kind);
      return paginate(qb, f, {
        search: ['c.name', 'c.code'],
        equals: { 'c.active': f.active === undefined ? undefined : Number(f.active) },
        sortable: { name: 'c.name', code: 'c.code', sortOrder: 'c.sort_order', active: 'c.active', createdAt: 'c.created_at', usage: 'usage' },
        defaultSort: { column: 'c.sort_order' },
      });
    },
    find: (kind: CodeKind, id: number) =>
      db.selectFrom('code_items as c').selectAll('c').select(usageExpr(kind).as('usage')).where('c.kind', '=', kind).where('c.id', '=', id).executeTakeFirst(),
    findByField: (kind: CodeKind, field: 'code' | 'name', value: string) =>
      db.selectFrom('code_items').select('id').where('kind', '=', kind).where(field, '=', value).executeTakeFirst(),
    insert: (row: Omit<CodeItemRow, 'id'>) => db.insertInto('code_items').values(row).returning('id').executeTakeFirstOrThrow(),
    update: (id: number, row: Partial<Omit<CodeItemRow, 'id' | 'kind'>>) => db.updateTable('code_items').set(row).where('id', '=', id).execute(),
    remove: (id: number) => db.deleteFrom('code_items').where('id', '=', id).execute(),
    maxSortOrder: async (kind: CodeKind) =>
      Number((await db.selectFrom('code_items').select(sql<number>`coalesce(max(sort_order), -1)`.as('m')).where('kind', '=', kind).executeTakeFirst())?.m ?? -1),
    async reorder(kind: CodeKind, ids: number[], now: string) {
      await db.transaction().execute(async (trx) => {
        for (const [i, id] of ids.entries()) {
          await trx.updateTable('code_items').set({ sort_order: i, updated_at: now }).where('kind', '=', kind).where('id', '=', id).execute();
        }
      });
    },
    options: (kind: CodeKind) =>
      db.selectFrom('code_items').select(['id', 'name', 'code']).where('kind', '=', kind).where('active', '=', 1).orderBy('sort_order').execute(),
  };
}
