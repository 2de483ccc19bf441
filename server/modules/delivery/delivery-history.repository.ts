// The SQL of DB 전송 and DB 전송 이력: the shop's channels for the picker, the leads a send takes,
// how a send's jobs stand, the attempts and the jobs as lists, and what a retry may take.
// (The jobs themselves are written by the leads module's outbox and sent by the worker.)
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { paginate, textMatch } from '../../db/paging.ts';
import type { DeliveryHistoryQuery, DeliveryJobsQuery } from '../../../contracts/delivery-history.ts';
import type { JobStatus } from '../../../contracts/delivery.ts';

/** Ids one `in (…)` list holds at most (far below both engines' parameter limits). */
const CHUNK = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** Whose leads the asker sees: all of the shop's, or (an 'assigned' type) only those assigned to it. */
export interface LeadScope {
  accountId: number;
  scope: 'all' | 'assigned';
}

/** The digits of a phone search (three or more, nothing but digits, spaces and dashes), else null. */
export function phoneDigits(q: string): string | null {
  if (!/^[\d\s-]+$/.test(q)) return null;
  const d = q.replace(/\D/g, '');
  return d.length >= 3 ? d : null;
}

export type HistoryFilter = Omit<DeliveryHistoryQuery, 'from' | 'to'> & { fromIso?: string; toIso?: string };
export type JobsFilter = Omit<DeliveryJobsQuery, 'status'> & { status: readonly JobStatus[] };

const LEAD_COLUMNS = ['l.name as lead_name', 'l.phone as lead_phone', 'l.deleted_at as lead_deleted_at', 'l.purged_at as lead_purged_at'] as const;
const CHANNEL_COLUMNS = ['c.name as channel_name', 'c.kind as channel_kind'] as const;

