import crypto from 'node:crypto';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import type { Kysely } from 'kysely';
import type { Database, LandingRow } from '../../db/schema.ts';
import { landingsRepository, type LandingFields } from './landings.repository.ts';
import { inputView, landingFieldsView, operatorView, policyView, shopView } from './public/views.ts';
import { uncoveredFields } from '../../../contracts/privacy.ts';
import { contractGap } from '../../../contracts/money.ts';
import { coverageContracts } from '../../db/contract-coverage.ts';
import { OPERATOR_MISSING } from '../../../contracts/operator.ts';
import { imageInfo, oversizeReason } from './image-info.ts';
import { convertQueued, UnreadableImage } from './image-variants.ts';
import { QueueFull } from '../../lib/work-queue.ts';
import { uploadsRepository } from './uploads.repository.ts';
import { AppError, badRequest, conflict, foundOr404, notFound } from '../../lib/errors.ts';
import { audit, auditBy, type Actor } from '../audit/audit.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { inTransaction, isUniqueViolation } from '../../db/dialect-sql.ts';
import { addDays, periodInstants, seoulDay } from '../../../contracts/kst.ts';
import {
  formFields as formFieldsSchema, hasFreeScripts, landingContent, landingPath, landingState,
  type Landing, type LandingInput, type LandingListItem, type LandingListQuery, type VariantFigures, type LandingView,
} from '../../../contracts/landings.ts';

interface LandingHooks {
  /** Drop cached pages of these landings and re-render them. */
  changed(ids: number[]): Promise<void>;
  /** Counted visits still in memory reach the database. */
  flushVisits(): Promise<void>;
  preview(view: LandingView): Promise<string>;
}

const conversion = (submissions: number, visits: number) => (visits > 0 ? Math.round((submissions / visits) * 1000) / 10 : null);

/** The form fields a policy's items do not name; every field, while no policy is in force. */
const uncovered = (formFieldsJson: string, policyItems: string | null | undefined) =>
  uncoveredFields(policyItems ?? '', formFieldsSchema.parse(JSON.parse(formFieldsJson)));

