// Frozen: a shop's leads by name, so 통합 DB 검색 finds a name's start across twenty shops as a
// range of this index per shop instead of reading every lead (a million) for it. Never edit;
// add a new dated migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('leads_shop_name_idx').on('leads').columns(['shop_id', 'name']).execute();
}
