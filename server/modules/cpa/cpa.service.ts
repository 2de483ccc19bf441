// CPA 관리's rules. A month is its Seoul days; per medium: spend (ad_spend, every landing's rows),
// leads received and valid leads (the valid-lead rule), the actual CPA and its variance from
// the target (contracts/money.ts), and what the medium earned under the shop's contracts.
//
// Revenue ("계약 단가 × 청구 대상 유효 DB"): a valid lead earns its contract's unit price when it
// is billable under the contract covering it — the contract's shop, a Seoul day within
// [starts_on, effective end (the day it was stopped, if stopped)], its landings and media (none
// listed: all). Which leads are billable is billableDays (contracts/money.ts) over the
// contract's whole period in day order: per day at most the daily cap, all days together at
// most the quantity. When a day's billable count is below its valid count (a cap was hit), the
// billable ones are that day's earliest arrivals (created_at, then id) and each is attributed
// to its own medium; the others (over the cap) earn nothing, and so do valid leads no contract
// covers (계약 외). The repository applies that rule in SQL by each lead's rank within its day,
// so grouped counts come back, never lead rows. Contracts of a shop do not overlap (the
// contracts module refuses it), so a lead has at most one contract.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest } from '../../lib/errors.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { cpaRepository, type BillableRule } from './cpa.repository.ts';
import { periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { adMetrics, billableDays, cpaVariance, effectiveEnd, type BillableDay } from '../../../contracts/money.ts';
import {
  COPY_NOTHING, addMonths, monthBounds,
  type CpaFigures, type CpaMediumRow, type CpaOverview, type CpaTargets, type CpaTargetsCopyInput, type CpaTargetsInput, type CpaTargetsSaved, type CpaTrendPoint,
} from '../../../contracts/cpa.ts';

const NO_MEDIUM_NAME = '매체 미지정';

/** The raw sums of one (month, medium). */
interface Sums {
  spend: number;
  leads: number;
  valid: number;
  covered: number;
  billable: number;
  revenue: number;
}
const zero = (): Sums => ({ spend: 0, leads: 0, valid: 0, covered: 0, billable: 0, revenue: 0 });
const add = (a: Sums, b: Sums): Sums => ({
  spend: a.spend + b.spend, leads: a.leads + b.leads, valid: a.valid + b.valid, covered: a.covered + b.covered, billable: a.billable + b.billable, revenue: a.revenue + b.revenue,
});

const round1 = (x: number) => Math.round(x * 10) / 10;
const keyOf = (month: string, mediaTypeId: number | null) => `${month}|${mediaTypeId ?? ''}`;
/** The key of a month's leads that did not come from an ad (adLead): kept apart from every medium. */
const otherKey = (month: string) => `${month}|other`;

/** The figures of one medium (or the total) from its sums and target. */
function figures(s: Sums, targetCpa: number | null): CpaFigures {
  const actualCpa = adMetrics({ impressions: 0, clicks: 0, spend: s.spend, leads: s.leads, validLeads: s.valid }).cpa;
  const margin = s.revenue - s.spend;
  return {
    targetCpa,
    spend: s.spend,
    leads: s.leads,
    validLeads: s.valid,
    actualCpa,
    variance: cpaVariance(actualCpa, targetCpa),
    billableLeads: s.billable,
    overCapLeads: Math.max(0, s.covered - s.billable),
    outsideLeads: Math.max(0, s.valid - s.covered),
    revenue: s.revenue,
    margin,
    marginRate: s.revenue > 0 ? round1((margin / s.revenue) * 100) : null,
  };
}

/**
 * The total's target: the media's targets weighted by their valid leads (the CPA the month
 * would have had if every targeted medium had met its target); without valid leads, their
 * plain average; null when no medium has a target.
 */
function blendedTarget(parts: Array<{ target: number | null; valid: number }>): number | null {
  const targeted = parts.filter((p): p is { target: number; valid: number } => p.target !== null);
  if (!targeted.length) return null;
  const weight = targeted.reduce((s, p) => s + p.valid, 0);
  if (weight > 0) return Math.round(targeted.reduce((s, p) => s + p.target * p.valid, 0) / weight);
  return Math.round(targeted.reduce((s, p) => s + p.target, 0) / targeted.length);
}

/** billableDays' outcome as a rule SQL can apply by rank: the daily cap, and the day (and count) the quantity ran out. */
export function billableRule(days: readonly BillableDay[], quantity: number, dailyCap: number | null): BillableRule {
  const total = days.reduce((s, d) => s + d.billable, 0);
  if (total < quantity) return { cap: dailyCap, cutoffDay: null, cutoffCount: 0 };
  const last = days.filter((d) => d.billable > 0).at(-1);
  return last ? { cap: dailyCap, cutoffDay: last.day, cutoffCount: last.billable } : { cap: dailyCap, cutoffDay: '', cutoffCount: 0 };
}

/** Per (month, medium) sums of contract revenue over Seoul days from..to. */
async function contractSums(repo: ReturnType<typeof cpaRepository>, shopId: number, fromDay: string, toDay: string): Promise<Map<string, Sums>> {
  const out = new Map<string, Sums>();
  const contracts = await repo.contracts(shopId, fromDay, toDay);
  const { landings, media } = await repo.scopes(contracts.map((c) => c.id));
  await Promise.all(
    contracts.map(async (c) => {
      const stoppedOn = c.stopped_at ? seoulDay(c.stopped_at) : null;
      const lastDay = effectiveEnd({ endsOn: c.ends_on, stoppedOn });
      // Days after the figures' end cannot change which earlier leads were billable.
      const until = lastDay < toDay ? lastDay : toDay;
      const from = c.starts_on > fromDay ? c.starts_on : fromDay;
      if (until < from) return;
      const scope = {
        shopIds: [shopId],
        landingIds: landings.filter((x) => x.contract_id === c.id).map((x) => x.landing_id),
        mediaTypeIds: media.filter((x) => x.contract_id === c.id).map((x) => x.media_type_id),
      };
      const days = billableDays(await repo.validPerDay({ ...scope, ...periodInstants(c.starts_on, until) }), c.quantity, c.daily_cap);
      const rule = billableRule(days, c.quantity, c.daily_cap);
      for (const r of await repo.billable({ ...scope, ...periodInstants(from, until) }, rule)) {
        const k = r.ad ? keyOf(r.month, r.mediaTypeId) : otherKey(r.month);
        out.set(k, add(out.get(k) ?? zero(), { ...zero(), covered: r.covered, billable: r.billable, revenue: r.billable * c.unit_price }));
      }
    }),
  );
  return out;
}

/** Applies target changes of one month in `trx`-scoped repository calls; answers what changed. */
async function apply(
  r: ReturnType<typeof cpaRepository>, shopId: number, month: string, wanted: ReadonlyArray<{ mediaTypeId: number; targetCpa: number | null }>, actor: Actor, at: string,
) {
  const before = new Map((await r.targets(shopId, month, month)).map((t) => [t.media_type_id, t.target_cpa]));
  const changes: Array<{ mediaTypeId: number; before: number | null; after: number | null }> = [];
  for (const w of wanted) {
    const was = before.get(w.mediaTypeId) ?? null;
    if (was === w.targetCpa) continue;
    if (w.targetCpa === null) await r.deleteTarget(shopId, w.mediaTypeId, month);
    else await r.upsertTarget({ shop_id: shopId, media_type_id: w.mediaTypeId, month, target_cpa: w.targetCpa, updated_by: actor.id, updated_at: at });
    changes.push({ mediaTypeId: w.mediaTypeId, before: was, after: w.targetCpa });
  }
  return changes;
}

export function cpaService(db: Kysely<Database>, clock: Clock) {
  const repo = cpaRepository(db);

  async function targetsOf(shopId: number, month: string): Promise<CpaTargets> {
    const [mediaTypes, targets, previous] = await Promise.all([
      repo.mediaTypes(),
      repo.targets(shopId, month, month),
      repo.targets(shopId, addMonths(month, -1), addMonths(month, -1)),
    ]);
    const byMedium = new Map(targets.map((t) => [t.media_type_id, t]));
    const active = new Set(mediaTypes.filter((m) => m.active).map((m) => m.id));
    return {
      month,
      items: mediaTypes
        .filter((m) => m.active || byMedium.has(m.id))
        .map((m) => {
          const t = byMedium.get(m.id);
          return { mediaTypeId: m.id, name: m.name, active: !!m.active, targetCpa: t?.target_cpa ?? null, updatedAt: t?.updated_at ?? null, updatedByName: t?.updated_by_name ?? null };
        }),
      previousMonthTargets: previous.filter((t) => active.has(t.media_type_id)).length,
    };
  }

  return {
    async overview(shopId: number, q: { month?: string; months: number }): Promise<CpaOverview> {
      const currentMonth = seoulDay(clock()).slice(0, 7);
      const month = q.month ?? currentMonth;
      const months = Array.from({ length: q.months }, (_, i) => addMonths(month, i - (q.months - 1)));
      const fromDay = monthBounds(months[0]!).from;
      const toDay = monthBounds(month).to;
      const instants = periodInstants(fromDay, toDay);

      const [mediaTypes, targets, spend, leads, revenue] = await Promise.all([
        repo.mediaTypes(),
        repo.targets(shopId, months[0]!, month),
        repo.spend(shopId, fromDay, toDay),
        repo.leads(shopId, instants.fromIso, instants.toIso),
        contractSums(repo, shopId, fromDay, toDay),
      ]);

      const sums = new Map<string, Sums>(revenue);
      const bump = (m: string, id: number | null, s: Partial<Sums>) => {
        const k = keyOf(m, id);
        sums.set(k, add(sums.get(k) ?? zero(), { ...zero(), ...s }));
      };
      for (const s of spend) bump(s.month, s.mediaTypeId, { spend: s.count });
      for (const l of leads) {
        if (l.ad) bump(l.month, l.mediaTypeId, { leads: l.leads, valid: l.valid });
        else sums.set(otherKey(l.month), add(sums.get(otherKey(l.month)) ?? zero(), { ...zero(), leads: l.leads, valid: l.valid }));
      }
      const target = new Map(targets.map((t) => [keyOf(t.month, t.media_type_id), t.target_cpa]));
      const targetOf = (m: string, id: number | null) => (id === null ? null : (target.get(keyOf(m, id)) ?? null));
      const present = (m: string, id: number | null) => {
        const s = sums.get(keyOf(m, id));
        return targetOf(m, id) !== null || (s !== undefined && (s.spend > 0 || s.leads > 0));
      };

      // The media in the code table's order (a deactivated one too while it has figures), 매체 미지정 last.
      const known = new Set(mediaTypes.map((m) => m.id));
      const media: Array<{ id: number | null; name: string; active: boolean }> = [
        ...mediaTypes.map((m) => ({ id: m.id as number | null, name: m.name, active: !!m.active })),
        { id: null, name: NO_MEDIUM_NAME, active: true },
      ];
      // A medium the figures name but the code table lost cannot happen (foreign keys); guard all the same.
      for (const k of sums.keys()) {
        const part = k.split('|')[1];
        if (part === 'other') continue;
        const id = part ? Number(part) : null;
        if (id === null || known.has(id)) continue;
        known.add(id);
        media.push({ id, name: `매체 #${id}`, active: false });
      }

      const monthFigures = (m: string) => {
        const rows = media.filter((x) => present(m, x.id)).map((x) => ({ medium: x, sums: sums.get(keyOf(m, x.id)) ?? zero(), target: targetOf(m, x.id) }));
        const total = rows.reduce((s, r) => add(s, r.sums), zero());
        return { rows, totals: figures(total, blendedTarget(rows.map((r) => ({ target: r.target, valid: r.sums.valid })))) };
      };
      const point = (m: string, f: CpaFigures): CpaTrendPoint => ({
        month: m, targetCpa: f.targetCpa, actualCpa: f.actualCpa, spend: f.spend, validLeads: f.validLeads, revenue: f.revenue, margin: f.margin,
      });

      const current = monthFigures(month);
      const rows: CpaMediumRow[] = current.rows.map((r) => ({ mediaTypeId: r.medium.id, name: r.medium.name, active: r.medium.active, ...figures(r.sums, r.target) }));
      const trendMedia = media.filter((x) => months.some((m) => present(m, x.id)));
      const other = sums.get(otherKey(month)) ?? zero();
      return {
        month,
        currentMonth,
        rows,
        totals: current.totals,
        other: { leads: other.leads, validLeads: other.valid, billableLeads: other.billable, revenue: other.revenue },
        trend: {
          months,
          media: trendMedia.map((x) => ({
            mediaTypeId: x.id, name: x.name,
            points: months.map((m) => point(m, figures(sums.get(keyOf(m, x.id)) ?? zero(), targetOf(m, x.id)))),
          })),
          total: months.map((m) => point(m, m === month ? current.totals : monthFigures(m).totals)),
        },
      };
    },

    targets: (shopId: number, month: string | undefined) => targetsOf(shopId, month ?? seoulDay(clock()).slice(0, 7)),

    async saveTargets(shopId: number, input: CpaTargetsInput, actor: Actor): Promise<CpaTargetsSaved> {
      const mediaTypes = new Map((await repo.mediaTypes()).map((m) => [m.id, m]));
      const fields: Record<string, string> = {};
      const seen = new Set<number>();
      input.targets.forEach((t, i) => {
        const m = mediaTypes.get(t.mediaTypeId);
        if (!m) fields[`targets.${i}.mediaTypeId`] = '목록에 없는 매체입니다.';
        else if (seen.has(t.mediaTypeId)) fields[`targets.${i}.mediaTypeId`] = `${m.name} 매체가 두 번 들어 있습니다.`;
        else if (t.targetCpa !== null && !m.active) fields[`targets.${i}.targetCpa`] = `${m.name} 매체는 사용하지 않아 목표를 정할 수 없습니다.`;
        seen.add(t.mediaTypeId);
      });
      if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0]!, fields);

      const now = clock();
      const changes = await inTransaction(db, async (trx) => {
        const changes = await apply(cpaRepository(trx), shopId, input.month, input.targets, actor, now.toISOString());
        if (changes.length) {
          await auditBy(trx, actor, { action: 'cpa-target.save', target: 'shop', targetId: shopId, detail: { month: input.month, changes } }, now);
        }
        return changes;
      });
      return { ...(await targetsOf(shopId, input.month)), changed: changes.length };
    },

    /** 지난달 목표 복사: the targets of `from` (in-use media) onto `to`; `to`'s other targets stay. */
    async copyTargets(shopId: number, input: CpaTargetsCopyInput, actor: Actor): Promise<CpaTargetsSaved> {
      const [mediaTypes, source] = await Promise.all([repo.mediaTypes(), repo.targets(shopId, input.from, input.from)]);
      const active = new Set(mediaTypes.filter((m) => m.active).map((m) => m.id));
      const wanted = source.filter((t) => active.has(t.media_type_id)).map((t) => ({ mediaTypeId: t.media_type_id, targetCpa: t.target_cpa }));
      if (!wanted.length) throw badRequest(COPY_NOTHING, { from: COPY_NOTHING });

      const now = clock();
      const changes = await inTransaction(db, async (trx) => {
        const changes = await apply(cpaRepository(trx), shopId, input.to, wanted, actor, now.toISOString());
        if (changes.length) {
          await auditBy(trx, actor, { action: 'cpa-target.copy', target: 'shop', targetId: shopId, detail: { from: input.from, month: input.to, changes } }, now);
        }
        return changes;
      });
      return { ...(await targetsOf(shopId, input.to)), changed: changes.length };
    },
  };
}
