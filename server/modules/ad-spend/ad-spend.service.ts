// 광고 현황's rules: the figures (spend and leads per day × medium, their totals and ratios),
// the grid's save (checked whole, written whole, recorded), and the CSV import in two steps —
// the preview reads and checks the file and keeps what it would write under a token; the
// commit writes it. Nothing is written while a row is refused, unless the person chose to
// leave the refused rows out.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { adSpendRepository, type FigureScope, type SpendEntry } from './ad-spend.repository.ts';
import { checkSheet, loadSheet, type CheckedGroup } from './ad-spend-import.ts';
import { addDays, periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { adMetrics, type AdTotals } from '../../../contracts/money.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import {
  AD_MAX_DAYS, NO_MEDIUM_LABEL, WHOLE_MEDIUM, WHOLE_MEDIUM_LABEL,
  type AdDayTotal, type AdFigures, type AdImportCommitInput, type AdImportPreview, type AdImportQuery, type AdImportResult, type AdMediumTotal,
  type AdRow, type AdSource, type AdSpendFigures, type AdSpendQuery, type AdSpendSaveInput, type AdSpendSaveResult,
} from '../../../contracts/ad-spend.ts';

// ── Figures ─────────────────────────────────────────────────────────────────────────────

class Tally implements AdTotals {
  impressions = 0;
  clicks = 0;
  spend = 0;
  leads = 0;
  validLeads = 0;
  otherLeads = 0;

  addSpend(g: { impressions: number; clicks: number; spend: number }): this {
    this.impressions += g.impressions;
    this.clicks += g.clicks;
    this.spend += g.spend;
    return this;
  }

  /** Leads from an ad enter the ratios; the others (adLead) are only counted apart. */
  addLeads(g: { leads: number; validLeads: number; ad?: boolean; otherLeads?: number }): this {
    if (g.ad === false) this.otherLeads += g.leads;
    else {
      this.leads += g.leads;
      this.validLeads += g.validLeads;
    }
    this.otherLeads += g.otherLeads ?? 0;
    return this;
  }

  figures(): AdFigures {
    const t = { impressions: this.impressions, clicks: this.clicks, spend: this.spend, leads: this.leads, validLeads: this.validLeads };
    return { ...t, ...adMetrics(t), otherLeads: this.otherLeads };
  }
}

/** One shop's figures of a period (what the screen shows beside its pickers). */
interface ShopAdFigures {
  shopId: number;
  rows: AdRow[];
  media: AdMediumTotal[];
  days: AdDayTotal[];
  totals: AdFigures;
}

interface AdFiguresQuery {
  shopIds: readonly number[];
  /** Seoul days, inclusive. */
  from: string;
  to: string;
  byLanding?: boolean;
}

interface AdFiguresResult {
  /** One per shop asked for, in the order asked. */
  shops: ShopAdFigures[];
  /** All the shops together. */
  totals: AdFigures;
}

interface RowTally {
  tally: Tally;
  day: string;
  mediaTypeId: number;
  landingId: number;
  entered: boolean;
  source: AdSource | null;
  split: boolean;
}

const byTitle = new Intl.Collator('ko').compare;

const daysOf = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};

/**
 * Advertising figures of several shops over a period of Seoul days: rows per day × medium
 * (× landing), totals per medium (leads without a medium as 매체 미지정), per day and overall.
 * Two grouped queries, whatever the number of shops and days.
 */
