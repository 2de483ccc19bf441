// Returns (무효 교체): the shop sends back a lead its contract billed, within the contract's
// window and maximum return rate; the agency approves (the lead stops counting, a
// replacement is owed) or rejects it with a reason. Each step is in the lead's own history
// (lead_events, written by the leads module) and in the audit trail, with the change.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { serialTransaction } from '../../db/dialect-sql.ts';
import { itemsOf } from '../../db/paging.ts';
import type { Clock } from '../../lib/clock.ts';
import { conflict, foundOr404 } from '../../lib/errors.ts';
import type { ModuleLinks } from '../../links.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { recordLeadEvent, reviewContractCaps, markReturned } from '../leads/leads.entry.ts';
import { shopContractsRepository, type ContractRow, type ReturnItemRow } from './shop-contracts.repository.ts';
import { computeDays, contractScope, isCounted, lastDayOf } from './figures.ts';
import { periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { returnFits, type ReturnReason, type ReturnStatus } from '../../../contracts/money.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import type { ReturnDecisionInput, ReturnItem, ReturnListQuery, ReturnRequestInput, Returnable } from '../../../contracts/shop-contracts.ts';

const DAY_MS = 86_400_000;
const LEAD_NOT_FOUND = 'DB를 찾을 수 없습니다.';
const RETURN_NOT_FOUND = '반품 요청을 찾을 수 없습니다.';

type Repo = ReturnType<typeof shopContractsRepository>;

function toReturnItem(r: ReturnItemRow): ReturnItem {
  return {
    id: r.id, contractId: r.contract_id, contractName: r.contract_name, leadId: r.lead_id, leadName: r.lead_name, leadPhone: maskPhone(r.lead_phone),
    leadCreatedAt: r.lead_created_at, reason: r.reason as ReturnReason, note: r.note, status: r.status as ReturnStatus,
    requestedByName: r.requested_by_name, requestedAt: r.requested_at, decidedByName: r.decided_by_name, decidedAt: r.decided_at, decisionNote: r.decision_note,
  };
}

/**
 * Whether a lead may be returned at `now`, read on `repo` (the request's own transaction):
 * the contract whose scope holds it, then each rule in the order a person would check them.
 */
async function check(repo: Repo, shopId: number, leadId: number, now: Date): Promise<Returnable & { contractRow: ContractRow | null; leadAssignee: number | null }> {
  const lead = await foundOr404(repo.lead(shopId, leadId), LEAD_NOT_FOUND);
  const day = seoulDay(lead.created_at);
  const candidates = (await repo.contractsAround(shopId, day)).filter((c) => lastDayOf(c) >= day);
  const { landings, media } = await repo.scopes(candidates.map((c) => c.id));
  const covers = (c: ContractRow) => {
    const ls = landings.filter((l) => l.contract_id === c.id).map((l) => l.id);
    const ms = media.filter((m) => m.contract_id === c.id).map((m) => m.id);
    return (!ls.length || (lead.landing_id !== null && ls.includes(lead.landing_id))) && (!ms.length || (lead.media_type_id !== null && ms.includes(lead.media_type_id)));
  };
  const contract = candidates.find(covers) ?? null;
  const history = await repo.returnsOfLead(leadId);
  const currentRow = history.find((r) => r.status !== 'rejected') ?? history[0];
  const current = currentRow ? toReturnItem(await repo.returnItem(currentRow.id)) : null;
  const base = { current, leadAssignee: lead.assignee_id, contractRow: contract };
  if (!contract) {
    return { ...base, contract: null, allowed: false, reason: '이 DB를 집계하는 계약이 없어 반품할 수 없습니다.', deadline: null, returnsSoFar: 0, delivered: 0, rateUsed: null, maxReturnRate: null };
  }

  const ls = landings.filter((l) => l.contract_id === contract.id).map((l) => l.id);
  const ms = media.filter((m) => m.contract_id === contract.id).map((m) => m.id);
  const scope = contractScope(contract, ls, ms)!;
  const d = computeDays(await repo.scopeDays(scope), contract.quantity, contract.daily_cap);
  const counts = await repo.returnCounts([contract.id]);
  const of = (status: string) => Number(counts.find((x) => x.status === status)?.n ?? 0);
  const returnsSoFar = of('approved') + of('requested');
  const delivered = d.valid + d.returned;
  const deadline = new Date(Date.parse(lead.created_at) + contract.return_window_days * DAY_MS).toISOString();
  const figures = {
    contract: { id: contract.id, name: contract.name, returnWindowDays: contract.return_window_days, maxReturnRate: contract.max_return_rate },
    deadline, returnsSoFar, delivered, rateUsed: delivered ? Math.round((returnsSoFar / delivered) * 1000) / 10 : null, maxReturnRate: contract.max_return_rate,
  };
  const refuse = (reason: string) => ({ ...base, ...figures, allowed: false, reason });

  if (history.some((r) => r.status === 'requested')) return refuse('이미 반품을 요청한 DB입니다. 처리 결과를 기다려 주세요.');
  if (history.some((r) => r.status === 'approved') || lead.validity === 'returned') return refuse('이미 반품이 승인된 DB입니다.');
  if (lead.deleted_at) return refuse('삭제된 DB는 반품할 수 없습니다.');
  if (lead.duplicate_of !== null) return refuse('중복 DB는 이미 정산에서 빠져 있어 반품할 수 없습니다.');
  if (lead.validity === 'invalid') return refuse('무효 처리된 DB는 이미 정산에서 빠져 있어 반품할 수 없습니다.');
  if (contract.return_window_days === 0) return refuse('이 계약은 반품을 받지 않습니다 (반품 기간 0일).');
  // Days are 24-hour periods from receipt, not calendar days.
  if (now.toISOString() >= deadline) return refuse(`접수 후 ${contract.return_window_days}일이 지나 반품할 수 없습니다.`);
  const rank = await repo.rankInDay({ ...scope, ...periodInstants(day, day) }, { id: lead.id, createdAt: lead.created_at });
  if (!isCounted(d.rule, day, rank)) return refuse('한도를 넘어 정산되지 않은 DB는 반품할 수 없습니다.');
  if (!returnFits(contract.max_return_rate, delivered, returnsSoFar)) {
    return refuse(`최대 반품률 ${contract.max_return_rate}%를 넘어 더 반품할 수 없습니다. (반품 ${returnsSoFar}건 / 공급 ${delivered}건)`);
  }
  return { ...base, ...figures, allowed: true, reason: null };
}

export function returnsService(db: Kysely<Database>, clock: Clock, links: Pick<ModuleLinks, 'landingsChanged' | 'leadsChanged'>) {
  const repo = shopContractsRepository(db);

  return {
    async list(shopId: number, q: ReturnListQuery, actor: Actor) {
      return itemsOf(await repo.returnsList(shopId, q, actor.scope === 'assigned' ? actor.id : null), toReturnItem);
    },

    async returnable(shopId: number, leadId: number): Promise<Returnable> {
      const { contractRow: _c, leadAssignee: _a, ...r } = await check(repo, shopId, leadId, clock());
      return r;
    },

    async request(shopId: number, leadId: number, input: ReturnRequestInput, actor: Actor): Promise<ReturnItem> {
      const now = clock();
      // Serial per shop: two requests cannot both take the last return the rate allows.
      const id = await serialTransaction(db, `shop-contracts:${shopId}`, async (trx) => {
        const r = shopContractsRepository(trx);
        const verdict = await check(r, shopId, leadId, now);
        if (!verdict.allowed || !verdict.contractRow) throw conflict(verdict.reason ?? '반품할 수 없는 DB입니다.');
        const contract = verdict.contractRow;
        const returnId = await r.insertReturn({
          contract_id: contract.id, shop_id: shopId, lead_id: leadId, reason: input.reason, note: input.note ?? null, status: 'requested',
          requested_by: actor.id, requested_at: now.toISOString(), decided_by: null, decided_at: null, decision_note: null,
        });
        await recordLeadEvent(trx, {
          leadId, shopId, accountId: actor.id, action: 'return-request', before: null, ip: actor.ip,
          after: { returnId, contractId: contract.id, reason: input.reason, ...(input.note ? { note: input.note } : {}) },
        }, now);
        await auditBy(trx, actor, { action: 'return-request', target: 'lead-return', targetId: returnId, detail: { shopId, leadId, contractId: contract.id, reason: input.reason, note: input.note ?? null } }, now);
        return returnId;
      });
      return toReturnItem(await repo.returnItem(id));
    },

    /** Approve: the lead leaves the counts (a replacement is owed) and the contract's caps are reviewed; reject: it stays counted. */
    async decide(shopId: number, id: number, input: ReturnDecisionInput, actor: Actor): Promise<ReturnItem> {
      const now = clock();
      const { changed, lead } = await serialTransaction(db, `shop-contracts:${shopId}`, async (trx) => {
        const r = shopContractsRepository(trx);
        const ret = await foundOr404(r.findReturn(shopId, id), RETURN_NOT_FOUND);
        if (ret.status !== 'requested') throw conflict('이미 처리된 반품 요청입니다.');
        const l = await foundOr404(r.lead(shopId, ret.lead_id), LEAD_NOT_FOUND);
        if (input.approve && (l.deleted_at || l.duplicate_of !== null || l.validity !== 'valid')) {
          throw conflict('그사이 삭제되었거나 무효·중복 처리된 DB라 승인할 수 없습니다. 반려하세요.');
        }
        const status = input.approve ? 'approved' : 'rejected';
        const done = await r.decide(id, { status, decided_by: actor.id, decided_at: now.toISOString(), decision_note: input.note ?? null });
        if (!Number(done.numUpdatedRows)) throw conflict('이미 처리된 반품 요청입니다.');
        const note = input.note ? { note: input.note } : {};
        if (input.approve) {
          await markReturned(trx, l.id, now);
          await recordLeadEvent(trx, {
            leadId: l.id, shopId, accountId: actor.id, action: 'return-approve', ip: actor.ip,
            before: { validity: 'valid' }, after: { validity: 'returned', returnId: id, reason: ret.reason, ...note },
          }, now);
        } else {
          await recordLeadEvent(trx, { leadId: l.id, shopId, accountId: actor.id, action: 'return-reject', ip: actor.ip, before: null, after: { returnId: id, reason: ret.reason, ...note } }, now);
        }
        await auditBy(trx, actor, { action: `return-${input.approve ? 'approve' : 'reject'}`, target: 'lead-return', targetId: id, detail: { shopId, leadId: l.id, contractId: ret.contract_id, note: input.note ?? null } }, now);
        // A return frees the quantity: a landing its cap closed may open again.
        const caps = input.approve ? await reviewContractCaps(trx, ret.contract_id, now, actor.id) : { closed: [], reopened: [] };
        return { changed: [...caps.closed, ...caps.reopened], lead: input.approve ? l : null };
      });
      if (changed.length) await links.landingsChanged(changed);
      if (lead) links.leadsChanged({ shopId, kind: 'changed', leads: [{ id: lead.id, assigneeId: lead.assignee_id }] });
      return toReturnItem(await repo.returnItem(id));
    },
  };
}
