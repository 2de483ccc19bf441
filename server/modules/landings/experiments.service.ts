// Landing experiments: create (the live landing duplicated into B), edit variants and weights
// while a draft, start, read results, stop — promoting a variant, whose content becomes the
// landing's (same URL, same id and history: only its content changes, and its version, like any
// edit). Every decision is audited in the transaction that makes it; the page cache hears of it
// afterwards (its pages of the landing are rendered anew, one per variant). A scheduled stop is a
// 시스템 예약 (experiment-stop) made, moved or cancelled with the experiment; the reservations job
// runs it through stopScheduled. Results carry the landing's spend shared out by visits (CPA per
// variant), which the routes send only to the agency's side.
import type { Kysely } from 'kysely';
import type { Database, LandingExperimentsTable, LandingRow } from '../../db/schema.ts';
import { experimentsRepository } from './experiments.repository.ts';
import { landingsRepository } from './landings.repository.ts';
import { audit, auditBy, type Actor } from '../audit/audit.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, foundOr404, notFound } from '../../lib/errors.ts';
import { inTransaction, isUniqueViolation } from '../../db/dialect-sql.ts';
import { formFields as formFieldsSchema } from '../../../contracts/landings.ts';
import { uncoveredFields } from '../../../contracts/privacy.ts';
import { OPERATOR_MISSING } from '../../../contracts/operator.ts';
import { seoulDay } from '../../../contracts/kst.ts';
import { experimentVerdict } from '../../../contracts/experiment-stats.ts';
import { experimentResults, variantContent, type Experiment, type ExperimentResults, type VariantContent, type VariantKey } from '../../../contracts/experiments.ts';
import type { z } from 'zod';
import type { experimentUpdate } from '../../../contracts/experiments.ts';

interface ExperimentHooks {
  /** Drop the landing's cached pages and render them anew. */
  changed(ids: number[]): Promise<void>;
  /** Counted visits still in memory reach the database. */
  flushVisits(): Promise<void>;
}

type Row = LandingExperimentsTable & { id: number };
type VariantRow = Awaited<ReturnType<ReturnType<typeof experimentsRepository>['variants']>>[number];

/** A stored variant's content with its form fields (the landing's, for a variant saved without its own). */
function storedContent(json: string, landing: Pick<LandingRow, 'form_fields'>): VariantContent & { formFields: NonNullable<VariantContent['formFields']> } {
  const c = variantContent.parse(JSON.parse(json));
  return { ...c, formFields: c.formFields ?? formFieldsSchema.parse(JSON.parse(landing.form_fields)) };
}
/** The agency's money (spend and CPA per variant) is sent only to readers who may see it (`money`); others get nulls. */
export const experimentForViewer = (e: Experiment, money: boolean): Experiment =>
  money ? e : { ...e, results: { ...e.results, variants: e.results.variants.map((v) => ({ ...v, spend: null, cpa: null })) } };

/**
 * Results from the counts: visits from the beacon, leads with their variant, valid ones by the
 * money rule, and the landing's ad spend shared out by the variants' visits (visitors are split at
 * random, so a variant's share of the visits is its share of the traffic bought).
 */
function resultsOf(
  variants: VariantRow[], visits: Array<{ variant: string; visits: number }>, leads: Array<{ variant: string | null; leads: number; valid: number | null }>, spend: number,
): ExperimentResults {
  const visitsOf = (key: string) => Number(visits.find((x) => x.variant === key)?.visits ?? 0);
  const totalVisits = variants.reduce((sum, v) => sum + visitsOf(v.key), 0);
  return experimentVerdict(
    variants.map((v) => {
      const l = leads.find((x) => x.variant === v.key);
      return {
        key: v.key, weight: v.weight, visits: visitsOf(v.key), leads: Number(l?.leads ?? 0), validLeads: Number(l?.valid ?? 0),
        spend: spend > 0 && totalVisits > 0 ? Math.round((spend * visitsOf(v.key)) / totalVisits) : null,
      };
    }),
  );
}

/** The experiment's 종료 예약 as its 시스템 예약: made, moved or cancelled with the change (in its transaction); answers its id. */
async function scheduleStop(x: ReturnType<typeof experimentsRepository>, r: Row, landingTitle: string, name: string, stopAt: string | null, actor: Actor, at: string) {
  const current = await x.scheduledStop(r.id);
  if (!stopAt) {
    if (current) await x.cancelStop(current.id, '취소 사유: 랜딩 관리의 A/B 실험에서 종료 예약을 지웠습니다.', at);
    return current?.id ?? null;
  }
  if (current) {
    await x.moveStop(current.id, stopAt, at);
    return current.id;
  }
  return (await x.insertStop({ title: `${landingTitle} · ${name} 종료`, starts_at: stopAt, landingId: r.landing_id, experimentId: r.id, created_by: actor.id, at })).id;
}


