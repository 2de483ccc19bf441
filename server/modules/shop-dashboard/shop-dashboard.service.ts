// The shop dashboard's figures, taken at one instant in Seoul days. Comparisons measure the
// same stretch before (yesterday up to this time, last month up to this day), so a morning's
// figures are not set against a whole day's. Overdue uses the shop's own threshold, as DB 현황
// marks its rows. The money (contract progress, cap closings, this month's ad spend and CPA)
// comes from 계약 현황's and 광고 현황's own computations through the links, only to accounts
// that may read those screens; how delivery stands (DB 전송 이력 read) is read from the
// delivery tables here — cheap reads of short lists, fresh on every refetch.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ModuleLinks } from '../../links.ts';
import { sharedFlights } from '../../lib/shared-flights.ts';
import type { Actor } from '../audit/audit.service.ts';
import { leadsService, slaFigures } from '../leads/leads.entry.ts';
import { shopDashboardRepository, type DashboardViewer } from './shop-dashboard.repository.ts';
import { addDays, seoulDay, seoulDayStart } from '../../../contracts/kst.ts';
import { CS_STATUSES } from '../../../contracts/leads.ts';
import { PURGED_NAME } from '../../../contracts/lead-deletion.ts';
import { forSide } from '../../../contracts/permissions.ts';
import { uncoveredLandings } from '../../db/contract-coverage.ts';
import {
  BACKLOG_DAYS, SHOP_DASHBOARD_AGENCY_FIGURES, SHOP_DASHBOARD_CAP_EVENTS, SHOP_DASHBOARD_DAYS, SHOP_DASHBOARD_FAILURES, byContractState, contractProgressOf, type DashboardCapEvent,
  type ShopDashboard,
} from '../../../contracts/shop-dashboard.ts';

const DAY_MS = 86_400_000;

/** Which figures from other screens the caller may see: 계약 현황 read, 광고 현황 read, DB 전송 이력 read. */
interface MoneyAccess {
  contracts: boolean;
  ads: boolean;
  delivery: boolean;
}

export function shopDashboardService(db: Kysely<Database>, clock: Clock, links: Pick<ModuleLinks, 'contractProgress' | 'adTotals' | 'watchAllLeads'>) {
  const repo = shopDashboardRepository(db);
  const leads = leadsService(db, clock);
  // The shop's open dashboards refetch when a lead arrives: those asking at once share one
  // reading of its contracts and spend (the same for everyone who may see them), unless leads changed meanwhile.
  const contractFlights = sharedFlights<number, ShopDashboard['contracts']>();
  const adFlights = sharedFlights<number, ShopDashboard['ad']>();
  links.watchAllLeads(() => {
    contractFlights.changed();
    adFlights.changed();
  });

  async function contracts(shopId: number, now: Date): Promise<ShopDashboard['contracts']> {
    const [figures, events, uncovered] = await Promise.all([
      links.contractProgress([shopId]), repo.capEvents(shopId, SHOP_DASHBOARD_CAP_EVENTS), uncoveredLandings(db, [shopId], seoulDay(now)),
    ]);
    return {
      uncoveredLandings: uncovered.map(({ landingId, title, reasons }) => ({ landingId, title, reasons })),
      items: figures.map((f) => contractProgressOf(f, now)).sort(byContractState),
      capEvents: events.map((e): DashboardCapEvent => ({
        id: e.id, kind: e.kind, landingId: e.landing_id, landingTitle: e.landing_title, count: e.count, at: e.at, contractId: e.contract_id, contractName: e.contract_name,
      })),
    };
  }

  /** This month to today: what 광고 현황 shows when it opens. */
  async function ad(shopId: number, monthFirst: string, today: string): Promise<ShopDashboard['ad']> {
    const { shops } = await links.adTotals([shopId], monthFirst, today);
    const s = shops[0]!;
    return { from: monthFirst, to: today, totals: s.totals, media: s.media };
  }

  /** Failed jobs, retries waiting, today's deliveries, channels a 410 turned off and the latest failures. */
  async function delivery(shopId: number, who: DashboardViewer, todayStart: string): Promise<ShopDashboard['delivery']> {
    const [counts, off, failures] = await Promise.all([
      repo.deliveryCounts(shopId, who, todayStart), repo.channelsOff(shopId), repo.deliveryFailures(shopId, who, SHOP_DASHBOARD_FAILURES),
    ]);
    return {
      ...counts,
      channelsOff: off.map((c) => ({ id: c.id, name: c.name, kind: c.kind, reason: c.disabled_reason ?? '', at: c.disabled_at })),
      failures: failures.map((f) => ({
        jobId: f.id, leadId: f.lead_id, leadName: f.lead_purged_at ? PURGED_NAME : f.lead_name, channelId: f.channel_id, channelName: f.channel_name,
        channelKind: f.channel_kind, at: f.updated_at, attempts: f.attempts, responseCode: f.response_code, error: f.last_error,
      })),
    };
  }

  return {
    /** Speed to lead over the last SHOP_DASHBOARD_DAYS days, today included; a counselor's of their own leads. */
    sla(shopId: number, actor: Actor) {
      const now = clock();
      const today = seoulDay(now);
      return slaFigures(db, shopId, { from: addDays(today, -(SHOP_DASHBOARD_DAYS - 1)), to: today }, actor, now);
    },

    async get(shopId: number, actor: Actor, may: MoneyAccess): Promise<ShopDashboard> {
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

      const [counts, byMedium, byLanding, byStatus, unassigned, overdue, appointmentsToday, daily, money, spend, deliveries] = await Promise.all([
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
        may.contracts ? contractFlights.run(shopId, () => contracts(shopId, now)) : null,
        may.ads ? adFlights.run(shopId, () => ad(shopId, monthFirst, today)) : null,
        may.delivery ? delivery(shopId, who, todayStart.toISOString()) : null,
      ]);

      return forSide(actor.side, {
        today,
        monthStart: monthFirst,
        backlogStart: backlogFirst,
        leads: counts,
        unassigned,
        overdue,
        overdueMinutes,
        appointmentsToday,
        byMedium,
        byLanding: byLanding.map((l) => ({ landingId: l.landingId, title: l.title ?? (l.landingId === null ? '직접 등록' : '삭제된 랜딩'), count: l.count, duplicates: l.duplicates, variants: l.variants })),
        byStatus: CS_STATUSES.filter((s) => byStatus.has(s)).map((status) => ({ status, count: byStatus.get(status)! })),
        daily: Array.from({ length: SHOP_DASHBOARD_DAYS }, (_, i) => addDays(chartFirst, i)).map((day) => ({ day, ...(daily.get(day) ?? { count: 0, duplicates: 0 }) })),
        contracts: money,
        ad: spend,
        delivery: deliveries,
      }, SHOP_DASHBOARD_AGENCY_FIGURES);
    },
  };
}
