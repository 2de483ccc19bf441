// The money rules every screen shares (pure: the server computes with them, the SPA shows
// what they mean): VAT, a contract's status, what is billable under its caps, the projection,
// the return rule, and the advertising ratios. KRW are integers throughout.
import { addDays } from './kst.ts';

/** VAT (부가세) on a supply amount: 10%, won below one dropped (원 미만 절사). */
export const vatOf = (supply: number) => Math.floor(supply / 10);

export const RETURN_REASONS = ['결번', '중복', '허위', '연락두절', '타지역', '기타'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];
export const RETURN_STATUSES = ['requested', 'approved', 'rejected'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = { requested: '요청', approved: '승인', rejected: '반려' };

export const CONTRACT_STATUSES = ['scheduled', 'active', 'completed', 'stopped'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
export const CONTRACT_STATUS_LABELS: Record<ContractStatus, string> = { scheduled: '예정', active: '진행', completed: '완료', stopped: '중지' };

/** The last Seoul day a contract counts leads on: its end, or the day it was stopped. */
export function effectiveEnd(c: { endsOn: string; stoppedOn: string | null }): string {
  return c.stoppedOn && c.stoppedOn < c.endsOn ? c.stoppedOn : c.endsOn;
}

/** 중지 when stopped; 예정 before its first day; 완료 past its last day or with its quantity met; else 진행. */
export function contractStatus(c: { startsOn: string; endsOn: string; stoppedOn: string | null; quantity: number }, counted: number, today: string): ContractStatus {
  if (c.stoppedOn) return 'stopped';
  if (today < c.startsOn) return 'scheduled';
  if (today > c.endsOn || counted >= c.quantity) return 'completed';
  return 'active';
}

/** Two contracts of a shop collide when their periods share a day and their landings and media meet (none listed: all). */
export function contractsOverlap(
  a: { startsOn: string; lastDay: string; landingIds: readonly number[]; mediaTypeIds: readonly number[] },
  b: { startsOn: string; lastDay: string; landingIds: readonly number[]; mediaTypeIds: readonly number[] },
): boolean {
  if (a.lastDay < b.startsOn || b.lastDay < a.startsOn) return false;
  const meet = (x: readonly number[], y: readonly number[]) => !x.length || !y.length || x.some((v) => y.includes(v));
  return meet(a.landingIds, b.landingIds) && meet(a.mediaTypeIds, b.mediaTypeIds);
}

interface DayCount {
  day: string;
  count: number;
}

export interface BillableDay extends DayCount {
  /** Counted toward the contract: within the day's cap and the quantity. */
  billable: number;
  /** Valid leads past the daily cap or the quantity (not billed). */
  over: number;
}

/**
 * Valid leads per day → what is billable, oldest day first: each day at most the daily cap,
 * and all days together at most the quantity.
 */
export function billableDays(days: readonly DayCount[], quantity: number, dailyCap: number | null): BillableDay[] {
  let left = quantity;
  return [...days]
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))
    .map((d) => {
      const billable = Math.max(0, Math.min(d.count, dailyCap ?? Infinity, left));
      left -= billable;
      return { ...d, billable, over: d.count - billable };
    });
}

