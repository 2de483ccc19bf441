import { z } from './zod.ts';
import { endpoint } from './endpoint.ts';

const count = z.number().int();

export const dashboardResponse = z.object({
  today: z.string(),
  leads: z.object({
    today: count,
    month: count,
    duplicatesToday: count,
    byShop: z.array(z.object({ shopId: z.number(), shopName: z.string(), today: count, month: count })),
    byMedium: z.array(z.object({ medium: z.string(), month: count })),
    daily: z.array(z.object({ day: z.string(), count })),
  }),
  shops: z.object({ active: count, disabled: count }),
  accounts: z.object({ active: count, locked: count, disabled: count }),
  security: z.object({ activeDenyRules: count, blockedToday: count, failedLoginsToday: count }),
  recentLogins: z.array(z.object({ loginId: z.string(), name: z.string(), ip: z.string().nullable(), at: z.string() })),
});
export type Dashboard = z.infer<typeof dashboardResponse>;

export const dashboardApi = { get: endpoint({ method: 'GET', path: '/api/dashboard', response: dashboardResponse }) };
