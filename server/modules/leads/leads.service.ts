// The one writer of leads and their access-record events. Intake (its writer thread or the
// event loop), manual entry and import all accept leads through insertAccepted, inside the
// transaction they already hold, so a lead and everything that must happen with it commit
// together: the duplicate rule, its `created` event, and the same-transaction steps.
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, LeadEventsTable } from '../../db/schema.ts';
import { inTransaction, lockKeys, reserveIds } from '../../db/dialect-sql.ts';
import { itemsOf } from '../../db/paging.ts';
import { leadsRepository, withLeadRows, type LeadKey, type LeadProbe, type LeadScope, type LeadValues, type NewLead } from './leads.repository.ts';
import { badRequest, forbidden, foundOr404, notFound } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { autoAllocate } from './allocation.ts';
import { closeAtCaps, lockRunningContracts, withCapsSettled } from './contract-caps.ts';
import { writeDeliveryJobs } from './delivery-outbox.ts';
import { numberInTransaction } from './lead-feed-seq.ts';
import { addDays, periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { formatPhone, maskPhone } from '../../../contracts/rules.ts';
import {
  INVALID_REASON_REQUIRED, RESERVATION_PAST, RESERVATION_REQUIRED, earliestAppointment, type CsStatus, type LeadBulkStatus, type LeadDetail, type LeadListItem, type LeadListQuery,
  type LeadChange, type LeadSettings, type LeadUpdate,
} from '../../../contracts/leads.ts';

export type { NewLead };
// Contract caps (contract-caps.ts): intake's gate, the review after a contract changed, the reopening at midnight.
export { contractCapGate, reopenDue, reviewContractCaps, type CapChanges, type CapGate } from './contract-caps.ts';
// The pull feed's order (lead-feed-seq.ts): numbered as written, or by one serial step after the commit.
export { assignFeedSeq } from './lead-feed-seq.ts';
// The delivery outbox (delivery-outbox.ts): the manual send enqueues chosen leads for a channel.
export { enqueueDeliveries, nextDigestAt, type DeliveryRequest } from './delivery-outbox.ts';

const DAY_MS = 86_400_000;

/** A lead to store: checked and refused-or-not already; its window decides duplicates. */
export interface AcceptedLead {
  lead: NewLead;
  /** Days back a lead of the same shop and phone makes this one a duplicate (0: never). */
  duplicateWindowDays: number;
  /** When the lead was received, if before it is stored (an imported file's 접수일); else now. */
  receivedAt?: string;
  /** Who entered it by hand or imported it (its `created` event names them); a visitor's form has no one. */
  by?: { accountId: number; ip: string };
}

export interface CreatedLead {
  leadId: number;
  duplicateOf: number | null;
  /** The counselor the shop's automatic rule gave it to, if any. */
  assigneeId?: number | null;
  /** Landings a contract's cap closed with this lead (set on the last lead of the contract in the call). */
  closedLandingIds?: number[];
}

export interface InsertOptions<T extends AcceptedLead> {
  /**
   * Decides per item, in order, once its duplicate status is known and before it is written,
   * whether it is stored (intake's contract caps); a refused item is not written at all.
   */
  admit?: (item: T, duplicateOf: number | null) => boolean;
  /**
   * Whether the leads get their pull-feed numbers in this transaction (default). An import's
   * transaction, which lasts minutes, says false: its leads are numbered once it committed
   * (assignFeedSeq), so intake meanwhile is not held behind the feed's counter.
   */
  numberFeed?: boolean;
}

/**
 * Work that runs in the transaction accepting leads, after they are written, in this order
 * (the automatic allocation, then the contracts' caps closing landings, then the delivery
 * outbox's jobs). Statically listed: no module registers itself at run time.
 */
type SameTransactionStep = (trx: Transaction<Database>, leads: Array<AcceptedLead & CreatedLead>, now: Date) => Promise<void>;
const SAME_TRANSACTION_STEPS: readonly SameTransactionStep[] = [autoAllocate, closeAtCaps, writeDeliveryJobs];

/** Distinct phones of one shop beyond which a call locks the shop's phones as a whole (an import's batches). */
const PHONE_LOCKS_PER_SHOP = 256;

/**
 * The duplicate rule's locks, on PostgreSQL (SQLite's writes are serial anyway): a call with a
 * few phones of a shop (intake's batches, manual entry) locks each shop and phone, and the shop
 * in shared mode, so batches with different phones commit side by side; a call with many (an
 * import's transaction of 50,000 leads) locks the shop's phones as a whole, exclusively — one
 * lock instead of thousands (PostgreSQL's lock table has room for about 64 per connection).
 * Shop locks come before phone locks, each group in one fixed order: no two writers wait for each other.
 */
async function lockPhones(trx: Transaction<Database>, items: readonly AcceptedLead[]): Promise<void> {
  const phones = new Map<number, Set<string>>();
  for (const i of items) {
    if (i.duplicateWindowDays <= 0) continue;
    const set = phones.get(i.lead.shop_id) ?? new Set<string>();
    set.add(i.lead.phone);
    phones.set(i.lead.shop_id, set);
  }
  const shared: string[] = [];
  const exclusive: string[] = [];
  for (const [shopId, set] of phones) {
    if (set.size > PHONE_LOCKS_PER_SHOP) {
      exclusive.push(`lead-phones:${shopId}`);
      continue;
    }
    shared.push(`lead-phones:${shopId}`);
    for (const phone of set) exclusive.push(`lead-phone:${shopId}:${phone}`);
  }
  await lockKeys(trx, exclusive, { shared });
}

/**
 * Writes accepted leads in order, in `trx`: a lead whose shop has a live lead with the same
 * phone inside its landing's window is stored as a duplicate of the earliest one (leads of
 * the same batch count too), each gets its `created` event, then the same-transaction steps run.
 * Answers the written leads in order (with `admit`, only those it admitted).
 */
export async function insertAccepted<T extends AcceptedLead>(trx: Transaction<Database>, items: readonly T[], now: Date, o: InsertOptions<T> = {}): Promise<CreatedLead[]> {
  if (!items.length) return [];
  const nowIso = now.toISOString();
  // The contracts that may close at a cap are locked first, before the phones below: every
  // writer takes its locks in that order (intake's gate took these already).
  await lockRunningContracts(trx, items.map((i) => i.lead.shop_id), now);
  // Another process may be committing the same phone for the same shop right now: a lock per
  // shop and phone, held to the commit, makes the later one wait and then see the earlier one.
  await lockPhones(trx, items);
  // The ids are drawn first (ascending, taken in the batch's order), so the leads go in
  // multi-row statements and a later lead of the batch can name an earlier one as its original.
  const ids = await reserveIds(trx, 'leads', items.length);
  const { out, values } = await withLeadRows(trx, async (rows) => {
    // The earliest live lead per window, shop and phone: one probe for all distinct triples.
    const key = (days: number, i: AcceptedLead) => `${days}|${i.lead.shop_id}|${i.lead.phone}`;
    const probes = new Map<string, LeadProbe>();
    for (const i of items) {
      const k = key(i.duplicateWindowDays, i);
      if (i.duplicateWindowDays > 0 && !probes.has(k)) {
        probes.set(k, { shopId: i.lead.shop_id, phone: i.lead.phone, since: new Date(now.getTime() - i.duplicateWindowDays * DAY_MS).toISOString() });
      }
    }
    const found = await rows.earliest([...probes.values()]);
    const earlier = new Map<string, number>();
    [...probes.keys()].forEach((k, n) => {
      if (found[n] != null) earlier.set(k, found[n]);
    });
    const windows = [...new Set(items.map((i) => i.duplicateWindowDays).filter((d) => d > 0))];
    const out: Array<CreatedLead & { item: T }> = [];
    const values: Array<LeadValues & { id: number }> = [];
    for (const i of items) {
      const duplicateOf = i.duplicateWindowDays > 0 ? (earlier.get(key(i.duplicateWindowDays, i)) ?? null) : null;
      if (o.admit && !o.admit(i, duplicateOf)) continue;
      const leadId = ids[values.length]!;
      values.push({
        ...i.lead, id: leadId, cs_status: duplicateOf ? '중복' : (i.lead.cs_status ?? '미처리'), duplicate_of: duplicateOf, created_at: i.receivedAt ?? nowIso,
        updated_at: nowIso, phone_last4: i.lead.phone.slice(-4), feed_seq: null,
      } as LeadValues & { id: number });
      // Leads of this batch are taken in order, so a later one duplicates an earlier one.
      for (const days of windows) if (!earlier.has(key(days, i))) earlier.set(key(days, i), leadId);
      out.push({ leadId, duplicateOf, item: i });
    }
    return { out, values };
  });
  // The pull feed's numbers, as they are written (not by an update after the commit, which
  // would write every lead again): the counter is held from here to the commit on PostgreSQL.
  if (o.numberFeed !== false && values.length) {
    const first = await numberInTransaction(trx, values.length);
    values.forEach((v, k) => (v.feed_seq = first + k));
  }
  await withLeadRows(trx, async (rows) => {
    await rows.insertWithIds(values);
    await rows.insertEvents(
      out.map((c) => {
        const { lead, by } = c.item;
        return {
          lead_id: c.leadId, shop_id: lead.shop_id, account_id: by?.accountId ?? null, action: 'created', before: null, ip: by?.ip ?? lead.ip ?? null, at: nowIso,
          after: JSON.stringify({
            source: lead.source, landingId: lead.landing_id, ...(c.duplicateOf ? { duplicateOf: c.duplicateOf } : {}),
            ...(lead.consent_basis ? { consentBasis: lead.consent_basis } : {}), ...(lead.import_id ? { importId: lead.import_id } : {}),
          }),
        };
      }),
    );
  });
  const written: Array<AcceptedLead & CreatedLead> = out.map(({ item, ...c }) => ({ ...item, ...c }));
  for (const step of SAME_TRANSACTION_STEPS) await step(trx, written, now);
  return written.map((w) => ({
    leadId: w.leadId, duplicateOf: w.duplicateOf, assigneeId: w.assigneeId ?? null, ...(w.closedLandingIds ? { closedLandingIds: w.closedLandingIds } : {}),
  }));
}

// ── The lead screens ────────────────────────────────────────────────────────────────────

const DEFAULT_OVERDUE_MINUTES = 30;
const MEMO_EXCERPT = 60;

type ListRow = Awaited<ReturnType<ReturnType<typeof leadsRepository>['list']>>['rows'][number];
type DetailRow = NonNullable<Awaited<ReturnType<ReturnType<typeof leadsRepository>['find']>>>;

const scopeOf = (actor: Actor): LeadScope => ({ accountId: actor.id, scope: actor.scope });
const excerpt = (memo: string | null) => {
  const line = memo?.split('\n')[0]?.trim();
  return line ? (line.length > MEMO_EXCERPT ? `${line.slice(0, MEMO_EXCERPT)}…` : line) : null;
};
const parse = (json: string | null): Record<string, unknown> | null => (json ? (JSON.parse(json) as Record<string, unknown>) : null);

function toListItem(r: ListRow, overdueBefore: string): LeadListItem {
  return {
    id: r.id, createdAt: r.created_at, landingId: r.landing_id, landingTitle: r.landing_title, mediaTypeName: r.media_type_name, source: r.source,
    name: r.name, phone: maskPhone(r.phone), csStatus: r.cs_status as CsStatus, assigneeId: r.assignee_id, assigneeName: r.assignee_name,
    reservedAt: r.reserved_at, memo: excerpt(r.memo), duplicateOf: r.duplicate_of, validity: r.validity as LeadListItem['validity'],
    invalidReason: r.invalid_reason, firstContactAt: r.first_contact_at, utmSource: r.utm_source, utmCampaign: r.utm_campaign,
    overdue: r.cs_status === '미처리' && r.created_at < overdueBefore,
  };
}

/** The form's answers with the landing's labels (a field since removed keeps its key as label); the delivery worker sends them so too. */
export function labelledAnswers(answersJson: string, formFieldsJson: string | null): LeadDetail['answers'] {
  const answers = JSON.parse(answersJson) as Record<string, string | string[]>;
  const fields = formFieldsJson ? (JSON.parse(formFieldsJson) as Array<{ key: string; label: string }>) : [];
  const label = new Map(fields.map((f) => [f.key, f.label]));
  return Object.entries(answers).map(([k, v]) => ({ label: label.get(k) ?? k, value: Array.isArray(v) ? v.join(', ') : String(v) }));
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
export function filteredLeads(db: Kysely<Database>, shopId: number, q: LeadFilterQuery, actor: Actor, now: Date, pageSize = 2000) {
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

/** The lead screens' reads and writes; every read of one lead and every change is in its access record. */
/** How long one opening of a lead's detail lasts before a refetch records a new view. */
export const OPENING_MAX_MINUTES = 30;

export function leadsService(db: Kysely<Database>, clock: Clock, announce: (change: LeadChange) => void = () => {}) {
  const repo = leadsRepository(db);

  async function settings(shopId: number): Promise<LeadSettings> {
    const row = await repo.settings(shopId);
    return { overdueMinutes: row?.overdue_minutes ?? DEFAULT_OVERDUE_MINUTES, autoMode: row?.auto_mode ?? 'off', updatedAt: row?.updated_at ?? null };
  }

  async function overdueMinutes(shopId: number) {
    return (await repo.settings(shopId))?.overdue_minutes ?? DEFAULT_OVERDUE_MINUTES;
  }

  const load = (shopId: number, actor: Actor, id: number) => foundOr404(repo.find(shopId, scopeOf(actor), id), 'DB를 찾을 수 없습니다.');

  /** A lead's detail as `actor` may see it: its original and duplicates only when they are in the actor's scope too. */
  async function detail(shopId: number, actor: Actor, row: DetailRow, overdueBefore: string): Promise<LeadDetail> {
    const who = scopeOf(actor);
    const [original, duplicates, history] = await Promise.all([
      row.duplicate_of ? repo.summary(shopId, who, row.duplicate_of) : undefined,
      repo.duplicatesOf(shopId, who, row.id),
      repo.history(row.id),
    ]);
    return {
      ...toListItem(row, overdueBefore),
      openingId: null,
      memo: row.memo,
      answers: labelledAnswers(row.answers, row.form_fields),
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
      return { ...itemsOf(page, (r) => toListItem(r, overdueBefore)), period: { from, to }, overdueMinutes: minutes };
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

// ── Returns (무효 교체): the contracts module's writes on leads ───────────────────────────

/** An approved return takes a lead out of the counts for good (validity 'returned'; a later status change keeps it). */
export async function markReturned(trx: Kysely<Database>, leadId: number, now: Date): Promise<void> {
  await leadsRepository(trx).update([leadId], { validity: 'returned', updated_at: now.toISOString() });
}

/** Events in leads' access records, written by another part with its transaction (the delivery worker's `deliver`, many at once). */
export async function recordLeadEvents(
  trx: Kysely<Database>,
  events: ReadonlyArray<{ leadId: number; shopId: number; accountId: number | null; action: string; before: unknown; after: unknown; ip: string | null }>,
  now: Date,
): Promise<void> {
  if (!events.length) return;
  const at = now.toISOString();
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  const rows = events.map((e) => ({
    lead_id: e.leadId, shop_id: e.shopId, account_id: e.accountId, action: e.action, ip: e.ip, at, before: json(e.before), after: json(e.after),
  }));
  // 500 rows of 8 values a statement: well inside both engines' parameter limits.
  for (let i = 0; i < rows.length; i += 500) await leadsRepository(trx).insertEvents(rows.slice(i, i + 500));
}

/** One event in a lead's access record, written by another module's step with its transaction (a return's request or decision). */
export async function recordLeadEvent(
  trx: Kysely<Database>,
  e: { leadId: number; shopId: number; accountId: number | null; action: string; before: unknown; after: unknown; ip: string | null },
  now: Date,
): Promise<void> {
  await leadsRepository(trx).insertEvents([{
    lead_id: e.leadId, shop_id: e.shopId, account_id: e.accountId, action: e.action, ip: e.ip, at: now.toISOString(),
    before: e.before === null || e.before === undefined ? null : JSON.stringify(e.before),
    after: e.after === null || e.after === undefined ? null : JSON.stringify(e.after),
  }]);
}
