// Deleting, restoring and destroying leads (DB 삭제, 삭제 DB 관리, the automatic purge). A
// deletion only hides a lead: it leaves every list, search, statistic and allocation, keeps who
// deleted it and why, and can be undone until the lead is destroyed. A destruction is for good:
// the lead's personal fields are overwritten, the free text of its events (memos, reasons) is
// scrubbed and the visitor's address forgotten; its id, its events' actions, times and staff
// stay, and a destruction record without personal data says when, why, by whom and how many.
// Each change commits together with its lead events (and its destruction record).
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, LeadEventsTable } from '../../db/schema.ts';
import { inTransaction, serialTransaction } from '../../db/dialect-sql.ts';
import { itemsOf } from '../../db/paging.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { filteredLeads } from './leads.service.ts';
import { withCapsSettled } from './contract-caps.ts';
import { deletionRepository, type DestroyGuard } from './deletion.repository.ts';
import { addDays, seoulDay, seoulDayStart } from '../../../contracts/kst.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import type { CsStatus, LeadChange } from '../../../contracts/leads.ts';
import {
  DEFAULT_GRACE_DAYS, DELETE_MATCHING_MAX, UPCOMING_DAYS, type AutomaticTrigger, type DeletedLeadItem, type DeletedLeadQuery, type DestructionQuery,
  type DestructionTrigger, type LeadDeleteInput, type LeadPurgeInput, type LeadRestoreInput, type PurgeSettings, type PurgeSettingsInput,
  type UpcomingDestructions,
} from '../../../contracts/lead-deletion.ts';

const DAY_MS = 86_400_000;
/** Every destruction, by hand or automatic, in any process, holds this lock: none destroys a lead twice. */
const PURGE_LOCK = 'purge';
/** Leads one transaction of the automatic purge destroys at most. */
export const PURGE_BATCH = 1000;
/** What scrubbed free text in a lead's events reads. */
export const SCRUBBED = '(파기됨)';
/**
 * The keys of an event's before/after that hold nothing personal: statuses, times, ids, staff
 * names, codes (the mode, the trigger, the consent basis). Any other value — a memo, a reason,
 * whatever a later event adds — is scrubbed: a key missing here costs a detail, never a leak.
 */
const SAFE_EVENT_KEYS = new Set([
  'csStatus', 'reservedAt', 'source', 'landingId', 'duplicateOf', 'assigneeId', 'assigneeName', 'mode', 'deleted', 'trigger', 'validity', 'consentBasis',
  'importId', 'channelId', 'channelName', 'kind', 'jobId', 'returnId', 'contractId',
]);

type Announce = (change: LeadChange) => void;

/** Counselors see only their own leads: deleting, restoring and destroying is for accounts that see the shop's. */
function refuseAssignedScope(actor: Actor): void {
  if (actor.scope === 'assigned') throw forbidden('배정된 DB만 보는 계정은 DB를 삭제하거나 복구·파기할 수 없습니다.');
}

/** An event's before/after with every value not known to be safe replaced by SCRUBBED; unchanged when nothing was personal. */
export function scrubEventJson(json: string | null): string | null {
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return JSON.stringify({ scrubbed: SCRUBBED });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return JSON.stringify({ scrubbed: SCRUBBED });
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (SAFE_EVENT_KEYS.has(k) || v === null || v === '' || v === SCRUBBED) out[k] = v;
    else {
      out[k] = SCRUBBED;
      changed = true;
    }
  }
  return changed ? JSON.stringify(out) : json;
}

/**
 * Destroys the leads among `ids` the guard still allows, in `trx` (which holds the purge lock):
 * their personal fields, their events' free text and the visitor's address go; each gets a
 * `purge` event; the destruction is recorded once per shop and trigger (`records` keeps the
 * record a batch of the same run adds to). Answers the leads destroyed.
 */
