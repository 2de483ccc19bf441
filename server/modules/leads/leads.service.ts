// The lead screens' reads and writes (DB 현황, the lead drawer, bulk changes, reopening), and the
// leads a list filter finds (exports, DB 전송). Accepting new leads is accept.ts's; what other
// modules may use of this module is in leads.entry.ts.
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, LeadEventsTable } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { itemsOf } from '../../db/paging.ts';
import { leadsRepository, type LeadKey, type LeadScope } from './leads.repository.ts';
import { badRequest, forbidden, foundOr404, notFound } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { withCapsSettled } from './contract-caps.ts';
import { slaCountdown } from './sla.ts';
import { addDays, periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { formatPhone, maskPhone } from '../../../contracts/rules.ts';
import {
  INVALID_REASON_REQUIRED, labelledAnswers, RESERVATION_PAST, RESERVATION_REQUIRED, earliestAppointment, type CsStatus, type LeadBulkStatus, type LeadDetail, type LeadListItem, type LeadListQuery,
  type LeadChange, type LeadSettings, type LeadUpdate,
} from '../../../contracts/leads.ts';

// ── The lead screens ────────────────────────────────────────────────────────────────────

const DEFAULT_OVERDUE_MINUTES = 30;
const MEMO_EXCERPT = 60;

type ListRow = Awaited<ReturnType<ReturnType<typeof leadsRepository>['list']>>['rows'][number];
type DetailRow = NonNullable<Awaited<ReturnType<ReturnType<typeof leadsRepository>['find']>>>;

export const scopeOf = (actor: Pick<Actor, 'id' | 'scope'>): LeadScope => ({ accountId: actor.id, scope: actor.scope });
const excerpt = (memo: string | null) => {
  const line = memo?.split('\n')[0]?.trim();
  return line ? (line.length > MEMO_EXCERPT ? `${line.slice(0, MEMO_EXCERPT)}…` : line) : null;
};
const parse = (json: string | null): Record<string, unknown> | null => (json ? (JSON.parse(json) as Record<string, unknown>) : null);

type Countdown = Pick<LeadListItem, 'slaDueAt' | 'slaLeftMinutes'>;

function toListItem(r: ListRow, overdueBefore: string, sla: Countdown): LeadListItem {
  return {
    id: r.id, createdAt: r.created_at, landingId: r.landing_id, landingTitle: r.landing_title, mediaTypeName: r.media_type_name, source: r.source,
    name: r.name, phone: maskPhone(r.phone), csStatus: r.cs_status as CsStatus, assigneeId: r.assignee_id, assigneeName: r.assignee_name,
    reservedAt: r.reserved_at, memo: excerpt(r.memo), duplicateOf: r.duplicate_of, validity: r.validity as LeadListItem['validity'],
    invalidReason: r.invalid_reason, firstContactAt: r.first_contact_at, utmSource: r.utm_source, utmCampaign: r.utm_campaign,
    variant: r.variant,
    // A lead called (통화 시도) but not yet given an outcome no longer asks for a call.
    overdue: r.cs_status === '미처리' && r.first_contact_at === null && r.created_at < overdueBefore,
    ...sla,
  };
}

/** What a status change writes besides the status: the first contact, validity, the appointment. */
interface StatusChange {
  csStatus: CsStatus;
  reservedAt?: string | null;
  reason?: string | null;
}

/** The Seoul days a list (or an export) covers: those asked, by default today; at most a year. */
function periodOf(q: { from?: string; to?: string }, now: Date): { from: string; to: string } {
  const to = q.to ?? seoulDay(now);
  const from = q.from ?? to;
  if (from > to) throw badRequest('시작일이 종료일보다 늦습니다.', { from: '시작일이 종료일보다 늦습니다.' });
  if (addDays(from, 366) < to) throw badRequest('기간은 1년 이내로 정하세요.', { from: '기간은 1년 이내로 정하세요.' });
  return { from, to };
}

/** The list's filters without paging and sort (an export's filter). */
export type LeadFilterQuery = Omit<LeadListQuery, 'page' | 'pageSize' | 'sort'>;
/** A lead as an export reads it: the list's columns, the whole memo, utm_medium and the form's answers (JSON). */
export type LeadExportRow = Awaited<ReturnType<ReturnType<typeof leadsRepository>['exportPage']>>[number];

/**
 * The leads a list filter finds for `actor` (a counselor: only their own), for an export: the
 * period it covers, how many there are, and the rows oldest first, a page of `pageSize` per
 * query so that neither the rows nor the connection are held for the whole file.
 */
export function filteredLeads(db: Kysely<Database>, shopId: number, q: LeadFilterQuery, actor: Pick<Actor, 'id' | 'scope'>, now: Date, pageSize = 2000) {
  const period = periodOf(q, now);
  const f = { ...q, ...periodInstants(period.from, period.to) };
  const repo = leadsRepository(db);
  const who = scopeOf(actor);
  return {
    period,
    count: () => repo.count(shopId, who, f),
    /** The pages, at most `max` rows in all (leads arriving meanwhile are not counted, nor sent). */
    async *pages(max = Infinity): AsyncGenerator<LeadExportRow[]> {
      let key: LeadKey | null = null;
      let left = max;
      while (left > 0) {
        const rows = await repo.exportPage(shopId, who, f, key, Math.min(pageSize, left));
        if (!rows.length) return;
        yield rows;
        left -= rows.length;
        if (rows.length < pageSize) return;
        const last = rows[rows.length - 1]!;
        key = { createdAt: last.created_at, id: last.id };
      }
    },
  };
}

/**
 * The leads a list filter finds for an account, when no more than `max`: each with the lead it
 * duplicates (DB 전송's "every lead the filter finds"); over `max`, only how many.
 */
export async function matchingLeads(db: Kysely<Database>, shopId: number, q: LeadFilterQuery, actor: Pick<Actor, 'id' | 'scope'>, now: Date, max: number) {
  const found = filteredLeads(db, shopId, q, actor, now, 1000);
  const total = await found.count();
  const leads: Array<{ id: number; duplicateOf: number | null }> = [];
  if (total <= max) for await (const page of found.pages(max)) leads.push(...page.map((r) => ({ id: r.id, duplicateOf: r.duplicate_of })));
  return { total, leads };
}

/** The lead screens' reads and writes; every read of one lead and every change is in its access record. */
/** How long one opening of a lead's detail lasts before a refetch records a new view. */
export const OPENING_MAX_MINUTES = 30;

export function leadsService(db: Kysely<Database>, clock: Clock, announce: (change: LeadChange) => void = () => {}) {
  const repo = leadsRepository(db);

  async function settings(shopId: number): Promise<LeadSettings> {
    const row = await repo.settings(shopId);
    return { overdueMinutes: row?.overdue_minutes ?? DEFAULT_OVERDUE_MINUTES, autoMode: row?.auto_mode ?? 'off', updatedAt: row?.updated_at ?? null };
  }

  const overdueMinutes = async (shopId: number) => (await settings(shopId)).overdueMinutes;

  const load = (shopId: number, actor: Actor, id: number) => foundOr404(repo.find(shopId, scopeOf(actor), id), 'DB를 찾을 수 없습니다.');

  /** A lead's detail as `actor` may see it: its original and duplicates only when they are in the actor's scope too. */
  async function detail(shopId: number, actor: Actor, row: DetailRow, overdueBefore: string): Promise<LeadDetail> {
    const who = scopeOf(actor);
    const [original, duplicates, history, sla] = await Promise.all([
      row.duplicate_of ? repo.summary(shopId, who, row.duplicate_of) : undefined,
      repo.duplicatesOf(shopId, who, row.id),
      repo.history(row.id), slaCountdown(db, shopId, [row], clock()),
    ]);
    return {
      ...toListItem(row, overdueBefore, sla.of(row.id)),
      openingId: null,
      memo: row.memo,
      answers: labelledAnswers(row.answers, row.form_fields, row.variant_content),
      utmMedium: row.utm_medium, utmContent: row.utm_content, utmTerm: row.utm_term, referrer: row.referrer, userAgent: row.user_agent,
      privacyConsent: !!row.privacy_consent, marketingConsent: !!row.marketing_consent, sensitiveConsent: !!row.sensitive_consent,
      policyVersion: row.policy_version ?? null,
      duplicateOfLead: original ? { id: original.id, createdAt: original.created_at, name: original.name, csStatus: original.cs_status as CsStatus } : null,
      duplicates: duplicates.map((d) => ({ id: d.id, createdAt: d.created_at, name: d.name })),
      history: history.map((e) => ({ id: e.id, at: e.at, action: e.action, accountName: e.account_name, before: parse(e.before), after: parse(e.after), ip: e.ip })),
    };
  }

  /** An appointment booked now must not lie before the current minute of the server's clock. */
  const refusePast = (reservedAt: string | null | undefined) => {
    if (reservedAt && Date.parse(reservedAt) < earliestAppointment(clock())) throw badRequest(RESERVATION_PAST, { reservedAt: RESERVATION_PAST });
  };

  const event = (shopId: number, leadId: number, actor: Actor, action: string, before: unknown, after: unknown, at: string): Insertable<LeadEventsTable> => ({
    lead_id: leadId, shop_id: shopId, account_id: actor.id, action, ip: actor.ip, at,
    before: before === null ? null : JSON.stringify(before), after: after === null ? null : JSON.stringify(after),
  });

  /**
   * Applies a status change to leads in their current states, in `trx`: validity follows 무효,
   * the appointment follows 상담예약, the first change away from 미처리 is the first contact.
   */
  async function changeStatus(trx: Kysely<Database>, shopId: number, ids: number[], change: StatusChange, actor: Actor, at: string) {
    const r = leadsRepository(trx);
    const before = await r.states(ids);
    // 무효 set or cleared changes what counts toward a contract: its caps settle in the same transaction.
    const touchesValidity = before.some((b) => b.validity !== 'returned' && (b.validity === 'invalid') !== (change.csStatus === '무효'));
    if (!touchesValidity) return applyStatus(r, shopId, before, change, actor, at);
    const { result } = await withCapsSettled(trx as Transaction<Database>, shopId, new Date(at), actor.id, () => applyStatus(r, shopId, before, change, actor, at));
    return result;
  }

  async function applyStatus(r: ReturnType<typeof leadsRepository>, shopId: number, before: Awaited<ReturnType<ReturnType<typeof leadsRepository>['states']>>, change: StatusChange, actor: Actor, at: string) {
    const ids = before.map((b) => b.id);
    const reserved = change.csStatus === '상담예약' ? (change.reservedAt ?? null) : undefined;
    const status = { cs_status: change.csStatus, ...(reserved !== undefined ? { reserved_at: reserved } : {}), updated_at: at };
    // An approved return stays returned whatever the status: a status change never brings it back into the counts.
    const returned = before.filter((b) => b.validity === 'returned').map((b) => b.id);
    const others = before.filter((b) => b.validity !== 'returned').map((b) => b.id);
    if (others.length) {
      await r.update(others, {
        ...status,
        validity: change.csStatus === '무효' ? 'invalid' : 'valid',
        invalid_reason: change.csStatus === '무효' ? (change.reason ?? null) : null,
      });
    }
    if (returned.length) await r.update(returned, status);
    if (change.csStatus !== '미처리') await r.firstContact(ids, at);
    await r.insertEvents(
      before
        .filter((b) => b.cs_status !== change.csStatus || (reserved !== undefined && b.reserved_at !== reserved))
        .map((b) =>
          event(shopId, b.id, actor, 'status',
            { csStatus: b.cs_status, ...(b.reserved_at ? { reservedAt: b.reserved_at } : {}) },
            { csStatus: change.csStatus, ...(reserved ? { reservedAt: reserved } : {}), ...(change.csStatus === '무효' && change.reason ? { reason: change.reason } : {}) },
            at),
        ),
    );
    return before;
  }

  return {
    async list(shopId: number, q: LeadListQuery, actor: Actor) {
      const now = clock();
      const { from, to } = periodOf(q, now);
      // Side by side: on PostgreSQL each is a round trip of its own.
      const [minutes, page] = await Promise.all([overdueMinutes(shopId), repo.list(shopId, scopeOf(actor), { ...q, ...periodInstants(from, to) })]);
      const overdueBefore = new Date(now.getTime() - minutes * 60_000).toISOString();
      const sla = await slaCountdown(db, shopId, page.rows, now);
      return { ...itemsOf(page, (r) => toListItem(r, overdueBefore, sla.of(r.id))), period: { from, to }, overdueMinutes: minutes, slaMinutes: sla.minutes };
    },

    /**
     * A lead's detail; the view itself goes into its access record first — once per opening.
     * The first reading of a drawer records a view and answers its id as `openingId`; the
     * drawer's refetches (after its own changes, or react-query's) name it and record nothing
     * more. The server checks what is named: a recorded view of this lead by this account, at
     * most OPENING_MAX_MINUTES old — so no client can hide a view, only spare a repeat of one;
     * a drawer open longer records a new view (and a new opening).
     */
    async get(shopId: number, id: number, actor: Actor, opening?: number) {
      const row = await load(shopId, actor, id);
      const now = clock();
      let openingId: number | null = null;
      if (opening !== undefined) {
        const v = await repo.view(opening);
        if (v && v.lead_id === id && v.account_id === actor.id && now.getTime() - Date.parse(v.at) < OPENING_MAX_MINUTES * 60_000) openingId = v.id;
      }
      openingId ??= await repo.insertView(event(shopId, id, actor, 'view', null, null, now.toISOString()));
      const minutes = await overdueMinutes(shopId);
      return { ...(await detail(shopId, actor, row, new Date(now.getTime() - minutes * 60_000).toISOString())), openingId };
    },

    async update(shopId: number, id: number, input: LeadUpdate, actor: Actor) {
      const row = await load(shopId, actor, id);
      const status = (input.csStatus ?? row.cs_status) as CsStatus;
      const reservedAt = input.reservedAt !== undefined ? input.reservedAt : row.reserved_at;
      if (status === '상담예약' && !reservedAt) throw badRequest(RESERVATION_REQUIRED, { reservedAt: RESERVATION_REQUIRED });
      // A new appointment (a time set, or 상담예약 chosen again) must lie ahead; one that has since passed blocks no other edit.
      const booking = (input.reservedAt != null && input.reservedAt !== row.reserved_at) || (input.csStatus === '상담예약' && row.cs_status !== '상담예약');
      if (booking) refusePast(reservedAt);
      if (input.csStatus === '무효' && input.csStatus !== row.cs_status && !input.reason) throw badRequest(INVALID_REASON_REQUIRED, { reason: INVALID_REASON_REQUIRED });
      const at = clock().toISOString();
      await inTransaction(db, async (trx) => {
        const r = leadsRepository(trx);
        const statusChanged = input.csStatus !== undefined && input.csStatus !== row.cs_status;
        const reservationChanged = input.reservedAt !== undefined && input.reservedAt !== row.reserved_at;
        if (statusChanged || (reservationChanged && status === '상담예약')) {
          await changeStatus(trx, shopId, [id], { csStatus: status, reservedAt, reason: input.reason ?? row.invalid_reason }, actor, at);
        } else if (reservationChanged) {
          await r.update([id], { reserved_at: input.reservedAt ?? null, updated_at: at });
          await r.insertEvents([event(shopId, id, actor, 'status', { reservedAt: row.reserved_at }, { reservedAt: input.reservedAt ?? null }, at)]);
        }
        const memo = input.memo === undefined ? undefined : (input.memo ?? null);
        if (memo !== undefined && memo !== row.memo) {
          await r.update([id], { memo, updated_at: at });
          await r.insertEvents([event(shopId, id, actor, 'memo', { memo: row.memo }, { memo }, at)]);
        }
      });
      announce({ shopId, kind: 'changed', leads: [{ id, assigneeId: row.assignee_id }] });
      const fresh = await load(shopId, actor, id);
      const minutes = await overdueMinutes(shopId);
      return detail(shopId, actor, fresh, new Date(Date.parse(at) - minutes * 60_000).toISOString());
    },

    /** One status for chosen leads, in one transaction; leads the asker may not see are not touched. */
    async bulkStatus(shopId: number, input: LeadBulkStatus, actor: Actor) {
      if (input.csStatus === '상담예약') refusePast(input.reservedAt);
      const ids = await repo.visibleIds(shopId, scopeOf(actor), [...new Set(input.ids)]);
      if (!ids.length) throw notFound('바꿀 수 있는 DB가 없습니다.');
      const at = clock().toISOString();
      const changed = await inTransaction(db, (trx) => changeStatus(trx, shopId, ids, input, actor, at));
      announce({ shopId, kind: 'changed', leads: changed.map((l) => ({ id: l.id, assigneeId: l.assignee_id })) });
      return { updated: ids.length };
    },

    /** The full phone of one lead, for an account whose type may see it; recorded each time. */
    async unmask(shopId: number, id: number, actor: Actor) {
      if (!actor.canUnmask) throw forbidden('전화번호 전체를 볼 권한이 없습니다.');
      await load(shopId, actor, id);
      const { phone } = await repo.phone(id);
      await repo.insertEvents([event(shopId, id, actor, 'unmask', null, null, clock().toISOString())]);
      return { phone: formatPhone(phone) };
    },

    counselors: async (shopId: number) => ({ items: (await repo.counselors(shopId)).map((c) => ({ id: c.id, name: c.name, loginId: c.login_id })) }),

    settings,

    async updateSettings(shopId: number, input: { overdueMinutes: number }, actor: Actor) {
      // The threshold marks every counselor's leads: one who sees only their own does not set it for all.
      if (actor.scope === 'assigned') throw forbidden('배정된 DB만 보는 계정은 업체 전체의 DB 설정을 바꿀 수 없습니다.');
      const now = clock();
      await inTransaction(db, async (trx) => {
        await leadsRepository(trx).saveSettings({ shop_id: shopId, overdue_minutes: input.overdueMinutes, updated_by: actor.id, updated_at: now.toISOString() });
        await auditBy(trx, actor, { action: 'lead-settings-update', target: 'shop', targetId: shopId, detail: input }, now);
      });
      return settings(shopId);
    },
  };
}
