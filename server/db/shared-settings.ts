// Settings every process of one database must agree on (shared_settings): the first to start
// records its value; the others compare theirs with it.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

interface SharedSetting {
  value: string;
  source: string;
}

export function sharedSettings(db: Kysely<Database>, key: string) {
  const read = () => db.selectFrom('shared_settings').select(['value', 'source']).where('key', '=', key).executeTakeFirst();
  return {
    read,
    /** Records `s` unless a value is there already; answers the value there now (the first process's). */
    async claim(s: SharedSetting, now: Date): Promise<SharedSetting> {
      await db
        .insertInto('shared_settings')
        .values({ key, value: s.value, source: s.source, updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return (await read())!;
    },
    async replace(s: SharedSetting, now: Date): Promise<void> {
      await db.updateTable('shared_settings').set({ value: s.value, source: s.source, updated_at: now.toISOString() }).where('key', '=', key).execute();
    },
  };
}
