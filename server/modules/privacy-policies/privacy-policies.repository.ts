import { sql, type Kysely } from 'kysely';
import type { Database, PrivacyPolicyRow } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import type { PrivacyPolicyListQuery } from '../../../contracts/privacy.ts';

export type PolicyFields = Pick<PrivacyPolicyRow, 'collector' | 'purpose' | 'items' | 'retention_days' | 'third_parties' | 'officer_name' | 'officer_contact' | 'body'>;

export function privacyPoliciesRepository(db: Kysely<Database>) {
  return {
    list: (shopId: number) => db.selectFrom('privacy_policies').selectAll().where('shop_id', '=', shopId).orderBy('version', 'desc').execute(),
    page(shopId: number, q: PrivacyPolicyListQuery) {
      let qb = db.selectFrom('privacy_policies').selectAll().where('shop_id', '=', shopId);
      if (q.status) qb = qb.where('published_at', q.status === 'draft' ? 'is' : 'is not', null);
      return paginate(qb, q, {
        sortable: { version: 'version', publishedAt: 'published_at', updatedAt: 'updated_at' },
        defaultSort: { column: 'version', desc: true },
      });
    },
    /** The latest published version (what new submissions consent to) and the draft, if any. */
    async currentAndDraft(shopId: number) {
      const current = await db.selectFrom('privacy_policies').selectAll().where('shop_id', '=', shopId).where('published_at', 'is not', null)
        .orderBy('version', 'desc').limit(1).executeTakeFirst();
      const draft = await db.selectFrom('privacy_policies').selectAll().where('shop_id', '=', shopId).where('published_at', 'is', null).executeTakeFirst();
      return { current, draft };
    },
    find: (shopId: number, id: number) =>
      db.selectFrom('privacy_policies').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst(),
    draft: (shopId: number) =>
      db.selectFrom('privacy_policies').select('id').where('shop_id', '=', shopId).where('published_at', 'is', null).executeTakeFirst(),
    async nextVersion(shopId: number) {
      const row = await db.selectFrom('privacy_policies').select(sql<number>`coalesce(max(version), 0)`.as('v')).where('shop_id', '=', shopId).executeTakeFirst();
      return Number(row?.v ?? 0) + 1;
    },
    insert: (row: PolicyFields & { shop_id: number; version: number; created_by: number; created_at: string; updated_at: string }) =>
      db.insertInto('privacy_policies').values({ ...row, published_at: null }).returning('id').executeTakeFirstOrThrow(),
    update: (id: number, row: Partial<PolicyFields> & { updated_at: string; published_at?: string }) =>
      db.updateTable('privacy_policies').set(row).where('id', '=', id).execute(),
    remove: (id: number) => db.deleteFrom('privacy_policies').where('id', '=', id).where('published_at', 'is', null).execute(),
    /** Landings that follow the shop's latest policy: their pages change with it. */
    async bumpFollowingLandings(shopId: number, now: string): Promise<number[]> {
      const rows = await db
        .updateTable('landings')
        .set({ version: sql<number>`version + 1`, updated_at: now })
        .where('shop_id', '=', shopId)
        .where('privacy_policy_version_id', 'is', null)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },
  };
}
