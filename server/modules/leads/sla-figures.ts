// Speed to lead, measured — the one home of its definitions (contracts/lead-sla.ts says them in
// the types; docs/PRODUCT.md in words). Of a shop's leads with the SLA on (arrived at or after it
// was turned on), not duplicates, not deleted, arrived in the period: the time to first contact
// in working minutes of the shop's calendar (sla-clock.ts); met within the SLA's minutes; missed
// when later, or not contacted past the deadline; pending when not contacted and not yet due (out
// of the rate). Median (the middle, or the mean of the middle two) and p90 (nearest rank) are of
// the contacted leads. Re-routes are escalation's events of those leads, per reason. Grouped by
// holder (the lead's assignee now: escalation stops at the first contact, so a contacted lead's
// holder is who reached it, unless it was moved by hand since), landing, medium and hour of
// arrival (Seoul). The calendar is not SQL, so each lead's row is read once and judged here.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { slaRepository } from './sla.repository.ts';
import { ruleOf, type Rule } from './sla.ts';
import { addWorkingMinutes, calendarSpan, workingMinutesBetween, type WorkCalendar } from './sla-clock.ts';
import { periodInstants } from '../../../contracts/kst.ts';
import {
  SLA_BUCKETS, SLA_BUCKET_LIMITS, SLA_REROUTE_REASONS, type SlaBucket, type SlaFigures, type SlaGroup, type SlaKeyedGroup, type SlaRanking, type SlaRerouteReason,
} from '../../../contracts/lead-sla.ts';

const UNASSIGNED = '미배분';
const NO_LANDING = '랜딩 없음';
const NO_MEDIUM = '미지정';
const HOUR_MS = 3_600_000;
const SEOUL_OFFSET_MS = 9 * HOUR_MS;

interface Outcome {
  state: 'met' | 'missed' | 'pending';
  /** Working minutes to the first contact; null when not contacted. */
  minutes: number | null;
  bucket: SlaBucket;
}

/** How a lead's time is measured: the day-by-day clock, or one laid out over the period (calendarSpan) with it as fallback. */
export interface Clocks {
  between(a: Date, b: Date): number;
  /** Whether `minutes` working minutes have run from `a` by `b`. */
  ranOut(a: Date, b: Date, minutes: number): boolean;
}

export function clocksOf(calendar: WorkCalendar, span?: { from: Date; to: Date }): Clocks {
  const fast = span && calendarSpan(calendar, span.from, span.to);
  return {
    between: (a, b) => fast?.between(a, b) ?? workingMinutesBetween(calendar, a, b),
    ranOut: (a, b, minutes) => {
      const m = fast?.between(a, b);
      return m != null ? m >= minutes : b >= addWorkingMinutes(calendar, a, minutes);
    },
  };
}

