// 업체 대시보드: one shop's leads at a glance — today and this month against the same stretch
// before, where this month's came from, how they are being worked, what waits, and the last
// SHOP_DASHBOARD_DAYS days. A counselor's figures count only the leads assigned to them.
// With 계약 현황 read, the contracts' progress and the caps' latest closings; with 광고 현황
// read, this month's spend and CPA — slices of those screens' own figures, so they agree.
// With DB 전송 이력 read, how delivery stands: failed jobs, retries waiting, channels a receiver
// turned off, today's deliveries and the latest failures (names only, never a phone).
import { z } from './zod.ts';
import { shopParam } from './list.ts';
import { endpoint } from './endpoint.ts';
import { CS_STATUSES } from './leads.ts';
import { capEventItem, contractFigures, contractItem, uncoveredLanding, type ContractFigures } from './shop-contracts.ts';
import { adFigures, adMediumTotal } from './ad-spend.ts';
import { DELIVERY_KINDS } from './delivery.ts';
import { slaFigures } from './lead-sla.ts';

/** Days the daily chart covers, today included. */
export const SHOP_DASHBOARD_DAYS = 30;
/** Days back the waiting figures (미배분, overdue 미처리) look: the period their DB 현황 link opens. */
export const BACKLOG_DAYS = 90;

const count = z.number().int();

// ── Money (shared with the administrators' dashboard) ───────────────────────────────────

/** Days after its last day a contract still shows on the dashboards. */
export const DASHBOARD_CONTRACT_RECENT_DAYS = 7;
/** Cap events the shop dashboard lists. */
export const SHOP_DASHBOARD_CAP_EVENTS = 5;

const CAP_EVENT_KINDS = ['closed-daily', 'closed-quantity', 'reopened'] as const;
export type CapEventKind = (typeof CAP_EVENT_KINDS)[number];
export const CAP_EVENT_KIND_LABELS: Record<CapEventKind, string> = { 'closed-daily': '일 한도 마감', 'closed-quantity': '수량 마감', reopened: '재개' };

/** A contract's progress as the dashboards show it: a slice of 계약 현황's figures (computed by the same function). */
export const contractProgress = contractFigures
  .pick({ today: true, lastDay: true, counted: true, quantity: true, remaining: true, todayCount: true, dailyAverage: true, projectedOn: true, replacementsOwed: true })
  .extend({
    contract: contractItem.pick({ id: true, shopId: true, name: true, startsOn: true, endsOn: true, stoppedOn: true, status: true, dailyCap: true, autoClose: true }),
    /** Its landings a cap holds closed now: a daily closing reopens at reopenAt (the next Seoul midnight); a quantity closing has none. */
    closedLandings: contractFigures.shape.closedLandings,
  });
export type ContractProgress = z.infer<typeof contractProgress>;

/** A closing or reopening by a contract's cap. */
export const dashboardCapEvent = capEventItem
  .pick({ id: true, landingId: true, landingTitle: true, count: true, at: true })
  .extend({ kind: z.enum(CAP_EVENT_KINDS), contractId: z.number(), contractName: z.string() });
export type DashboardCapEvent = z.infer<typeof dashboardCapEvent>;

/** This month up to today (Seoul), as 광고 현황 shows it by default. */
export const monthAdFigures = z.object({
  from: z.string(),
  to: z.string(),
  totals: adFigures,
});

// ── Delivery ────────────────────────────────────────────────────────────────────────────

/** Failures the shop dashboard lists. */
export const SHOP_DASHBOARD_FAILURES = 5;

/** A channel the system turned off: its receiver answered 410 Gone. */
export const dashboardChannelOff = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(DELIVERY_KINDS),
  reason: z.string(),
  at: z.string().nullable(),
});

/** A delivery that stays failed (every attempt spent, or an answer not worth repeating). */
export const dashboardDeliveryFailure = z.object({
  jobId: z.number(),
  leadId: z.number(),
  /** The lead's name ('파기됨' once destroyed); its phone never leaves the server here. */
  leadName: z.string(),
  channelId: z.number(),
  channelName: z.string(),
  channelKind: z.enum(DELIVERY_KINDS),
  /** When it failed for good (the job's last change). */
  at: z.string(),
  attempts: count,
  responseCode: z.number().nullable(),
  error: z.string().nullable(),
});

