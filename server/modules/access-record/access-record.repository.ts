// The SQL of 개인정보 접근 기록. The record is the union of a shop's lead events (lead_events)
// and its list-level access (access_events). A page is chosen from the bare union first — each
// side narrowed by shop and period on its own (shop_id, at) index, by action, account or lead
// where asked — as (source, id, at) only, and only the page's rows are then joined to their
// lead and account: a month of a busy shop is tens of thousands of events, and joining each
// before the sort would cost more than the page. Nothing here deletes a record: there is no
// delete of lead_events or access_events anywhere in the product (a purge scrubs the lead's
// personal fields and keeps its events).
import { sql, type Insertable, type Kysely } from 'kysely';
import type { AccessReviewsTable, Database } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import { seoulDay } from '../../db/dialect-sql.ts';
import type { SortValue } from '../../../contracts/list.ts';

export interface RecordFilter {
  shopId: number;
  fromIso: string;
  toIso: string;
  accountId?: number;
  actions?: string[];
  leadId?: number;
  /** The newest ids an export reads (what was there when it was counted): its own record stays out. */
  upTo?: { leadEventId: number; accessEventId: number };
}

/** Where a row of the record is: 1 lead_events, 2 access_events. */
export const LEAD_EVENT = 1;
export const ACCESS_EVENT = 2;

/** A row of the record before its details; `k` orders rows of the same instant, unique across both sides. */
export interface RecordRef {
  src: number;
  id: number;
  at: string;
  k: number;
}

/**
 * Seoul night (22:00–06:00, nine hours ahead of UTC all year) of an ISO-8601 UTC text column:
 * its UTC hour, the text's characters 12–13, is 13–20. The same text function on both engines.
 */
function nightIn(column: string, fromHour: number, toHour: number) {
  const utc = (h: number) => String((h - 9 + 24) % 24).padStart(2, '0');
  const hour = sql`substr(${sql.ref(column)}, 12, 2)`;
  const [from, to] = [utc(fromHour), utc(toHour)];
  return from < to ? sql<boolean>`(${hour} >= ${from} and ${hour} < ${to})` : sql<boolean>`(${hour} >= ${from} or ${hour} < ${to})`;
}

const n = (v: unknown) => Number(v ?? 0);

// ── The monthly review ──────────────────────────────────────────────────────────────

