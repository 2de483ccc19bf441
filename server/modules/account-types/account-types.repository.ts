import { sql, type Kysely } from 'kysely';
import type { AccountTypeRow, Database } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import type { AccountTypeListQuery } from '../../../contracts/account-types.ts';

/** Accounts of the type. */
const usage = sql<number>`(select count(*) from accounts a where a.account_type_id = t.id)`;

export function accountTypesRepository(db: Kysely<Database>) {
  const withUsage = () => db.selectFrom('account_types as t').selectAll('t').select(usage.as('usage'));

  return {
    list(f: AccountTypeListQuery) {
      return paginate(withUsage(), f, {
        search: ['t.name'],
        sortable: { name: 't.name', sortOrder: 't.sort_order', createdAt: 't.created_at', usage: 'usage' },
        defaultSort: { column: 't.sort_order' },
        tieBreaker: 't.id',
      });
    },
    all: () => withUsage().orderBy('t.sort_order').orderBy('t.id').execute(),
    find: (id: number) => withUsage().where('t.id', '=', id).executeTakeFirst(),
    findByName: (name: string) => db.selectFrom('account_types').select('id').where('name', '=', name).executeTakeFirst(),
    options: () => db.selectFrom('account_types').select(['id', 'name', 'area', 'side', 'active']).orderBy('sort_order').orderBy('id').execute(),
    insert: (row: Omit<AccountTypeRow, 'id'>) => db.insertInto('account_types').values(row).returning('id').executeTakeFirstOrThrow(),
    update: (id: number, row: Partial<Omit<AccountTypeRow, 'id' | 'builtin_key' | 'created_at'>>) =>
      db.updateTable('account_types').set(row).where('id', '=', id).execute(),
    remove: (id: number) => db.deleteFrom('account_types').where('id', '=', id).execute(),
  };
}