export function deliveryHistoryRepository(db: Kysely<Database>) {
  /** A lead search: a name ("contains"), or phone digits (its end, through the indexed last four). */
  const leadSearch = (q: string): Expression<SqlBool> => {
    const digits = phoneDigits(q);
    if (!digits) return textMatch(['l.name'], q);
    return digits.length >= 4
      ? sql<SqlBool>`(${sql.ref('l.phone_last4')} = ${digits.slice(-4)} and ${sql.ref('l.phone')} like ${`%${digits}`})`
      : sql<SqlBool>`${sql.ref('l.phone')} like ${`%${digits}`}`;
  };

  return {
    channels: (shopId: number) =>
      db.selectFrom('delivery_channels').select(['id', 'name', 'kind', 'mode', 'enabled', 'disabled_reason'])
        .where('shop_id', '=', shopId).orderBy('enabled', 'desc').orderBy('name').orderBy('id').execute(),

    channel: (shopId: number, id: number) =>
      db.selectFrom('delivery_channels').select(['id', 'name', 'kind', 'enabled', 'disabled_reason'])
        .where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst(),

    /** The shop's leads among `ids` in the asker's scope, deleted ones too (a send says how many it left out). */
    async leads(shopId: number, who: LeadScope, ids: readonly number[]) {
      const out: Array<{ id: number; duplicate_of: number | null; deleted_at: string | null }> = [];
      for (const part of chunks([...new Set(ids)])) {
        let qb = db.selectFrom('leads').select(['id', 'duplicate_of', 'deleted_at']).where('shop_id', '=', shopId).where('id', 'in', part);
        if (who.scope === 'assigned') qb = qb.where('assignee_id', '=', who.accountId);
        out.push(...(await qb.execute()));
      }
      return out;
    },

    /** The shop's jobs among `ids`, counted by status and by whether they were attempted yet. */
    async progress(shopId: number, ids: readonly number[]) {
      const out: Array<{ status: JobStatus; tried: number; n: number }> = [];
      for (const part of chunks(ids)) {
        const rows = await db
          .selectFrom('delivery_jobs')
          .select(['status', sql<number>`case when attempts > 0 then 1 else 0 end`.as('tried'), sql<number>`count(*)`.as('n')])
          .where('shop_id', '=', shopId)
          .where('id', 'in', part)
          .groupBy(['status', sql`case when attempts > 0 then 1 else 0 end`])
          .execute();
        out.push(...rows.map((r) => ({ status: r.status, tried: Number(r.tried), n: Number(r.n) })));
      }
      return out;
    },

    /** The shop's jobs not delivered and not given up, by status. */
    openCounts: (shopId: number) =>
      db.selectFrom('delivery_jobs').select(['status', sql<number>`count(*)`.as('n')])
        .where('status', 'in', ['pending', 'sending', 'failed']).where('shop_id', '=', shopId).groupBy('status').execute(),

    latestAttemptId: async (shopId: number) =>
      (await db.selectFrom('delivery_attempts').select('id').where('shop_id', '=', shopId).orderBy('at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst())?.id ?? null,

    /** A page of the shop's attempts with their lead, channel and job. */
    history(shopId: number, who: LeadScope, f: HistoryFilter) {
      let qb = db
        .selectFrom('delivery_attempts as a')
        .innerJoin('delivery_jobs as j', 'j.id', 'a.job_id')
        .innerJoin('leads as l', 'l.id', 'a.lead_id')
        .innerJoin('delivery_channels as c', 'c.id', 'a.channel_id')
        .where('a.shop_id', '=', shopId);
      if (f.fromIso) qb = qb.where('a.at', '>=', f.fromIso);
      if (f.toIso) qb = qb.where('a.at', '<', f.toIso);
      if (f.jobIds) qb = qb.where('a.job_id', 'in', f.jobIds);
      if (f.channelId !== undefined) qb = qb.where('a.channel_id', '=', f.channelId);
      if (f.leadId !== undefined) qb = qb.where('a.lead_id', '=', f.leadId);
      if (f.status) qb = qb.where('a.status', '=', f.status);
      if (f.jobStatus) qb = qb.where('j.status', '=', f.jobStatus);
      if (f.trigger) qb = qb.where('j.trigger', '=', f.trigger);
      if (f.q) qb = qb.where(leadSearch(f.q));
      if (who.scope === 'assigned') qb = qb.where('l.assignee_id', '=', who.accountId);
      const rows = qb.select([
        'a.id', 'a.at', 'a.job_id', 'a.lead_id', 'a.channel_id', 'a.attempt', 'a.status', 'a.response_code', 'a.error', 'a.duration_ms',
        'j.trigger', 'j.status as job_status', ...LEAD_COLUMNS, ...CHANNEL_COLUMNS,
      ]);
      return paginate(rows, { ...f, q: undefined }, {
        sortable: { at: 'a.at', durationMs: 'a.duration_ms', attempt: 'a.attempt' },
        defaultSort: { column: 'a.at', desc: true },
        tieBreaker: 'a.id',
      });
    },

    /** A page of the shop's jobs with their lead, channel and sender. */
    jobs(shopId: number, who: LeadScope, f: JobsFilter) {
      let qb = db
        .selectFrom('delivery_jobs as j')
        .innerJoin('leads as l', 'l.id', 'j.lead_id')
        .innerJoin('delivery_channels as c', 'c.id', 'j.channel_id')
        .leftJoin('accounts as s', 's.id', 'j.created_by')
        .where('j.shop_id', '=', shopId);
      if (f.status.length) qb = qb.where('j.status', 'in', [...f.status]);
      if (f.jobIds) qb = qb.where('j.id', 'in', f.jobIds);
      if (f.channelId !== undefined) qb = qb.where('j.channel_id', '=', f.channelId);
      if (f.leadId !== undefined) qb = qb.where('j.lead_id', '=', f.leadId);
      if (f.trigger) qb = qb.where('j.trigger', '=', f.trigger);
      if (f.q) qb = qb.where(leadSearch(f.q));
      if (who.scope === 'assigned') qb = qb.where('l.assignee_id', '=', who.accountId);
      const rows = qb.select([
        'j.id', 'j.created_at', 'j.updated_at', 'j.lead_id', 'j.channel_id', 'j.trigger', 'j.reason', 'j.status', 'j.attempts',
        'j.next_attempt_at', 'j.last_error', 'j.response_code', 'j.delivered_at', 'c.enabled as channel_enabled', 's.name as created_by_name',
        ...LEAD_COLUMNS, ...CHANNEL_COLUMNS,
      ]);
      return paginate(rows, { ...f, q: undefined }, {
        sortable: { createdAt: 'j.created_at', updatedAt: 'j.updated_at', nextAttemptAt: 'j.next_attempt_at', attempts: 'j.attempts' },
        defaultSort: { column: 'j.updated_at', desc: true },
        tieBreaker: 'j.id',
      });
    },

    /** The shop's jobs among `ids` with their channel's state (what a retry may take). */
    async retryable(shopId: number, ids: readonly number[]) {
      const out: Array<{ id: number; status: JobStatus; channel_enabled: number; lead_deleted_at: string | null }> = [];
      for (const part of chunks([...new Set(ids)])) {
        out.push(...(await db
          .selectFrom('delivery_jobs as j')
          .innerJoin('delivery_channels as c', 'c.id', 'j.channel_id')
          .innerJoin('leads as l', 'l.id', 'j.lead_id')
          .select(['j.id', 'j.status', 'c.enabled as channel_enabled', 'l.deleted_at as lead_deleted_at'])
          .where('j.shop_id', '=', shopId)
          .where('j.id', 'in', part)
          .execute()));
      }
      return out;
    },
  };
}
