import { z } from './zod.ts';
import { endpoint } from './endpoint.ts';

const count = z.number().int();

/** Days the dashboard's chart covers, today included. */
export const DASHBOARD_DAYS = 30;

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
};
