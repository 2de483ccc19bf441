import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { dashboardRepository } from './dashboard.repository.ts';
import { addDays, seoulDay, seoulDayStart } from '../../../contracts/kst.ts';
import { DASHBOARD_DAYS, type Dashboard } from '../../../contracts/dashboard.ts';

export function dashboardService(db: Kysely<Database>, clock: Clock) {
  const repo = dashboardRepository(db);
  return {
    async get(): Promise<Dashboard> {
      const now = clock();
      const today = seoulDay(now);
      const todayStart = seoulDayStart(today).toISOString();
      const monthStart = seoulDayStart(`${today.slice(0, 8)}01`).toISOString();
      const firstDay = addDays(today, -(DASHBOARD_DAYS - 1));
      const fromStart = seoulDayStart(firstDay).toISOString();
      const [counts, unassigned, byShop, byMedium, daily, blockedDaily, shops, accounts, denyRules, blocked, failed, logins] = await Promise.all([
        repo.leadCounts(todayStart, monthStart),
        repo.unassigned(),
        repo.byShop(todayStart, monthStart),
        repo.byMedium(monthStart),
        repo.daily(fromStart),
        repo.blockedDaily(fromStart),
        repo.shopCounts(),
        repo.accountCounts(),
        repo.activeDenyRules(now.toISOString()),
        repo.blockedSince(todayStart),
        repo.auditCount('login-failed', todayStart),
        repo.recentLogins(),
      ]);
      return {
        today,
        leads: {
          ...counts,
          unassigned,
          byShop,
          byMedium,
          daily: Array.from({ length: DASHBOARD_DAYS }, (_, i) => addDays(firstDay, i)).map((day) => ({
            day, count: daily.get(day)?.count ?? 0, duplicates: daily.get(day)?.duplicates ?? 0, blocked: blockedDaily.get(day) ?? 0,
          })),
        },
        shops: { active: shops.active ?? 0, disabled: shops.disabled ?? 0 },
        accounts: { active: accounts.active ?? 0, locked: accounts.locked ?? 0, disabled: accounts.disabled ?? 0 },
        security: { activeDenyRules: denyRules, blockedToday: blocked, failedLoginsToday: failed },
        recentLogins: logins.map((l) => ({ loginId: l.login_id, name: l.name, ip: l.ip, at: l.at })),
      };
    },
  };
}
