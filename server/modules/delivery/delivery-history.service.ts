// DB 전송 and DB 전송 이력. A manual send takes chosen leads (or every lead the DB 현황 filter
// finds, up to SEND_MATCHING_MAX), leaves out deleted ones and — unless asked — duplicates,
// and writes one job per lead through the leads module's outbox in one transaction with its
// audit entry; the worker delivers them and records each delivery in the lead's access record
// ('deliver'). The lists show names with masked phones: a page that shows any lead is a view of
// personal data and is recorded (access_events 'search'). Progress and the summary carry only
// counts and are not recorded, so a screen may poll them.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ModuleLinks } from '../../links.ts';
import { badRequest, conflict, foundOr404 } from '../../lib/errors.ts';
import { auditBy, recordAccess, type Actor } from '../audit/audit.service.ts';
import { enqueueDeliveries } from './outbox.ts';
import { deliveryJobsRepository } from './delivery-jobs.repository.ts';
import { deliveryHistoryRepository, phoneDigits, type LeadScope } from './delivery-history.repository.ts';
import {
  OPEN_JOB_STATUSES, SEND_MATCHING_MAX,
  type DeliveryAttemptItem, type DeliveryChannelOption, type DeliveryHistoryQuery, type DeliveryJobItem, type DeliveryJobsQuery,
  type DeliveryProgress, type DeliverySendInput, type DeliverySendResult, type DeliverySummary, type RetryInput,
} from '../../../contracts/delivery-history.ts';
import type { DeliveryKind } from '../../../contracts/delivery.ts';
import { addDays, periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import { maskName, maskPhoneDigits } from '../../../contracts/masking.ts';
import { PURGED_NAME } from '../../../contracts/lead-deletion.ts';
import { quoted } from '../../../contracts/korean.ts';

export const CHANNEL_NOT_FOUND = '전송 채널을 찾을 수 없습니다.';
export const NOTHING_TO_SEND = '보낼 DB가 없습니다.';

const scopeOf = (actor: Actor): LeadScope => ({ accountId: actor.id, scope: actor.scope });
const n = (v: number) => v.toLocaleString('ko-KR');

/**
 * Failed or cancelled jobs of the shop among `jobIds` are due again now (their attempts so far
 * kept, a new claim to come); answers how many it set going. Runs in `db` — the caller's
 * transaction when it records the retry with it.
 */
export async function retryJobs(db: Kysely<Database>, shopId: number, jobIds: readonly number[], now: Date): Promise<number> {
  const ids = [...new Set(jobIds)];
  return ids.length ? (await deliveryJobsRepository(db).retry(shopId, ids, now.toISOString())).length : 0;
}

/** A search term as the access record keeps it: no phone, no name in clear. */
function maskedTerm(q: string): string {
  const digits = phoneDigits(q);
  return digits ? maskPhoneDigits(digits) : maskName(q);
}

/** A channel turned off, in a sentence that says why and what to do. */
export function disabledMessage(c: { name: string; disabled_reason: string | null }): string {
  const why = c.disabled_reason ? ` (${c.disabled_reason})` : '';
  return `${quoted(c.name, '은/는')} 사용 중지된 채널입니다${why}. DB 전송 설정에서 다시 켠 뒤 보내세요.`;
}

interface LeadRow {
  lead_id: number;
  lead_name: string;
  lead_phone: string;
  lead_deleted_at: string | null;
  lead_purged_at: string | null;
}

function leadOf(r: LeadRow) {
  const purged = r.lead_purged_at !== null;
  return {
    leadId: r.lead_id,
    leadName: purged ? PURGED_NAME : r.lead_name,
    leadPhone: purged || !r.lead_phone ? '' : maskPhone(r.lead_phone),
    leadDeleted: r.lead_deleted_at !== null,
    leadPurged: purged,
  };
}

export function deliveryHistoryService(db: Kysely<Database>, clock: Clock, links: Pick<ModuleLinks, 'deliveriesQueued' | 'matchingLeads'>) {
  const repo = deliveryHistoryRepository(db);

  /** The period a history request covers: the days asked, by default the last 7; at most a year. */
  function periodOf(q: { from?: string; to?: string }): { from: string; to: string } {
    const today = seoulDay(clock());
    const to = q.to ?? today;
    const from = q.from ?? (q.to ? to : addDays(today, -6));
    if (from > to) throw badRequest('시작일이 종료일보다 늦습니다.', { from: '시작일이 종료일보다 늦습니다.' });
    if (addDays(from, 366) < to) throw badRequest('기간은 1년 이내로 정하세요.', { from: '기간은 1년 이내로 정하세요.' });
    return { from, to };
  }

  /** Records that a page showed leads (names, masked phones); a page showing none reached no one. */
  async function recordView(shopId: number, actor: Actor, list: 'attempts' | 'jobs', rows: number, filter: Record<string, unknown>, page: number) {
    if (!rows) return;
    const shown = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));
    if (typeof shown.q === 'string') shown.q = maskedTerm(shown.q);
    if (Array.isArray(shown.jobIds)) shown.jobIds = shown.jobIds.length;
    await recordAccess(db, actor, { shopId, action: 'search', rowCount: rows, detail: { screen: 'shop-data-deliver-history', list, filter: shown, page } }, clock());
  }

  return {
    async channels(shopId: number): Promise<{ items: DeliveryChannelOption[] }> {
      const rows = await repo.channels(shopId);
      return {
        items: rows.map((c) => ({ id: c.id, name: c.name, kind: c.kind, mode: c.mode, enabled: !!c.enabled, disabledReason: c.disabled_reason })),
      };
    },

    /** Queues the chosen (or filtered) leads to one enabled channel now; audited with the reason. */
    async send(shopId: number, input: DeliverySendInput, actor: Actor): Promise<DeliverySendResult> {
      const now = clock();
      const channel = await foundOr404(repo.channel(shopId, input.channelId), CHANNEL_NOT_FOUND);
      if (!channel.enabled) throw conflict(disabledMessage(channel), { channelId: disabledMessage(channel) });

      let candidates: Array<{ id: number; duplicate_of: number | null; deleted_at: string | null }>;
      if (input.leadIds?.length) {
        candidates = await repo.leads(shopId, scopeOf(actor), input.leadIds);
      } else {
        const found = await links.matchingLeads(shopId, input.filter!, actor, SEND_MATCHING_MAX);
        if (found.total > SEND_MATCHING_MAX) {
          const message = `조건에 맞는 DB가 ${n(found.total)}건입니다. 한 번에 ${n(SEND_MATCHING_MAX)}건까지 보낼 수 있으니 기간이나 조건을 좁히세요.`;
          throw badRequest(message, { leadIds: message });
        }
        candidates = found.leads.map((r) => ({ id: r.id, duplicate_of: r.duplicateOf, deleted_at: null }));
      }
      const deleted = candidates.filter((c) => c.deleted_at !== null).length;
      const duplicates = input.includeDuplicates ? 0 : candidates.filter((c) => c.deleted_at === null && c.duplicate_of !== null).length;
      const leadIds = candidates.filter((c) => c.deleted_at === null && (input.includeDuplicates || c.duplicate_of === null)).map((c) => c.id);
      if (!leadIds.length) {
        const left = [deleted && `삭제된 DB ${n(deleted)}건`, duplicates && `중복 DB ${n(duplicates)}건`].filter(Boolean).join(', ');
        const message = left ? `${NOTHING_TO_SEND} ${left}은 보내지 않습니다.` : NOTHING_TO_SEND;
        throw badRequest(message, { leadIds: message });
      }

      const jobIds = await inTransaction(db, async (trx) => {
        // The outbox checks the channel again inside: one turned off meanwhile takes no new jobs.
        const ids = await enqueueDeliveries(trx, { shopId, channelId: channel.id, leadIds, trigger: 'manual', reason: input.reason, accountId: actor.id }, now);
        await auditBy(trx, actor, {
          action: 'delivery-send', target: 'delivery_channel', targetId: channel.id,
          detail: {
            channel: channel.name, kind: channel.kind, reason: input.reason, queued: ids.length, skipped: { deleted, duplicates },
            includeDuplicates: input.includeDuplicates,
            ...(input.leadIds?.length
              ? { leadIds: input.leadIds.length }
              : { filter: { ...input.filter, ...(input.filter?.q ? { q: maskedTerm(input.filter.q) } : {}) } }),
          },
        }, now);
        return ids;
      });
      if (jobIds.length) links.deliveriesQueued();
      return { queued: jobIds.length, jobIds, skipped: { deleted, duplicates } };
    },

    async progress(shopId: number, jobIds: readonly number[]): Promise<DeliveryProgress> {
      const out: DeliveryProgress = { total: 0, pending: 0, sending: 0, succeeded: 0, failed: 0, cancelled: 0, retrying: 0, untried: 0 };
      for (const r of await repo.progress(shopId, jobIds)) {
        out.total += r.n;
        out[r.status] += r.n;
        if (r.status === 'pending' && r.tried) out.retrying += r.n;
        if ((r.status === 'pending' || r.status === 'sending') && !r.tried) out.untried += r.n;
      }
      return out;
    },

    async summary(shopId: number): Promise<DeliverySummary> {
      const [counts, latestAttemptId] = await Promise.all([repo.openCounts(shopId), repo.latestAttemptId(shopId)]);
      const of = (s: string) => Number(counts.find((c) => c.status === s)?.n ?? 0);
      return { pending: of('pending'), sending: of('sending'), failed: of('failed'), latestAttemptId };
    },

    async history(shopId: number, q: DeliveryHistoryQuery, actor: Actor) {
      const { from, to, ...rest } = q;
      // One send's jobs: all their attempts, whenever they were made.
      const period = q.jobIds ? null : periodOf({ from, to });
      const page = await repo.history(shopId, scopeOf(actor), { ...rest, ...(period ? periodInstants(period.from, period.to) : {}) });
      await recordView(shopId, actor, 'attempts', page.rows.length, { ...rest, ...period, page: undefined, pageSize: undefined, sort: undefined }, q.page);
      return {
        items: page.rows.map((r): DeliveryAttemptItem => ({
          id: r.id, at: r.at, jobId: r.job_id, ...leadOf(r), channelId: r.channel_id, channelName: r.channel_name, channelKind: r.channel_kind as DeliveryKind,
          trigger: r.trigger, status: r.status, responseCode: r.response_code, error: r.error, durationMs: r.duration_ms, attempt: r.attempt,
          jobStatus: r.job_status,
        })),
        total: page.total,
        period,
      };
    },

    async jobs(shopId: number, q: DeliveryJobsQuery, actor: Actor) {
      const status = q.status?.length ? q.status : OPEN_JOB_STATUSES;
      const page = await repo.jobs(shopId, scopeOf(actor), { ...q, status });
      await recordView(shopId, actor, 'jobs', page.rows.length, { ...q, status, page: undefined, pageSize: undefined, sort: undefined }, q.page);
      return {
        items: page.rows.map((r): DeliveryJobItem => ({
          id: r.id, createdAt: r.created_at, updatedAt: r.updated_at, ...leadOf(r),
          channelId: r.channel_id, channelName: r.channel_name, channelKind: r.channel_kind as DeliveryKind, channelEnabled: !!r.channel_enabled,
          trigger: r.trigger, reason: r.reason, createdByName: r.created_by_name, status: r.status, attempts: r.attempts,
          nextAttemptAt: r.next_attempt_at, lastError: r.last_error, responseCode: r.response_code, deliveredAt: r.delivered_at,
        })),
        total: page.total,
      };
    },

    /**
     * Failed or cancelled jobs back to pending, due now. Jobs of a channel that is off, of a
     * deleted lead, or not failed/cancelled (pending, sending, delivered) are left as they are.
     */
    async retry(shopId: number, input: RetryInput, actor: Actor): Promise<{ retried: number; skipped: number }> {
      const now = clock();
      const found = await repo.retryable(shopId, input.jobIds);
      if (!found.length) throw badRequest('다시 보낼 전송을 찾을 수 없습니다.', { jobIds: '다시 보낼 전송을 찾을 수 없습니다.' });
      const eligible = found.filter((j) => (j.status === 'failed' || j.status === 'cancelled') && j.channel_enabled && j.lead_deleted_at === null).map((j) => j.id);
      const offChannel = found.some((j) => (j.status === 'failed' || j.status === 'cancelled') && !j.channel_enabled);
      if (!eligible.length) {
        const message = offChannel
          ? '사용 중지된 채널의 전송은 다시 보낼 수 없습니다. DB 전송 설정에서 채널을 켠 뒤 다시 시도하세요.'
          : '다시 보낼 수 있는 전송이 없습니다. 실패했거나 취소된 전송만 다시 보낼 수 있습니다.';
        throw badRequest(message, { jobIds: message });
      }
      const retried = await inTransaction(db, async (trx) => {
        const count = await retryJobs(trx, shopId, eligible, now);
        await auditBy(trx, actor, { action: 'delivery-retry', target: 'delivery_jobs', targetId: null, detail: { jobIds: eligible, retried: count } }, now);
        return count;
      });
      if (retried) links.deliveriesQueued();
      return { retried, skipped: new Set(input.jobIds).size - retried };
    },
  };
}