function toLanding(r: LandingRow, shopCode: string, now: Date, policyItems: string | null | undefined, gap: string[]): Landing {
  return {
    contractGap: gap,
    uncoveredFields: uncovered(r.form_fields, policyItems),
    id: r.id, shopId: r.shop_id, landingCode: r.landing_code, title: r.title, status: r.status,
    state: landingState({ status: r.status, openAt: r.open_at, closeAt: r.close_at, reopenAt: r.reopen_at }, now),
    openAt: r.open_at, closeAt: r.close_at, mediaTypeId: r.media_type_id, eventTypeId: r.event_type_id,
    content: landingContent.parse(JSON.parse(r.content)), formFields: formFieldsSchema.parse(JSON.parse(r.form_fields)),
    privacyConsentText: r.privacy_consent_text, marketingConsentText: r.marketing_consent_text,
    thankYouMessage: r.thank_you_message, thankYouUrl: r.thank_you_url, duplicateWindowDays: r.duplicate_window_days,
    privacyPolicyVersionId: r.privacy_policy_version_id,
    hasScripts: r.tracking_tags !== '[]' || hasFreeScripts({ headScript: r.head_script, bodyScript: r.body_script, conversionScript: r.conversion_script }),
    publishedAt: r.published_at, version: r.version, url: landingPath(shopCode, r.landing_code),
    createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

function fieldsOf(shopId: number, i: LandingInput): Omit<LandingFields, 'status'> {
  return {
    shop_id: shopId, landing_code: i.landingCode, title: i.title, open_at: i.openAt, close_at: i.closeAt,
    media_type_id: i.mediaTypeId, event_type_id: i.eventTypeId,
    content: JSON.stringify(i.content), form_fields: JSON.stringify(i.formFields),
    privacy_consent_text: i.privacyConsentText, marketing_consent_text: i.marketingConsentText,
    thank_you_message: i.thankYouMessage, thank_you_url: i.thankYouUrl, duplicate_window_days: i.duplicateWindowDays,
    privacy_policy_version_id: i.privacyPolicyVersionId,
  };
}

type Repo = ReturnType<typeof landingsRepository>;
type ListRow = Awaited<ReturnType<Repo['list']>>['rows'][number];

/** A row of the landings table, with its conversion, its variants' figures and the form fields its policy does not cover. */
function toListItem(r: ListRow, shopCode: string, now: Date, variants: VariantFigures[]): LandingListItem {
  const visits = Number(r.visits);
  const submissions = Number(r.submissions);
  return {
    id: r.id, landingCode: r.landing_code, title: r.title, status: r.status,
    state: landingState({ status: r.status, openAt: r.open_at, closeAt: r.close_at, reopenAt: r.reopen_at }, now),
    openAt: r.open_at, closeAt: r.close_at, mediaTypeName: r.media_type_name, eventTypeName: r.event_type_name,
    publishedAt: r.published_at, url: landingPath(shopCode, r.landing_code),
    visits, submissions, conversionRate: conversion(submissions, visits), updatedAt: r.updated_at,
    uncoveredFields: uncovered(r.form_fields, r.policy_items),
    variants,
  };
}

/**
 * 실험안별 per landing: each variant of the experiments that ran in the period, with its visits and
 * leads in it. An experiment with neither in the period (it ran at its edge, or had not begun to
 * count) is left out: a row of zeros says nothing of the variants.
 */
async function variantSplit(repo: Repo, landingIds: number[], period: Parameters<Repo['list']>[2]): Promise<Map<number, VariantFigures[]>> {
  const out = new Map<number, VariantFigures[]>();
  if (!landingIds.length) return out;
  const defined = await repo.periodVariants(landingIds, period);
  if (!defined.length) return out;
  const ids = [...new Set(defined.map((d) => d.experiment_id))];
  const [visits, leads] = await Promise.all([repo.variantVisits(ids, period), repo.variantLeads(ids, period)]);
  const count = (rows: Array<{ experiment_id: number | null; variant: string | null; n: number | string }>) =>
    new Map(rows.map((r) => [`${r.experiment_id}:${r.variant}`, Number(r.n)]));
  const [v, l] = [count(visits), count(leads)];
  const counted = new Set<number>();
  for (const [k, n] of [...v, ...l]) if (n > 0) counted.add(Number(k.split(':')[0]));
  for (const d of defined) {
    if (!counted.has(d.experiment_id)) continue;
    const k = `${d.experiment_id}:${d.key}`;
    const [vs, ls] = [v.get(k) ?? 0, l.get(k) ?? 0];
    const row = { experimentId: d.experiment_id, experimentName: d.name, key: d.key, visits: vs, submissions: ls, conversionRate: conversion(ls, vs) };
    out.set(d.landing_id, [...(out.get(d.landing_id) ?? []), row]);
  }
  return out;
}

/**
 * What saving and previewing both require of the input: its media and event types exist,
 * and its privacy policy is a published version of this shop (never another shop's).
 */
async function checkReferences(repo: Repo, shopId: number, i: LandingInput) {
  const fields: Record<string, string> = {};
  if (i.mediaTypeId && (await repo.codeItemKind(i.mediaTypeId)) !== 'media-type') fields.mediaTypeId = '매체 유형을 찾을 수 없습니다.';
  if (i.eventTypeId && (await repo.codeItemKind(i.eventTypeId)) !== 'event-type') fields.eventTypeId = '이벤트 유형을 찾을 수 없습니다.';
  if (i.privacyPolicyVersionId && !(await repo.publishedPolicy(shopId, i.privacyPolicyVersionId))) {
    fields.privacyPolicyVersionId = '게시된 개인정보 처리방침 버전을 선택하세요.';
  }
  if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0]!, fields);
}

async function checkCode(repo: Repo, shopId: number, i: LandingInput, selfId?: number) {
  const same = await repo.findIdByCode(shopId, i.landingCode);
  if (same && same.id !== selfId) throw conflict('이미 사용 중인 랜딩 코드입니다.', { landingCode: '이미 사용 중인 랜딩 코드입니다.' });
}