export async function adFigures(db: Kysely<Database>, q: AdFiguresQuery): Promise<AdFiguresResult> {
  const scope: FigureScope = { shopIds: q.shopIds, from: q.from, to: q.to, byLanding: !!q.byLanding };
  if (!q.shopIds.length) return { shops: [], totals: new Tally().figures() };
  const repo = adSpendRepository(db);
  const [spend, leads, mediaTypes, landings] = await Promise.all([
    repo.spend(scope),
    repo.leads({ ...scope, ...periodInstants(q.from, q.to) }),
    repo.mediaTypes(),
    scope.byLanding ? repo.landings(q.shopIds) : Promise.resolve([]),
  ]);
  const mediaOrder = new Map(mediaTypes.map((m, i) => [m.id, i]));
  const mediaName = new Map(mediaTypes.map((m) => [m.id, m.name]));
  const landingTitle = new Map(landings.map((l) => [l.id, l.title]));
  const days = daysOf(q.from, q.to);

  const perShop = new Map<number, { rows: Map<string, RowTally>; media: Map<number | null, Tally>; days: Map<string, Tally>; all: Tally }>();
  const shop = (id: number) => {
    let s = perShop.get(id);
    if (!s) perShop.set(id, (s = { rows: new Map(), media: new Map(), days: new Map(days.map((d) => [d, new Tally()])), all: new Tally() }));
    return s;
  };
  const tallyOf = <K>(m: Map<K, Tally>, k: K) => {
    let t = m.get(k);
    if (!t) m.set(k, (t = new Tally()));
    return t;
  };
  const rowOf = (s: ReturnType<typeof shop>, g: { day: string; mediaTypeId: number; landingId: number }) => {
    const key = `${g.day}|${g.mediaTypeId}|${g.landingId}`;
    let r = s.rows.get(key);
    if (!r) s.rows.set(key, (r = { tally: new Tally(), day: g.day, mediaTypeId: g.mediaTypeId, landingId: g.landingId, entered: false, source: null, split: false }));
    return r;
  };

  for (const g of spend) {
    const s = shop(g.shopId);
    const r = rowOf(s, g);
    r.tally.addSpend(g);
    r.entered = true;
    r.source = g.source;
    r.split = g.split;
    tallyOf(s.media, g.mediaTypeId).addSpend(g);
    tallyOf(s.days, g.day).addSpend(g);
    s.all.addSpend(g);
  }
  for (const g of leads) {
    const s = shop(g.shopId);
    // Leads not from an ad (hand-entered, imported, without a medium) have no click or spend
    // behind them: counted apart per day and in the totals, never in a row's or medium's ratios.
    if (g.ad && g.mediaTypeId !== null) {
      rowOf(s, { ...g, mediaTypeId: g.mediaTypeId }).tally.addLeads(g);
      tallyOf(s.media, g.mediaTypeId).addLeads(g);
    }
    tallyOf(s.days, g.day).addLeads(g);
    s.all.addLeads(g);
  }

  // Media in their code order; 매체 미지정 last.
  const order = (id: number | null) => (id === null ? mediaTypes.length + 1 : (mediaOrder.get(id) ?? mediaTypes.length));
  const nameOf = (id: number) => mediaName.get(id) ?? `매체 #${id}`;
  const titleOf = (id: number) => (id === WHOLE_MEDIUM ? WHOLE_MEDIUM_LABEL : (landingTitle.get(id) ?? `랜딩 #${id}`));
  const all = new Tally();
  const shops = q.shopIds.map((shopId): ShopAdFigures => {
    const s = shop(shopId);
    all.addSpend(s.all).addLeads(s.all);
    const rows = [...s.rows.values()]
      .sort(
        (a, b) =>
          (a.day < b.day ? -1 : a.day > b.day ? 1 : 0) ||
          order(a.mediaTypeId) - order(b.mediaTypeId) ||
          a.mediaTypeId - b.mediaTypeId ||
          (a.landingId === b.landingId ? 0 : a.landingId === WHOLE_MEDIUM ? -1 : b.landingId === WHOLE_MEDIUM ? 1 : byTitle(titleOf(a.landingId), titleOf(b.landingId)) || a.landingId - b.landingId),
      )
      .map((r) => ({
        day: r.day, mediaTypeId: r.mediaTypeId, mediaTypeName: nameOf(r.mediaTypeId), landingId: r.landingId, landingTitle: titleOf(r.landingId),
        entered: r.entered, source: r.source, split: r.split, ...r.tally.figures(),
      }));
    const media = [...s.media.entries()]
      .sort(([a], [b]) => order(a) - order(b) || (a ?? 0) - (b ?? 0))
      .map(([id, t]) => ({ mediaTypeId: id, mediaTypeName: id === null ? NO_MEDIUM_LABEL : nameOf(id), ...t.figures() }));
    return { shopId, rows, media, days: days.map((day) => ({ day, ...s.days.get(day)!.figures() })), totals: s.all.figures() };
  });
  return { shops, totals: all.figures() };
}

