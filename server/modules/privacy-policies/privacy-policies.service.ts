import type { Kysely } from 'kysely';
import type { Database, PrivacyPolicyRow } from '../../db/schema.ts';
import { privacyPoliciesRepository, type PolicyFields } from './privacy-policies.repository.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { inTransaction, isUniqueViolation } from '../../db/dialect-sql.ts';
import type { PrivacyPolicy, PrivacyPolicyInput, PrivacyPolicyListQuery, ThirdParty } from '../../../contracts/privacy.ts';

function toPolicy(r: PrivacyPolicyRow, currentId: number | undefined): PrivacyPolicy {
  return {
    id: r.id, shopId: r.shop_id, version: r.version, status: r.published_at ? 'published' : 'draft', current: r.id === currentId,
    collector: r.collector, purpose: r.purpose, items: r.items, retentionDays: r.retention_days, thirdParties: JSON.parse(r.third_parties) as ThirdParty[],
    officerName: r.officer_name, officerContact: r.officer_contact, body: r.body,
    publishedAt: r.published_at, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

const fieldsOf = (i: PrivacyPolicyInput): PolicyFields => ({
  collector: i.collector, purpose: i.purpose, items: i.items, retention_days: i.retentionDays, third_parties: JSON.stringify(i.thirdParties),
  officer_name: i.officerName, officer_contact: i.officerContact, body: i.body,
});

/** Versioned policies: one draft at a time; a published version never changes; new submissions use the latest. */
export function privacyPoliciesService(db: Kysely<Database>, clock: Clock, changed: (landingIds: number[]) => Promise<void>) {
  const repo = privacyPoliciesRepository(db);

  async function list(shopId: number) {
    const rows = await repo.list(shopId);
    const currentId = rows.find((r) => r.published_at)?.id;
    return rows.map((r) => toPolicy(r, currentId));
  }

  async function get(shopId: number, id: number) {
    const found = (await list(shopId)).find((p) => p.id === id);
    if (!found) throw notFound('개인정보 처리방침을 찾을 수 없습니다.');
    return found;
  }

  async function draftOf(shopId: number, id: number) {
    const p = await get(shopId, id);
    if (p.status !== 'draft') throw conflict('게시된 버전은 바꿀 수 없습니다. 새 버전을 만들어 게시하세요.');
    return p;
  }

  return {
    async list(shopId: number, query: PrivacyPolicyListQuery) {
      const { rows, total } = await repo.page(shopId, query);
      const { current, draft } = await repo.currentAndDraft(shopId);
      const currentId = current?.id;
      return {
        items: rows.map((r) => toPolicy(r, currentId)), total,
        current: current ? toPolicy(current, currentId) : null, draft: draft ? toPolicy(draft, currentId) : null,
      };
    },
    get,
    async options(shopId: number) {
      return {
        items: (await list(shopId))
          .filter((p) => p.status === 'published')
          .map((p) => ({ id: p.id, version: p.version, publishedAt: p.publishedAt!, current: p.current, items: p.items, collector: p.collector })),
      };
    },
    async create(shopId: number, input: PrivacyPolicyInput, actor: Actor) {
      if (await repo.draft(shopId)) throw conflict('작성 중인 초안이 이미 있습니다. 그 초안을 고치거나 게시하세요.');
      const now = clock().toISOString();
      try {
        const id = await inTransaction(db, async (trx) => {
          const r = privacyPoliciesRepository(trx);
          const { id } = await r.insert({ ...fieldsOf(input), shop_id: shopId, version: await r.nextVersion(shopId), created_by: actor.id, created_at: now, updated_at: now });
          await auditBy(trx, actor, { action: 'privacy-policy-create', target: 'privacy-policy', targetId: id, detail: { shopId } }, clock());
          return id;
        });
        return get(shopId, id);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('다른 사용자가 방금 새 버전을 만들었습니다. 다시 시도하세요.');
        throw err;
      }
    },
    async update(shopId: number, id: number, input: PrivacyPolicyInput, actor: Actor) {
      await draftOf(shopId, id);
      await inTransaction(db, async (trx) => {
        await privacyPoliciesRepository(trx).update(id, { ...fieldsOf(input), updated_at: clock().toISOString() });
        await auditBy(trx, actor, { action: 'privacy-policy-update', target: 'privacy-policy', targetId: id }, clock());
      });
      return get(shopId, id);
    },
    async remove(shopId: number, id: number, actor: Actor) {
      await draftOf(shopId, id);
      await inTransaction(db, async (trx) => {
        await privacyPoliciesRepository(trx).remove(id);
        await auditBy(trx, actor, { action: 'privacy-policy-delete', target: 'privacy-policy', targetId: id }, clock());
      });
    },
    /** From now on new submissions consent to this version (landings pinned to another keep theirs). */
    async publish(shopId: number, id: number, actor: Actor) {
      await draftOf(shopId, id);
      const now = clock().toISOString();
      const landingIds = await inTransaction(db, async (trx) => {
        const r = privacyPoliciesRepository(trx);
        await r.update(id, { published_at: now, updated_at: now });
        const ids = await r.bumpFollowingLandings(shopId, now);
        await auditBy(trx, actor, { action: 'privacy-policy-publish', target: 'privacy-policy', targetId: id }, clock());
        return ids;
      });
      await changed(landingIds);
      return get(shopId, id);
    },
  };
}
