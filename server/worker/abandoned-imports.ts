// Imports nobody ran, as a scheduled job: every five minutes, an import left waiting (never
// started, or failed) an hour after its upload or its failure is cancelled and its uploaded file
// — people's names and phones — deleted, recorded in the shop's access record without an account
// (the data-insertion module's cancelAbandonedImports; each import is claimed by a conditional
// update, so several processes may run it at once). The files live in DATA_DIR/imports: a
// separate worker process shares the web processes' DATA_DIR.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { cancelAbandonedImports } from '../modules/data-insertion/data-insertion.entry.ts';
import { IMPORT_ABANDON_CHECK_MINUTES } from '../../contracts/data-insertion.ts';
import type { Job } from './scheduler.ts';

export function abandonedImportsJob(db: Kysely<Database>, clock: Clock, o: { dataDir: string; onRun?: (ids: number[]) => void }): Job & { run(): Promise<number[]> } {
  return {
    name: 'abandoned-imports',
    everyMs: IMPORT_ABANDON_CHECK_MINUTES * 60_000,
    async run() {
      const ids = await cancelAbandonedImports(db, clock(), o.dataDir);
      if (ids.length) o.onRun?.(ids);
      return ids;
    },
  };
}
