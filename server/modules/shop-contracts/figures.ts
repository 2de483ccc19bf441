// A contract's figures from its per-day lead buckets, computed once and read by both 계약 현황
// and the settlement: what is billable each day (billableDays, contracts/money.ts), which
// valid leads those are (the counted rule), and a month's slice of the same days. The
// settlement never recounts, so its totals are the status's for the same days by construction.
import { addDays, periodInstants } from '../../../contracts/kst.ts';
import { billableDays, effectiveEnd } from '../../../contracts/money.ts';
import type { LeadScope } from '../../db/valid-leads.ts';
import type { ContractRow, CountedRule, ScopeDay } from './shop-contracts.repository.ts';
import { seoulDay } from '../../../contracts/kst.ts';

interface ContractDayFigures extends ScopeDay {
  billable: number;
  over: number;
}

export interface ComputedDays {
  days: ContractDayFigures[];
  rule: CountedRule;
  /** Sums over every day. */
  valid: number;
  billable: number;
  over: number;
  duplicates: number;
  invalid: number;
  returned: number;
  deleted: number;
}

export const stoppedOn = (c: Pick<ContractRow, 'stopped_at'>) => (c.stopped_at ? seoulDay(c.stopped_at) : null);

/** The last Seoul day the contract counts leads on. */
export const lastDayOf = (c: Pick<ContractRow, 'ends_on' | 'stopped_at'>) => effectiveEnd({ endsOn: c.ends_on, stoppedOn: stoppedOn(c) });

/** The leads a contract covers: its shop, its days up to its effective end, its landings and media. Null: no day at all (stopped before it began). */
export function contractScope(c: ContractRow, landingIds: readonly number[], mediaTypeIds: readonly number[]): LeadScope | null {
  const last = lastDayOf(c);
  if (last < c.starts_on) return null;
  return { shopIds: [c.shop_id], ...periodInstants(c.starts_on, last), landingIds, mediaTypeIds };
}

/** Billable and over per day, the counted rule that picks those leads, and the sums. */
export function computeDays(scopeDays: readonly ScopeDay[], quantity: number, dailyCap: number | null): ComputedDays {
  const billable = billableDays(scopeDays.map((d) => ({ day: d.day, count: d.valid })), quantity, dailyCap);
  const byDay = new Map(billable.map((b) => [b.day, b]));
  const days = scopeDays.map((d) => ({ ...d, billable: byDay.get(d.day)!.billable, over: byDay.get(d.day)!.over }));
  // The first day the quantity (not the day's cap) held leads back: after it nothing is billable.
  const cut = days.find((d) => d.billable < Math.min(d.valid, dailyCap ?? Infinity));
  const sum = (k: keyof ScopeDay | 'billable' | 'over') => days.reduce((s, d) => s + (d[k] as number), 0);
  return {
    days,
    rule: { cap: dailyCap, cutoffDay: cut?.day ?? null, cutoffCount: cut?.billable ?? 0 },
    valid: sum('valid'), billable: sum('billable'), over: sum('over'),
    duplicates: sum('duplicates'), invalid: sum('invalid'), returned: sum('returned'), deleted: sum('deleted'),
  };
}

/** Whether the valid lead ranked `rank` on `day` is billable under the rule. */
export function isCounted(rule: CountedRule, day: string, rank: number): boolean {
  if (rule.cap !== null && rank > rule.cap) return false;
  if (rule.cutoffDay === null || day < rule.cutoffDay) return true;
  return day === rule.cutoffDay && rank <= rule.cutoffCount;
}

/** Every day from `from` to `to` (inclusive) with its figures, zeros where no lead came. */
export function everyDay(from: string, to: string, days: readonly ContractDayFigures[]): ContractDayFigures[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const out: ContractDayFigures[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    out.push(byDay.get(day) ?? { day, valid: 0, duplicates: 0, invalid: 0, returned: 0, deleted: 0, billable: 0, over: 0 });
  }
  return out;
}

/** The last day of a month (YYYY-MM). */
export function monthLastDay(month: string): string {
  return addDays(`${addDays(`${month}-28`, 4).slice(0, 7)}-01`, -1);
}
