// Lead intake. The hot path keeps landing definitions in memory, checks everything it can
// without the database, and hands the rest to one group-committed transaction per batch.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { intakeRepository, type LandingDefinitionRow } from './intake.repository.ts';
import type { Outcome, PendingBlock, PendingLead } from './intake-batch.ts';
import type { BatchWriter } from './intake-writer.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import { isDatabaseUnavailable } from '../../db/dialect-sql.ts';
import { LANDING_SOURCE } from '../../db/valid-leads.ts';
import type { LeadChange } from '../../../contracts/leads.ts';
import { ERROR_CODES, type ErrorCode } from '../../../contracts/errors.ts';
import { AppError } from '../../lib/errors.ts';
import { verifyRenderStamp } from '../../lib/render-stamp.ts';
import type { Clock } from '../../lib/clock.ts';
import { localWindow, type WindowLimiter } from '../../lib/rate-limit.ts';
import { seoulDay } from '../../../contracts/kst.ts';
import { stripControls } from '../../../contracts/zod.ts';
import { trackingTags as trackingTagsSchema, type TrackingTag } from '../../../contracts/tracking-tags.ts';
import { DEFAULT_COLORS, formFields as formFieldsSchema, landingState, type FormField } from '../../../contracts/landings.ts';
import { variantContent } from '../../../contracts/experiments.ts';
import {
  HONEYPOT_FIELD, INTAKE_MESSAGES, MIN_FILL_MS, TOKEN_FIELD, VARIANT_FIELD, asksMarketing, parseVariant, intakeFields, intakeTarget, leadConsents, validateAnswers, visitSource,
} from '../../../contracts/intake.ts';

const DEFINITION_TTL_MS = 5_000;
const VISIT_FLUSH_MS = 5_000;
/** Visits counted per IP and landing per minute: reloads and scripted beacons do not inflate the figures. */
const VISITS_PER_MINUTE = 10;
/** Crawlers that run scripts are not visitors. */
const CRAWLER_RE = /bot\b|bot\/|crawl|spider|slurp/i;

export interface LandingDefinition {
  id: number;
  shopId: number;
  shopCode: string;
  landingCode: string;
  title: string;
  status: LandingDefinitionRow['status'];
  openAt: string | null;
  closeAt: string | null;
  /** A landing a daily cap closed is open again from this instant (the next Seoul midnight). */
  reopenAt: string | null;
  shopActive: boolean;
  formFields: FormField[];
  /** The form shows the marketing consent box. */
  asksMarketing: boolean;
  thankYouMessage: string;
  thankYouUrl: string | null;
  duplicateWindowDays: number;
  mediaTypeId: number | null;
  policyId: number | null;
  trackingTags: TrackingTag[];
  headScript: string;
  conversionScript: string;
  color: string;
  /**
   * The running experiment and its variant keys: a form's or beacon's variant is checked against
   * them. `formFields`: the form of each variant that has one of its own (its visitors' answers are
   * checked against it, not the landing's).
   */
  experiment: { id: number; keys: string[]; formFields: Record<string, FormField[]> } | null;
}

function toDefinition(r: LandingDefinitionRow, variants: Array<{ key: string; content: string | null }>): LandingDefinition {
  const variantFields: Record<string, FormField[]> = {};
  for (const v of variants) {
    const fields = v.content ? variantContent.parse(JSON.parse(v.content)).formFields : undefined;
    if (fields) variantFields[v.key] = fields;
  }
  const content = JSON.parse(r.content) as { colors?: { primary?: string } };
  return {
    id: r.id, shopId: r.shop_id, shopCode: r.shop_code, landingCode: r.landing_code, title: r.title, status: r.status,
    openAt: r.open_at, closeAt: r.close_at, reopenAt: r.reopen_at, shopActive: r.shop_status === 'active',
    formFields: formFieldsSchema.parse(JSON.parse(r.form_fields)), asksMarketing: asksMarketing(r.marketing_consent_text), thankYouMessage: r.thank_you_message, thankYouUrl: r.thank_you_url,
    duplicateWindowDays: r.duplicate_window_days, mediaTypeId: r.media_type_id, policyId: r.policy_id,
    trackingTags: trackingTagsSchema.parse(JSON.parse(r.tracking_tags)), headScript: r.head_script, conversionScript: r.conversion_script, color: content.colors?.primary ?? DEFAULT_COLORS.primary,
    experiment: r.experiment_id ? { id: r.experiment_id, keys: variants.map((v) => v.key), formFields: variantFields } : null,
  };
}

