import { z } from './zod.ts';
import { endpoint } from './endpoint.ts';
import { adFigures } from './ad-spend.ts';
import { contractProgress, dashboardCapEvent, monthAdFigures } from './shop-dashboard.ts';
import { uncoveredLanding } from './shop-contracts.ts';
import { RESERVATION_KINDS } from './system-reservations.ts';
import { slaRanking } from './lead-sla.ts';

const count = z.number().int();

/** Days the dashboard's chart covers, today included. */
export const DASHBOARD_DAYS = 30;
/** A running contract is near completion from this percent of its quantity counted. */
export const NEAR_COMPLETION_PERCENT = 80;
/** Cap events and shops (by spend) the dashboard lists. */
export const DASHBOARD_CAP_EVENTS = 8;
export const DASHBOARD_AD_SHOPS = 10;
/** Shops the delivery failures list at most (the most failed first), and system reservations shown. */
export const DASHBOARD_DELIVERY_SHOPS = 10;
export const DASHBOARD_RESERVATIONS = 5;

/** Why a contract is listed: near its quantity, or behind the pace its end needs. */
export const CONTRACT_WATCH_REASONS = ['near', 'behind'] as const;

const shopRef = { shopId: z.number(), shopName: z.string() };

export const dashboardResponse = z.object({
  today: z.string(),
  leads: z.object({
    today: count,
    month: count,
    duplicatesToday: count,
    /** Non-duplicate leads of every shop that no counselor holds yet. */
    unassigned: count,
    byShop: z.array(z.object({ shopId: z.number(), shopName: z.string(), today: count, month: count, duplicates: count })),
    byMedium: z.array(z.object({ medium: z.string(), month: count })),
    /** The last DASHBOARD_DAYS Seoul days: leads received (duplicates among them) and submissions blocked. */
    daily: z.array(z.object({ day: z.string(), count, duplicates: count, blocked: count })),
  }),
  shops: z.object({ active: count, disabled: count }),
  accounts: z.object({ active: count, locked: count, disabled: count }),
  security: z.object({ activeDenyRules: count, blockedToday: count, failedLoginsToday: count }),
  recentLogins: z.array(z.object({ loginId: z.string(), name: z.string(), ip: z.string().nullable(), at: z.string() })),
  /** Every shop's contracts (null without 계약 현황 read). */
  contracts: z
    .object({
      /** Running contracts at NEAR_COMPLETION_PERCENT of their quantity or projected to complete after their end, the most done first. */
      watch: z.array(contractProgress.extend({ shopName: z.string(), reasons: z.array(z.enum(CONTRACT_WATCH_REASONS)) })),
      /** Landings a contract's cap holds closed now, with when each reopens (null: a quantity closing, it stays closed). */
      closedLandings: z.array(
        z.object({
          ...shopRef, landingId: z.number(), title: z.string(), contractId: z.number(), contractName: z.string(),
          /** The closing's time (its latest closing event). */
          closedAt: z.string().nullable(),
          reopenAt: z.string().nullable(),
        }),
      ),
      /** The latest closings and reopenings across shops, newest first. */
      capEvents: z.array(dashboardCapEvent.extend(shopRef)),
      /** Open landings no contract covers today (their leads bill nothing), by shop. */
      uncoveredLandings: z.array(uncoveredLanding.extend(shopRef)),
    })
    .nullable(),
  /** This month's advertising across shops (null without 광고 현황 read): totals and the shops that spent most. */
  ad: monthAdFigures.extend({ byShop: z.array(adFigures.extend(shopRef)) }).nullable(),
  /** Delivery in trouble across shops (null without DB 전송 이력 read): as each shop's 대기·실패 중 counts it. */
  delivery: z
    .object({
      totals: z.object({ failed: count, retrying: count, channelsOff: count }),
      /** Shops with jobs failed or waiting for a retry, or channels a receiver's 410 turned off; the most failed first. */
      byShop: z.array(z.object({
        ...shopRef,
        /** Jobs that stay failed. */
        failed: count,
        /** Jobs tried and failed, waiting for their next attempt. */
        retrying: count,
        /** Channels turned off by a 410. */
        channelsOff: count,
      })),
    })
    .nullable(),
  /** The next DASHBOARD_RESERVATIONS system reservations under way or scheduled, the earliest first (null without 시스템 예약 read). */
  reservations: z
    .array(z.object({
      id: z.number(), kind: z.enum(RESERVATION_KINDS), title: z.string(), startsAt: z.string(), endsAt: z.string().nullable(),
      status: z.enum(['scheduled', 'running']),
    }))
    .nullable(),
});
export type Dashboard = z.infer<typeof dashboardResponse>;

/** What the dashboard's stream says: leads arrived or changed in these shops (ids and counts only, nothing personal). */
export const dashboardStreamEvent = z.object({ kind: z.enum(['created', 'changed']), shopId: z.number(), count });
export type DashboardStreamEvent = z.infer<typeof dashboardStreamEvent>;
export const DASHBOARD_STREAM_EVENT = 'leads';

export const dashboardApi = {
  get: endpoint({ method: 'GET', path: '/api/dashboard', response: dashboardResponse }),
  /** Lead arrivals in every shop as they happen (server-sent events named DASHBOARD_STREAM_EVENT). */
  stream: endpoint({ method: 'GET', path: '/api/dashboard/stream', response: 'events' }),
  /** The shops with the SLA on, by SLA met over the last DASHBOARD_DAYS days (agency staff only). */
  slaRanking: endpoint({ method: 'GET', path: '/api/dashboard/sla-ranking', response: slaRanking }),
};
