// The SQL of contracts, their figures, returns and settlement. A contract's figures are one
// statement over the leads covering index (shop, created_at, deleted_at, duplicate_of, validity,
// landing, medium): every bucket a lead can fall in counted per Seoul day, so neither lead rows
// nor a query per figure leave the database.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, LeadReturnsTable, ShopContractsTable } from '../../db/schema.ts';
import { seoulDay } from '../../db/dialect-sql.ts';
import { paginate } from '../../db/paging.ts';
import { countsPerDay, scopedLeads, validLead, type LeadScope } from '../../db/valid-leads.ts';
import type { ContractLeadsQuery, ReturnListQuery } from '../../../contracts/shop-contracts.ts';
import { periodInstants } from '../../../contracts/kst.ts';

export type ContractRow = Selectable<ShopContractsTable>;
type ReturnRow = Selectable<LeadReturnsTable>;

const n = (v: unknown) => Number(v ?? 0);

/** Leads of one Seoul day in a contract's scope, by what they are (each lead in exactly one bucket). */
export interface ScopeDay {
  day: string;
  /** Counts (the valid-lead rule). */
  valid: number;
  /** Alive duplicates. */
  duplicates: number;
  /** Alive, not duplicates, 무효. */
  invalid: number;
  /** Alive, not duplicates, returned (an approved return). */
  returned: number;
  /** Deleted (whatever else they were). */
  deleted: number;
}

/**
 * Which valid leads are billable, as billableDays decides it: within each day the earliest
 * ones first, at most `cap` a day, and on `cutoffDay` (the day the quantity ran out) only the
 * first `cutoffCount`; none after it.
 */
export interface CountedRule {
  cap: number | null;
  cutoffDay: string | null;
  cutoffCount: number;
}

type LeadKind = ContractLeadsQuery['kind'];

const contractColumns = [
  'c.id', 'c.shop_id', 'c.name', 'c.starts_on', 'c.ends_on', 'c.quantity', 'c.unit_price', 'c.daily_cap', 'c.return_window_days',
  'c.max_return_rate', 'c.auto_close', 'c.stopped_at', 'c.memo', 'c.created_by', 'c.created_at', 'c.updated_at',
] as const;

/** Valid leads of a scope with their rank within their Seoul day (earliest first): what the counted rule reads. */
const ranked = (db: Kysely<Database>, scope: LeadScope) => {
  const day = seoulDay(db, 'l.created_at');
  return scopedLeads(db, scope)
    .where(validLead)
    .select(['l.id', day.as('day'), sql<number>`row_number() over (partition by ${day} order by l.created_at, l.id)`.as('rn')]);
};

/** A lead as the table behind a figure shows it, with its latest return's status. */
const leadRows = (db: Kysely<Database>) =>
  db
    .selectFrom('leads as l')
    .leftJoin('landings as g', 'g.id', 'l.landing_id')
    .leftJoin('code_items as m', 'm.id', 'l.media_type_id')
    .select([
      'l.id', 'l.created_at', 'g.title as landing_title', 'm.name as media_type_name', 'l.name', 'l.phone', 'l.cs_status', 'l.validity',
      'l.duplicate_of', 'l.deleted_at',
      (eb) => eb.selectFrom('lead_returns as r').select('r.status').whereRef('r.lead_id', '=', 'l.id').orderBy('r.id', 'desc').limit(1).as('return_status'),
    ]);

/** The counted rule on a ranked lead `v` (day, rn). */
const countedSql = (rule: CountedRule) =>
  sql<boolean>`(${rule.cap === null ? sql`1 = 1` : sql`v.rn <= ${rule.cap}`} and ${
    rule.cutoffDay === null ? sql`1 = 1` : sql`(v.day < ${rule.cutoffDay} or (v.day = ${rule.cutoffDay} and v.rn <= ${rule.cutoffCount}))`
  })`;

// ── Contracts ───────────────────────────────────────────────────────────────────────

