// The SQL of an export besides its leads (which the leads module reads, with the list's own
// filters): the shop's name for the file, and each landing's form fields to label the answers.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function leadExportRepository(db: Kysely<Database>) {
  return {
    shopName: async (shopId: number) => (await db.selectFrom('shops').select('name').where('id', '=', shopId).executeTakeFirst())?.name ?? null,

    /** The shop's landings with their form fields (JSON), deleted ones too: old leads still point at them. */
    landingForms: (shopId: number) => db.selectFrom('landings').select(['id', 'form_fields']).where('shop_id', '=', shopId).execute(),
  };
}
