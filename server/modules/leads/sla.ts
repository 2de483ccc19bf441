// Speed to lead: a shop's SLA settings, and escalation — the worker's step that reminds a lead's
// holder before the deadline and, when it passes, re-routes the lead to the next counselor by the
// shop's allocation rule, notifies the manager, or both; after the last re-route the lead goes to
// the manager's queue (미배분). Intake writes nothing for it: a lead without a state row is on its
// arrival's clock, so the intake transaction stays as it was. Each step runs exactly once however
// many workers run the job: under the shop's `sla:` lock (and the allocation lock when leads move),
// with every state write conditioned on the state it was read in.
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, LeadEventsTable, LeadSlaSettingsTable } from '../../db/schema.ts';
import { inTransaction, lockKeys, serialTransaction } from '../../db/dialect-sql.ts';
import { forbidden } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { leadsRepository } from './leads.repository.ts';
import { allocationRepository } from './allocation.repository.ts';
import { counselorLoadsAt, plan } from './allocation.ts';
import { slaRepository } from './sla.repository.ts';
import { addWorkingMinutes, workingMinutesBetween, type WorkCalendar } from './sla-clock.ts';
import { SLA_DEFAULTS, type LeadSlaSettings, type LeadSlaSettingsInput, type SlaOnDeadline } from '../../../contracts/lead-sla.ts';
import type { CounselorLoad } from '../../../contracts/allocation.ts';
import type { LeadChange } from '../../../contracts/leads.ts';

const DAY_MS = 86_400_000;
/**
 * How far back the scan looks for a clock still running: settings keep the promise within a week of
 * working time, so only a run of holidays longer than a week could leave a lead waiting longer.
 */
const WINDOW_MS = 14 * DAY_MS;
/**
 * Candidates read per shop and run, oldest clock first; leads past them wait for the next run
 * (seconds later). The due instant grows with the clock's start, so among new arrivals those due
 * always come first; only restarted clocks whose reminder went out can hold up later ones' reminders.
 */
const SCAN_LIMIT = 1000;
/** Steps per transaction: the allocation lock intake's automatic rule waits for is held briefly. */
const STEP_BATCH = 200;

type SettingsRow = LeadSlaSettingsTable;

export function toSettings(r: SettingsRow | undefined): LeadSlaSettings {
  if (!r) return { ...SLA_DEFAULTS, updatedAt: null };
  return {
    enabled: !!r.enabled, minutes: r.minutes, remindPercent: r.remind_percent, onDeadline: r.on_deadline, maxReroutes: r.max_reroutes,
    workDays: JSON.parse(r.work_days) as number[], workStart: r.work_start, workEnd: r.work_end, holidays: JSON.parse(r.holidays) as string[],
    updatedAt: r.updated_at,
  };
}

export interface Rule {
  shopId: number;
  /** When the SLA was turned on: earlier arrivals and clocks are not escalated. */
  since: string;
  minutes: number;
  remindPercent: number | null;
  onDeadline: SlaOnDeadline;
  maxReroutes: number;
  calendar: WorkCalendar;
}

export const ruleOf = (r: SettingsRow): Rule => {
  const s = toSettings(r);
  return {
    shopId: r.shop_id, since: r.enabled_at ?? r.updated_at, minutes: s.minutes, remindPercent: s.remindPercent, onDeadline: s.onDeadline, maxReroutes: s.maxReroutes,
    calendar: { days: s.workDays, start: s.workStart, end: s.workEnd, holidays: s.holidays },
  };
};

/** Working minutes from the start of a holder's clock to its reminder (null: none). */
const remindMinutes = (rule: Rule) => (rule.remindPercent === null ? null : (rule.minutes * rule.remindPercent) / 100);

type Due = { kind: 'remind'; dueAt: Date } | { kind: 'deadline'; dueAt: Date } | null;

/** What is due for a clock started at `clockFrom` at `now`: the deadline first, else the reminder not yet sent. */
function dueOf(rule: Rule, clockFrom: string, remindedAt: string | null, now: Date): Due {
  const dueAt = addWorkingMinutes(rule.calendar, new Date(clockFrom), rule.minutes);
  if (now >= dueAt) return { kind: 'deadline', dueAt };
  const remind = remindMinutes(rule);
  if (remind !== null && remindedAt === null && now >= addWorkingMinutes(rule.calendar, new Date(clockFrom), remind)) return { kind: 'remind', dueAt };
  return null;
}