/** The period asked for, or this month (Seoul) up to today; refused when reversed or longer than a year. */
function periodOf(q: { from?: string; to?: string }, today: string): { from: string; to: string } {
  const to = q.to ?? (q.from && q.from > today ? q.from : today);
  const from = q.from ?? `${to.slice(0, 8)}01`;
  if (from > to) throw badRequest('시작일이 종료일보다 늦습니다.', { from: '시작일이 종료일보다 늦습니다.' });
  if (addDays(from, AD_MAX_DAYS - 1) < to) throw badRequest('기간은 1년 이내로 정하세요.', { from: '기간은 1년 이내로 정하세요.' });
  return { from, to };
}

// ── Import tokens ───────────────────────────────────────────────────────────────────────

/** A preview's rows wait this long for their commit. */
const KEEP_PREVIEW_MS = 60 * 60_000;
const PREVIEW_GONE = '미리보기가 만료되었습니다. 파일을 다시 올려 주세요.';
const TOKEN_RE = /^[0-9a-f]{32}$/;

/** What a preview keeps for its commit. */
interface StoredPreview {
  shopId: number;
  accountId: number;
  fileName: string;
  createdAt: string;
  groups: CheckedGroup[];
  errorRows: number;
}

interface AdSpendConfig {
  dataDir: string;
  log: (err: unknown, message: string) => void;
}

interface UploadedSheet {
  fileName: string;
  data: Buffer;
}

const keyOf = (e: { day: string; mediaTypeId: number; landingId: number }) => `${e.day}|${e.mediaTypeId}|${e.landingId}`;
const isZero = (e: { impressions: number; clicks: number; spend: number }) => !e.impressions && !e.clicks && !e.spend;

