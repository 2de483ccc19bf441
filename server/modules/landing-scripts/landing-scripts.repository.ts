import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

interface ScriptColumns {
  tracking_tags: string;
  head_script: string;
  body_script: string;
  conversion_script: string;
}

export function landingScriptsRepository(db: Kysely<Database>) {
  const columns = ['id', 'landing_code', 'title', 'status', 'tracking_tags', 'head_script', 'body_script', 'conversion_script', 'updated_at'] as const;
  return {
    list: (shopId: number) => db.selectFrom('landings').select(columns).where('shop_id', '=', shopId).orderBy('updated_at', 'desc').orderBy('id').execute(),
    find: (shopId: number, id: number) => db.selectFrom('landings').select(columns).where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst(),
    update: (id: number, s: ScriptColumns & { updated_at: string }) =>
      db.updateTable('landings').set({ ...s, version: sql<number>`version + 1` }).where('id', '=', id).execute(),
  };
}