/** A variant's content as the landing row stores it: its copy in `content`, its fields in `form_fields`. */
function asLandingColumns(c: VariantContent & { formFields: unknown[] }) {
  const { formFields, ...content } = c;
  return { content: JSON.stringify(content), form_fields: JSON.stringify(formFields) };
}

/** An experiment as the API answers it: live figures while it runs, archived ones after. */
function experimentReader(repo: ReturnType<typeof experimentsRepository>, clock: Clock) {
  /** The figures now (see resultsOf); the spend is the landing's over the experiment's Seoul days. */
  async function liveResults(r: Pick<Row, 'id' | 'landing_id' | 'started_at' | 'stopped_at'>, variants: VariantRow[]): Promise<ExperimentResults> {
    const [visits, leads, spend] = await Promise.all([
      repo.visits(r.id), repo.leads(r.id),
      r.started_at ? repo.landingSpend(r.landing_id, seoulDay(r.started_at), seoulDay(r.stopped_at ?? clock())) : null,
    ]);
    return resultsOf(variants, visits, leads, Number(spend ?? 0));
  }

  /** `policyItems`: what the landing's privacy policy names as collected ('' without one): each variant's fields are checked against it. */
  async function toExperiment(r: Row, landing: LandingRow, policyItems: string): Promise<Experiment> {
    const variants = await repo.variants(r.id);
    const results = r.results ? experimentResults.parse(JSON.parse(r.results)) : await liveResults(r, variants);
    return {
      id: r.id, landingId: r.landing_id, name: r.name, status: r.status, startedAt: r.started_at, stoppedAt: r.stopped_at, stopAt: r.stop_at,
      winner: r.winner, createdAt: r.created_at,
      variants: variants.map((v) => {
        const content = v.content ? storedContent(v.content, landing) : null;
        const fields = content?.formFields ?? formFieldsSchema.parse(JSON.parse(landing.form_fields));
        return { key: v.key as VariantKey, weight: v.weight, content, uncoveredFields: uncoveredFields(policyItems, fields) };
      }),
      results,
    };
  }

  return { liveResults, toExperiment };
}

/** Each variant's content, checked as a landing's would be on publishing. */
function checkPublishable(variants: VariantRow[]) {
  for (const [i, v] of variants.entries()) {
    if (!v.content) continue;
    const checked = variantContent.safeParse(JSON.parse(v.content));
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw badRequest(`${v.key}안을 랜딩으로 게시할 수 없습니다: ${issue.message}`, { [['variants', i, 'content', ...issue.path].join('.')]: issue.message });
    }
  }
}