function contractRows(db: Kysely<Database>) {
  return {
    contracts: (shopId: number) => db.selectFrom('shop_contracts as c').select(contractColumns).where('c.shop_id', '=', shopId).execute(),

    /** Contracts of these shops begun by `today` whose end is `since` or later (the dashboards' running and recently ended ones; a stop is the caller's to weigh). */
    recentContracts: (shopIds: readonly number[], since: string, today: string) =>
      shopIds.length
        ? db.selectFrom('shop_contracts as c').select(contractColumns).where('c.shop_id', 'in', [...shopIds]).where('c.starts_on', '<=', today)
          .where('c.ends_on', '>=', since).orderBy('c.shop_id').orderBy('c.starts_on').orderBy('c.id').execute()
        : Promise.resolve([]),

    contract: (shopId: number, id: number) =>
      db.selectFrom('shop_contracts as c').select(contractColumns).where('c.shop_id', '=', shopId).where('c.id', '=', id).executeTakeFirst(),

    /** The landings (with titles) and media (with names) each contract counts; none listed: all. */
    async scopes(ids: number[]) {
      if (!ids.length) return { landings: [], media: [] };
      const [landings, media] = await Promise.all([
        db.selectFrom('shop_contract_landings as x').innerJoin('landings as g', 'g.id', 'x.landing_id')
          .select(['x.contract_id', 'x.landing_id as id', 'g.title as name']).where('x.contract_id', 'in', ids).orderBy('g.title').orderBy('x.landing_id').execute(),
        db.selectFrom('shop_contract_media as x').innerJoin('code_items as m', 'm.id', 'x.media_type_id')
          .select(['x.contract_id', 'x.media_type_id as id', 'm.name as name']).where('x.contract_id', 'in', ids).orderBy('m.sort_order').orderBy('m.name').execute(),
      ]);
      return { landings, media };
    },

    /** Of `ids`, the landings of the shop. */
    shopLandings: async (shopId: number, ids: number[]) =>
      ids.length ? (await db.selectFrom('landings').select('id').where('shop_id', '=', shopId).where('id', 'in', ids).execute()).map((r) => r.id) : [],

    /** Of `ids`, the media types. */
    mediaTypes: async (ids: number[]) =>
      ids.length ? (await db.selectFrom('code_items').select('id').where('kind', '=', 'media-type').where('id', 'in', ids).execute()).map((r) => r.id) : [],

    insert: async (row: Omit<ContractRow, 'id'>) => (await db.insertInto('shop_contracts').values(row).returning('id').executeTakeFirstOrThrow()).id,

    update: (id: number, set: Partial<Omit<ContractRow, 'id' | 'shop_id' | 'created_at' | 'created_by'>>) =>
      db.updateTable('shop_contracts').set(set).where('id', '=', id).execute(),

    async setScope(id: number, landingIds: number[], mediaTypeIds: number[]) {
      await db.deleteFrom('shop_contract_landings').where('contract_id', '=', id).execute();
      await db.deleteFrom('shop_contract_media').where('contract_id', '=', id).execute();
      if (landingIds.length) await db.insertInto('shop_contract_landings').values(landingIds.map((landing_id) => ({ contract_id: id, landing_id }))).execute();
      if (mediaTypeIds.length) await db.insertInto('shop_contract_media').values(mediaTypeIds.map((media_type_id) => ({ contract_id: id, media_type_id }))).execute();
    },

    /** What keeps a contract from being deleted besides its counted leads: returns, cap events, landings it closed. */
    async history(id: number) {
      const [returns, events, closed] = await Promise.all([
        db.selectFrom('lead_returns').select(sql<number>`count(*)`.as('n')).where('contract_id', '=', id).executeTakeFirst(),
        db.selectFrom('contract_cap_events').select(sql<number>`count(*)`.as('n')).where('contract_id', '=', id).executeTakeFirst(),
        db.selectFrom('landings').select(sql<number>`count(*)`.as('n')).where('closed_by_contract_id', '=', id).executeTakeFirst(),
      ]);
      return { returns: n(returns?.n), capEvents: n(events?.n), closedLandings: n(closed?.n) };
    },

    async remove(id: number) {
      await db.deleteFrom('shop_contract_landings').where('contract_id', '=', id).execute();
      await db.deleteFrom('shop_contract_media').where('contract_id', '=', id).execute();
      await db.deleteFrom('shop_contracts').where('id', '=', id).execute();
    },
  };
}

