// 개인정보 접근 기록: the shop's record read, exported and reviewed. Reading it is not recorded
// (it holds no personal data in clear: names and phones are masked); exporting it is, with its
// filter and row count, and so is each monthly review. Retention: the record is never deleted —
// the product has no route that deletes a lead event or an access event, and a lead's purge
// scrubs the lead's personal fields while its events stay (shown as 파기됨).
import type { Kysely } from 'kysely';
import { stringify } from 'csv-stringify/sync';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { uniqueOr409 } from '../../db/write-conflicts.ts';
import { recordAccess, type Actor } from '../audit/audit.service.ts';
import {
  ACCESS_EVENT, LEAD_EVENT, accessRecordRepository, type AccessEventRow, type LeadEventRow, type RecordFilter, type RecordRef,
} from './access-record.repository.ts';
import {
  ACCESS_RECORD_EXPORT_MAX, ACCESS_RECORD_MAX_DAYS, REVIEW_THRESHOLDS, actionLabel, monthDays, previousMonth,
  type AccessRecordFilter, type AccessRecordItem, type AccessRecordQuery, type AccessReview, type AccessReviewInput, type AccessReviewReport,
  type ReviewFlag,
} from '../../../contracts/access-record.ts';
import type { FileReply } from '../../../contracts/endpoint.ts';
import { addDays, formatSeoul, periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import { maskName } from '../../../contracts/masking.ts';
import { DELIVERY_KIND_LABELS, JOB_TRIGGER_LABELS, type DeliveryKind, type JobTrigger } from '../../../contracts/delivery.ts';
import { quoted } from '../../../contracts/korean.ts';
import { IMPORT_WAIT_MINUTES } from '../../../contracts/data-insertion.ts';

const EXPORT_CHUNK = 1000;

const SOURCE_LABELS: Record<string, string> = { landing: '랜딩 접수', manual: '직접 등록', import: '파일 가져오기' };
const MODE_LABELS: Record<string, string> = {
  manual: '수동', 'round-robin': '순환', weighted: '가중치', 'auto-round-robin': '자동 (순환)', 'auto-weighted': '자동 (가중치)', reassign: '재배분', return: '회수',
};
const TRIGGER_LABELS: Record<string, string> = { manual: '직접 파기', grace: '유예 기간 만료', retention: '보유 기간 만료' };

type Json = Record<string, unknown>;
const parse = (json: string | null): Json => {
  if (!json) return {};
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' ? (v as Json) : {};
  } catch {
    return {};
  }
};
const str = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));
const count = (v: unknown) => `${Number(v ?? 0).toLocaleString('ko-KR')}건`;
const seoul = (iso: unknown) => (typeof iso === 'string' && iso ? formatSeoul(iso) : '');

/** What a lead's event did, in Korean (never the memo's text: the record may leave the product as a file). */
export function describeLeadEvent(action: string, before: Json, after: Json): string {
  const parts: string[] = [];
  const reason = str(after.reason);
  switch (action) {
    case 'created':
      parts.push(SOURCE_LABELS[String(after.source)] ?? str(after.source) ?? '');
      if (after.duplicateOf) parts.push(`중복 (#${String(after.duplicateOf)})`);
      break;
    case 'status':
      if (after.csStatus !== undefined && after.csStatus !== before.csStatus) parts.push(`${str(before.csStatus) ?? '없음'} → ${String(after.csStatus)}`);
      if ('reservedAt' in after && after.reservedAt !== before.reservedAt) parts.push(after.reservedAt ? `예약 ${seoul(after.reservedAt)}` : '예약 취소');
      if (reason) parts.push(`사유: ${reason}`);
      break;
    case 'memo':
      parts.push(after.memo ? '메모 수정' : '메모 지움');
      break;
    case 'assign':
      parts.push(`${str(before.assigneeName) ?? '미배분'} → ${str(after.assigneeName) ?? '미배분'}`);
      if (after.mode) parts.push(MODE_LABELS[String(after.mode)] ?? String(after.mode));
      if (reason) parts.push(`사유: ${reason}`);
      break;
    case 'deliver': {
      // Third-party provision: which channel of the shop received the lead, and what sent it.
      const kind = DELIVERY_KIND_LABELS[after.kind as DeliveryKind] ?? str(after.kind);
      const channel = str(after.channelName);
      parts.push(channel ? `${kind ? `${kind} ` : ''}${quoted(channel, '으로/로')} 전송` : `${kind ?? ''} 전송`.trim());
      if (after.trigger) parts.push(JOB_TRIGGER_LABELS[after.trigger as JobTrigger] ?? String(after.trigger));
      if (reason) parts.push(`사유: ${reason}`);
      break;
    }
    case 'return-request':
    case 'return-approve':
    case 'return-reject':
      if (reason) parts.push(`사유: ${reason}`);
      if (str(after.note)) parts.push(`메모: ${str(after.note)}`);
      break;
    default:
      if (after.trigger) parts.push(TRIGGER_LABELS[String(after.trigger)] ?? String(after.trigger));
      if (reason) parts.push(`사유: ${reason}`);
  }
  return parts.filter(Boolean).join(' · ');
}