/** One escalation step, as the job reports it. */
export interface SlaStep {
  shopId: number;
  leadId: number;
  action: 'sla-remind' | 'sla-reroute' | 'sla-notify' | 'sla-manager';
  /** The holder before the step (null: unassigned). */
  from: number | null;
  /** The holder after it. */
  to: number | null;
}

type Current = Awaited<ReturnType<ReturnType<typeof slaRepository>['current']>>[number];

/** A step found its lead changed by another writer after the state was claimed: the shop's whole transaction is done again next run. */
class Changed extends Error {}

/** The steps of one shop's due leads, in one transaction under the shop's SLA lock. */
function stepShop(db: Kysely<Database>, rule: Rule, ids: number[], needsAllocation: boolean, now: Date) {
  const at = now.toISOString();
  return serialTransaction(db, `sla:${rule.shopId}`, async (trx) => {
    // Leads move only under the allocation lock, so a re-route and intake's automatic rule never overshoot a cap together.
    if (needsAllocation) await lockKeys(trx, [`allocation:${rule.shopId}`]);
    const repo = slaRepository(trx);
    const steps: SlaStep[] = [];
    const events: Array<Insertable<LeadEventsTable>> = [];
    const routing = rerouter(trx, rule.shopId, now);
    const event = (l: Current, action: SlaStep['action'], before: unknown, after: unknown) =>
      events.push({ lead_id: l.id, shop_id: rule.shopId, account_id: null, ip: null, action, at, before: before === null ? null : JSON.stringify(before), after: JSON.stringify(after) });

    for (const l of await repo.current(rule.shopId, ids)) {
      if (l.stage && l.stage !== 'running') continue;
      const clockFrom = l.clock_from ?? l.created_at;
      const due = dueOf(rule, clockFrom, l.reminded_at, now);
      if (!due) continue;
      const holder = { assigneeId: l.assignee_id, assigneeName: l.assignee_name };
      const why = { clockFrom, dueAt: due.dueAt.toISOString(), minutes: rule.minutes };
      const write = (set: { reminded_at: string | null; reroutes: number; lapsed_by: number[]; stage: 'running' | 'notified' | 'manager'; last_action: string; clock_from: string }) => {
        const row = { ...set, lapsed_by: JSON.stringify(set.lapsed_by), updated_at: at };
        return l.version === null ? repo.insertState({ lead_id: l.id, shop_id: rule.shopId, ...row }) : repo.updateState(l.id, l.version, row);
      };
      const reroutes = l.reroutes ?? 0;
      const lapsedBy = l.lapsed_by ? (JSON.parse(l.lapsed_by) as number[]) : [];

      if (due.kind === 'remind') {
        if (!(await write({ clock_from: clockFrom, reminded_at: at, reroutes, lapsed_by: lapsedBy, stage: 'running', last_action: 'sla-remind' }))) continue;
        event(l, 'sla-remind', null, { ...holder, ...why, reason: 'reminder', percent: rule.remindPercent });
        steps.push({ shopId: rule.shopId, leadId: l.id, action: 'sla-remind', from: l.assignee_id, to: l.assignee_id });
        continue;
      }

      // The deadline passed: whoever holds the lead let it lapse.
      const lapsed = l.assignee_id === null || lapsedBy.includes(l.assignee_id) ? lapsedBy : [...lapsedBy, l.assignee_id];
      const notify = rule.onDeadline !== 'reroute';
      const reroute = rule.onDeadline !== 'notify';
      const next = reroute && reroutes < rule.maxReroutes ? await routing.pick(lapsed) : null;
      const state = !reroute
        ? { clock_from: clockFrom, reminded_at: l.reminded_at, reroutes, lapsed_by: lapsed, stage: 'notified' as const, last_action: 'sla-notify' }
        : next
          ? { clock_from: at, reminded_at: null, reroutes: reroutes + 1, lapsed_by: lapsed, stage: 'running' as const, last_action: 'sla-reroute' }
          : { clock_from: clockFrom, reminded_at: l.reminded_at, reroutes, lapsed_by: lapsed, stage: 'manager' as const, last_action: 'sla-manager' };
      if (!(await write(state))) continue;
      if (notify) {
        event(l, 'sla-notify', null, { ...holder, ...why, reason: 'deadline' });
        steps.push({ shopId: rule.shopId, leadId: l.id, action: 'sla-notify', from: l.assignee_id, to: l.assignee_id });
      }
      if (!reroute) continue;
      const to = next ? next.id : null;
      if (to !== l.assignee_id && !(await repo.move(l.id, l.assignee_id, to, at))) throw new Changed();
      if (next) {
        routing.took(next, l.assignee_id);
        event(l, 'sla-reroute', holder, { assigneeId: next.id, assigneeName: next.name, ...why, reason: 'deadline', reroute: reroutes + 1, lapsedBy: lapsed });
      } else {
        const reason = reroutes >= rule.maxReroutes ? 'max-reroutes' : 'no-counselor';
        event(l, 'sla-manager', holder, { assigneeId: null, assigneeName: null, ...why, reason, reroutes, lapsedBy: lapsed });
      }
      steps.push({ shopId: rule.shopId, leadId: l.id, action: next ? 'sla-reroute' : 'sla-manager', from: l.assignee_id, to });
    }
    await routing.saveCursor();
    for (let i = 0; i < events.length; i += 500) await leadsRepository(trx).insertEvents(events.slice(i, i + 500));
    return steps;
  });
}

