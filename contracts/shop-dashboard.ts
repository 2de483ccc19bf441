// 업체 대시보드: one shop's leads at a glance — today and this month against the same stretch
// before, where this month's came from, how they are being worked, what waits, and the last
// SHOP_DASHBOARD_DAYS days. A counselor's figures count only the leads assigned to them.
import { z } from './zod.ts';
import { shopParam } from './list.ts';
import { endpoint } from './endpoint.ts';
import { CS_STATUSES } from './leads.ts';

/** Days the daily chart covers, today included. */
export const SHOP_DASHBOARD_DAYS = 30;
/** Days back the waiting figures (미배분, overdue 미처리) look: the period their DB 현황 link opens. */
export const BACKLOG_DAYS = 90;

const count = z.number().int();

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
  /** At most 10. */
  byLanding: z.array(z.object({ landingId: z.number().nullable(), title: z.string(), count, duplicates: count })),
  byStatus: z.array(z.object({ status: z.enum(CS_STATUSES), count })),
  /** The last SHOP_DASHBOARD_DAYS Seoul days, oldest first. */
  daily: z.array(z.object({ day: z.string(), count, duplicates: count })),
});
export type ShopDashboard = z.infer<typeof shopDashboard>;

export const shopDashboardApi = {
  get: endpoint({ method: 'GET', path: '/api/shops/:shopId/dashboard', params: shopParam, response: shopDashboard }),
};