/** What a list-level access did, in Korean. */
function describeAccess(action: string, rowCount: number | null, d: Json): string {
  const parts: string[] = [];
  const reason = str(d.reason);
  switch (action) {
    case 'search':
      if (d.term) parts.push(`검색어 ${String(d.term)}`);
      parts.push(`${count(rowCount)}${d.capped ? ' 이상' : ''}`);
      break;
    case 'export':
      parts.push(count(rowCount));
      if (d.format) parts.push(`${String(d.format).toUpperCase()}${d.encrypted ? ' (암호)' : ''}`);
      if (reason) parts.push(`사유: ${reason}`);
      break;
    case 'history-export': {
      parts.push(count(rowCount));
      const f = (d.filter ?? {}) as Json;
      if (f.from || f.to) parts.push(`${str(f.from) ?? ''} ~ ${str(f.to) ?? ''}`);
      break;
    }
    case 'api-pull':
      parts.push(count(rowCount));
      if (d.keyName || d.keyPrefix) parts.push(`API 키 ${[str(d.keyName), d.keyPrefix ? `(${String(d.keyPrefix)}…)` : null].filter(Boolean).join(' ')}`);
      if (d.fullPhone) parts.push('전체 연락처');
      break;
    case 'import-cancel':
      // The uploaded file (the people's names and phones in it) was destroyed with the cancel.
      parts.push(count(rowCount));
      if (d.fileName) parts.push(String(d.fileName));
      parts.push(d.trigger === 'abandoned' ? `${IMPORT_WAIT_MINUTES / 60}시간 동안 가져오지 않아 자동 취소` : '직접 취소', '올린 파일 삭제');
      break;
    case 'review':
      if (d.month) parts.push(`${String(d.month)} 점검 완료`);
      parts.push(`확인 대상 ${count(rowCount)}`);
      if (d.note) parts.push(`메모: ${String(d.note)}`);
      break;
    default:
      if (rowCount !== null) parts.push(count(rowCount));
      if (d.fileName) parts.push(String(d.fileName));
      if (reason) parts.push(`사유: ${reason}`);
  }
  return parts.join(' · ');
}

function fromLeadEvent(r: LeadEventRow): AccessRecordItem {
  // A purged lead keeps its id and events; its personal fields are gone (as is a row no longer there).
  const purged = r.lead_row === null || r.purged_at !== null;
  return {
    key: `l${r.id}`, at: r.at, action: r.action, accountId: r.account_id, accountName: r.account_name, accountLoginId: r.login_id, ip: r.ip,
    leadId: r.lead_id,
    leadName: purged || !r.lead_name ? null : maskName(r.lead_name),
    leadPhone: purged || !r.lead_phone ? null : maskPhone(r.lead_phone),
    leadPurged: purged, leadDeleted: r.deleted_at !== null,
    rowCount: null, summary: describeLeadEvent(r.action, parse(r.before), parse(r.after)),
  };
}

function fromAccessEvent(r: AccessEventRow): AccessRecordItem {
  return {
    key: `a${r.id}`, at: r.at, action: r.action, accountId: r.account_id, accountName: r.account_name, accountLoginId: r.login_id, ip: r.ip,
    leadId: null, leadName: null, leadPhone: null, leadPurged: false, leadDeleted: false,
    rowCount: r.row_count, summary: describeAccess(r.action, r.row_count, parse(r.detail)),
  };
}

