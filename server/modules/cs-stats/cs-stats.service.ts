// The call statistics' rules: the period (Seoul days, this month by default, at most a year),
// who counts (a counselor only their own leads; across shops, the shops the asker may
// enter), and the figures made of the repository's grouped counts.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import type { Actor } from '../audit/audit.service.ts';
import { slaFigures } from '../leads/leads.entry.ts';
import { csStatsRepository, type CsCountRow, type CsStatsFilter } from './cs-stats.repository.ts';
import { addDays, periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { CONTACTED_STATUSES, CS_STATUSES, type CsStatus } from '../../../contracts/leads.ts';
import type { CsDay, CsFigures, CsStatsAdmin, CsStatsAdminQuery, CsStatsQuery, CsStatsShop } from '../../../contracts/cs-stats.ts';

const MAX_DAYS = 366;
const UNASSIGNED = '미배분';

/** The period asked for, or this month (Seoul) up to today; refused when reversed or longer than a year. */
function periodOf(q: CsStatsQuery, now: Date): { from: string; to: string } {
  const to = q.to ?? seoulDay(now);
  const from = q.from ?? `${to.slice(0, 8)}01`;
  if (from > to) throw badRequest('시작일이 종료일보다 늦습니다.', { from: '시작일이 종료일보다 늦습니다.' });
  if (addDays(from, MAX_DAYS) < to) throw badRequest('기간은 1년 이내로 정하세요.', { from: '기간은 1년 이내로 정하세요.' });
  return { from, to };
}

const isStatus = (s: string): s is CsStatus => (CS_STATUSES as readonly string[]).includes(s);
const zeros = () => Object.fromEntries(CS_STATUSES.map((s) => [s, 0])) as Record<CsStatus, number>;
const round1 = (x: number) => Math.round(x * 10) / 10;

/** Counts of one group, added up row by row. */
class Tally {
  total = 0;
  unique = 0;
  byStatus = zeros();
  contacted = 0;
  contracted = 0;
  timed = 0;
  seconds = 0;

  add(r: CsCountRow): this {
    this.total += r.total;
    this.unique += r.unique;
    if (isStatus(r.status)) this.byStatus[r.status] += r.total;
    if ((CONTACTED_STATUSES as readonly string[]).includes(r.status)) this.contacted += r.unique;
    if (r.status === '계약') this.contracted += r.unique;
    this.timed += r.timed;
    this.seconds += r.seconds;
    return this;
  }

  figures(medianSeconds: number | undefined): CsFigures {
    return {
      total: this.total,
      unique: this.unique,
      byStatus: this.byStatus,
      contacted: this.contacted,
      contracted: this.contracted,
      contactRate: this.unique ? this.contacted / this.unique : null,
      conversionRate: this.unique ? this.contracted / this.unique : null,
      firstContacts: this.timed,
      firstContactAvgMinutes: this.timed ? round1(this.seconds / this.timed / 60) : null,
      firstContactMedianMinutes: this.timed && medianSeconds !== undefined ? round1(medianSeconds / 60) : null,
    };
  }
}

/** Counts by group (null: no group, e.g. 미배분) and a tally of them all. */
function tallies(rows: CsCountRow[]) {
  const byGroup = new Map<number | null, Tally>();
  const all = new Tally();
  for (const r of rows) {
    let t = byGroup.get(r.group);
    if (!t) byGroup.set(r.group, (t = new Tally()));
    t.add(r);
    all.add(r);
  }
  return { byGroup, all };
}

/** Every day of the period with its counts by status. */
function days(from: string, to: string, rows: Array<{ day: string; status: string; total: number }>): CsDay[] {
  const out = new Map<string, CsDay>();
  for (let d = from; d <= to; d = addDays(d, 1)) out.set(d, { day: d, total: 0, byStatus: zeros() });
  for (const r of rows) {
    const day = out.get(r.day);
    if (!day) continue;
    day.total += r.total;
    if (isStatus(r.status)) day.byStatus[r.status] += r.total;
  }
  return [...out.values()];
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'ko');

export function csStatsService(db: Kysely<Database>, clock: Clock) {
  const repo = csStatsRepository(db);

  /** The figures of `filter`, grouped, with the medians and the days. */
  async function figuresOf(filter: CsStatsFilter, group: 'assignee' | 'shop', from: string, to: string) {
    const [counts, medians, overall, perDay] = await Promise.all([
      repo.counts(filter, group),
      repo.medianSeconds(filter, group),
      repo.medianSeconds(filter, null),
      repo.byDay(filter),
    ]);
    const { byGroup, all } = tallies(counts);
    const figures = (key: number | null) => (byGroup.get(key) ?? new Tally()).figures(medians.get(key));
    return { byGroup, figures, totals: all.figures(overall.get(null)), byDay: days(from, to, perDay) };
  }

  /** One shop's statistics; a counselor's are of their own leads only. */
  async function shop(shopId: number, q: CsStatsQuery, actor: Actor): Promise<CsStatsShop> {
    const { from, to } = periodOf(q, clock());
    const own = actor.scope === 'assigned';
    const filter: CsStatsFilter = { shopIds: [shopId], ...periodInstants(from, to), ...(own ? { assigneeId: actor.id } : {}) };
    const [stats, counselors] = await Promise.all([figuresOf(filter, 'assignee', from, to), own ? [] : repo.shopCounselors(shopId)]);
    // The shop's counselors, and whoever else holds leads of the period (a counselor since
    // moved away, or an account of another type leads were handed to).
    const names = new Map(counselors.map((c) => [c.id, c.name]));
    const ids = new Set([...names.keys(), ...[...stats.byGroup.keys()].filter((k): k is number => k !== null)]);
    if (own) ids.add(actor.id);
    const missing = [...ids].filter((id) => !names.has(id));
    for (const a of await repo.accountNames(missing)) names.set(a.id, a.name);
    const rows = [...ids].map((id) => ({ counselorId: id as number | null, name: names.get(id) ?? `#${id}`, ...stats.figures(id) })).sort(byName);
    if (!own && stats.byGroup.has(null)) rows.push({ counselorId: null, name: UNASSIGNED, ...stats.figures(null) });
    return { period: { from, to }, scope: actor.scope, totals: stats.totals, counselors: rows, byDay: stats.byDay };
  }

  return {
    shop,

    /** The period's speed to lead (leads/sla-figures.ts); a counselor's of their own leads. */
    sla(shopId: number, q: CsStatsQuery, actor: Actor) {
      const now = clock();
      return slaFigures(db, shopId, periodOf(q, now), actor, now);
    },

    /**
     * Every shop the asker may enter (administrator-area accounts: all of them, as for the
     * shop screens), those closed included when they received leads in the period.
     */
    async admin(q: CsStatsAdminQuery, actor: Actor, area: 'admin' | 'shop'): Promise<CsStatsAdmin> {
      const { from, to } = periodOf(q, clock());
      let shops = await repo.shops(area === 'admin' ? undefined : actor.id);
      if (q.shopId !== undefined) {
        shops = shops.filter((s) => s.id === q.shopId);
        if (!shops.length) throw notFound('업체를 찾을 수 없습니다.');
      }
      const own = actor.scope === 'assigned';
      const period = { from, to };
      if (!shops.length) return { period, scope: actor.scope, totals: new Tally().figures(undefined), shops: [], counselors: null, byDay: days(from, to, []) };
      const filter: CsStatsFilter = { shopIds: shops.map((s) => s.id), ...periodInstants(from, to), ...(own ? { assigneeId: actor.id } : {}) };
      const stats = await figuresOf(filter, 'shop', from, to);
      const rows = shops
        .map((s) => ({ shopId: s.id, shopName: s.name, active: s.status === 'active', ...stats.figures(s.id) }))
        .filter((r) => r.active || r.total > 0 || q.shopId !== undefined)
        .sort((a, b) => b.total - a.total || a.shopName.localeCompare(b.shopName, 'ko'));
      // One shop chosen: who in it worked the leads (shop × status × counselor).
      const counselors = q.shopId !== undefined ? (await shop(q.shopId, q, actor)).counselors : null;
      return { period, scope: actor.scope, totals: stats.totals, shops: rows, counselors, byDay: stats.byDay };
    },
  };
}