// ── Figures ─────────────────────────────────────────────────────────────────────────

function figureRows(db: Kysely<Database>) {
  return {
    /**
     * Every lead of a scope, per Seoul day and bucket, oldest day first: one statement that
     * counts each day's leads over its own stretch of the covering index (countsPerDay), the
     * valid ones by the shared rule. This figure reads a contract's whole period on every
     * 계약 현황 view; grouping a year of a busy shop's leads by day, or converting each one's time
     * zone in SQL, costs several times as much.
     */
    async scopeDays(scope: LeadScope): Promise<ScopeDay[]> {
      const days = await countsPerDay(db, scope, {
        valid: validLead,
        // The rarer test first: most leads fail it at once.
        duplicates: (eb) => eb.and([eb('l.duplicate_of', 'is not', null), eb('l.deleted_at', 'is', null)]),
        invalid: (eb) => eb.and([eb('l.validity', '=', 'invalid'), eb('l.deleted_at', 'is', null), eb('l.duplicate_of', 'is', null)]),
        returned: (eb) => eb.and([eb('l.validity', '=', 'returned'), eb('l.deleted_at', 'is', null), eb('l.duplicate_of', 'is', null)]),
        deleted: (eb) => eb('l.deleted_at', 'is not', null),
      });
      return days.map((d) => ({ day: d.day, ...d.counts }));
    },

    /** Whether any of these leads of the shop was created before `beforeIso`, or is not there (purged): one primary-key read. */
    async anyBefore(shopId: number, ids: readonly number[], beforeIso: string): Promise<boolean> {
      if (!ids.length) return false;
      const r = await db.selectFrom('leads').select([sql<number | string>`count(*)`.as('n'), sql<string | null>`min(created_at)`.as('first')])
        .where('id', 'in', [...ids]).where('shop_id', '=', shopId).executeTakeFirst();
      return n(r?.n) < new Set(ids).size || (r?.first != null && r.first < beforeIso);
    },

    /** Returns per contract and status. */
    returnCounts: (contractIds: number[]) =>
      contractIds.length
        ? db.selectFrom('lead_returns').select(['contract_id', 'status', sql<number | string>`count(*)`.as('n')])
          .where('contract_id', 'in', contractIds).groupBy(['contract_id', 'status']).execute()
        : Promise.resolve([]),

    /** Returns of a contract approved (decided) in a period of instants. */
    approvedBetween: async (contractId: number, fromIso: string, toIso: string) =>
      n((await db.selectFrom('lead_returns').select(sql<number>`count(*)`.as('n')).where('contract_id', '=', contractId).where('status', '=', 'approved')
        .where('decided_at', '>=', fromIso).where('decided_at', '<', toIso).executeTakeFirst())?.n),

    /** Landings a contract's cap closed and still closed. */
    closedLandings: (contractIds: number[]) =>
      contractIds.length
        ? db.selectFrom('landings').select(['id', 'title', 'reopen_at', 'closed_by_contract_id']).where('closed_by_contract_id', 'in', contractIds)
          .where('status', '=', 'closed').orderBy('title').execute()
        : Promise.resolve([]),

    capEvents: (contractId: number, limit: number) =>
      db.selectFrom('contract_cap_events as e').leftJoin('landings as g', 'g.id', 'e.landing_id').leftJoin('accounts as a', 'a.id', 'e.account_id')
        .select(['e.id', 'e.kind', 'e.landing_id', 'g.title as landing_title', 'e.count', 'a.name as account_name', 'e.at'])
        .where('e.contract_id', '=', contractId).orderBy('e.at', 'desc').orderBy('e.id', 'desc').limit(limit).execute(),

    /** A valid lead's rank among the valid leads of its Seoul day in a scope (1: the earliest). */
    rankInDay: async (scope: LeadScope, lead: { id: number; createdAt: string }) =>
      n((await scopedLeads(db, scope).where(validLead)
        .where((eb) => eb.or([eb('l.created_at', '<', lead.createdAt), eb.and([eb('l.created_at', '=', lead.createdAt), eb('l.id', '<=', lead.id)])]))
        .select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n),

    /**
     * A page of the billable (`counted`) or the unbilled valid (`over`) leads, newest first
     * unless asked otherwise. The figures already say how many there are each day, so the page's
     * days are found here and only those days are ranked: a page costs a few days' leads, not the
     * contract's whole period.
     */
    async rankedPage(scope: LeadScope, kind: 'counted' | 'over', rule: CountedRule, perDay: ReadonlyArray<{ day: string; n: number }>, q: ContractLeadsQuery) {
      const desc = q.sort !== 'createdAt';
      const days = perDay.filter((d) => d.n > 0).sort((a, b) => (a.day < b.day ? -1 : 1) * (desc ? -1 : 1));
      const total = days.reduce((t, d) => t + d.n, 0);
      const offset = (q.page - 1) * q.pageSize;
      const chosen: string[] = [];
      let before = 0;
      let skip = 0;
      for (const d of days) {
        if (before + d.n <= offset) {
          before += d.n;
          continue;
        }
        if (!chosen.length) skip = offset - before;
        chosen.push(d.day);
        before += d.n;
        if (before >= offset + q.pageSize) break;
      }
      if (!chosen.length) return { rows: [], total };
      const from = chosen.reduce((a, b) => (a < b ? a : b));
      const to = chosen.reduce((a, b) => (a > b ? a : b));
      const counted = countedSql(rule);
      const rows = await leadRows(db)
        .innerJoin(ranked(db, { ...scope, ...periodInstants(from, to) }).as('v'), 'v.id', 'l.id')
        .where(kind === 'counted' ? counted : sql<boolean>`not ${counted}`)
        .orderBy('l.created_at', desc ? 'desc' : 'asc')
        .orderBy('l.id', desc ? 'desc' : 'asc')
        .limit(q.pageSize)
        .offset(skip)
        .execute();
      return { rows, total };
    },

    /** The leads behind a figure: a page of them with what the table shows (any kind; `counted`/`over` rank the whole period). */
    leads(scope: LeadScope, kind: LeadKind, rule: CountedRule, contractId: number, todayScope: LeadScope | null, q: ContractLeadsQuery, assigneeId: number | null) {
      let qb = leadRows(db);
      if (kind === 'counted' || kind === 'over') {
        const counted = countedSql(rule);
        qb = qb.innerJoin(ranked(db, scope).as('v'), 'v.id', 'l.id').where(kind === 'counted' ? counted : sql<boolean>`not ${counted}`);
      } else {
        const within = (s: LeadScope) => {
          let w = qb.where('l.shop_id', 'in', [...s.shopIds]).where('l.created_at', '>=', s.fromIso).where('l.created_at', '<', s.toIso);
          if (s.landingIds?.length) w = w.where('l.landing_id', 'in', [...s.landingIds]);
          if (s.mediaTypeIds?.length) w = w.where('l.media_type_id', 'in', [...s.mediaTypeIds]);
          return w;
        };
        if (kind === 'today') qb = todayScope ? within(todayScope).where(validLead) : qb.where(sql<boolean>`1 = 0`);
        else if (kind === 'requested') {
          qb = within(scope).where((eb) =>
            eb.exists(eb.selectFrom('lead_returns as r').select('r.id').whereRef('r.lead_id', '=', 'l.id').where('r.contract_id', '=', contractId).where('r.status', '=', 'requested')),
          );
        } else {
          qb = within(scope);
          if (kind === 'deleted') qb = qb.where('l.deleted_at', 'is not', null);
          else {
            qb = qb.where('l.deleted_at', 'is', null);
            if (kind === 'duplicate') qb = qb.where('l.duplicate_of', 'is not', null);
            else qb = qb.where('l.duplicate_of', 'is', null).where('l.validity', '=', kind === 'invalid' ? 'invalid' : 'returned');
          }
        }
      }
      // An account that sees only its own leads sees only those behind a figure too.
      if (assigneeId !== null) qb = qb.where('l.assignee_id', '=', assigneeId);
      return paginate(qb, { ...q, q: undefined }, { sortable: { createdAt: 'l.created_at' }, defaultSort: { column: 'l.created_at', desc: true }, tieBreaker: 'l.id' });
    },
  };
}

// ── Returns and the settlement sheet ────────────────────────────────────────────────

function returnRows(db: Kysely<Database>) {
  return {
    /** A lead of the shop as the return rules read it. */
    lead: (shopId: number, leadId: number) =>
      db.selectFrom('leads').select(['id', 'shop_id', 'created_at', 'landing_id', 'media_type_id', 'duplicate_of', 'validity', 'deleted_at', 'assignee_id'])
        .where('shop_id', '=', shopId).where('id', '=', leadId).executeTakeFirst(),

    /** Contracts of the shop whose period (up to its effective end) may hold `day`, with their landings and media. */
    contractsAround: (shopId: number, day: string) =>
      db.selectFrom('shop_contracts as c').select(contractColumns).where('c.shop_id', '=', shopId).where('c.starts_on', '<=', day).where('c.ends_on', '>=', day).execute(),

    returnsOfLead: (leadId: number) => db.selectFrom('lead_returns').selectAll().where('lead_id', '=', leadId).orderBy('id', 'desc').execute(),

    insertReturn: async (row: Omit<ReturnRow, 'id'>) => (await db.insertInto('lead_returns').values(row).returning('id').executeTakeFirstOrThrow()).id,

    findReturn: (shopId: number, id: number) => db.selectFrom('lead_returns').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst(),

    decide: (id: number, set: { status: 'approved' | 'rejected'; decided_by: number; decided_at: string; decision_note: string | null }) =>
      db.updateTable('lead_returns').set(set).where('id', '=', id).where('status', '=', 'requested').executeTakeFirst(),

    /** The shop's returns as the table shows them (masked phones are the service's). */
    returnsList: (shopId: number, q: ReturnListQuery, assigneeId: number | null) => paginate(
      assigneeId === null ? returnItems(db).where('r.shop_id', '=', shopId) : returnItems(db).where('r.shop_id', '=', shopId).where('l.assignee_id', '=', assigneeId), q, {
      search: ['l.name', 'c.name'],
      equals: { 'r.status': q.status, 'r.contract_id': q.contractId },
      sortable: { requestedAt: 'r.requested_at', decidedAt: 'r.decided_at' },
      defaultSort: { column: 'r.requested_at', desc: true },
      tieBreaker: 'r.id',
    }),

    returnItem: (id: number) => returnItems(db).where('r.id', '=', id).executeTakeFirstOrThrow(),

    // The settlement sheet's parties.

    shop: (shopId: number) =>
      db.selectFrom('shops').select(['name', 'company_name', 'representative', 'business_number', 'address', 'phone']).where('id', '=', shopId).executeTakeFirstOrThrow(),

    operator: () =>
      db.selectFrom('operator_settings').select(['company_name', 'representative', 'business_number', 'address', 'phone']).orderBy('id').limit(1).executeTakeFirst(),
  };
}

export function shopContractsRepository(db: Kysely<Database>) {
  return { ...contractRows(db), ...figureRows(db), ...returnRows(db) };
}

function returnItems(db: Kysely<Database>) {
  return db
    .selectFrom('lead_returns as r')
    .innerJoin('leads as l', 'l.id', 'r.lead_id')
    .innerJoin('shop_contracts as c', 'c.id', 'r.contract_id')
    .leftJoin('accounts as q', 'q.id', 'r.requested_by')
    .leftJoin('accounts as d', 'd.id', 'r.decided_by')
    .select([
      'r.id', 'r.contract_id', 'c.name as contract_name', 'r.lead_id', 'l.name as lead_name', 'l.phone as lead_phone', 'l.created_at as lead_created_at',
      'r.reason', 'r.note', 'r.status', 'q.name as requested_by_name', 'r.requested_at', 'd.name as decided_by_name', 'r.decided_at', 'r.decision_note',
    ]);
}

export type ReturnItemRow = Awaited<ReturnType<ReturnType<typeof shopContractsRepository>['returnItem']>>;