export function experimentsService(db: Kysely<Database>, clock: Clock, hooks: ExperimentHooks) {
  const repo = experimentsRepository(db);
  const landings = landingsRepository(db);
  const { liveResults, toExperiment } = experimentReader(repo, clock);

  const landingOf = (shopId: number, landingId: number) => foundOr404(landings.find(shopId, landingId), '랜딩을 찾을 수 없습니다.') as Promise<LandingRow>;
  const experimentOf = async (shopId: number, landingId: number, id: number) => {
    const landing = await landingOf(shopId, landingId);
    return { landing, r: (await foundOr404(repo.find(landingId, id), '실험을 찾을 수 없습니다.')) as Row };
  };
  /** The policy the landing's form is under: its pinned version, else the shop's latest published one. */
  async function policyOf(landing: LandingRow) {
    const id = landing.privacy_policy_version_id ?? (await landings.latestPublishedPolicy(landing.shop_id))?.id;
    return id ? landings.publishedPolicy(landing.shop_id, id) : undefined;
  }

  const reread = async (shopId: number, landingId: number, id: number) => {
    const { landing, r } = await experimentOf(shopId, landingId, id);
    return toExperiment(r, landing, (await policyOf(landing))?.items ?? '');
  };

  /**
   * Stops an experiment: archives its results, promotes a variant's content into the landing, cancels
   * a scheduled stop left, audits — one transaction. `reservationId`: the 시스템 예약 running it (no actor).
   */
  async function stopOne(r: Row, landing: LandingRow, promote: string | null, actor: Actor | null, reason?: string, reservationId?: number) {
    if (r.status === 'stopped') throw conflict('이미 종료된 실험입니다.');
    if (promote && r.status !== 'running') throw conflict('진행 중인 실험에서만 변형을 채택할 수 있습니다.');
    await hooks.flushVisits();
    const variants = await repo.variants(r.id);
    const chosen = promote ? variants.find((v) => v.key === promote) : null;
    if (promote && !chosen) throw badRequest('없는 변형입니다.', { promote: '없는 변형입니다.' });
    const results = r.status === 'running' ? await liveResults(r, variants) : null;
    const now = clock().toISOString();
    await inTransaction(db, async (trx) => {
      const done = await experimentsRepository(trx).update(r.id, r.status, {
        status: 'stopped', stopped_at: now, updated_at: now, winner: chosen?.key ?? null, results: results ? JSON.stringify(results) : null, stopped_by: actor?.id ?? null,
      });
      if (!done) throw conflict('다른 사용자가 실험을 바꿨습니다. 새로 고친 뒤 다시 시도하세요.');
      // Stopped by hand first: its scheduled stop has nothing left to do.
      const scheduled = await experimentsRepository(trx).scheduledStop(r.id);
      if (scheduled) await experimentsRepository(trx).cancelStop(scheduled.id, '실험이 먼저 종료되어 취소되었습니다.', now);
      // A's content is the landing's already: promoting A changes nothing on the page.
      // B's copy and its form fields both become the landing's.
      if (chosen?.content) await landingsRepository(trx).update(r.landing_id, { ...asLandingColumns(storedContent(chosen.content, landing)), updated_at: now });
      const entry = {
        action: 'landing-experiment-stop', target: 'landing', targetId: r.landing_id,
        detail: {
          experimentId: r.id, promoted: chosen?.key ?? null, ...(results ? { winner: results.winner, enoughData: results.enoughData } : {}), ...(reason ? { reason } : {}),
          ...(reservationId ? { reservationId } : {}),
        },
      };
      await (actor ? auditBy(trx, actor, entry, clock()) : audit(trx, { ...entry, accountId: null }, clock()));
    });
    await hooks.changed([r.landing_id]);
  }

  return {
    async list(shopId: number, landingId: number) {
      const landing = await landingOf(shopId, landingId);
      await hooks.flushVisits();
      const rows = (await repo.list(landingId)) as Row[];
      const items = (await policyOf(landing))?.items ?? '';
      return { items: await Promise.all(rows.map((r) => toExperiment(r, landing, items))) };
    },

    async create(shopId: number, landingId: number, input: { name: string }, actor: Actor) {
      const landing = await landingOf(shopId, landingId);
      if (landing.status !== 'open') throw conflict('게시 중인 랜딩에서만 실험을 만들 수 있습니다.');
      const now = clock().toISOString();
      try {
        const id = await inTransaction(db, async (trx) => {
          const r = experimentsRepository(trx);
          const { id } = await r.insert({ landing_id: landingId, name: input.name, status: 'draft', created_by: actor.id, created_at: now, updated_at: now });
          await r.insertVariant({ experiment_id: id, key: 'A', weight: 50, content: null, created_at: now, updated_at: now });
          // B starts as the live landing: its copy and its form.
          const content = JSON.stringify({ ...JSON.parse(landing.content), formFields: JSON.parse(landing.form_fields) });
          await r.insertVariant({ experiment_id: id, key: 'B', weight: 50, content, created_at: now, updated_at: now });
          await auditBy(trx, actor, { action: 'landing-experiment-create', target: 'landing', targetId: landingId, detail: { experimentId: id, name: input.name } }, clock());
          return id;
        });
        return reread(shopId, landingId, id);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('이 랜딩에는 이미 준비 중이거나 진행 중인 실험이 있습니다.');
        throw err;
      }
    },

    /** A draft's name, variants and weights; a running one's name and scheduled stop only (its variants are what visitors were shown). */
    async update(shopId: number, landingId: number, id: number, input: z.output<typeof experimentUpdate>, actor: Actor) {
      const { landing, r } = await experimentOf(shopId, landingId, id);
      if (r.status === 'stopped') throw conflict('종료된 실험은 바꿀 수 없습니다.');
      const now = clock();
      if (input.stopAt && new Date(input.stopAt) <= now) throw badRequest('종료 예약은 지금 이후로 정하세요.', { stopAt: '지금 이후로 정하세요.' });
      const current = await repo.variants(r.id);
      // Contents compared as the schema reads them (a stored copy may order its keys otherwise).
      // A variant's fields are always stored: one saved without (the landing's then) stays the same with them.
      const stored = (c: string | null) => (c ? JSON.stringify(storedContent(c, landing)) : null);
      const given = (c: VariantContent | null) => (c ? JSON.stringify(storedContent(JSON.stringify(c), landing)) : null);
      const same =
        current.length === input.variants.length &&
        input.variants.every((v, i) => current[i]!.key === v.key && current[i]!.weight === v.weight && stored(current[i]!.content) === given(v.content));
      if (r.status === 'running' && !same) throw conflict('진행 중인 실험의 변형과 비중은 바꿀 수 없습니다. 실험을 종료하고 새로 만드세요.');
      const at = now.toISOString();
      await inTransaction(db, async (trx) => {
        const x = experimentsRepository(trx);
        const done = await x.update(r.id, r.status, { name: input.name, stop_at: input.stopAt, updated_at: at });
        if (!done) throw conflict('다른 사용자가 실험을 바꿨습니다. 새로 고친 뒤 다시 시도하세요.');
        const reservationId = await scheduleStop(x, r, landing.title, input.name, input.stopAt, actor, at);
        if (!same) {
          for (const v of current) if (!input.variants.some((i) => i.key === v.key)) await x.deleteVariant(r.id, v.key);
          for (const v of input.variants) {
            const content = given(v.content);
            if (current.some((c) => c.key === v.key)) await x.updateVariant(r.id, v.key, { weight: v.weight, content, updated_at: at });
            else await x.insertVariant({ experiment_id: r.id, key: v.key, weight: v.weight, content, created_at: at, updated_at: at });
          }
        }
        await auditBy(trx, actor, {
          action: 'landing-experiment-update', target: 'landing', targetId: landingId,
          detail: { experimentId: r.id, weights: Object.fromEntries(input.variants.map((v) => [v.key, v.weight])), stopAt: input.stopAt, reservationId },
        }, clock());
      });
      if (r.status === 'running') await hooks.changed([landingId]);
      return reread(shopId, landingId, id);
    },

    /**
     * Every variant goes live as a landing would be published: its content valid as a landing's,
     * under a published privacy policy (and the agency's details where it collects).
     */
    async start(shopId: number, landingId: number, id: number, actor: Actor) {
      const { landing, r } = await experimentOf(shopId, landingId, id);
      if (r.status !== 'draft') throw conflict('준비 중인 실험만 시작할 수 있습니다.');
      if (landing.status !== 'open') throw conflict('게시 중인 랜딩에서만 실험을 시작할 수 있습니다.');
      checkPublishable(await repo.variants(r.id));
      const policy = await policyOf(landing);
      if (!policy) throw conflict('게시된 개인정보 처리방침이 없어 실험을 시작할 수 없습니다. 개인정보 처리방침을 먼저 게시하세요.');
      if (policy.collector === 'operator' && !(await landings.operator())) throw conflict(OPERATOR_MISSING);
      const now = clock().toISOString();
      await inTransaction(db, async (trx) => {
        if (!(await experimentsRepository(trx).update(r.id, 'draft', { status: 'running', started_at: now, updated_at: now }))) {
          throw conflict('다른 사용자가 실험을 바꿨습니다. 새로 고친 뒤 다시 시도하세요.');
        }
        await auditBy(trx, actor, { action: 'landing-experiment-start', target: 'landing', targetId: landingId, detail: { experimentId: r.id } }, clock());
      });
      await hooks.changed([landingId]);
      return reread(shopId, landingId, id);
    },

    async stop(shopId: number, landingId: number, id: number, promote: string | null, actor: Actor) {
      const { landing, r } = await experimentOf(shopId, landingId, id);
      await stopOne(r, landing, promote, actor);
      return reread(shopId, landingId, id);
    },

    /** A 시스템 예약 (experiment-stop) stops the experiment without promoting; answers what it did, for the reservation's record. */
    async stopScheduled(target: { landingId: number; experimentId: number }, reservationId: number, reason: string): Promise<string> {
      const r = (await repo.find(target.landingId, target.experimentId)) as Row | undefined;
      const landing = (await landings.findById(target.landingId)) as LandingRow | undefined;
      if (!r || !landing) throw notFound('실험을 찾을 수 없습니다.');
      await stopOne(r, landing, null, null, reason, reservationId);
      return `‘${r.name}’ 실험을 채택 없이 종료했습니다. 결과는 보관되었습니다.`;
    },
  };
}