/** 2026-11-21T01:02:03.000Z → "2026-11-21 10:02:03" (Seoul). */
const seoulSeconds = (iso: string) => new Date(Date.parse(iso) + 9 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

const CSV_HEADER = ['일시', '계정', '아이디', 'IP', '작업', 'DB 번호', '이름', '연락처', '내용', '건수'];

function csvRow(i: AccessRecordItem): Array<string | number> {
  return [
    seoulSeconds(i.at), i.accountName ?? (i.action === 'created' ? '방문자' : '시스템'), i.accountLoginId ?? '', i.ip ?? '', actionLabel(i.action),
    i.leadId ?? '', i.leadPurged ? '파기됨' : (i.leadName ?? ''), i.leadPurged ? '파기됨' : (i.leadPhone ?? ''), i.summary, i.rowCount ?? '',
  ];
}

/**
 * A CSV field that a spreadsheet would run as a formula (=, +, -, @ first) gets a leading
 * apostrophe; anything typed into the product (a reason, a note) may reach the file.
 */
const cell = (v: string | number) => (typeof v === 'string' && /^[=+\-@\t\r]/.test(v) && !/^-?\d/.test(v) ? `'${v}` : v);

export function accessRecordService(db: Kysely<Database>, clock: Clock) {
  const repo = accessRecordRepository(db);

  /** The period asked for (default this month in Seoul so far) and the filter it makes. */
  function filterOf(shopId: number, q: AccessRecordFilter): { from: string; to: string; filter: RecordFilter } {
    const today = seoulDay(clock());
    const to = q.to ?? today;
    const from = q.from ?? (q.to ? to : `${today.slice(0, 8)}01`);
    if (from > to) throw badRequest('시작일이 종료일보다 늦습니다.', { from: '시작일이 종료일보다 늦습니다.' });
    if (addDays(from, ACCESS_RECORD_MAX_DAYS) < to) throw badRequest('기간은 1년 이내로 정하세요.', { from: '기간은 1년 이내로 정하세요.' });
    return { from, to, filter: { shopId, ...periodInstants(from, to), accountId: q.accountId, actions: q.action, leadId: q.leadId } };
  }

  /** The rows of the record `refs` point at, in their order. */
  async function itemsOf(refs: RecordRef[]): Promise<AccessRecordItem[]> {
    const ids = (src: number) => refs.filter((r) => Number(r.src) === src).map((r) => Number(r.id));
    const [leads, access] = await Promise.all([repo.leadEvents(ids(LEAD_EVENT)), repo.accessEvents(ids(ACCESS_EVENT))]);
    const byKey = new Map<string, AccessRecordItem>([
      ...leads.map((r) => [`l${r.id}`, fromLeadEvent(r)] as const),
      ...access.map((r) => [`a${r.id}`, fromAccessEvent(r)] as const),
    ]);
    return refs.map((r) => byKey.get(`${Number(r.src) === LEAD_EVENT ? 'l' : 'a'}${r.id}`)).filter((i): i is AccessRecordItem => !!i);
  }

  async function* csv(filter: RecordFilter): AsyncGenerator<string> {
    // The BOM: Excel opens UTF-8 CSV as such only with it.
    yield `\uFEFF${stringify([CSV_HEADER], { record_delimiter: '\r\n' })}`;
    let cursor: { at: string; k: number } | null = null;
    for (;;) {
      const refs = await repo.after(filter, cursor, EXPORT_CHUNK);
      if (!refs.length) return;
      const items = await itemsOf(refs);
      yield stringify(items.map((i) => csvRow(i).map(cell)), { record_delimiter: '\r\n' });
      const last = refs[refs.length - 1]!;
      cursor = { at: last.at, k: Number(last.k) };
      if (refs.length < EXPORT_CHUNK) return;
    }
  }

  /** The review's findings for a month (YYYY-MM). */
  async function flagsOf(shopId: number, month: string): Promise<ReviewFlag[]> {
    const { fromIso, toIso } = periodInstants(monthDays(month).from, monthDays(month).to);
    const T = REVIEW_THRESHOLDS;
    const [perDay, exports, night, big] = await Promise.all([
      repo.leadEventsPerDay(shopId, fromIso, toIso, ['unmask', 'view']),
      repo.accessEventsPerDay(shopId, fromIso, toIso, ['export']),
      repo.nightPerDay(shopId, fromIso, toIso, T.nightFromHour, T.nightToHour),
      repo.bigExports(shopId, fromIso, toIso, T.exportRows),
    ]);
    const who = (r: { account_id: number | null; account_name: string | null; login_id: string | null }) => ({
      accountId: r.account_id, accountName: r.account_name, accountLoginId: r.login_id,
    });
    const flags: ReviewFlag[] = [];
    for (const r of perDay) {
      const over = r.action === 'unmask' ? r.n > T.unmaskPerDay : r.n > T.viewPerDay;
      if (over) flags.push({ kind: r.action as 'unmask' | 'view', ...who(r), day: r.day, count: r.n, at: null });
    }
    for (const r of exports) if (r.n > T.exportPerDay) flags.push({ kind: 'export', ...who(r), day: r.day, count: r.n, at: null });
    // Night: both sides summed per account and day.
    const nights = new Map<string, { account_id: number | null; day: string; n: number }>();
    for (const r of night) {
      const k = `${r.account_id}|${r.day}`;
      const cur = nights.get(k);
      if (cur) cur.n += r.n;
      else nights.set(k, { ...r });
    }
    const names = new Map((await repo.accountsById([...new Set([...nights.values()].map((r) => r.account_id!))])).map((a) => [a.id, a]));
    for (const r of nights.values()) {
      const a = names.get(r.account_id!);
      flags.push({ kind: 'night', accountId: r.account_id, accountName: a?.name ?? null, accountLoginId: a?.login_id ?? null, day: r.day, count: r.n, at: null });
    }
    for (const r of big) flags.push({ kind: 'big-export', ...who(r), day: seoulDay(r.at), count: Number(r.row_count), at: r.at });
    const order = ['unmask', 'view', 'export', 'big-export', 'night'];
    return flags.sort((a, b) =>
      a.day !== b.day ? (a.day < b.day ? -1 : 1)
      : a.kind !== b.kind ? order.indexOf(a.kind) - order.indexOf(b.kind)
      : (a.accountName ?? '').localeCompare(b.accountName ?? '', 'ko') || (a.at ?? '').localeCompare(b.at ?? ''),
    );
  }

  async function reviewOf(shopId: number, month: string): Promise<AccessReview | null> {
    const r = await repo.review(shopId, month);
    return r ? { month: r.month, reviewedAt: r.reviewed_at, reviewerName: r.name, reviewerLoginId: r.login_id, note: r.note } : null;
  }

  const reviewedMessage = (month: string) => `${month.slice(0, 4)}년 ${Number(month.slice(5))}월은 이미 점검을 마쳤습니다.`;

  return {
    async list(shopId: number, q: AccessRecordQuery) {
      const { from, to, filter } = filterOf(shopId, q);
      const page = await repo.page(filter, q);
      return { items: await itemsOf(page.rows), total: page.total, period: { from, to } };
    },

    /** The filtered record as CSV; the export is recorded (with its filter and row count) before a byte is sent. */
    async export(shopId: number, q: AccessRecordFilter, actor: Actor): Promise<FileReply> {
      const { from, to, filter } = filterOf(shopId, q);
      // What is there now: the export's own record (and anything after it) stays out of the file.
      const bounded: RecordFilter = { ...filter, upTo: await repo.newestIds() };
      const rowCount = await repo.count(bounded);
      if (rowCount > ACCESS_RECORD_EXPORT_MAX) {
        throw badRequest(`한 번에 ${ACCESS_RECORD_EXPORT_MAX.toLocaleString('ko-KR')}건까지 내보낼 수 있습니다. 기간을 줄이세요.`);
      }
      const shown = { from, to, ...(q.accountId ? { accountId: q.accountId } : {}), ...(q.action?.length ? { action: q.action } : {}), ...(q.leadId ? { leadId: q.leadId } : {}) };
      await recordAccess(db, actor, { shopId, action: 'history-export', rowCount, detail: { filter: shown } }, clock());
      return {
        fileName: `개인정보_접근기록_${from}_${to}.csv`,
        contentType: 'text/csv; charset=utf-8',
        headers: { 'x-row-count': String(rowCount) },
        body: csv(bounded),
      };
    },

    accounts: async (shopId: number, actor: Actor) => ({
      items: (await repo.accounts(shopId, actor.side)).map((a) => ({ id: a.id, name: a.name, loginId: a.login_id })),
    }),

    async review(shopId: number, q: { month?: string }): Promise<AccessReviewReport> {
      const today = seoulDay(clock());
      const month = q.month ?? previousMonth(today);
      const [flags, review] = await Promise.all([flagsOf(shopId, month), reviewOf(shopId, month)]);
      return { month, over: monthDays(month).to < today, flags, review };
    },

    /** Marks a month reviewed (once per shop and month), with the privacy officer's note; recorded. */
    async markReviewed(shopId: number, input: AccessReviewInput, actor: Actor): Promise<AccessReview> {
      const now = clock();
      if (monthDays(input.month).to >= seoulDay(now)) {
        throw badRequest('끝나지 않은 달은 점검을 마칠 수 없습니다.', { month: '끝나지 않은 달은 점검을 마칠 수 없습니다.' });
      }
      if (await repo.review(shopId, input.month)) throw conflict(reviewedMessage(input.month), { month: reviewedMessage(input.month) });
      const flags = await flagsOf(shopId, input.month);
      await inTransaction(db, async (trx) => {
        await uniqueOr409(
          () => accessRecordRepository(trx).insertReview({ shop_id: shopId, month: input.month, reviewed_by: actor.id, note: input.note ?? null, reviewed_at: now.toISOString() }),
          'month', reviewedMessage(input.month),
        );
        const byKind: Record<string, number> = {};
        for (const f of flags) byKind[f.kind] = (byKind[f.kind] ?? 0) + 1;
        await recordAccess(trx, actor, { shopId, action: 'review', rowCount: flags.length, detail: { month: input.month, flags: byKind, ...(input.note ? { note: input.note } : {}) } }, now);
      });
      return (await reviewOf(shopId, input.month))!;
    },
  };
}