async function destroyIn(
  trx: Transaction<Database>, guard: DestroyGuard, ids: number[], trigger: DestructionTrigger, by: Actor | null, reason: string | null, at: string,
  records: Map<string, number>,
) {
  const r = deletionRepository(trx);
  const destroyed = await r.destroy(ids, guard, at);
  if (!destroyed.length) return destroyed;
  const leadIds = destroyed.map((d) => d.id);

  // Events rewritten alike go in one statement: a scrub of a thousand leads is a few dozen.
  const rewrites = new Map<string, { before: string | null; after: string | null; ids: number[] }>();
  for (const e of await r.events(leadIds)) {
    const before = scrubEventJson(e.before);
    const after = scrubEventJson(e.after);
    if (before === e.before && after === e.after) continue;
    const key = JSON.stringify([before, after]);
    const group = rewrites.get(key) ?? { before, after, ids: [] };
    group.ids.push(e.id);
    rewrites.set(key, group);
  }
  for (const g of rewrites.values()) await r.rewriteEvents(g.ids, g.before, g.after);
  await r.forgetVisitorAddresses(leadIds);
  await r.insertEvents(
    destroyed.map((d) => ({
      lead_id: d.id, shop_id: d.shop_id, account_id: by?.id ?? null, action: 'purge', before: null, after: JSON.stringify({ trigger }), ip: by?.ip ?? null, at,
    })),
  );

  const byShop = new Map<number, number[]>();
  for (const d of destroyed) byShop.set(d.shop_id, [...(byShop.get(d.shop_id) ?? []), d.id]);
  for (const [shopId, shopLeads] of byShop) {
    const key = `${shopId}:${trigger}`;
    const record = records.get(key);
    if (record !== undefined) await r.extendDestruction(record, shopLeads);
    else {
      records.set(key, await r.insertDestruction({
        shop_id: shopId, trigger, account_id: by?.id ?? null, reason, lead_count: shopLeads.length, lead_ids: JSON.stringify(shopLeads), at,
      }));
    }
  }
  return destroyed;
}

function announceDestroyed(announce: Announce | undefined, destroyed: Array<{ id: number; shop_id: number; assignee_id: number | null }>) {
  if (!announce) return;
  const byShop = new Map<number, LeadChange['leads']>();
  for (const d of destroyed) byShop.set(d.shop_id, [...(byShop.get(d.shop_id) ?? []), { id: d.id, assigneeId: d.assignee_id }]);
  for (const [shopId, leads] of byShop) announce({ shopId, kind: 'changed', leads });
}

export interface PurgeRun {
  /** Deleted leads destroyed because their shop's grace period was over. */
  grace: number;
  /** Leads destroyed because their privacy policy's retention period was over. */
  retention: number;
}

/**
 * The automatic purge as of `now`: (a) leads deleted longer ago than their shop's grace period,
 * then (b) leads, deleted or not, received longer ago than their privacy policy's retention
 * period — destroyed a batch per transaction under the purge lock, so several processes (or
 * two runs at once) never destroy a lead twice. One destruction record per shop and trigger,
 * without an account.
 */
export async function purgeDue(db: Kysely<Database>, now: Date, o: { announce?: Announce; batchSize?: number } = {}): Promise<PurgeRun> {
  const batch = o.batchSize ?? PURGE_BATCH;
  const at = now.toISOString();
  const repo = deletionRepository(db);
  const records = new Map<string, number>();
  const run: PurgeRun = { grace: 0, retention: 0 };

  const drain = async (guard: DestroyGuard, trigger: AutomaticTrigger) => {
    // One index probe first: a shop or policy with nothing due costs no transaction.
    if (!(await repo.due(guard, 1)).length) return;
    for (;;) {
      const { found, destroyed } = await serialTransaction(db, PURGE_LOCK, async (trx) => {
        const ids = await deletionRepository(trx).due(guard, batch);
        return { found: ids.length, destroyed: ids.length ? await destroyIn(trx, guard, ids, trigger, null, null, at, records) : [] };
      });
      run[trigger] += destroyed.length;
      announceDestroyed(o.announce, destroyed);
      if (found < batch) return;
    }
  };

  for (const shop of await repo.shopGraceDays()) {
    const days = shop.purge_grace_days ?? DEFAULT_GRACE_DAYS;
    await drain({ kind: 'grace', shopId: shop.id, deletedBefore: new Date(now.getTime() - days * DAY_MS).toISOString() }, 'grace');
  }
  for (const policy of await repo.policies()) {
    await drain({ kind: 'retention', policyId: policy.id, createdBefore: new Date(now.getTime() - policy.retention_days * DAY_MS).toISOString() }, 'retention');
  }
  return run;
}

/** When the automatic purge destroys a deleted lead: after the grace period, or earlier when the retention period ends first. */
function destructionOf(deletedAt: string, createdAt: string, retentionDays: number | null, graceDays: number): { at: number; trigger: AutomaticTrigger } {
  const grace = Date.parse(deletedAt) + graceDays * DAY_MS;
  const retention = retentionDays ? Date.parse(createdAt) + retentionDays * DAY_MS : Infinity;
  return retention <= grace ? { at: retention, trigger: 'retention' } : { at: grace, trigger: 'grace' };
}

