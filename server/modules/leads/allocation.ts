// Allocating leads to counselors. The planner is pure: given each counselor's load and room
// (daily cap, open-lead maximum, availability) it decides who gets which lead. The service
// previews a plan, applies it in one transaction under the shop's allocation lock (so two
// allocations — or two intake writers with the automatic rule — never overshoot a cap), takes
// leads back or hands them over with a reason, and keeps the history in the access record.
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, LeadEventsTable } from '../../db/schema.ts';
import { inTransaction, lockKeys } from '../../db/dialect-sql.ts';
import { itemsOf } from '../../db/paging.ts';
import { leadsRepository } from './leads.repository.ts';
import { allocationRepository } from './allocation.repository.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { periodInstants, seoulDay, seoulDayStart } from '../../../contracts/kst.ts';
import type { LeadChange } from '../../../contracts/leads.ts';
import type {
  AllocationHistoryQuery, AllocationInput, AllocationMode, AllocationPlan, AllocationState, AutoMode, CounselorLoad, CounselorSettingsInput,
  ReassignInput,
} from '../../../contracts/allocation.ts';

/** What allocation reads and writes: its own queries, the shop's lead settings, the leads' events. */
function allocationData(db: Kysely<Database>) {
  const leads = leadsRepository(db);
  return { ...allocationRepository(db), settings: leads.settings, insertEvents: leads.insertEvents };
}

/** The most leads one allocation takes. */
const MAX_LEADS = 5000;

type LoadRow = Awaited<ReturnType<ReturnType<typeof allocationRepository>['counselorLoads']>>[number];

function toLoad(r: LoadRow): CounselorLoad {
  return {
    id: r.id, name: r.name, loginId: r.login_id, weight: r.weight ?? 1, dailyCap: r.daily_cap ?? null, maxOpen: r.max_open ?? null,
    available: r.available === null || r.available === undefined ? true : !!r.available, today: Number(r.today ?? 0), open: Number(r.open ?? 0),
  };
}

/** How many more leads a counselor takes now (Infinity: no cap). */
export function room(c: CounselorLoad): number {
  if (!c.available) return 0;
  const day = c.dailyCap === null ? Infinity : c.dailyCap - c.today;
  const open = c.maxOpen === null ? Infinity : c.maxOpen - c.open;
  return Math.max(0, Math.min(day, open));
}

export interface Planned {
  /** For each lead, in order: the counselor it goes to, or null (no one had room). */
  to: Array<number | null>;
  /** The round-robin cursor after the plan: the last counselor given a lead. */
  cursor: number;
}

/**
 * Plans `count` leads over `counselors` (sorted by id).
 * - round-robin: in turn after `cursor` (the last counselor served), skipping those without room;
 * - weighted: each lead to the counselor furthest below their weight's share of today's leads
 *   (today's assignments count, so shares hold over the day, not only within one batch);
 * - manual: all to the one counselor, caps notwithstanding (said in the preview).
 */
export function plan(mode: AllocationMode, counselors: readonly CounselorLoad[], count: number, cursor: number): Planned {
  const left = new Map(counselors.map((c) => [c.id, mode === 'manual' ? Infinity : room(c)]));
  const given = new Map(counselors.map((c) => [c.id, 0]));
  const to: Array<number | null> = [];
  let last = cursor;
  const ordered = [...counselors].sort((a, b) => a.id - b.id);
  for (let i = 0; i < count; i++) {
    let pick: CounselorLoad | undefined;
    if (mode === 'manual') pick = ordered[0];
    else if (mode === 'round-robin') {
      const start = ordered.findIndex((c) => c.id > last);
      for (let k = 0; k < ordered.length && !pick; k++) {
        const c = ordered[((start < 0 ? 0 : start) + k) % ordered.length]!;
        if (left.get(c.id)! > 0) pick = c;
      }
    } else {
      let best = Infinity;
      for (const c of ordered) {
        if (left.get(c.id)! <= 0) continue;
        const share = (c.today + given.get(c.id)!) / Math.max(1, c.weight);
        if (share < best) {
          best = share;
          pick = c;
        }
      }
    }
    if (!pick) {
      to.push(null);
      continue;
    }
    to.push(pick.id);
    left.set(pick.id, left.get(pick.id)! - 1);
    given.set(pick.id, given.get(pick.id)! + 1);
    last = pick.id;
  }
  return { to, cursor: last };
}

