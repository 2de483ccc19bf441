// The delivery outbox: manual entry and imports write their leads' delivery jobs in the same
// transaction (a same-transaction step of the leads module's insertAccepted, through
// delivery.entry.ts); intake's leads get theirs a moment after their batch commits, for many
// batches at once (the leads module's followUpLeads: a cursor in commit order, so each lead gets
// them exactly once, even after a crash in between). No job without its lead; the delivery worker
// (delivery-worker.ts, run by server/worker/) sends them afterwards. Each enabled
// channel of the lead's shop whose filters match gets one job: an instant channel's is due at
// once, a digest channel's at its next HH:mm (Seoul). The manual send enqueues chosen leads
// here too. Thousands of leads a second come through this step, so it costs one query for a
// whole batch (the shops' enabled channels) and one multi-row insert.
import { v7 as timeOrderedUuid } from 'uuid';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { seoulDay, seoulDayStart, addDays } from '../../../contracts/kst.ts';
import type { JobTrigger } from '../../../contracts/delivery.ts';
import { deliveryOutboxRepository, type NewJob, type OutboxChannel } from './outbox.repository.ts';

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The first instant after `now` that is `hhmm` in Seoul (a digest's next sending); `now` when hhmm is not a time. */
export function nextDigestAt(hhmm: string | null, now: Date): Date {
  const m = HHMM.exec(hhmm ?? '');
  if (!m) return now;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  const today = seoulDay(now);
  const at = new Date(seoulDayStart(today).getTime() + minutes * 60_000);
  return at > now ? at : new Date(seoulDayStart(addDays(today, 1)).getTime() + minutes * 60_000);
}

/** A channel's filters, parsed once per batch. */
interface ChannelRule {
  id: number;
  statuses: Set<string> | null;
  landingIds: Set<number> | null;
  duplicates: boolean;
  dueAt: string;
}

function parseList<T>(json: string): T[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

function ruleOf(c: OutboxChannel, now: Date): ChannelRule {
  const statuses = parseList<string>(c.statuses);
  const landingIds = parseList<number>(c.landing_ids).map(Number);
  return {
    id: c.id,
    statuses: statuses.length ? new Set(statuses) : null,
    landingIds: landingIds.length ? new Set(landingIds) : null,
    duplicates: !!c.include_duplicates,
    dueAt: (c.mode === 'digest' ? nextDigestAt(c.digest_at, now) : now).toISOString(),
  };
}

/** A lead as the outbox sees it (the fields of insertAccepted's written leads it reads). */
export interface OutboxLead {
  lead: { shop_id: number; landing_id?: number | null; cs_status?: string | null };
  leadId: number;
  duplicateOf: number | null;
}

/**
 * Whether a channel delivers a lead: its status as stored at intake (a duplicate's is 중복) is
 * one of the channel's statuses (none chosen: all), its landing one of the channel's landings
 * (none chosen: all), and a duplicate only when the channel includes duplicates.
 */
function matches(r: ChannelRule, l: OutboxLead): boolean {
  if (l.duplicateOf !== null && !r.duplicates) return false;
  if (r.statuses && !r.statuses.has(l.duplicateOf !== null ? '중복' : (l.lead.cs_status ?? '미처리'))) return false;
  if (r.landingIds && (l.lead.landing_id == null || !r.landingIds.has(l.lead.landing_id))) return false;
  return true;
}

function job(shopId: number, channelId: number, leadId: number, dueAt: string, nowIso: string, o: { trigger?: JobTrigger; reason?: string | null; by?: number | null } = {}): NewJob {
  return {
    shop_id: shopId, channel_id: channelId, lead_id: leadId, status: 'pending', trigger: o.trigger ?? 'intake', reason: o.reason ?? null, attempts: 0,
    next_attempt_at: dueAt, lease_until: null, claimed_by: null, idempotency_key: timeOrderedUuid(), last_error: null, response_code: null,
    delivered_at: null, created_by: o.by ?? null, created_at: nowIso, updated_at: nowIso,
  };
}

/** The delivery jobs of leads written in `trx` (a same-transaction step) or just before it (intake's follow-ups); answers how many. */
export async function writeDeliveryJobs(trx: Transaction<Database>, leads: readonly OutboxLead[], now: Date): Promise<number> {
  if (!leads.length) return 0;
  const repo = deliveryOutboxRepository(trx);
  const channels = await repo.enabledChannels([...new Set(leads.map((l) => l.lead.shop_id))]);
  if (!channels.length) return 0;
  const byShop = new Map<number, ChannelRule[]>();
  for (const c of channels) {
    const list = byShop.get(c.shop_id) ?? [];
    list.push(ruleOf(c, now));
    byShop.set(c.shop_id, list);
  }
  const nowIso = now.toISOString();
  const jobs: NewJob[] = [];
  for (const l of leads) {
    for (const r of byShop.get(l.lead.shop_id) ?? []) if (matches(r, l)) jobs.push(job(l.lead.shop_id, r.id, l.leadId, r.dueAt, nowIso));
  }
  if (jobs.length) await repo.insertJobs(jobs);
  return jobs.length;
}

/** Chosen leads to send to one channel now (the manual send). */
export interface DeliveryRequest {
  shopId: number;
  channelId: number;
  leadIds: readonly number[];
  trigger: Exclude<JobTrigger, 'test'>;
  /** Why they are sent (the history shows it). */
  reason: string | null;
  /** Who asked (the jobs' created_by). */
  accountId: number | null;
}

/**
 * Enqueues a job per chosen lead of the shop for `channelId`, due now whatever the channel's
 * mode (the filters are not applied: the leads were chosen), in `trx`. Deleted and destroyed
 * leads, and ids not of the shop, are skipped. Answers the jobs' ids in the order of the leads.
 */
export async function enqueueDeliveries(trx: Kysely<Database>, r: DeliveryRequest, now: Date): Promise<number[]> {
  const repo = deliveryOutboxRepository(trx);
  const channel = await repo.channel(r.shopId, r.channelId);
  if (!channel) throw notFound('전송 채널을 찾을 수 없습니다.');
  if (!channel.enabled) throw badRequest('꺼진 채널로는 보낼 수 없습니다. 채널을 켠 뒤 다시 보내세요.', { channelId: '꺼진 채널입니다.' });
  const ids = [...new Set(r.leadIds)];
  if (!ids.length) return [];
  const live = await repo.liveLeadIds(r.shopId, ids);
  const nowIso = now.toISOString();
  const jobs = ids.filter((id) => live.has(id)).map((leadId) => job(r.shopId, r.channelId, leadId, nowIso, nowIso, { trigger: r.trigger, reason: r.reason, by: r.accountId }));
  return jobs.length ? repo.insertJobsReturning(jobs) : [];
}