/** The instants a period of Seoul days covers, either end open. */
function periodBounds(q: { from?: string; to?: string }): { fromIso?: string; toIso?: string } {
  if (q.from && q.to && q.from > q.to) throw badRequest('시작일이 종료일보다 늦습니다.', { from: '시작일이 종료일보다 늦습니다.' });
  return {
    ...(q.from ? { fromIso: seoulDayStart(q.from).toISOString() } : {}),
    ...(q.to ? { toIso: seoulDayStart(addDays(q.to, 1)).toISOString() } : {}),
  };
}

/** DB 삭제 and 삭제 DB 관리. */
export function deletionService(db: Kysely<Database>, clock: Clock, announce: Announce = () => {}) {
  const repo = deletionRepository(db);

  const graceDays = async (shopId: number) => (await repo.graceDays(shopId))?.purge_grace_days ?? DEFAULT_GRACE_DAYS;

  const event = (shopId: number, leadId: number, actor: Actor, action: string, before: unknown, after: unknown, at: string): Insertable<LeadEventsTable> => ({
    lead_id: leadId, shop_id: shopId, account_id: actor.id, action, ip: actor.ip, at, before: JSON.stringify(before), after: JSON.stringify(after),
  });

  /** The leads a deletion names: the chosen ones, or every one the list's filter finds for the asker. */
  async function targets(shopId: number, input: LeadDeleteInput, actor: Actor, now: Date): Promise<number[]> {
    if (input.ids?.length) return [...new Set(input.ids)];
    const found = filteredLeads(db, shopId, input.filter!, actor, now);
    const n = await found.count();
    if (n > DELETE_MATCHING_MAX) {
      const message = `조건에 맞는 DB가 ${n.toLocaleString('ko-KR')}건입니다. 한 번에 ${DELETE_MATCHING_MAX.toLocaleString('ko-KR')}건까지 삭제할 수 있으니 조건을 좁히세요.`;
      throw badRequest(message, { ids: message });
    }
    const ids: number[] = [];
    for await (const page of found.pages(DELETE_MATCHING_MAX)) ids.push(...page.map((r) => r.id));
    return ids;
  }

  return {
    /** Deletes leads in one transaction, each with its `delete` event; open lists hear of it. */
    async remove(shopId: number, input: LeadDeleteInput, actor: Actor) {
      refuseAssignedScope(actor);
      const now = clock();
      const at = now.toISOString();
      const ids = await targets(shopId, input, actor, now);
      const marked = ids.length
        ? await inTransaction(db, async (trx) => {
            const r = deletionRepository(trx);
            // A deleted lead no longer counts toward its contract: the caps settle with it.
            const { result: rows } = await withCapsSettled(trx, shopId, now, actor.id, () => r.markDeleted(shopId, ids, actor.id, input.reason, at));
            await r.insertEvents(rows.map((row) => event(shopId, row.id, actor, 'delete', { deleted: false }, { deleted: true, reason: input.reason }, at)));
            return rows;
          })
        : [];
      if (!marked.length) throw notFound('삭제할 수 있는 DB가 없습니다.');
      announce({ shopId, kind: 'changed', leads: marked.map((m) => ({ id: m.id, assigneeId: m.assignee_id })) });
      return { deleted: marked.length };
    },

    async deleted(shopId: number, q: DeletedLeadQuery) {
      const [days, page] = await Promise.all([graceDays(shopId), repo.deletedList(shopId, { ...q, ...periodBounds(q) })]);
      return {
        ...itemsOf(page, (r): DeletedLeadItem => {
          const end = destructionOf(r.deleted_at!, r.created_at, r.retention_days, days);
          return {
            id: r.id, createdAt: r.created_at, name: r.name, phone: maskPhone(r.phone), landingTitle: r.landing_title, csStatus: r.cs_status as CsStatus,
            deletedAt: r.deleted_at!, deletedByName: r.deleted_by_name, reason: r.delete_reason,
            destroyAt: new Date(end.at).toISOString(), destroyTrigger: end.trigger,
          };
        }),
        graceDays: days,
      };
    },

    deleters: async (shopId: number) => ({ items: await repo.deleters(shopId) }),

    /** Brings deleted leads back (not those already destroyed), each with its `restore` event. */
    async restore(shopId: number, input: LeadRestoreInput, actor: Actor) {
      refuseAssignedScope(actor);
      const now = clock();
      const at = now.toISOString();
      const restored = await inTransaction(db, async (trx) => {
        const r = deletionRepository(trx);
        const { result: rows } = await withCapsSettled(trx, shopId, now, actor.id, () => r.unmarkDeleted(shopId, [...new Set(input.ids)], at));
        await r.insertEvents(rows.map((row) => event(shopId, row.id, actor, 'restore', { deleted: true }, { deleted: false, reason: input.reason }, at)));
        return rows;
      });
      if (!restored.length) throw notFound('복구할 수 있는 DB가 없습니다. 이미 복구했거나 파기한 DB입니다.');
      announce({ shopId, kind: 'changed', leads: restored.map((m) => ({ id: m.id, assigneeId: m.assignee_id })) });
      return { restored: restored.length };
    },

    /** Destroys chosen deleted leads now, with the reason in the destruction record. */
    async purge(shopId: number, input: LeadPurgeInput, actor: Actor) {
      refuseAssignedScope(actor);
      const at = clock().toISOString();
      const destroyed = await serialTransaction(db, PURGE_LOCK, (trx) =>
        destroyIn(trx, { kind: 'manual', shopId }, [...new Set(input.ids)], 'manual', actor, input.reason, at, new Map()),
      );
      if (!destroyed.length) throw notFound('파기할 수 있는 DB가 없습니다. 이미 복구했거나 파기한 DB입니다.');
      announceDestroyed(announce, destroyed);
      return { purged: destroyed.length };
    },

    async destructions(shopId: number, q: DestructionQuery) {
      const page = await repo.destructions(shopId, { ...q, ...periodBounds(q) });
      return itemsOf(page, (r) => ({ id: r.id, at: r.at, trigger: r.trigger, accountName: r.account_name, reason: r.reason, leadCount: r.lead_count }));
    },

    async settings(shopId: number): Promise<PurgeSettings> {
      const [row, changedAt] = await Promise.all([repo.graceDays(shopId), repo.graceChangedAt(shopId)]);
      return { graceDays: row?.purge_grace_days ?? DEFAULT_GRACE_DAYS, updatedAt: changedAt };
    },

    async updateSettings(shopId: number, input: PurgeSettingsInput, actor: Actor): Promise<PurgeSettings> {
      refuseAssignedScope(actor);
      const now = clock();
      await inTransaction(db, async (trx) => {
        await deletionRepository(trx).saveGraceDays(shopId, input.graceDays, actor.id, now.toISOString());
        await auditBy(trx, actor, { action: 'purge-settings-update', target: 'shop', targetId: shopId, detail: input }, now);
      });
      return { graceDays: input.graceDays, updatedAt: now.toISOString() };
    },

    /**
     * The leads the automatic purge will destroy in the next UPCOMING_DAYS Seoul days, per day
     * and trigger (what is due already counts on today). A deleted lead counts once, under
     * whichever of its grace and retention periods ends first.
     */
    async upcoming(shopId: number): Promise<UpcomingDestructions> {
      const now = clock();
      const today = seoulDay(now);
      const endMs = seoulDayStart(addDays(today, UPCOMING_DAYS)).getTime();
      const days = new Map<string, { grace: number; retention: number }>();
      for (let i = 0; i < UPCOMING_DAYS; i++) days.set(addDays(today, i), { grace: 0, retention: 0 });
      const dayOf = (ms: number) => {
        const d = seoulDay(ms);
        return days.get(d < today ? today : d)!;
      };

      const [grace, policies, waiting] = await Promise.all([graceDays(shopId), repo.policies(shopId), repo.waitingTimes(shopId)]);
      // Retention: a lead received on a Seoul day is destroyed retention days later, on that day plus as many.
      for (const p of policies) {
        const rows = await repo.receivedByDay(p.id, new Date(endMs - p.retention_days * DAY_MS).toISOString());
        for (const row of rows) {
          const d = addDays(row.day, p.retention_days);
          days.get(d < today ? today : d)!.retention += row.n;
        }
      }
      // Grace: deleted leads whose grace period ends before their retention period (counted above; taken back from there).
      for (const w of waiting) {
        const end = destructionOf(w.deleted_at!, w.created_at, w.retention_days, grace);
        if (end.trigger !== 'grace' || end.at >= endMs) continue;
        dayOf(end.at).grace += 1;
        const retention = w.retention_days ? Date.parse(w.created_at) + w.retention_days * DAY_MS : Infinity;
        if (retention < endMs) dayOf(retention).retention -= 1;
      }
      const list = [...days].map(([day, n]) => ({ day, ...n }));
      return {
        days: list,
        totals: { grace: list.reduce((s, d) => s + d.grace, 0), retention: list.reduce((s, d) => s + d.retention, 0) },
        graceDays: grace,
      };
    },
  };
}