/** One lead judged against the rule at `now`. */
export function outcomeOf(rule: Pick<Rule, 'minutes' | 'calendar'>, createdAt: string, firstContactAt: string | null, now: Date, clocks = clocksOf(rule.calendar)): Outcome {
  const arrived = new Date(createdAt);
  if (firstContactAt === null) {
    return clocks.ranOut(arrived, now, rule.minutes) ? { state: 'missed', minutes: null, bucket: 'open-missed' } : { state: 'pending', minutes: null, bucket: 'open-pending' };
  }
  const minutes = clocks.between(arrived, new Date(firstContactAt));
  const limit = SLA_BUCKET_LIMITS.find((l) => minutes <= l);
  return { state: minutes <= rule.minutes ? 'met' : 'missed', minutes, bucket: limit === undefined ? 'over' : (String(limit) as SlaBucket) };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The median (the mean of the middle two of an even count) and the 90th percentile by nearest rank of sorted values. */
export function medianAndP90(sorted: number[]): { median: number | null; p90: number | null } {
  const n = sorted.length;
  if (!n) return { median: null, p90: null };
  const median = n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  return { median: round1(median), p90: round1(sorted[Math.ceil(0.9 * n) - 1]!) };
}

class Tally {
  leads = 0;
  met = 0;
  missed = 0;
  pending = 0;
  rerouted = 0;
  times: number[] = [];

  add(o: Outcome, rerouted: boolean): void {
    this.leads++;
    this[o.state]++;
    if (o.minutes !== null) this.times.push(o.minutes);
    if (rerouted) this.rerouted++;
  }

  figures(): SlaGroup {
    const { median, p90 } = medianAndP90(this.times.sort((a, b) => a - b));
    const decided = this.met + this.missed;
    return {
      leads: this.leads, met: this.met, missed: this.missed, pending: this.pending, metRate: decided ? this.met / decided : null,
      contacted: this.times.length, medianMinutes: median, p90Minutes: p90, rerouted: this.rerouted,
    };
  }
}

/** Tallies by a key, each with the name it is shown by. */
class Groups {
  private map = new Map<number | null, { name: string; tally: Tally }>();
  add(key: number | null, name: string, o: Outcome, rerouted: boolean) {
    let g = this.map.get(key);
    if (!g) this.map.set(key, (g = { name, tally: new Tally() }));
    g.tally.add(o, rerouted);
  }
  /** Most leads first, then by name; the keyless group (미배분, no landing) last. */
  rows(): SlaKeyedGroup[] {
    return [...this.map.entries()]
      .map(([key, g]) => ({ key, name: g.name, ...g.tally.figures() }))
      .sort((a, b) => Number(a.key === null) - Number(b.key === null) || b.leads - a.leads || a.name.localeCompare(b.name, 'ko'));
  }
}

const reasonOf = (action: string, after: string | null): SlaRerouteReason | null => {
  if (action === 'sla-reroute') return 'reroute';
  if (action === 'sla-notify') return 'notify';
  if (action !== 'sla-manager') return null;
  const reason = after ? (JSON.parse(after) as { reason?: string }).reason : undefined;
  return reason === 'no-counselor' ? 'no-counselor' : 'max-reroutes';
};

/** Whose leads: all of the shop's, or a counselor's own. */
export interface SlaReader {
  id: number;
  scope: 'all' | 'assigned';
}

type SettingsRow = NonNullable<Awaited<ReturnType<ReturnType<typeof slaRepository>['settings']>>>;

/** The period's leads of one shop judged and grouped, with escalation's events of them. */
async function measure(db: Kysely<Database>, row: SettingsRow, from: string, to: string, now: Date, assigneeId: number | undefined, detail: boolean) {
  const repo = slaRepository(db);
  const rule = ruleOf(row);
  const p = periodInstants(from, to);
  // Leads that arrived before the SLA was turned on were never promised anything.
  const fromIso = rule.since > p.fromIso ? rule.since : p.fromIso;
  const leads = fromIso < p.toIso ? await repo.figureLeads(rule.shopId, fromIso, p.toIso, assigneeId) : [];
  const ids = new Set(leads.map((l) => l.id));
  const perReason = new Map<SlaRerouteReason, { leads: Set<number>; events: number }>();
  const rerouted = new Set<number>();
  if (leads.length) {
    for (const e of await repo.figureEvents(rule.shopId, fromIso)) {
      if (!ids.has(e.lead_id)) continue;
      const reason = reasonOf(e.action, e.after);
      if (!reason) continue;
      let r = perReason.get(reason);
      if (!r) perReason.set(reason, (r = { leads: new Set(), events: 0 }));
      r.leads.add(e.lead_id);
      r.events++;
      if (reason === 'reroute') rerouted.add(e.lead_id);
    }
  }
  const totals = new Tally();
  const distribution = new Map<SlaBucket, number>(SLA_BUCKETS.map((b) => [b, 0]));
  const counselors = new Groups();
  const landings = new Groups();
  const media = new Groups();
  const hours = Array.from({ length: 24 }, () => new Tally());
  // The period's calendar laid out once, up to now or two weeks past the period (a deadline lies within a week of working time).
  const spanEnd = Math.min(now.getTime(), Date.parse(p.toIso) + 14 * 24 * HOUR_MS);
  const clocks = clocksOf(rule.calendar, { from: new Date(fromIso), to: new Date(Math.max(spanEnd, Date.parse(fromIso))) });
  for (const l of leads) {
    const o = outcomeOf(rule, l.created_at, l.first_contact_at, now, clocks);
    const moved = rerouted.has(l.id);
    totals.add(o, moved);
    if (!detail) continue;
    distribution.set(o.bucket, distribution.get(o.bucket)! + 1);
    counselors.add(l.assignee_id, l.assignee_id === null ? UNASSIGNED : (l.assignee_name ?? `#${l.assignee_id}`), o, moved);
    landings.add(l.landing_id, l.landing_id === null ? NO_LANDING : (l.landing_title ?? `#${l.landing_id}`), o, moved);
    media.add(l.media_type_id, l.media_type_id === null ? NO_MEDIUM : (l.medium ?? `#${l.media_type_id}`), o, moved);
    hours[new Date(new Date(l.created_at).getTime() + SEOUL_OFFSET_MS).getUTCHours()]!.add(o, moved);
  }
  return {
    rule,
    totals: totals.figures(),
    distribution: SLA_BUCKETS.map((bucket) => ({ bucket, count: distribution.get(bucket)! })),
    reroutes: SLA_REROUTE_REASONS.filter((r) => perReason.has(r)).map((reason) => ({ reason, leads: perReason.get(reason)!.leads.size, events: perReason.get(reason)!.events })),
    byCounselor: counselors.rows(),
    byLanding: landings.rows(),
    byMedium: media.rows(),
    byHour: hours.map((t, hour) => ({ hour, ...t.figures() })),
  };
}

const empty = (): Omit<SlaFigures, 'period' | 'scope' | 'sla'> => ({
  totals: new Tally().figures(), distribution: SLA_BUCKETS.map((bucket) => ({ bucket, count: 0 })), reroutes: [], byCounselor: [], byLanding: [], byMedium: [],
  byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, ...new Tally().figures() })),
});

