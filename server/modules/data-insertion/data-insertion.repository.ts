// The SQL of DB 등록: what a lead entered by hand or imported refers to (the shop's landings
// and policy, the media types), and the imports' own rows. Leads themselves are written by the
// leads module (insertAccepted).
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, LeadImportsTable } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import { effectivePolicyId } from '../../db/landing-sql.ts';
import { WAITING_IMPORT_STATUSES } from '../../../contracts/data-insertion.ts';

export function dataInsertionRepository(db: Kysely<Database>) {
  const imports = () =>
    db
      .selectFrom('lead_imports as i')
      .leftJoin('accounts as a', 'a.id', 'i.account_id')
      .select([
        'i.id', 'i.shop_id', 'i.account_id', 'i.file_name', 'i.file_size', 'i.status', 'i.mapping', 'i.consent_basis', 'i.total_rows',
        'i.processed_rows', 'i.imported', 'i.duplicates', 'i.failed', 'i.error', 'i.created_at', 'i.started_at', 'i.finished_at',
        'i.format', 'i.encoding', 'i.headers', 'a.name as account_name',
      ]);

  return {
    /** The shop's landings with what a lead of theirs takes from them. */
    landings: (shopId: number) =>
      db
        .selectFrom('landings as l')
        .select(['l.id', 'l.title', 'l.landing_code', 'l.media_type_id', 'l.form_fields', 'l.duplicate_window_days', effectivePolicyId.as('policy_id')])
        .where('l.shop_id', '=', shopId)
        .orderBy('l.title')
        .execute(),

    mediaTypes: () =>
      db.selectFrom('code_items').select(['id', 'name', 'code']).where('kind', '=', 'media-type').where('active', '=', 1).orderBy('sort_order').orderBy('name').execute(),

    /** The shop's latest published privacy policy (a lead without a landing is told of it). */
    async currentPolicyId(shopId: number): Promise<number | null> {
      const row = await db
        .selectFrom('privacy_policies')
        .select('id')
        .where('shop_id', '=', shopId)
        .where('published_at', 'is not', null)
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.id ?? null;
    },

    leadSummary: (id: number) => db.selectFrom('leads').select(['id', 'name', 'created_at']).where('id', '=', id).executeTakeFirst(),

    accountName: async (id: number) => (await db.selectFrom('accounts').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null,

    insertImport: async (row: Insertable<LeadImportsTable>) => (await db.insertInto('lead_imports').values(row).returning('id').executeTakeFirstOrThrow()).id,

    findImport: (shopId: number, id: number) => imports().where('i.shop_id', '=', shopId).where('i.id', '=', id).executeTakeFirst(),

    listImports: (shopId: number, q: { page: number; pageSize: number; sort?: 'createdAt' | '-createdAt' }) =>
      paginate(imports().where('i.shop_id', '=', shopId), q, {
        sortable: { createdAt: 'i.created_at' },
        defaultSort: { column: 'i.created_at', desc: true },
        tieBreaker: 'i.id',
      }),

    /** Moves an import that is waiting (or failed) to importing; false when it is not (already started elsewhere). */
    async claim(id: number, values: Updateable<LeadImportsTable>): Promise<boolean> {
      const res = await db.updateTable('lead_imports').set({ ...values, status: 'importing' }).where('id', '=', id).where('status', 'in', WAITING_IMPORT_STATUSES).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    updateImport: (id: number, values: Updateable<LeadImportsTable>) => db.updateTable('lead_imports').set(values).where('id', '=', id).execute(),

    /** Imports of a shop importing since before `startedBefore`: failed with `error`. */
    failStale: (shopId: number, startedBefore: string, error: string, at: string) =>
      db
        .updateTable('lead_imports')
        .set({ status: 'failed', error, finished_at: at, imported: 0, duplicates: 0, failed: 0 })
        .where('shop_id', '=', shopId)
        .where('status', '=', 'importing')
        .where('started_at', '<', startedBefore)
        .execute(),

    /** Cancels an import that never ran (or failed); false when it is not waiting (any more). */
    async cancelWaiting(shopId: number, id: number, note: string, at: string): Promise<boolean> {
      const res = await db
        .updateTable('lead_imports')
        .set({ status: 'cancelled', error: note, finished_at: at })
        .where('shop_id', '=', shopId)
        .where('id', '=', id)
        .where('status', 'in', WAITING_IMPORT_STATUSES)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Imports of every shop waiting since before `before` (since their upload, or their failure). */
    abandoned: (before: string) =>
      db
        .selectFrom('lead_imports')
        .select(['id', 'shop_id', 'file_name', 'total_rows'])
        .where('status', 'in', WAITING_IMPORT_STATUSES)
        .where((eb) => eb.fn.coalesce('finished_at', 'created_at'), '<', before)
        .orderBy('id')
        .execute(),
  };
}

export type ImportRow = NonNullable<Awaited<ReturnType<ReturnType<typeof dataInsertionRepository>['findImport']>>>;
export type LandingRow = Awaited<ReturnType<ReturnType<typeof dataInsertionRepository>['landings']>>[number];
