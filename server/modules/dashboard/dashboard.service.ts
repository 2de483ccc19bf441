// The administrators' dashboard: every shop's leads, accounts and defences; with 계약 현황 read,
// the contracts to watch (near their quantity or behind pace), the landings caps hold closed
// and the latest closings; with 광고 현황 read, this month's spend and CPA. The money comes
// from those screens' own computations through the links, so the figures are theirs. With DB
// 전송 이력 read, the shops whose delivery is in trouble (failed, retrying, channels a 410 turned
// off); with 시스템 예약 read, what is under way or coming next.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ModuleLinks } from '../../links.ts';
import { sharedFlights } from '../../lib/shared-flights.ts';
import { dashboardRepository } from './dashboard.repository.ts';
import { slaRanking } from '../leads/leads.entry.ts';
import { addDays, seoulDay, seoulDayStart } from '../../../contracts/kst.ts';
import {
  DASHBOARD_AD_SHOPS, DASHBOARD_CAP_EVENTS, DASHBOARD_DAYS, DASHBOARD_DELIVERY_SHOPS, DASHBOARD_RESERVATIONS, NEAR_COMPLETION_PERCENT,
  CONTRACT_WATCH_REASONS, type Dashboard,
} from '../../../contracts/dashboard.ts';
import { contractProgressOf } from '../../../contracts/shop-dashboard.ts';
import { uncoveredLandings } from '../../db/contract-coverage.ts';

type Reason = (typeof CONTRACT_WATCH_REASONS)[number];

/** Which figures from other screens the caller may see: 계약 현황, 광고 현황, DB 전송 이력 and 시스템 예약 read. */
interface MoneyAccess {
  contracts: boolean;
  ads: boolean;
  delivery: boolean;
  reservations: boolean;
}

export function dashboardService(db: Kysely<Database>, clock: Clock, links: Pick<ModuleLinks, 'contractProgress' | 'adTotals' | 'watchAllLeads'>) {
  const repo = dashboardRepository(db);
  // Every open dashboard refetches when a lead arrives: those asking at once share one reading
  // of the money (every shop's contracts are the costly part), unless leads changed meanwhile.
  const contractFlights = sharedFlights<'all', Dashboard['contracts']>();
  const adFlights = sharedFlights<'all', Dashboard['ad']>();
  links.watchAllLeads(() => {
    contractFlights.changed();
    adFlights.changed();
  });

  async function contracts(shops: Map<number, string>, now: Date): Promise<Dashboard['contracts']> {
    const [figures, closed, events, uncovered] = await Promise.all([
      links.contractProgress([...shops.keys()]), repo.closedLandings(now.toISOString()), repo.capEvents(DASHBOARD_CAP_EVENTS), uncoveredLandings(db, [...shops.keys()], seoulDay(now)),
    ]);
    const watch = figures
      .filter((f) => f.contract.status === 'active')
      .map((f) => {
        const reasons: Reason[] = [];
        if (f.counted * 100 >= f.quantity * NEAR_COMPLETION_PERCENT) reasons.push('near');
        if (f.projectedOn !== null && f.projectedOn > f.lastDay) reasons.push('behind');
        return { ...contractProgressOf(f, now), shopName: shops.get(f.contract.shopId) ?? '', reasons };
      })
      .filter((c) => c.reasons.length)
      .sort((a, b) => b.counted / b.quantity - a.counted / a.quantity || a.contract.id - b.contract.id);
    return {
      watch,
      closedLandings: closed
        .map((l) => ({
          shopId: l.shop_id, shopName: l.shop_name, landingId: l.id, title: l.title, contractId: l.contract_id, contractName: l.contract_name,
          closedAt: l.closed_at ?? null, reopenAt: l.reopen_at,
        }))
        // Those reopening soonest first; quantity closings (no reopening) last.
        .sort((a, b) => (a.reopenAt ?? '~').localeCompare(b.reopenAt ?? '~') || a.shopId - b.shopId || a.landingId - b.landingId),
      capEvents: events.map((e) => ({
        id: e.id, kind: e.kind, landingId: e.landing_id, landingTitle: e.landing_title, count: e.count, at: e.at, contractId: e.contract_id, contractName: e.contract_name,
        shopId: e.shop_id, shopName: e.shop_name,
      })),
      uncoveredLandings: uncovered.map((u) => ({ ...u, shopName: shops.get(u.shopId) ?? '' })),
    };
  }

  /** This month to today across shops: what each shop's 광고 현황 shows when it opens, added up. */
  async function ad(shops: Map<number, string>, monthFirst: string, today: string): Promise<Dashboard['ad']> {
    const { totals, shops: each } = await links.adTotals([...shops.keys()], monthFirst, today);
    const byShop = each
      .filter((s) => s.totals.spend > 0)
      .sort((a, b) => b.totals.spend - a.totals.spend || a.shopId - b.shopId)
      .slice(0, DASHBOARD_AD_SHOPS)
      .map((s) => ({ shopId: s.shopId, shopName: shops.get(s.shopId) ?? '', ...s.totals }));
    return { from: monthFirst, to: today, totals, byShop };
  }

  /** Every shop's delivery trouble added up, and the shops with most failures. */
  async function delivery(): Promise<Dashboard['delivery']> {
    const shops = await repo.deliveryTrouble();
    const sum = (k: 'failed' | 'retrying' | 'channelsOff') => shops.reduce((a, s) => a + s[k], 0);
    return {
      totals: { failed: sum('failed'), retrying: sum('retrying'), channelsOff: sum('channelsOff') },
      byShop: shops
        .sort((a, b) => b.failed - a.failed || b.channelsOff - a.channelsOff || b.retrying - a.retrying || a.shopId - b.shopId)
        .slice(0, DASHBOARD_DELIVERY_SHOPS),
    };
  }

  async function reservations(): Promise<Dashboard['reservations']> {
    const rows = await repo.upcomingReservations(DASHBOARD_RESERVATIONS);
    return rows.map((r) => ({ id: r.id, kind: r.kind, title: r.title, startsAt: r.starts_at, endsAt: r.ends_at, status: r.status === 'running' ? 'running' : 'scheduled' }));
  }

  return {
    /** The shops with the SLA on, by SLA met over the last DASHBOARD_DAYS days. */
    slaRanking() {
      const now = clock();
      const today = seoulDay(now);
      return slaRanking(db, { from: addDays(today, -(DASHBOARD_DAYS - 1)), to: today }, now);
    },

    async get(may: MoneyAccess): Promise<Dashboard> {
      const now = clock();
      const today = seoulDay(now);
      const todayStart = seoulDayStart(today).toISOString();
      const monthFirst = `${today.slice(0, 8)}01`;
      const monthStart = seoulDayStart(monthFirst).toISOString();
      const firstDay = addDays(today, -(DASHBOARD_DAYS - 1));
      const fromStart = seoulDayStart(firstDay).toISOString();
      const shopNames = may.contracts || may.ads ? new Map((await repo.shops()).map((s) => [s.id, s.name])) : new Map<number, string>();
      const [
        counts, unassigned, byShop, byMedium, daily, blockedDaily, shops, accounts, denyRules, blocked, failed, logins, contractFigures, adFigures, deliveries, upcoming,
      ] = await Promise.all([
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
        may.contracts ? contractFlights.run('all', () => contracts(shopNames, now)) : null,
        may.ads ? adFlights.run('all', () => ad(shopNames, monthFirst, today)) : null,
        may.delivery ? delivery() : null,
        may.reservations ? reservations() : null,
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
        contracts: contractFigures,
        ad: adFigures,
        delivery: deliveries,
        reservations: upcoming,
      };
    },
  };
}