export function landingsService(db: Kysely<Database>, clock: Clock, hooks: LandingHooks) {
  const repo = landingsRepository(db);

  async function shopOf(shopId: number) {
    const shop = await repo.shop(shopId);
    if (!shop) throw notFound('업체를 찾을 수 없습니다.');
    return shop;
  }

  const row = (shopId: number, id: number) => foundOr404(repo.find(shopId, id), '랜딩을 찾을 수 없습니다.');

  async function get(shopId: number, id: number): Promise<Landing> {
    const [r, shop] = await Promise.all([row(shopId, id), shopOf(shopId)]);
    const now = clock();
    const today = seoulDay(now);
    const [policy, contracts] = await Promise.all([policyFor(shopId, r.privacy_policy_version_id), r.status === 'closed' ? null : coverageContracts(db, [shopId], today)]);
    const gap = contracts ? contractGap({ id: r.id, mediaTypeId: r.media_type_id }, contracts.get(shopId) ?? [], today) : [];
    return toLanding(r, shop.shop_code, now, policy?.items, gap);
  }

  /**
   * A change to a landing and its audit entry, in one transaction. No actor: the system made it
   * (a scheduled 시스템 예약), recorded without an account and with the reason.
   */
  const write = (id: number, row: Parameters<typeof repo.update>[1], actor: Actor | null, action: string, reason?: string) =>
    inTransaction(db, async (trx) => {
      await landingsRepository(trx).update(id, row);
      const entry = { action, target: 'landing', targetId: id, ...(reason ? { detail: { reason } } : {}) };
      await (actor ? auditBy(trx, actor, entry, clock()) : audit(trx, { ...entry, accountId: null }, clock()));
    });

  async function policyFor(shopId: number, pinned: number | null) {
    const id = pinned ?? (await repo.latestPublishedPolicy(shopId))?.id;
    return id ? repo.publishedPolicy(shopId, id) : undefined;
  }

  return {
    get,

    options: async (shopId: number) => ({
      items: (await repo.options(shopId)).map((r) => ({ id: r.id, title: r.title, landingCode: r.landing_code, status: r.status })),
    }),

    async list(shopId: number, q: LandingListQuery) {
      const now = clock();
      const to = q.to ?? seoulDay(now);
      const from = q.from ?? addDays(to, -29);
      if (from > to) throw badRequest('시작일이 종료일보다 늦습니다.', { from: '시작일이 종료일보다 늦습니다.' });
      await hooks.flushVisits();
      const period = { fromDay: from, toDay: to, ...periodInstants(from, to) };
      const [shop, { rows, total }] = await Promise.all([shopOf(shopId), repo.list(shopId, q, period)]);
      const split = await variantSplit(repo, rows.map((r) => r.id), period);
      const items = rows.map((r) => toListItem(r, shop.shop_code, now, split.get(r.id) ?? []));
      return { items, total, period: { from, to } };
    },

    async create(shopId: number, input: LandingInput, actor: Actor) {
      await shopOf(shopId);
      await checkReferences(repo, shopId, input);
      await checkCode(repo, shopId, input);
      const now = clock().toISOString();
      try {
        const id = await inTransaction(db, async (trx) => {
          const { id } = await landingsRepository(trx).insert({ ...fieldsOf(shopId, input), status: 'draft', created_by: actor.id, created_at: now, updated_at: now });
          await auditBy(trx, actor, { action: 'landing-create', target: 'landing', targetId: id, detail: { shopId, landingCode: input.landingCode } }, clock());
          return id;
        });
        return get(shopId, id);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('이미 사용 중인 랜딩 코드입니다.', { landingCode: '이미 사용 중인 랜딩 코드입니다.' });
        throw err;
      }
    },

    /** Saving an open landing changes the live page at once; scripts are never touched here. */
    async update(shopId: number, id: number, input: LandingInput, actor: Actor) {
      const current = await row(shopId, id);
      if (current.published_at && input.landingCode !== current.landing_code) {
        throw conflict('게시한 적이 있는 랜딩의 코드는 바꿀 수 없습니다. 광고에 연결된 주소가 끊깁니다.', { landingCode: '게시 후에는 바꿀 수 없습니다.' });
      }
      await checkReferences(repo, shopId, input);
      await checkCode(repo, shopId, input, id);
      await write(id, { ...fieldsOf(shopId, input), updated_at: clock().toISOString() }, actor, 'landing-update');
      await hooks.changed([id]);
      return get(shopId, id);
    },

    async publish(shopId: number, id: number, actor: Actor | null, reason?: string) {
      const current = await row(shopId, id);
      const now = clock();
      if (current.close_at && new Date(current.close_at) <= now) {
        throw conflict('종료 일시가 지난 랜딩은 게시할 수 없습니다. 일정을 먼저 바꾸세요.', { closeAt: '종료 일시가 지났습니다.' });
      }
      const policy = await policyFor(shopId, current.privacy_policy_version_id);
      if (!policy) throw conflict('게시된 개인정보 처리방침이 없습니다. 개인정보 처리방침을 먼저 게시하세요.');
      // The privacy page must name who collects: the agency, unless the shop collects for itself.
      if (policy.collector === 'operator' && !(await repo.operator())) throw conflict(OPERATOR_MISSING);
      await write(id, { status: 'open', published_at: now.toISOString(), updated_at: now.toISOString(), closed_by_contract_id: null, reopen_at: null }, actor, 'landing-publish', reason);
      await hooks.changed([id]);
      return get(shopId, id);
    },

    async close(shopId: number, id: number, actor: Actor | null, reason?: string) {
      const current = await row(shopId, id);
      if (current.status === 'draft') throw conflict('게시하지 않은 랜딩은 종료할 수 없습니다.');
      const now = clock();
      // Closed by hand: no longer the contract's closing, and it does not reopen at midnight.
      await write(id, { status: 'closed', updated_at: now.toISOString(), closed_by_contract_id: null, reopen_at: null }, actor, 'landing-close', reason);
      await hooks.changed([id]);
      return get(shopId, id);
    },

    /** The saved landing, or unsaved editor input, as a visitor would see it (no scripts, no submitting). */
    async preview(shopId: number, id: number | null, input: LandingInput | null): Promise<string> {
      const shop = await shopOf(shopId);
      const saved = id ? await row(shopId, id) : null;
      if (input) await checkReferences(repo, shopId, input);
      const landing = input ? inputView(input) : { ...landingFieldsView(saved!, { freeScripts: false }), trackingTags: [] };
      const policy = await policyFor(shopId, input ? input.privacyPolicyVersionId : saved!.privacy_policy_version_id);
      return hooks.preview({
        shop: shopView(shop),
        landing: { id: saved?.id ?? 0, version: saved?.version ?? 0, ...landing },
        policy: policyView(policy),
        operator: operatorView(await repo.operator()),
        token: 'preview',
        preview: true,
      });
    },

    async upload(shopId: number, data: Buffer, actor: Actor) {
      await shopOf(shopId);
      const info = imageInfo(data);
      if (!info) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'PNG, JPEG, WebP, GIF 이미지만 올릴 수 있습니다.');
      // Measured from the header: an image past the limits is never decoded.
      const oversize = oversizeReason(info);
      if (oversize) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, oversize);
      // Converted once, here, in the process's image queue: pages then offer AVIF and WebP in a few widths (image-variants.ts).
      const variants = await convertQueued(data).catch((err: unknown) => {
        if (err instanceof QueueFull) throw new AppError(503, ERROR_CODES.BUSY, '이미지 변환 작업이 밀려 있습니다. 잠시 후 다시 시도하세요.');
        if (err instanceof UnreadableImage) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, '이미지를 읽을 수 없습니다. 손상되지 않은 PNG, JPEG, WebP, GIF 파일을 올리세요.');
        throw err;
      });
      const key = crypto.randomBytes(16).toString('base64url');
      const now = clock().toISOString();
      const { id } = await inTransaction(db, async (trx) => {
        const row = await landingsRepository(trx).insertUpload({
          key, shop_id: shopId, mime: info.mime, width: info.width, height: info.height, size: data.length, data, created_by: actor.id, created_at: now, variants_at: now,
        });
        await uploadsRepository(trx).insertVariants(row.id, variants, now);
        return row;
      });
      return { id, url: `/uploads/${key}.${info.ext}`, mime: info.mime, width: info.width, height: info.height, size: data.length };
    },
  };
}
