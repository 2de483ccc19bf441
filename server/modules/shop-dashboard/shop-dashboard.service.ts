// The shop dashboard's figures, taken at one instant in Seoul days. Comparisons measure the
// same stretch before (yesterday up to this time, last month up to this day), so a morning's
// figures are not set against a whole day's. Overdue uses the shop's own threshold, as DB 현황
// marks its rows.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor } from '../audit/audit.service.ts';
import { leadsService } from '../leads/leads.service.ts';
import { shopDashboardRepository, type DashboardViewer } from './shop-dashboard.repository.ts';
import { addDays, seoulDay, seoulDayStart } from '../../../contracts/kst.ts';
import { CS_STATUSES } from '../../../contracts/leads.ts';
import { BACKLOG_DAYS, SHOP_DASHBOARD_DAYS, type ShopDashboard } from '../../../contracts/shop-dashboard.ts';

const DAY_MS = 86_400_000;

export function shopDashboardService(db: Kysely<Database>, clock: Clock) {
  const repo = shopDashboardRepository(db);
  const leads = leadsService(db, clock);
  return {
    async get(shopId: number, actor: Actor): Promise<ShopDashboard> {
      const now = clock();
      const who: DashboardViewer = { accountId: actor.id, scope: actor.scope };
      const today = seoulDay(now);
      const todayStart = seoulDayStart(today);
      const monthFirst = `${today.slice(0, 8)}01`;
      const monthStart = seoulDayStart(monthFirst);
      const lastMonthStart = seoulDayStart(`${addDays(monthFirst, -1).slice(0, 8)}01`);
      // As far into last month as this month has gone; past its end (31 March → February), all of it.
      const lastMonthCut = new Date(Math.min(lastMonthStart.getTime() + (now.getTime() - monthStart.getTime()), monthStart.getTime()));
      const backlogFirst = addDays(today, -(BACKLOG_DAYS - 1));
      const backlogStart = seoulDayStart(backlogFirst).toISOString();
      const chartFirst = addDays(today, -(SHOP_DASHBOARD_DAYS - 1));
      const { overdueMinutes } = await leads.settings(shopId);
      const overdueBefore = new Date(now.getTime() - overdueMinutes * 60_000).toISOString();

      const [counts, byMedium, byLanding, byStatus, unassigned, overdue, appointmentsToday, daily] = await Promise.all([
        repo.counts(shopId, who, {
          lastMonthStart: lastMonthStart.toISOString(), lastMonthCut: lastMonthCut.toISOString(), monthStart: monthStart.toISOString(),
          yesterdayStart: new Date(todayStart.getTime() - DAY_MS).toISOString(), yesterdayCut: new Date(now.getTime() - DAY_MS).toISOString(),
          todayStart: todayStart.toISOString(),
        }),
        repo.byMedium(shopId, who, monthStart.toISOString()),
        repo.byLanding(shopId, who, monthStart.toISOString()),
        repo.byStatus(shopId, who, monthStart.toISOString()),
        // A counselor's leads are assigned by definition: the shop's unassigned ones are not theirs to see.
        who.scope === 'assigned' ? null : repo.unassigned(shopId, backlogStart),
        repo.untouched(shopId, who, backlogStart, overdueBefore),
        repo.appointments(shopId, who, todayStart.toISOString(), new Date(todayStart.getTime() + DAY_MS).toISOString()),
        repo.daily(shopId, who, seoulDayStart(chartFirst).toISOString()),
      ]);

      return {
        today,
        monthStart: monthFirst,
        backlogStart: backlogFirst,
        leads: counts,
        unassigned,
        overdue,
        overdueMinutes,
        appointmentsToday,
        byMedium,
        byLanding: byLanding.map((l) => ({ landingId: l.landingId, title: l.title ?? (l.landingId === null ? '직접 등록' : '삭제된 랜딩'), count: l.count, duplicates: l.duplicates })),
        byStatus: CS_STATUSES.filter((s) => byStatus.has(s)).map((status) => ({ status, count: byStatus.get(status)! })),
        daily: Array.from({ length: SHOP_DASHBOARD_DAYS }, (_, i) => addDays(chartFirst, i)).map((day) => ({ day, ...(daily.get(day) ?? { count: 0, duplicates: 0 }) })),
      };
    },
  };
}