function reviewRows(db: Kysely<Database>) {
  return {
    /** Per account, action and Seoul day: how many of `actions` (lead events by a person). */
    async leadEventsPerDay(shopId: number, fromIso: string, toIso: string, actions: string[]) {
      const day = seoulDay(db, 'e.at');
      const rows = await db
        .selectFrom('lead_events as e')
        .leftJoin('accounts as a', 'a.id', 'e.account_id')
        .select(['e.account_id', 'a.name as account_name', 'a.login_id', 'e.action', day.as('day'), sql<number>`count(*)`.as('n')])
        .where('e.shop_id', '=', shopId)
        .where('e.action', 'in', actions)
        .where('e.at', '>=', fromIso)
        .where('e.at', '<', toIso)
        .where('e.account_id', 'is not', null)
        .groupBy(['e.account_id', 'a.name', 'a.login_id', 'e.action', day])
        .execute();
      return rows.map((r) => ({ ...r, n: n(r.n) }));
    },

    /** Per account, action and Seoul day: how many list-level accesses of `actions`. */
    async accessEventsPerDay(shopId: number, fromIso: string, toIso: string, actions: string[]) {
      const day = seoulDay(db, 'x.at');
      const rows = await db
        .selectFrom('access_events as x')
        .leftJoin('accounts as a', 'a.id', 'x.account_id')
        .select(['x.account_id', 'a.name as account_name', 'a.login_id', 'x.action', day.as('day'), sql<number>`count(*)`.as('n')])
        .where('x.shop_id', '=', shopId)
        .where('x.action', 'in', actions)
        .where('x.at', '>=', fromIso)
        .where('x.at', '<', toIso)
        .groupBy(['x.account_id', 'a.name', 'a.login_id', 'x.action', day])
        .execute();
      return rows.map((r) => ({ ...r, n: n(r.n) }));
    },

    /** Per account and Seoul day: what a person did to the shop's data at night (both sides). */
    async nightPerDay(shopId: number, fromIso: string, toIso: string, fromHour: number, toHour: number) {
      const leadDay = seoulDay(db, 'e.at');
      const accessDay = seoulDay(db, 'x.at');
      const [leads, access] = await Promise.all([
        // A person's events, account by account: joined to accounts (never deleted, so exactly the
        // events with an account), each account's month in the shop is one seek of
        // lead_events_account_shop_at_idx (account_id, shop_id, at). Filtered by `account_id is not
        // null` instead, PostgreSQL took that index for a busy shop and read every person's
        // events of every shop (26 → 42 ms on a million leads; 16 ms this way).
        db
          .selectFrom('accounts as a')
          .innerJoin('lead_events as e', 'e.account_id', 'a.id')
          .select(['e.account_id', leadDay.as('day'), sql<number>`count(*)`.as('n')])
          .where('e.shop_id', '=', shopId)
          .where('e.at', '>=', fromIso)
          .where('e.at', '<', toIso)
          .where(nightIn('e.at', fromHour, toHour))
          .groupBy(['e.account_id', leadDay])
          .execute(),
        db
          .selectFrom('access_events as x')
          .select(['x.account_id', accessDay.as('day'), sql<number>`count(*)`.as('n')])
          .where('x.shop_id', '=', shopId)
          .where('x.at', '>=', fromIso)
          .where('x.at', '<', toIso)
          .where('x.account_id', 'is not', null)
          .where(nightIn('x.at', fromHour, toHour))
          .groupBy(['x.account_id', accessDay])
          .execute(),
      ]);
      return [...leads, ...access].map((r) => ({ account_id: r.account_id, day: r.day, n: n(r.n) }));
    },

    /** Exports of more than `rows` rows. */
    bigExports: (shopId: number, fromIso: string, toIso: string, rows: number) =>
      db
        .selectFrom('access_events as x')
        .leftJoin('accounts as a', 'a.id', 'x.account_id')
        .select(['x.id', 'x.at', 'x.account_id', 'a.name as account_name', 'a.login_id', 'x.row_count'])
        .where('x.shop_id', '=', shopId)
        .where('x.action', '=', 'export')
        .where('x.at', '>=', fromIso)
        .where('x.at', '<', toIso)
        .where('x.row_count', '>', rows)
        .orderBy('x.at')
        .execute(),

    accountsById: (ids: number[]) =>
      ids.length ? db.selectFrom('accounts').select(['id', 'name', 'login_id']).where('id', 'in', ids).execute() : Promise.resolve([]),

    review: (shopId: number, month: string) =>
      db
        .selectFrom('access_reviews as r')
        .leftJoin('accounts as a', 'a.id', 'r.reviewed_by')
        .select(['r.month', 'r.reviewed_at', 'r.note', 'a.name', 'a.login_id'])
        .where('r.shop_id', '=', shopId)
        .where('r.month', '=', month)
        .executeTakeFirst(),

    insertReview: (row: Insertable<AccessReviewsTable>) => db.insertInto('access_reviews').values(row).execute(),
  };
}