export function adSpendService(db: Kysely<Database>, clock: Clock, config: AdSpendConfig) {
  const repo = adSpendRepository(db);
  const dir = path.join(config.dataDir, 'ad-spend-imports');
  const fileOf = (token: string) => path.join(dir, `${token}.json`);

  /** Active media types and the shop's landings, by id. */
  async function references(shopId: number) {
    const [mediaTypes, landings] = await Promise.all([repo.mediaTypes(), repo.landings([shopId])]);
    return { mediaTypes, landings, active: new Map(mediaTypes.filter((m) => m.active).map((m) => [m.id, m])), landingById: new Map(landings.map((l) => [l.id, l])) };
  }

  /** Writes checked entries in one transaction with their record: all-zero ones remove theirs. */
  async function write(shopId: number, entries: readonly SpendEntry[], source: AdSource, actor: Actor, detail: Record<string, unknown>, action: string) {
    const now = clock();
    const keep = entries.filter((e) => !isZero(e));
    const drop = entries.filter(isZero);
    return inTransaction(db, async (trx) => {
      const r = adSpendRepository(trx);
      await r.upsert(shopId, keep, source, actor.id, now.toISOString());
      const deleted = drop.length ? await r.remove(shopId, drop) : 0;
      await auditBy(trx, actor, { action, target: 'shop', targetId: shopId, detail: { ...detail, saved: keep.length, deleted } }, now);
      return { saved: keep.length, deleted };
    });
  }

  async function sweep(now: Date) {
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(dir, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (stat && now.getTime() - stat.mtimeMs > KEEP_PREVIEW_MS) await fs.promises.rm(file, { force: true });
    }
  }

  return {
    async figures(shopId: number, q: AdSpendQuery): Promise<AdSpendFigures> {
      const today = seoulDay(clock());
      const period = periodOf(q, today);
      const byLanding = !!q.byLanding;
      const [{ shops }, refs] = await Promise.all([adFigures(db, { shopIds: [shopId], ...period, byLanding }), references(shopId)]);
      const s = shops[0]!;
      return {
        period, today, byLanding, rows: s.rows, media: s.media, days: s.days, totals: s.totals,
        mediaTypes: refs.mediaTypes.filter((m) => m.active).map((m) => ({ id: m.id, name: m.name, code: m.code })),
        landings: refs.landings.map((l) => ({ id: l.id, title: l.title, landingCode: l.landing_code })),
      };
    },

    /** The grid's rows: every row checked first (answers each refusal under rows.N.field), then all written. */
    async save(shopId: number, input: AdSpendSaveInput, actor: Actor): Promise<AdSpendSaveResult> {
      const today = seoulDay(clock());
      const { active, landingById } = await references(shopId);
      const fields: Record<string, string> = {};
      const seen = new Set<string>();
      const entries = input.rows.map((r, i): SpendEntry => {
        const e = { day: r.day, mediaTypeId: r.mediaTypeId, landingId: r.landingId ?? WHOLE_MEDIUM, impressions: r.impressions, clicks: r.clicks, spend: r.spend };
        if (e.day > today) fields[`rows.${i}.day`] = '오늘 이후 날짜의 광고비는 입력할 수 없습니다.';
        if (!active.has(e.mediaTypeId)) fields[`rows.${i}.mediaTypeId`] = '사용 중인 매체를 목록에서 고르세요.';
        if (e.landingId !== WHOLE_MEDIUM && !landingById.has(e.landingId)) fields[`rows.${i}.landingId`] = '이 업체의 랜딩을 목록에서 고르세요.';
        const key = keyOf(e);
        if (seen.has(key)) fields[`rows.${i}.day`] ??= '같은 날짜·매체·랜딩의 행이 이미 있습니다.';
        seen.add(key);
        return e;
      });
      const refused = new Set(Object.keys(fields).map((k) => k.split('.')[1])).size;
      if (refused) throw badRequest(`${refused}개 행을 저장할 수 없습니다. 표시된 칸을 고쳐 주세요.`, fields);
      const days = entries.map((e) => e.day).sort();
      return write(shopId, entries, 'manual', actor, { rows: entries.length, from: days[0], to: days.at(-1) }, 'ad-spend.save');
    },

    /** Reads and checks a platform's export; keeps what it would write for importCommit. */
    async importPreview(shopId: number, q: AdImportQuery, file: UploadedSheet, actor: Actor): Promise<AdImportPreview> {
      const now = clock();
      const { mediaTypes, active, landingById } = await references(shopId);
      if (q.mediaTypeId !== undefined && !active.has(q.mediaTypeId)) throw badRequest('사용 중인 매체를 목록에서 고르세요.', { mediaTypeId: '사용 중인 매체를 목록에서 고르세요.' });
      const landingId = q.landingId ?? WHOLE_MEDIUM;
      const landing = landingId === WHOLE_MEDIUM ? null : landingById.get(landingId);
      if (landing === undefined) throw badRequest('이 업체의 랜딩을 목록에서 고르세요.', { landingId: '이 업체의 랜딩을 목록에서 고르세요.' });

      const sheet = await loadSheet(file.data, file.fileName);
      const checked = checkSheet(sheet.rows, {
        mediaTypeId: q.mediaTypeId ?? null,
        landingId,
        mediaTypes: mediaTypes.filter((m) => m.active),
        today: seoulDay(now),
      });
      const period = checked.groups.length
        ? { from: checked.groups.reduce((m, g) => (g.day < m ? g.day : m), checked.groups[0]!.day), to: checked.groups.reduce((m, g) => (g.day > m ? g.day : m), checked.groups[0]!.day) }
        : null;
      const existing = new Map(period ? (await repo.entries(shopId, period.from, period.to)).map((e) => [keyOf(e), e]) : []);

      await fs.promises.mkdir(dir, { recursive: true });
      void sweep(now).catch((err: unknown) => config.log(err, 'sweeping ad spend previews'));
      const token = crypto.randomBytes(16).toString('hex');
      const stored: StoredPreview = {
        shopId, accountId: actor.id, fileName: file.fileName, createdAt: now.toISOString(), groups: checked.groups, errorRows: new Set(checked.errors.map((e) => e.row)).size,
      };
      await fs.promises.writeFile(fileOf(token), JSON.stringify(stored));

      const mediaName = new Map(mediaTypes.map((m) => [m.id, m.name]));
      return {
        token, fileName: file.fileName, format: sheet.format, encoding: sheet.encoding,
        columns: checked.columns, totalRows: checked.totalRows, skippedTotals: checked.skippedTotals,
        rows: checked.groups.map((g) => {
          const e = existing.get(keyOf(g));
          return {
            day: g.day, mediaTypeId: g.mediaTypeId, mediaTypeName: mediaName.get(g.mediaTypeId) ?? '', landingId: g.landingId,
            landingTitle: landing ? landing.title : WHOLE_MEDIUM_LABEL, impressions: g.impressions, clicks: g.clicks, spend: g.spend,
            fileRows: g.fileRows, blocked: g.blocked, existing: e ? { impressions: e.impressions, clicks: e.clicks, spend: e.spend } : null,
          };
        }),
        errors: checked.errors,
        period,
      };
    },

    /** Writes a preview's rows (source 'csv'), replacing those days' figures of the medium. */
    async importCommit(shopId: number, input: AdImportCommitInput, actor: Actor): Promise<AdImportResult> {
      const now = clock();
      if (!TOKEN_RE.test(input.token)) throw new AppError(410, ERROR_CODES.GONE, PREVIEW_GONE);
      // Claimed by renaming: a second commit of the same preview finds nothing.
      const claimed = `${fileOf(input.token)}.${crypto.randomBytes(4).toString('hex')}`;
      try {
        await fs.promises.rename(fileOf(input.token), claimed);
      } catch {
        throw new AppError(410, ERROR_CODES.GONE, PREVIEW_GONE);
      }
      let stored: StoredPreview;
      try {
        stored = JSON.parse(await fs.promises.readFile(claimed, 'utf8')) as StoredPreview;
      } finally {
        await fs.promises.rm(claimed, { force: true });
      }
      const restore = () => fs.promises.writeFile(fileOf(input.token), JSON.stringify(stored));
      if (now.getTime() - Date.parse(stored.createdAt) > KEEP_PREVIEW_MS) throw new AppError(410, ERROR_CODES.GONE, PREVIEW_GONE);
      // Another person's or shop's preview: left for its owner, and answered as if there were none.
      if (stored.shopId !== shopId || stored.accountId !== actor.id) {
        await restore();
        throw new AppError(410, ERROR_CODES.GONE, PREVIEW_GONE);
      }
      const blocked = stored.groups.filter((g) => g.blocked);
      if (stored.errorRows && !input.skipErrors) {
        await restore();
        throw badRequest(`${stored.errorRows}개 행에 오류가 있어 가져오지 않았습니다. 파일을 고쳐 다시 올리거나, 오류 행을 빼고 가져오세요.`);
      }
      const good = stored.groups.filter((g) => !g.blocked);
      if (!good.length) {
        await restore();
        throw badRequest('가져올 수 있는 행이 없습니다. 오류를 고쳐 파일을 다시 올려 주세요.');
      }
      // The media and the landing may have changed since the preview: checked again.
      const { active, landingById } = await references(shopId);
      const today = seoulDay(now);
      const stale = good.find((g) => !active.has(g.mediaTypeId) || (g.landingId !== WHOLE_MEDIUM && !landingById.has(g.landingId)) || g.day > today);
      if (stale) throw badRequest('미리보기 뒤로 매체나 랜딩이 바뀌었습니다. 파일을 다시 올려 주세요.');

      const entries: SpendEntry[] = good.map((g) => ({ day: g.day, mediaTypeId: g.mediaTypeId, landingId: g.landingId, impressions: g.impressions, clicks: g.clicks, spend: g.spend }));
      const days = entries.map((e) => e.day).sort();
      const period = { from: days[0]!, to: days.at(-1)! };
      const media = [...new Set(entries.map((e) => e.mediaTypeId))];
      const done = await write(
        shopId, entries, 'csv', actor,
        { fileName: stored.fileName, rows: entries.length, skipped: blocked.length, errorRows: stored.errorRows, mediaTypeIds: media, landingId: good[0]!.landingId, ...period },
        'ad-spend.import',
      );
      return { ...done, skipped: blocked.length, period };
    },
  };
}