function summarize(counselors: readonly CounselorLoad[], planned: Planned, mode: AllocationMode): AllocationPlan {
  const rows = counselors.map((c) => {
    const count = planned.to.filter((id) => id === c.id).length;
    const dailyLeft = c.dailyCap === null ? null : c.dailyCap - c.today - count;
    const openLeft = c.maxOpen === null ? null : c.maxOpen - c.open - count;
    return { counselorId: c.id, name: c.name, count, dailyLeft, openLeft, overCap: mode === 'manual' && ((dailyLeft ?? 0) < 0 || (openLeft ?? 0) < 0) };
  });
  return { total: planned.to.length, rows: rows.filter((r) => r.count > 0 || mode !== 'manual'), unplaced: planned.to.filter((id) => id === null).length };
}

const assignEvent = (
  shopId: number, leadId: number, by: { id: number | null; ip: string | null }, from: { id: number | null; name: string | null },
  to: { id: number | null; name: string | null }, extra: { mode: string; reason?: string }, at: string,
): Insertable<LeadEventsTable> => ({
  lead_id: leadId, shop_id: shopId, account_id: by.id, action: 'assign', ip: by.ip, at,
  before: JSON.stringify({ assigneeId: from.id, assigneeName: from.name }),
  after: JSON.stringify({ assigneeId: to.id, assigneeName: to.name, ...extra }),
});

/**
 * Applies a plan in `trx` (the shop's allocation lock held): assigns the leads still unassigned,
 * records each, moves the round-robin cursor. Answers the leads assigned, with their counselor.
 */
async function applyPlan(
  trx: Transaction<Database>, shopId: number, leadIds: number[], counselors: readonly CounselorLoad[], planned: Planned,
  by: { id: number | null; ip: string | null }, mode: string, at: string,
): Promise<Array<{ id: number; assigneeId: number }>> {
  const repo = allocationData(trx);
  const byCounselor = new Map<number, number[]>();
  planned.to.forEach((c, i) => {
    if (c === null) return;
    const list = byCounselor.get(c) ?? [];
    list.push(leadIds[i]!);
    byCounselor.set(c, list);
  });
  const done: Array<{ id: number; assigneeId: number }> = [];
  const events: Array<Insertable<LeadEventsTable>> = [];
  for (const [counselorId, ids] of byCounselor) {
    const name = counselors.find((c) => c.id === counselorId)?.name ?? null;
    for (const id of await repo.assign(ids, counselorId, at)) {
      done.push({ id, assigneeId: counselorId });
      events.push(assignEvent(shopId, id, by, { id: null, name: null }, { id: counselorId, name }, { mode }, at));
    }
  }
  for (let i = 0; i < events.length; i += 500) await repo.insertEvents(events.slice(i, i + 500));
  if (mode.endsWith('round-robin') && done.length) await repo.saveCursor(shopId, planned.cursor, at);
  return done;
}

const todayStartOf = (now: Date) => seoulDayStart(seoulDay(now)).toISOString();

/** The shop's counselors with their settings and load today (Seoul), as `db` (a transaction holding the allocation lock) sees them. */
export async function counselorLoadsAt(db: Kysely<Database>, shopId: number, now: Date): Promise<CounselorLoad[]> {
  return (await allocationRepository(db).counselorLoads(shopId, todayStartOf(now))).map(toLoad);
}

