import { sql, type Kysely } from 'kysely';
import type { Database, DenyRuleRow } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import type { DenyRuleListQuery, DenyScope } from '../../../contracts/deny-rules.ts';

export type DenyRuleFields = Pick<DenyRuleRow, 'kind' | 'value' | 'scope' | 'reason' | 'expires_at'>;

export function denyRulesRepository(db: Kysely<Database>) {
  return {
    list(f: DenyRuleListQuery) {
      return paginate(db.selectFrom('deny_rules as d').selectAll('d'), f, {
        search: ['d.value', 'd.reason'],
        equals: { 'd.kind': f.kind, 'd.scope': f.scope },
        sortable: { createdAt: 'd.created_at', hits: 'd.hits', expiresAt: 'd.expires_at', kind: 'd.kind' },
        defaultSort: { column: 'd.created_at', desc: true },
        tieBreaker: 'd.id',
      });
    },
    find: (id: number) => db.selectFrom('deny_rules').selectAll().where('id', '=', id).executeTakeFirst(),
    findSame: (r: Pick<DenyRuleRow, 'kind' | 'value' | 'scope'>) =>
      db.selectFrom('deny_rules').select('id').where('kind', '=', r.kind).where('value', '=', r.value).where('scope', '=', r.scope).executeTakeFirst(),
    insert: (row: DenyRuleFields & Pick<DenyRuleRow, 'created_by' | 'created_at' | 'updated_at'>) =>
      db.insertInto('deny_rules').values({ ...row, hits: 0 }).returning('id').executeTakeFirstOrThrow(),
    update: (id: number, row: DenyRuleFields & { updated_at: string }) => db.updateTable('deny_rules').set(row).where('id', '=', id).execute(),
    remove: (id: number) => db.deleteFrom('deny_rules').where('id', '=', id).execute(),

    /** The live (unexpired) rules of a scope: one query; intake loads them once per batch. */
    live: (scope: DenyScope, now: Date) =>
      db
        .selectFrom('deny_rules')
        .selectAll()
        .where('scope', '=', scope)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
        .execute(),
    /** Counts `n` hits on a rule. */
    countHits: (ruleId: number, n: number, now: Date) =>
      db
        .updateTable('deny_rules')
        .set({ hits: sql<number>`hits + ${n}`, last_hit_at: now.toISOString() })
        .where('id', '=', ruleId)
        .execute(),
  };
}