/** A refused submission; `landing` is known when the refusal came after finding it. */
export class IntakeError extends AppError {
  constructor(status: number, code: ErrorCode, message: string, fields?: Record<string, string>, readonly landing?: LandingDefinition) {
    super(status, code, message, fields);
  }
}

interface IntakeMeta {
  ip: string;
  userAgent: string | undefined;
}

interface IntakeOptions {
  /** Submissions per IP and landing per minute; 0 turns the limit off. */
  rateLimit: number;
  /**
   * Makes the per-minute limiters (app.windowLimiter: shared by every process with Redis);
   * without it each counts in this process's memory.
   */
  limiter?: (name: string, limit: number) => WindowLimiter;
  secret: () => Buffer;
  /** A form token older than this is refused (the page is re-rendered well before). */
  tokenMaxAgeMs: number;
  /** Commits the batches (inlineWriter, or threadWriter for a SQLite file). */
  writer: BatchWriter;
  /** Told of each committed batch's new leads, per shop (open lead lists hear of them). */
  announce?: (change: LeadChange) => void;
  /**
   * Landings a contract's cap closed, or whose cap refused a submission (this process may still
   * hold them as open): their pages and definitions go. Awaited before the batch is answered.
   */
  landingsClosed?: (landingIds: number[]) => Promise<void>;
  /** Delivery jobs were written (the leads' follow-ups): the delivery workers of every process look. */
  deliveriesQueued?: () => void;
  /** A follow-up run failed (the worker's backstop writes them later). */
  onError?: (err: unknown) => void;
}

/**
 * How long a batch starting right after another waits for the submissions then in flight to come
 * back (GroupCommit's linger), unless the writer says otherwise: under steady load, one commit per
 * round of the visitors' requests instead of two. A lead after a quiet moment never waits.
 */
const INTAKE_LINGER_MS = 2;

/** How long after a batch commits its follow-ups run: the batches of that moment share one run (one commit). */
export const FOLLOW_UP_GAP_MS = 50;

/**
 * Runs `run` a moment after it is poked, one run at a time; a poke during a run asks for another
 * after it. settle() runs it now and resolves once everything poked before has been covered.
 */
function followUpRunner(run: () => Promise<void>, gapMs: number) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  const start = () => {
    timer = null;
    running = run().finally(() => {
      running = null;
      if (again) {
        again = false;
        poke();
      }
    });
  };
  const poke = () => {
    if (running) again = true;
    else if (!timer) timer = setTimeout(start, gapMs);
  };
  return {
    poke,
    async settle() {
      if (timer) clearTimeout(timer);
      timer = null;
      while (running) await running;
      again = false;
      start();
      await running;
    },
  };
}

/** The variant a page's form or beacon carried, when it is one of the landing's running experiment. */
function variantOf(def: LandingDefinition, raw: unknown): { experimentId: number; key: string } | null {
  if (!def.experiment) return null;
  const v = parseVariant(str(raw));
  return v && v.experimentId === def.experiment.id && def.experiment.keys.includes(v.key) ? v : null;
}

/** A raw form value as text, without control characters (they never reach a database). */
const str = (v: unknown) => stripControls(typeof v === 'string' ? v : Array.isArray(v) ? String(v[0] ?? '') : v == null ? '' : String(v));

/** One change per shop for a committed batch's new leads. */
function announceBatch(items: Array<PendingLead | PendingBlock>, outcomes: Outcome[], announce: (change: LeadChange) => void) {
  const byShop = new Map<number, LeadChange['leads']>();
  outcomes.forEach((o, i) => {
    const item = items[i];
    if (o.status !== 'created' || item?.kind !== 'lead') return;
    const list = byShop.get(item.lead.shop_id) ?? [];
    list.push({ id: o.leadId, assigneeId: o.assigneeId ?? null });
    byShop.set(item.lead.shop_id, list);
  });
  for (const [shopId, leads] of byShop) announce({ shopId, kind: 'created', leads });
}