/**
 * The shop's counselors as a re-route sees them, read once per transaction (the allocation lock
 * held): the next one by the shop's rule (round-robin when it has none) among those available, with
 * room under their daily cap and open-lead maximum, and not among those who already let the lead lapse.
 */
function rerouter(trx: Transaction<Database>, shopId: number, now: Date) {
  let loads: CounselorLoad[] | null = null;
  let mode: 'round-robin' | 'weighted' = 'round-robin';
  let cursor = 0;
  let moved = false;
  return {
    async pick(lapsed: readonly number[]): Promise<CounselorLoad | null> {
      if (!loads) {
        const settings = await leadsRepository(trx).settings(shopId);
        loads = await counselorLoadsAt(trx, shopId, now);
        mode = settings?.auto_mode === 'weighted' ? 'weighted' : 'round-robin';
        cursor = settings?.rr_cursor ?? 0;
      }
      const open = loads.filter((c) => !lapsed.includes(c.id));
      const id = plan(mode, open, 1, cursor).to[0];
      return (id !== null && open.find((c) => c.id === id)) || null;
    },
    /** Counts the lead on its new holder (and off its old one) for the next pick of this transaction; round-robin goes on after them. */
    took(next: CounselorLoad, from: number | null) {
      moved = true;
      cursor = next.id;
      next.today += 1;
      next.open += 1;
      const old = loads?.find((c) => c.id === from);
      if (old) old.open = Math.max(0, old.open - 1);
    },
    async saveCursor() {
      if (moved && mode === 'round-robin') await allocationRepository(trx).saveCursor(shopId, cursor, now.toISOString());
    },
  };
}

/** The due leads of one shop, found without a transaction: a shop with nothing due costs two index reads. */
export async function dueLeads(db: Kysely<Database>, rule: Rule, now: Date): Promise<{ ids: number[]; deadlines: boolean }> {
  const repo = slaRepository(db);
  // No step comes before the reminder's (or the deadline's) span in wall time since the clock started.
  const first = Math.min(rule.minutes, remindMinutes(rule) ?? Infinity);
  const window = new Date(now.getTime() - WINDOW_MS).toISOString();
  const fromIso = rule.since > window ? rule.since : window;
  const toIso = new Date(now.getTime() - first * 60_000).toISOString();
  const candidates = [
    ...(await repo.arrivals(rule.shopId, fromIso, toIso, SCAN_LIMIT)).map((r) => ({ ...r, reminded_at: null })),
    ...(await repo.running(rule.shopId, fromIso, toIso, SCAN_LIMIT)),
  ];
  const ids: number[] = [];
  let deadlines = false;
  for (const c of candidates) {
    const due = dueOf(rule, c.clock_from, c.reminded_at, now);
    if (!due) continue;
    ids.push(c.id);
    if (due.kind === 'deadline') deadlines = true;
  }
  return { ids, deadlines: deadlines && rule.onDeadline !== 'notify' };
}

/**
 * Escalation as the worker runs it: every SLA-enabled shop's due leads stepped, in batches. With
 * several workers each step happens once (the shop's lock; state writes conditioned on the
 * version read). Answers the steps taken; `announce` hears of the leads that moved.
 */