export function accessRecordRepository(db: Kysely<Database>) {
  /** The union of both sides, filtered each on its own; null when the filter leaves no side. */
  function union(f: RecordFilter) {
    let leads = db
      .selectFrom('lead_events as e')
      .select([sql<number>`${sql.lit(LEAD_EVENT)}`.as('src'), 'e.id', 'e.at', sql<number>`e.id * 2`.as('k')])
      .where('e.shop_id', '=', f.shopId)
      .where('e.at', '>=', f.fromIso)
      .where('e.at', '<', f.toIso);
    if (f.actions?.length) leads = leads.where('e.action', 'in', f.actions);
    if (f.accountId) leads = leads.where('e.account_id', '=', f.accountId);
    if (f.leadId) leads = leads.where('e.lead_id', '=', f.leadId);
    if (f.upTo) leads = leads.where('e.id', '<=', f.upTo.leadEventId);
    // List-level access has no lead of its own: a lead's record is its events.
    if (f.leadId) return leads;
    let access = db
      .selectFrom('access_events as x')
      .select([sql<number>`${sql.lit(ACCESS_EVENT)}`.as('src'), 'x.id', 'x.at', sql<number>`x.id * 2 + 1`.as('k')])
      .where('x.shop_id', '=', f.shopId)
      .where('x.at', '>=', f.fromIso)
      .where('x.at', '<', f.toIso);
    if (f.actions?.length) access = access.where('x.action', 'in', f.actions);
    if (f.accountId) access = access.where('x.account_id', '=', f.accountId);
    if (f.upTo) access = access.where('x.id', '<=', f.upTo.accessEventId);
    return leads.unionAll(access);
  }

  const refs = (f: RecordFilter) => db.selectFrom(union(f).as('r')).select(['r.src', 'r.id', 'r.at', 'r.k']);

  return {
    /** A page of the record, newest first (or oldest, sorted by `at`), ties in a fixed order. */
    page: (f: RecordFilter, q: { page: number; pageSize: number; sort?: SortValue<'at'> }) =>
      paginate(refs(f), q, { sortable: { at: 'r.at' }, defaultSort: { column: 'r.at', desc: true }, tieBreaker: 'r.k' }),

    count: async (f: RecordFilter) =>
      n((await db.selectFrom(union(f).as('r')).select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n),

    /** The rows after `cursor` (newest first): what an export reads, a chunk at a time. */
    after(f: RecordFilter, cursor: { at: string; k: number } | null, limit: number) {
      let qb = refs(f);
      if (cursor) qb = qb.where((eb) => eb.or([eb('r.at', '<', cursor.at), eb.and([eb('r.at', '=', cursor.at), eb('r.k', '<', cursor.k)])]));
      return qb.orderBy('r.at', 'desc').orderBy('r.k', 'desc').limit(limit).execute();
    },

    /** The newest ids of both sides now. */
    async newestIds() {
      const [l, a] = await Promise.all([
        db.selectFrom('lead_events').select(sql<number>`max(id)`.as('id')).executeTakeFirst(),
        db.selectFrom('access_events').select(sql<number>`max(id)`.as('id')).executeTakeFirst(),
      ]);
      return { leadEventId: n(l?.id), accessEventId: n(a?.id) };
    },

    leadEvents: (ids: number[]) =>
      ids.length
        ? db
            .selectFrom('lead_events as e')
            .leftJoin('leads as l', 'l.id', 'e.lead_id')
            .leftJoin('accounts as a', 'a.id', 'e.account_id')
            .select([
              'e.id', 'e.at', 'e.action', 'e.account_id', 'a.name as account_name', 'a.login_id', 'e.ip', 'e.lead_id', 'e.before', 'e.after',
              'l.id as lead_row', 'l.name as lead_name', 'l.phone as lead_phone', 'l.deleted_at', 'l.purged_at',
            ])
            .where('e.id', 'in', ids)
            .execute()
        : Promise.resolve([]),

    accessEvents: (ids: number[]) =>
      ids.length
        ? db
            .selectFrom('access_events as x')
            .leftJoin('accounts as a', 'a.id', 'x.account_id')
            .select(['x.id', 'x.at', 'x.action', 'x.account_id', 'a.name as account_name', 'a.login_id', 'x.ip', 'x.row_count', 'x.detail'])
            .where('x.id', 'in', ids)
            .execute()
        : Promise.resolve([]),

    /**
     * Accounts the record's filter offers: those permitted the shop and, to the agency's side,
     * every administrator-area account (they may enter any shop); to a client's, only those that
     * appear in this shop's record — the agency's other logins are none of the client's business.
     */
    accounts: (shopId: number, side: 'agency' | 'client') =>
      db
        .selectFrom('accounts as a')
        .innerJoin('account_types as t', 't.id', 'a.account_type_id')
        .select(['a.id', 'a.name', 'a.login_id'])
        .where((eb) => {
          const admin = eb('t.area', '=', 'admin');
          const inRecord = eb.or([
            eb.exists(eb.selectFrom('lead_events as e').select('e.id').whereRef('e.account_id', '=', 'a.id').where('e.shop_id', '=', shopId)),
            eb.exists(eb.selectFrom('access_events as x').select('x.id').whereRef('x.account_id', '=', 'a.id').where('x.shop_id', '=', shopId)),
          ]);
          return eb.or([
            side === 'agency' ? admin : eb.and([admin, inRecord]),
            eb.exists(eb.selectFrom('shop_permissions as p').select('p.shop_id').whereRef('p.account_id', '=', 'a.id').where('p.shop_id', '=', shopId)),
          ]);
        })
        .orderBy('a.name')
        .orderBy('a.id')
        .execute(),
    ...reviewRows(db),
  };
}

export type LeadEventRow = Awaited<ReturnType<ReturnType<typeof accessRecordRepository>['leadEvents']>>[number];
export type AccessEventRow = Awaited<ReturnType<ReturnType<typeof accessRecordRepository>['accessEvents']>>[number];