/** The landings a committed batch's caps closed, and those of submissions a cap refused. */
function closedLandings(items: Array<PendingLead | PendingBlock>, outcomes: Outcome[]): number[] {
  const ids = new Set<number>();
  outcomes.forEach((o, i) => {
    if (o.status !== 'created' && o.status !== 'closed') return;
    for (const id of o.closedLandingIds ?? []) ids.add(id);
    const item = items[i];
    if (o.status === 'closed' && item?.kind === 'lead' && item.lead.landing_id != null) ids.add(item.lead.landing_id);
  });
  return [...ids];
}

/** Visits counted in memory (per landing, Seoul day and source; per experiment variant and day), written by flush(). */
function visitCounter(repo: ReturnType<typeof intakeRepository>) {
  let visits = new Map<string, { landing_id: number; day: string; source: string; count: number }>();
  let variantVisits = new Map<string, { experiment_id: number; variant: string; day: string; count: number }>();
  const bump = <T extends { count: number }>(m: Map<string, T>, key: string, row: () => T) => {
    const found = m.get(key);
    if (found) found.count++;
    else m.set(key, row());
  };
  return {
    /** Counts one visit; answers how many rows wait to be written. */
    add(landingId: number, day: string, source: string, variant: { experimentId: number; key: string } | null): number {
      bump(visits, `${landingId}|${day}|${source}`, () => ({ landing_id: landingId, day, source, count: 1 }));
      if (variant) bump(variantVisits, `${variant.experimentId}|${variant.key}|${day}`, () => ({ experiment_id: variant.experimentId, variant: variant.key, day, count: 1 }));
      return visits.size + variantVisits.size;
    },
    async flush() {
      if (!visits.size && !variantVisits.size) return;
      const rows = [...visits.values()];
      const variantRows = [...variantVisits.values()];
      visits = new Map();
      variantVisits = new Map();
      await repo.addVisits(rows);
      await repo.addVariantVisits(variantRows);
    },
  };
}

