import type { Kysely } from 'kysely';
import type { Database, DenyRuleRow } from '../../db/schema.ts';
import { denyRulesRepository, type DenyRuleFields } from './deny-rules.repository.ts';
import { badRequest, conflict, foundOr404 } from '../../lib/errors.ts';
import { uniqueOr409 } from '../../db/write-conflicts.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { itemsOf } from '../../db/paging.ts';
import { ruleMatchesIp, type DenyRule, type DenyRuleInput } from '../../../contracts/deny-rules.ts';
import type { DenyRuleListQuery } from '../../../contracts/deny-rules.ts';

const DUPLICATE = '같은 대상에 같은 차단 규칙이 이미 있습니다.';

function toDenyRule(r: DenyRuleRow): DenyRule {
  return {
    id: r.id, kind: r.kind, value: r.value, scope: r.scope, reason: r.reason, expiresAt: r.expires_at, hits: Number(r.hits),
    lastHitAt: r.last_hit_at, createdBy: r.created_by, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export function denyRulesService(db: Kysely<Database>, clock: Clock) {
  const repo = denyRulesRepository(db);

  const get = async (id: number) => toDenyRule(await foundOr404(repo.find(id), '차단 규칙을 찾을 수 없습니다.'));

  /** Checks the rule and gives its columns; expiry is stored in UTC so the matcher can compare strings. */
  async function fields(input: DenyRuleInput, actor: Actor, selfId?: number): Promise<DenyRuleFields> {
    const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null;
    const now = clock().toISOString();
    if (selfId === undefined && expiresAt && expiresAt <= now) {
      throw badRequest('만료 일시는 지금 이후여야 합니다.', { expiresAt: '만료 일시는 지금 이후여야 합니다.' });
    }
    const same = await repo.findSame(input);
    if (same && same.id !== selfId) throw conflict(DUPLICATE, { value: DUPLICATE });
    const live = !expiresAt || expiresAt > now;
    if (input.scope === 'backoffice-login' && live && ruleMatchesIp(input, actor.ip)) {
      const message = '지금 접속 중인 IP가 포함되어 있어 차단하면 로그인할 수 없게 됩니다.';
      throw conflict(message, { value: message });
    }
    return { kind: input.kind, value: input.value, scope: input.scope, reason: input.reason, expires_at: expiresAt };
  }

  const unique = <T>(write: () => Promise<T>) => uniqueOr409(write, 'value', DUPLICATE);

  return {
    list: async (f: DenyRuleListQuery) => itemsOf(await repo.list(f), toDenyRule),
    get,

    async create(input: DenyRuleInput, actor: Actor) {
      const row = await fields(input, actor);
      const at = clock();
      const now = at.toISOString();
      const id = await inTransaction(db, async (trx) => {
        const { id } = await unique(() => denyRulesRepository(trx).insert({ ...row, created_by: actor.loginId, created_at: now, updated_at: now }));
        await auditBy(trx, actor, { action: 'deny-rule.create', target: 'deny-rule', targetId: id, detail: row }, at);
        return id;
      });
      return get(id);
    },

    async update(id: number, input: DenyRuleInput, actor: Actor) {
      await get(id);
      const row = await fields(input, actor, id);
      const at = clock();
      await inTransaction(db, async (trx) => {
        await unique(() => denyRulesRepository(trx).update(id, { ...row, updated_at: at.toISOString() }));
        await auditBy(trx, actor, { action: 'deny-rule.update', target: 'deny-rule', targetId: id, detail: row }, at);
      });
      return get(id);
    },

    async remove(id: number, actor: Actor) {
      const { kind, value, scope } = await get(id);
      await inTransaction(db, async (trx) => {
        await denyRulesRepository(trx).remove(id);
        await auditBy(trx, actor, { action: 'deny-rule.delete', target: 'deny-rule', targetId: id, detail: { kind, value, scope } }, clock());
      });
    },
  };
}