/**
 * The automatic rule on intake, inside the transaction that stores the leads: each shop with a
 * rule gets its new, non-duplicate leads allocated before the commit, so none is stored
 * unassigned when someone had room. Sets `assigneeId` on the leads it placed.
 */
export async function autoAllocate(trx: Transaction<Database>, leads: Array<{ lead: { shop_id: number }; leadId: number; duplicateOf: number | null; assigneeId?: number | null }>, now: Date): Promise<void> {
  const shops = [...new Set(leads.filter((l) => !l.duplicateOf).map((l) => l.lead.shop_id))];
  if (!shops.length) return;
  const repo = allocationData(trx);
  const at = now.toISOString();
  for (const shopId of shops) {
    const settings = await repo.settings(shopId);
    const mode = settings?.auto_mode ?? 'off';
    if (mode === 'off') continue;
    await lockKeys(trx, [`allocation:${shopId}`]);
    const mine = leads.filter((l) => l.lead.shop_id === shopId && !l.duplicateOf);
    const counselors = await counselorLoadsAt(trx, shopId, now);
    const planned = plan(mode, counselors, mine.length, settings?.rr_cursor ?? 0);
    const done = await applyPlan(trx, shopId, mine.map((l) => l.leadId), counselors, planned, { id: null, ip: null }, `auto-${mode}`, at);
    const placed = new Map(done.map((d) => [d.id, d.assigneeId]));
    for (const l of mine) l.assigneeId = placed.get(l.leadId) ?? null;
  }
}