export const shopDashboard = z.object({
  /** Seoul day the figures were taken on. */
  today: z.string(),
  /** The first day of this month and of the backlog window (links to DB 현황 use them). */
  monthStart: z.string(),
  backlogStart: z.string(),
  leads: z.object({
    today: count,
    /** Yesterday up to the same time of day. */
    yesterday: count,
    month: count,
    /** Last month up to the same day and time (clamped to its last day). */
    lastMonth: count,
    duplicatesToday: count,
    duplicatesMonth: count,
  }),
  /** Non-duplicate leads of the backlog window no counselor holds; null for a counselor (theirs are assigned by definition). */
  unassigned: count.nullable(),
  /** 미처리 leads of the backlog window older than the shop's threshold. */
  overdue: count,
  overdueMinutes: z.number().int(),
  /** Leads with an appointment today. */
  appointmentsToday: count,
  /** This month, most first. */
  byMedium: z.array(z.object({ mediaTypeId: z.number().nullable(), medium: z.string(), count, duplicates: count })),
  /** At most 10; `variants`: 실험안별, its leads that came from an A/B experiment's variant (A, B …), empty without one. */
  byLanding: z.array(z.object({
    landingId: z.number().nullable(), title: z.string(), count, duplicates: count,
    variants: z.array(z.object({ key: z.string(), count, duplicates: count })),
  })),
  byStatus: z.array(z.object({ status: z.enum(CS_STATUSES), count })),
  /** The last SHOP_DASHBOARD_DAYS Seoul days, oldest first. */
  daily: z.array(z.object({ day: z.string(), count, duplicates: count })),
  /** Null without 계약 현황 read. */
  contracts: z
    .object({
      /** Running contracts, then those ended in the last DASHBOARD_CONTRACT_RECENT_DAYS days. */
      items: z.array(contractProgress),
      /** The shop's latest closings and reopenings, newest first. */
      capEvents: z.array(dashboardCapEvent),
      /** The shop's open landings no contract covers today (their leads bill nothing). */
      uncoveredLandings: z.array(uncoveredLanding),
    })
    .nullable(),
  /** Null without 광고 현황 read, and always for a client account (the agency's figures: SHOP_DASHBOARD_AGENCY_FIGURES). */
  ad: monthAdFigures.extend({ media: z.array(adMediumTotal) }).nullable(),
  /** Null without DB 전송 이력 read. A counselor-like scope counts the jobs of its own leads, as the history lists them. */
  delivery: z
    .object({
      /** Jobs that stay failed (retried by hand on DB 전송 이력). */
      failed: count,
      /** Jobs tried and failed, waiting for their next attempt. */
      retrying: count,
      /** Deliveries made today (Seoul), by their successful attempt (a lead sent to two channels counts twice). */
      deliveredToday: count,
      /** The shop's channels a receiver's 410 turned off, the latest first. */
      channelsOff: z.array(dashboardChannelOff),
      /** The latest SHOP_DASHBOARD_FAILURES failed jobs, newest first. */
      failures: z.array(dashboardDeliveryFailure),
    })
    .nullable(),
});
export type ShopDashboard = z.infer<typeof shopDashboard>;

/**
 * The agency's figures on the client's dashboard: this month's ad spend, CPL and CPA. A client
 * account receives null for each, whatever its type's matrix says; the lead counts, contract
 * progress and delivery are the client's own.
 */
export const SHOP_DASHBOARD_AGENCY_FIGURES = ['ad'] as const satisfies ReadonlyArray<keyof ShopDashboard>;

export const shopDashboardApi = {
  get: endpoint({ method: 'GET', path: '/api/shops/:shopId/dashboard', params: shopParam, response: shopDashboard }),
  /** Speed to lead over the last SHOP_DASHBOARD_DAYS days (lead-sla.ts); fetched apart so the dashboard's figures do not wait for it. */
  sla: endpoint({ method: 'GET', path: '/api/shops/:shopId/dashboard/sla', params: shopParam, response: slaFigures }),
};

const STATUS_ORDER = { active: 0, completed: 1, stopped: 2, scheduled: 3 } as const;

/**
 * A contract's figures (계약 현황's) as the dashboards show them, at `now`: its landings a daily
 * cap closed stay listed only until their midnight (they are open from then, before the
 * reopening job has run).
 */
export function contractProgressOf(f: ContractFigures, now: Date): ContractProgress {
  const c = f.contract;
  const iso = now.toISOString();
  return {
    today: f.today, lastDay: f.lastDay, counted: f.counted, quantity: f.quantity, remaining: f.remaining, todayCount: f.todayCount,
    dailyAverage: f.dailyAverage, projectedOn: f.projectedOn, replacementsOwed: f.replacementsOwed,
    contract: {
      id: c.id, shopId: c.shopId, name: c.name, startsOn: c.startsOn, endsOn: c.endsOn, stoppedOn: c.stoppedOn, status: c.status, dailyCap: c.dailyCap,
      autoClose: c.autoClose,
    },
    closedLandings: f.closedLandings.filter((l) => l.reopenAt === null || l.reopenAt > iso),
  };
}

/** Running contracts first, then completed and stopped ones; the earliest begun first. */
export const byContractState = (a: ContractProgress, b: ContractProgress) =>
  STATUS_ORDER[a.contract.status] - STATUS_ORDER[b.contract.status] ||
  (a.contract.startsOn < b.contract.startsOn ? -1 : a.contract.startsOn > b.contract.startsOn ? 1 : a.contract.id - b.contract.id);

/** Percent of the quantity counted, one decimal, at most 100 (as 계약 현황 writes it). */
export const progressPercent = (p: { counted: number; quantity: number }) => (p.quantity > 0 ? Math.min(100, Math.floor((p.counted / p.quantity) * 1000) / 10) : 0);