export async function escalateDue(db: Kysely<Database>, now: Date, o: { announce?: (change: LeadChange) => void } = {}): Promise<SlaStep[]> {
  const done: SlaStep[] = [];
  for (const row of await slaRepository(db).enabledShops()) {
    const rule = ruleOf(row);
    const { ids, deadlines } = await dueLeads(db, rule, now);
    for (let i = 0; i < ids.length; i += STEP_BATCH) {
      let steps: SlaStep[];
      try {
        steps = await stepShop(db, rule, ids.slice(i, i + STEP_BATCH), deadlines, now);
      } catch (err) {
        if (err instanceof Changed) break;
        throw err;
      }
      done.push(...steps);
      const moved = steps.filter((s) => s.action === 'sla-reroute' || s.action === 'sla-manager').filter((s) => s.from !== s.to);
      if (moved.length) o.announce?.({ shopId: rule.shopId, kind: 'changed', cause: 'sla', leads: moved.map((s) => ({ id: s.leadId, assigneeId: s.to, previousAssigneeId: s.from })) });
    }
  }
  return done;
}

/** A lead of a list page as its countdown needs it. */
export interface SlaRow {
  id: number;
  created_at: string;
  first_contact_at: string | null;
  duplicate_of: number | null;
}

/**
 * The SLA countdown of a list page's leads, as escalation would judge them at `now`: the shop's
 * settings read once, the clocks of the page's waiting leads once. A lead's due time is null when
 * the shop has no SLA, or the lead was contacted, is a duplicate, or its clock started before the
 * SLA was turned on — the leads escalation never acts on.
 */
export async function slaCountdown(db: Kysely<Database>, shopId: number, rows: readonly SlaRow[], now: Date) {
  const repo = slaRepository(db);
  const settings = await repo.settings(shopId);
  const none = { minutes: null, of: () => ({ slaDueAt: null, slaLeftMinutes: null }) };
  if (!settings?.enabled) return none;
  const rule = ruleOf(settings);
  const waiting = rows.filter((r) => r.first_contact_at === null && r.duplicate_of === null);
  const clocks = new Map((await repo.clocks(waiting.map((r) => r.id))).map((c) => [c.lead_id, c.clock_from]));
  const due = new Map<number, { slaDueAt: string; slaLeftMinutes: number }>();
  for (const r of waiting) {
    const from = clocks.get(r.id) ?? r.created_at;
    if (from < rule.since) continue;
    const at = addWorkingMinutes(rule.calendar, new Date(from), rule.minutes);
    due.set(r.id, { slaDueAt: at.toISOString(), slaLeftMinutes: Math.ceil(workingMinutesBetween(rule.calendar, now, at)) });
  }
  return { minutes: rule.minutes, of: (id: number) => due.get(id) ?? { slaDueAt: null, slaLeftMinutes: null } };
}

/** The shop's SLA settings (GET and PUT). */
export function slaService(db: Kysely<Database>, clock: Clock) {
  const settings = async (shopId: number) => toSettings(await slaRepository(db).settings(shopId));
  return {
    settings,
    async updateSettings(shopId: number, input: LeadSlaSettingsInput, actor: Actor): Promise<LeadSlaSettings> {
      // The promise and what breaking it does to counselors are the agency's terms of service to the shop.
      if (actor.side !== 'agency') throw forbidden('대행사 전용 기능입니다. 고객사 계정에는 열리지 않습니다.');
      const now = clock();
      await inTransaction(db, async (trx) => {
        const before = await slaRepository(trx).settings(shopId);
        // Turning it on starts the watch now; saving it on again keeps the time it was turned on.
        const enabledAt = !input.enabled ? null : before?.enabled ? before.enabled_at : now.toISOString();
        await slaRepository(trx).saveSettings({
          shop_id: shopId, enabled: input.enabled ? 1 : 0, enabled_at: enabledAt, minutes: input.minutes, remind_percent: input.remindPercent, on_deadline: input.onDeadline,
          max_reroutes: input.maxReroutes, work_days: JSON.stringify(input.workDays), work_start: input.workStart, work_end: input.workEnd,
          holidays: JSON.stringify(input.holidays), updated_by: actor.id, updated_at: now.toISOString(),
        });
        await auditBy(trx, actor, { action: 'lead-sla-update', target: 'shop', targetId: shopId, detail: input }, now);
      });
      return settings(shopId);
    },
  };
}