export function allocationService(db: Kysely<Database>, clock: Clock, announce: (change: LeadChange) => void) {
  const repo = allocationData(db);

  async function loads(shopId: number) {
    return counselorLoadsAt(db, shopId, clock());
  }

  async function state(shopId: number): Promise<AllocationState> {
    const [counselors, settings, unassigned] = await Promise.all([loads(shopId), repo.settings(shopId), repo.countUnassigned(shopId)]);
    return { counselors, autoMode: settings?.auto_mode ?? 'off', unassigned };
  }

  const targetOf = (input: AllocationInput) => ({
    leadIds: input.leadIds,
    filter: input.filter && {
      ...input.filter,
      ...(input.filter.from && input.filter.to ? periodInstants(input.filter.from, input.filter.to) : {}),
    },
  });

  /** The counselors an allocation may use: of the shop, as chosen; manual needs one who is in. */
  function chosen(all: CounselorLoad[], input: AllocationInput) {
    const picked = all.filter((c) => input.counselorIds.includes(c.id));
    if (picked.length !== new Set(input.counselorIds).size) throw badRequest('이 업체의 상담원이 아닌 계정이 있습니다.', { counselorIds: '이 업체의 상담원 중에서 고르세요.' });
    if (input.mode === 'manual' && !picked[0]!.available) throw badRequest(`${picked[0]!.name} 상담원은 휴무입니다.`, { counselorIds: '휴무인 상담원입니다.' });
    return picked;
  }

  return {
    state,

    async updateCounselor(shopId: number, accountId: number, input: CounselorSettingsInput, actor: Actor) {
      if (!(await loads(shopId)).some((c) => c.id === accountId)) throw notFound('이 업체의 상담원을 찾을 수 없습니다.');
      const now = clock();
      await inTransaction(db, async (trx) => {
        await allocationData(trx).saveCounselor(shopId, accountId, input, now.toISOString());
        await auditBy(trx, actor, { action: 'counselor-settings-update', target: 'account', targetId: accountId, detail: { shopId, ...input } }, now);
      });
      return (await loads(shopId)).find((c) => c.id === accountId)!;
    },

    async updateRule(shopId: number, autoMode: AutoMode, actor: Actor) {
      const now = clock();
      await inTransaction(db, async (trx) => {
        await allocationData(trx).saveAutoMode(shopId, autoMode, actor.id, now.toISOString());
        await auditBy(trx, actor, { action: 'allocation-rule-update', target: 'shop', targetId: shopId, detail: { autoMode } }, now);
      });
      return state(shopId);
    },

    /** Who would get how many, as things stand (nothing is written). */
    async preview(shopId: number, input: AllocationInput): Promise<AllocationPlan> {
      const counselors = chosen(await loads(shopId), input);
      const leads = await repo.unassigned(shopId, targetOf(input), MAX_LEADS);
      const settings = await repo.settings(shopId);
      return summarize(counselors, plan(input.mode, counselors, leads.length, settings?.rr_cursor ?? 0), input.mode);
    },

    /** The plan, made again under the shop's lock and applied in one transaction. */
    async apply(shopId: number, input: AllocationInput, actor: Actor): Promise<AllocationPlan> {
      const now = clock();
      const at = now.toISOString();
      const { result, done } = await inTransaction(db, async (trx) => {
        await lockKeys(trx, [`allocation:${shopId}`]);
        const r = allocationData(trx);
        const counselors = chosen(await counselorLoadsAt(trx, shopId, now), input);
        const leads = await r.unassigned(shopId, targetOf(input), MAX_LEADS);
        const settings = await r.settings(shopId);
        const planned = plan(input.mode, counselors, leads.length, settings?.rr_cursor ?? 0);
        const done = await applyPlan(trx, shopId, leads.map((l) => l.id), counselors, planned, actor, input.mode, at);
        return { result: summarize(counselors, planned, input.mode), done };
      });
      if (done.length) announce({ shopId, kind: 'changed', leads: done.map((d) => ({ ...d, previousAssigneeId: null })) });
      return result;
    },

    /** Takes leads back to 미배분 or hands them to another counselor, each move recorded with its reason. */
    async reassign(shopId: number, input: ReassignInput, actor: Actor) {
      const counselors = await loads(shopId);
      const target = input.to === null ? null : counselors.find((c) => c.id === input.to);
      if (input.to !== null && !target) throw badRequest('이 업체의 상담원 중에서 고르세요.', { to: '이 업체의 상담원 중에서 고르세요.' });
      const at = clock().toISOString();
      const moved = await inTransaction(db, async (trx) => {
        await lockKeys(trx, [`allocation:${shopId}`]);
        const r = allocationData(trx);
        const held = (await r.holders(shopId, [...new Set(input.leadIds)])).filter((h) => h.assignee_id !== input.to);
        if (!held.length) return [];
        await r.move(held.map((h) => h.id), input.to, at);
        await r.insertEvents(
          held.map((h) =>
            assignEvent(shopId, h.id, actor, { id: h.assignee_id, name: h.assignee_name }, { id: target?.id ?? null, name: target?.name ?? null },
              { mode: input.to === null ? 'return' : 'reassign', reason: input.reason }, at),
          ),
        );
        return held;
      });
      if (!moved.length) throw notFound('옮길 DB가 없습니다. 이미 그 담당이거나 이 업체의 DB가 아닙니다.');
      announce({ shopId, kind: 'changed', leads: moved.map((h) => ({ id: h.id, assigneeId: input.to, previousAssigneeId: h.assignee_id })) });
      return { moved: moved.length };
    },

    async history(shopId: number, q: AllocationHistoryQuery) {
      const period = q.from && q.to ? periodInstants(q.from, q.to) : {};
      const page = await repo.allocationHistory(shopId, { ...q, ...period });
      return itemsOf(page, (e) => {
        const before = e.before ? (JSON.parse(e.before) as { assigneeName?: string | null }) : {};
        const after = e.after ? (JSON.parse(e.after) as { assigneeName?: string | null; mode?: string; reason?: string }) : {};
        return {
          id: e.id, at: e.at, leadId: e.lead_id, leadName: e.lead_name, fromName: before.assigneeName ?? null, toName: after.assigneeName ?? null,
          mode: after.mode ?? null, reason: after.reason ?? null, byName: e.by_name,
        };
      });
    },
  };
}