/** One shop's SLA figures for a period of Seoul days of arrival (inclusive); a counselor's are of their own leads. */
export async function slaFigures(db: Kysely<Database>, shopId: number, period: { from: string; to: string }, reader: SlaReader, now: Date): Promise<SlaFigures> {
  const row = await slaRepository(db).settings(shopId);
  const head = { period, scope: reader.scope };
  if (!row?.enabled) return { ...head, sla: null, ...empty() };
  const { rule, ...figures } = await measure(db, row, period.from, period.to, now, reader.scope === 'assigned' ? reader.id : undefined, true);
  return {
    ...head,
    sla: { minutes: rule.minutes, workDays: [...rule.calendar.days], workStart: rule.calendar.start, workEnd: rule.calendar.end, holidays: rule.calendar.holidays.length, enabledAt: rule.since },
    ...figures,
  };
}

/** Every shop with the SLA on, by SLA met over the period: the best first, shops without a decided lead last. */
export async function slaRanking(db: Kysely<Database>, period: { from: string; to: string }, now: Date): Promise<SlaRanking> {
  const items: SlaRanking['items'] = [];
  for (const row of await slaRepository(db).enabledShopNames()) {
    const { totals } = await measure(db, row, period.from, period.to, now, undefined, false);
    items.push({ shopId: row.shop_id, shopName: row.shop_name, minutes: row.minutes, ...totals });
  }
  items.sort((a, b) => Number(a.metRate === null) - Number(b.metRate === null) || (b.metRate ?? 0) - (a.metRate ?? 0) || b.leads - a.leads || a.shopName.localeCompare(b.shopName, 'ko'));
  return { period, items };
}