/** The daily average over the days run so far, and the day the quantity is met at that pace (null: no pace, or met). */
export function projection(c: { startsOn: string; endsOn: string; quantity: number }, counted: number, today: string): { dailyAverage: number; projectedOn: string | null; daysRun: number } {
  const last = today < c.endsOn ? today : c.endsOn;
  const daysRun = last < c.startsOn ? 0 : daysBetween(c.startsOn, last) + 1;
  const dailyAverage = daysRun ? counted / daysRun : 0;
  if (counted >= c.quantity || dailyAverage <= 0) return { dailyAverage, projectedOn: null, daysRun };
  return { dailyAverage, projectedOn: addDays(last, Math.ceil((c.quantity - counted) / dailyAverage)), daysRun };
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * Whether one more return fits the contract's maximum return rate: approved and pending
 * returns plus this one, over the leads delivered under it (valid or returned), at most the rate.
 */
export function returnFits(maxRatePercent: number, delivered: number, returnsSoFar: number): boolean {
  return delivered > 0 && (returnsSoFar + 1) * 100 <= maxRatePercent * delivered;
}

/** Returns still owed a replacement: approved returns the contract's remaining quantity has not absorbed. */
export function replacementsOwed(quantity: number, billable: number, approvedReturns: number): number {
  return Math.max(0, Math.min(approvedReturns, quantity - billable));
}

/** A ratio, or null when there is nothing to divide by (shown as "-", never as 0 or ∞). */
const ratio = (num: number, den: number): number | null => (den > 0 ? num / den : null);

export interface AdTotals {
  impressions: number;
  clicks: number;
  spend: number;
  /** Leads received (not deleted), duplicates included. */
  leads: number;
  /** Valid leads (the counting rule). */
  validLeads: number;
}

interface AdMetrics {
  /** clicks / impressions, percent */
  ctr: number | null;
  /** leads / clicks, percent */
  cvr: number | null;
  /** spend / leads, KRW */
  cpl: number | null;
  /** spend / valid leads, KRW */
  cpa: number | null;
}

const pct = (v: number | null) => (v === null ? null : Math.round(v * 10_000) / 100);
const won = (v: number | null) => (v === null ? null : Math.round(v));

export function adMetrics(t: AdTotals): AdMetrics {
  return {
    ctr: pct(ratio(t.clicks, t.impressions)), cvr: pct(ratio(t.leads, t.clicks)),
    cpl: won(ratio(t.spend, t.leads)), cpa: won(ratio(t.spend, t.validLeads)),
  };
}

/** CPA against its target: the difference (positive: over target, worse) and its percent of the target. */
export function cpaVariance(actual: number | null, target: number | null): { diff: number; percent: number } | null {
  if (actual === null || target === null || target <= 0) return null;
  return { diff: actual - target, percent: Math.round(((actual - target) / target) * 1000) / 10 };
}

export const won0 = (n: number) => `${n.toLocaleString('ko-KR')}원`;

/**
 * The note every screen with CTR, CVR, CPL, CPA or margin shows while some leads did not come
 * from an ad (entered by hand, imported, or without a medium): they are counted apart.
 */
export const otherLeadsNote = (count: number) =>
  `광고 외 DB(수기·가져오기·매체 없음) ${count.toLocaleString('ko-KR')}건은 CTR·CVR·CPL·CPA·마진에 넣지 않았습니다.`;

/** A contract as the coverage rule reads it: its days, whether it was stopped, its landings and media (none listed: all). */
export interface CoverageContract {
  name: string;
  startsOn: string;
  /** effectiveEnd: its end, or the day it was stopped. */
  lastDay: string;
  stopped: boolean;
  landingIds: readonly number[];
  /** The media it counts, with their names for the reasons. */
  media: ReadonlyArray<{ id: number; name: string }>;
}

/**
 * Why no contract covers a landing's leads today — each reason a Korean sentence; empty when a
 * running contract does (its days include today, it is not stopped, and its landings and media,
 * none listed meaning all, take the landing and its medium). A live landing with reasons bills
 * nothing: its valid leads are 계약 외.
 */
export function contractGap(landing: { id: number; mediaTypeId: number | null }, contracts: readonly CoverageContract[], today: string): string[] {
  const reasons: string[] = [];
  for (const c of contracts) {
    if (c.lastDay < today && !c.stopped) continue;
    const landingOk = !c.landingIds.length || c.landingIds.includes(landing.id);
    const mediumOk = !c.media.length || (landing.mediaTypeId !== null && c.media.some((m) => m.id === landing.mediaTypeId));
    if (c.stopped) {
      if (landingOk && mediumOk) reasons.push(`'${c.name}' 계약은 중지되었습니다.`);
      continue;
    }
    if (landingOk && mediumOk && c.startsOn <= today) return [];
    if (!landingOk) reasons.push(`'${c.name}' 계약은 다른 랜딩만 셉니다.`);
    else if (!mediumOk) reasons.push(`'${c.name}' 계약은 매체 ${c.media.map((m) => m.name).join('·')}만 셉니다${landing.mediaTypeId === null ? ' (이 랜딩은 매체가 없습니다)' : ''}.`);
    else reasons.push(`'${c.name}' 계약은 ${c.startsOn}에 시작합니다.`);
  }
  return reasons.length ? reasons : ['진행 중인 계약이 없습니다.'];
}

/** The warning's first sentence; the reasons follow it. */
export const CONTRACT_GAP_TITLE = '이 랜딩의 DB는 어느 계약에도 들어가지 않아 청구되지 않습니다.';