export function intakeService(db: Kysely<Database>, clock: Clock, opts: IntakeOptions) {
  const repo = intakeRepository(db);
  const definitions = new Map<string, { def: LandingDefinition | null; until: number }>();
  const limiter = opts.limiter ?? ((_name: string, limit: number) => localWindow(limit));
  const allow = limiter('intake', opts.rateLimit);
  const allowVisit = limiter('visit', VISITS_PER_MINUTE);
  // A limiter answers at once when it can (off, in memory, refused locally): only a shared count is awaited.
  const allowed = async (limit: WindowLimiter, key: string, nowMs: number) => {
    const ok = limit(key, nowMs);
    return ok === true || ok === false ? ok : await ok;
  };
  const { writer } = opts;
  const followUps = followUpRunner(async () => {
    try {
      if ((await writer.followUp(clock())) > 0) opts.deliveriesQueued?.();
    } catch (err) {
      opts.onError?.(err);
    }
  }, FOLLOW_UP_GAP_MS);
  const committer = new GroupCommit<PendingLead | PendingBlock, Outcome>(async (items) => {
    const outcomes = await writer.commit(items, clock());
    if (outcomes.some((o) => o.status === 'created')) followUps.poke();
    if (opts.announce) announceBatch(items, outcomes, opts.announce);
    const closed = opts.landingsClosed ? closedLandings(items, outcomes) : [];
    // The batch has committed: a failure to refresh caches must not fail it (nor have it retried).
    if (closed.length) await opts.landingsClosed!(closed).catch(() => {});
    return outcomes;
  }, 200, writer.concurrency ?? 1, (err) => !isDatabaseUnavailable(err), writer.lingerMs ?? INTAKE_LINGER_MS);
  // Every visitor of a cached page posts the same token: remember the verified ones.
  const stamps = new Map<string, number>();
  const renderTime = (landingId: number, token: unknown): number | null => {
    const key = `${landingId}|${String(token)}`;
    const known = stamps.get(key);
    if (known !== undefined) return known;
    const ms = verifyRenderStamp(opts.secret(), landingId, token);
    if (ms !== null) {
      if (stamps.size >= 1000) stamps.clear();
      stamps.set(key, ms);
    }
    return ms;
  };

  async function definition(shopCode: string, landingCode: string): Promise<LandingDefinition | null> {
    const key = `${shopCode}/${landingCode}`;
    const now = Date.now();
    const hit = definitions.get(key);
    if (hit && now < hit.until) return hit.def;
    const row = await repo.definition(shopCode, landingCode);
    // The running experiment's variants: one more statement per definition load (every few seconds), none per lead.
    const def = row ? toDefinition(row, row.experiment_id ? await repo.variants(row.experiment_id) : []) : null;
    if (definitions.size > 10_000) definitions.clear();
    definitions.set(key, { def, until: now + DEFINITION_TTL_MS });
    return def;
  }

  // One landing often takes traffic from several media: a utm_source naming a media type's
  // code (meta, naver, kakao …) is the lead's medium; without one, the landing's medium is.
  let media: { byCode: Map<string, number>; until: number } | null = null;
  async function mediumOf(utmSource: string | null | undefined, fallback: number | null): Promise<number | null> {
    const code = utmSource?.trim().toLowerCase();
    if (!code) return fallback;
    const now = Date.now();
    if (!media || now >= media.until) media = { byCode: new Map((await repo.mediaCodes()).map((m) => [m.code.toLowerCase(), m.id])), until: now + DEFINITION_TTL_MS };
    return media.byCode.get(code) ?? fallback;
  }

  /** An open landing by its codes, or the right refusal. */
  async function openLanding(raw: Record<string, unknown>): Promise<LandingDefinition> {
    const target = intakeTarget.safeParse({ shopCode: str(raw.shopCode), landingCode: str(raw.landingCode) });
    if (!target.success) throw new IntakeError(400, ERROR_CODES.BAD_REQUEST, INTAKE_MESSAGES.badRequest);
    const def = await definition(target.data.shopCode, target.data.landingCode);
    if (!def) throw new IntakeError(404, ERROR_CODES.NOT_FOUND, INTAKE_MESSAGES.notFound);
    const state = def.shopActive ? landingState(def, clock()) : 'ended';
    if (state === 'ended') throw new IntakeError(410, ERROR_CODES.GONE, INTAKE_MESSAGES.closed, undefined, def);
    if (state !== 'open') throw new IntakeError(404, ERROR_CODES.NOT_FOUND, INTAKE_MESSAGES.notFound);
    return def;
  }

  // Visits are counted in memory and written every few seconds (one upsert per landing, day and source).
  const visits = visitCounter(repo);
  const flushVisits = visits.flush;
  const visitTimer = setInterval(() => void flushVisits().catch(() => {}), VISIT_FLUSH_MS);
  visitTimer.unref();

  return {
    /** Checks, stores and answers one submission; resolves after its transaction committed. */
    async submit(raw: Record<string, unknown>, meta: IntakeMeta): Promise<{ landing: LandingDefinition; leadId: number; duplicateOf: number | null }> {
      const def = await openLanding(raw);
      const now = clock();
      const refuse = (status: number, code: ErrorCode, message: string, fields?: Record<string, string>) => new IntakeError(status, code, message, fields, def);
      if (opts.rateLimit > 0 && !(await allowed(allow, `${meta.ip}|${def.id}`, now.getTime()))) throw refuse(429, ERROR_CODES.RATE_LIMITED, INTAKE_MESSAGES.rateLimited);

      const block = async (reason: PendingBlock['row']['reason'], message: string) => {
        await committer.submit({
          kind: 'block',
          row: {
            shop_id: def.shopId, landing_id: def.id, reason, ip: meta.ip, phone: str(raw.phone).slice(0, 20) || null,
            name: str(raw.name).slice(0, 30) || null, user_agent: meta.userAgent?.slice(0, 300) ?? null, detail: null,
          },
        });
        return refuse(400, ERROR_CODES.BLOCKED, message);
      };
      if (str(raw[HONEYPOT_FIELD]).trim()) throw await block('honeypot', INTAKE_MESSAGES.bot);
      const renderedAt = renderTime(def.id, raw[TOKEN_FIELD]);
      if (renderedAt === null || renderedAt > now.getTime() + 60_000) throw refuse(400, ERROR_CODES.BAD_TOKEN, INTAKE_MESSAGES.token);
      if (now.getTime() - renderedAt > opts.tokenMaxAgeMs) throw refuse(400, ERROR_CODES.TOKEN_EXPIRED, INTAKE_MESSAGES.expired);
      if (now.getTime() - renderedAt < MIN_FILL_MS) throw await block('too-fast', INTAKE_MESSAGES.tooFast);

      const parsed = intakeFields.safeParse(raw);
      // A variant's visitor filled in that variant's form.
      const variant = variantOf(def, raw[VARIANT_FIELD]);
      const formFields = (variant && def.experiment?.formFields[variant.key]) || def.formFields;
      const { answers, errors } = validateAnswers(formFields, raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? '_')] ??= issue.message;
      }
      // Sensitive answers (PIPA art. 23) come only with their own consent.
      const consents = leadConsents({ formFields, asksMarketing: def.asksMarketing }, answers, parsed.success && parsed.data.marketingConsent);
      if (consents.gaveSensitive && parsed.success && !parsed.data.sensitiveConsent) errors.sensitiveConsent = INTAKE_MESSAGES.sensitiveConsent;
      if (!parsed.success || Object.keys(errors).length) throw refuse(422, ERROR_CODES.VALIDATION, INTAKE_MESSAGES.validation, errors);
      const f = parsed.data;

      const outcome = await committer.submit({
        kind: 'lead',
        duplicateWindowDays: def.duplicateWindowDays,
        text: [f.name, ...Object.values(answers).flat()].join(' '),
        lead: {
          shop_id: def.shopId, landing_id: def.id, source: LANDING_SOURCE, name: f.name, phone: f.phone, answers: JSON.stringify(answers),
          privacy_consent: 1, marketing_consent: consents.marketing_consent, sensitive_consent: consents.sensitive_consent, privacy_policy_id: def.policyId,
          utm_source: f.utm_source, utm_medium: f.utm_medium, utm_campaign: f.utm_campaign, utm_content: f.utm_content, utm_term: f.utm_term,
          media_type_id: await mediumOf(f.utm_source, def.mediaTypeId), referrer: f.referrer, ip: meta.ip, user_agent: meta.userAgent?.slice(0, 300) ?? null,
          cs_status: '미처리', experiment_id: variant?.experimentId ?? null, variant: variant?.key ?? null,
        },
      });
      if (outcome.status === 'denied') throw refuse(403, ERROR_CODES.DENIED, INTAKE_MESSAGES.denied);
      // A contract's cap closed the landing (another submission took the last place): the closed landing's answer.
      if (outcome.status === 'closed') throw refuse(410, ERROR_CODES.GONE, INTAKE_MESSAGES.closed);
      if (outcome.status !== 'created') throw refuse(500, ERROR_CODES.INTERNAL, INTAKE_MESSAGES.internal);
      return { landing: def, leadId: outcome.leadId, duplicateOf: outcome.duplicateOf };
    },

    /** Counts a visit beacon, unless it comes from a crawler or its IP already counted enough this minute. */
    async countVisit(raw: Record<string, unknown>, meta: IntakeMeta) {
      if (meta.userAgent && CRAWLER_RE.test(meta.userAgent)) return;
      const def = await openLanding(raw).catch(() => null);
      if (!def || !(await allowed(allowVisit, `${meta.ip}|${def.id}`, clock().getTime()))) return;
      if (visits.add(def.id, seoulDay(clock()), visitSource(str(raw.source)), variantOf(def, raw[VARIANT_FIELD])) > 5_000) await flushVisits();
    },
    flushVisits,
    /** Landings changed: forget their definitions. */
    forget: () => definitions.clear(),
    /** Writes the follow-ups of every lead committed so far (tests, and before a shutdown). */
    followUps: () => followUps.settle(),
    async close() {
      clearInterval(visitTimer);
      await committer.idle();
      await followUps.settle();
      await writer.close();
      await flushVisits();
    },
  };
}
