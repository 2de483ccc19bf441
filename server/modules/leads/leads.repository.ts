// The SQL of leads and their access-record events. The statements a batch runs are compiled
// once per engine (and row count) and run straight on the transaction's connection: Kysely
// would build the SQL on every call, which costs more than SQLite running it. A batch costs a
// few statements however many leads it holds (one duplicate probe, multi-row inserts): on
// PostgreSQL every statement is a round trip.
import { CompiledQuery, sql, type DatabaseConnection, type Insertable, type Kysely, type QueryResult, type Transaction, type Updateable } from 'kysely';
import type { Database, LeadEventsTable, LeadSettingsTable, LeadsTable } from '../../db/schema.ts';
import { leadVariantContent } from '../../db/landing-sql.ts';
import { paginate, textMatch } from '../../db/paging.ts';
import { type LeadListQuery } from '../../../contracts/leads.ts';
import { dialectOf, rowsParameter } from '../../db/dialect-sql.ts';
import type { DialectName } from '../../db/dialect.ts';

export type NewLead = Omit<Insertable<LeadsTable>, 'duplicate_of' | 'created_at' | 'updated_at'>;

const LEAD_COLUMNS = [
  'shop_id', 'landing_id', 'source', 'name', 'phone', 'answers', 'privacy_consent', 'marketing_consent', 'sensitive_consent', 'privacy_policy_id',
  'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term', 'media_type_id', 'referrer', 'ip', 'user_agent',
  'cs_status', 'duplicate_of', 'created_at', 'updated_at', 'phone_last4', 'memo', 'consent_basis', 'consent_note', 'import_id', 'feed_seq', 'experiment_id', 'variant',
] as const satisfies ReadonlyArray<keyof LeadsTable>;
export type LeadValues = { [K in (typeof LEAD_COLUMNS)[number]]: unknown };

/** What insertAccepted decides of a lead besides what was submitted. */
export interface LeadDecided {
  id: number;
  cs_status: string;
  duplicate_of: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * The row a lead is written as: every column named once, in one object literal (one shape). A
 * spread of the submitted lead (which reaches intake's writer thread through postMessage), with
 * the decided columns set over it, took a twentieth of that thread's time in a profile.
 */
export function leadRow(l: NewLead, d: LeadDecided): LeadValues & { id: number } {
  return {
    id: d.id, shop_id: l.shop_id, landing_id: l.landing_id ?? null, source: l.source, name: l.name, phone: l.phone, answers: l.answers ?? null,
    privacy_consent: l.privacy_consent ?? null, marketing_consent: l.marketing_consent ?? null, sensitive_consent: l.sensitive_consent ?? null,
    privacy_policy_id: l.privacy_policy_id ?? null, utm_source: l.utm_source ?? null, utm_medium: l.utm_medium ?? null, utm_campaign: l.utm_campaign ?? null,
    utm_content: l.utm_content ?? null, utm_term: l.utm_term ?? null, media_type_id: l.media_type_id ?? null, referrer: l.referrer ?? null, ip: l.ip ?? null,
    user_agent: l.user_agent ?? null, cs_status: d.cs_status, duplicate_of: d.duplicate_of, created_at: d.created_at, updated_at: d.updated_at,
    phone_last4: l.phone.slice(-4), memo: l.memo ?? null, consent_basis: l.consent_basis ?? null, consent_note: l.consent_note ?? null,
    import_id: l.import_id ?? null, feed_seq: null, experiment_id: l.experiment_id ?? null, variant: l.variant ?? null,
  };
}
const LEAD_COLUMNS_WITH_ID = ['id', ...LEAD_COLUMNS] as const;

const EVENT_COLUMNS = ['lead_id', 'shop_id', 'account_id', 'action', 'before', 'after', 'ip', 'at'] as const;
export type EventValues = { [K in (typeof EVENT_COLUMNS)[number]]: unknown };

/** Rows one multi-row statement writes at most (leads: 32 values a row; well inside both engines' parameter limits). */
const ROWS_PER_STATEMENT = 100;

/** The columns of a duplicate probe's rows, in order. */
const PROBE_COLUMNS = [['shop_id', 'integer'], ['phone', 'text'], ['since', 'text']] as const;

interface Statements {
  /** The earliest live lead of each probe row: one statement for a whole batch. */
  earliestLeads: string;
  probeParams: (rows: ReadonlyArray<readonly unknown[]>) => unknown[];
  /** Multi-row inserts by row count (1…ROWS_PER_STATEMENT), built when first needed. */
  insertLeadsWithIds: Map<number, string>;
  insertEvents: Map<number, string>;
}

const compiled = new Map<DialectName, Statements>();

function statements(db: Kysely<Database>): Statements {
  const dialect = dialectOf(db);
  let s = compiled.get(dialect);
  if (!s) {
    const probe = rowsParameter(db, 'p', PROBE_COLUMNS);
    s = {
      // Per probe row, the earliest live lead of its shop and phone since its instant (rows
      // without one are left out). A join on shop and phone, so each row is one probe of
      // leads_shop_phone_idx (shop_id, phone, created_at) whatever the table's statistics: the
      // correlated "order by created_at, id limit 1" per row was planned, for any phone, as a
      // walk of the shop's leads in created_at order (leads_shop_created_cover_idx) on a table
      // not yet analysed, reading every lead of the window for each probe.
      earliestLeads: sql`select e.ord as ord, e.id as id from (select p.ord as ord, l.id as id,
        row_number() over (partition by p.ord order by l.created_at, l.id) as rn from ${probe.source}
        join leads as l on l.shop_id = p.shop_id and l.phone = p.phone and l.created_at >= p.since and l.deleted_at is null) as e
        where e.rn = 1`.compile(db).sql,
      probeParams: probe.params,
      insertLeadsWithIds: new Map(),
      insertEvents: new Map(),
    };
    compiled.set(dialect, s);
  }
  return s;
}

/** A multi-row insert of `n` rows of `columns` into `table`, compiled once per engine and row count. */
function multiRow(db: Kysely<Database>, cache: Map<number, string>, table: 'leads' | 'lead_events', columns: readonly string[], n: number): string {
  let text = cache.get(n);
  if (!text) {
    const row = Object.fromEntries(columns.map((c) => [c, null]));
    text = db.insertInto(table).values(Array.from({ length: n }, () => row) as never).compile().sql;
    cache.set(n, text);
  }
  return text;
}

/** A probe for the duplicate rule: the earliest live lead of a shop and phone since an instant. */
export interface LeadProbe {
  shopId: number;
  phone: string;
  since: string;
}

/** The lead statements on one transaction's connection. */
export interface LeadRows {
  /** For each probe, in order, the earliest live lead (or null): one statement, one index probe (shop_id, phone, created_at) per row. */
  earliest(probes: readonly LeadProbe[]): Promise<Array<number | null>>;
  /** Writes leads whose ids were reserved (reserveIds), in order, a hundred a statement. */
  insertWithIds(values: ReadonlyArray<LeadValues & { id: number }>): Promise<void>;
  /** Writes events in order, a hundred a statement. */
  insertEvents(values: readonly EventValues[]): Promise<void>;
}

/** Runs `fn` with the lead statements on the transaction's own connection. */
export function withLeadRows<T>(trx: Transaction<Database>, fn: (rows: LeadRows) => Promise<T>): Promise<T> {
  const st = statements(trx);
  return trx.getExecutor().provideConnection(async (conn: DatabaseConnection) => {
    const run = <R>(text: string, params: unknown[]): Promise<QueryResult<R>> => conn.executeQuery(CompiledQuery.raw(text, params));
    /** `values` in statements of at most ROWS_PER_STATEMENT rows, their `columns` in order (a missing one is null). */
    const chunked = async <V extends Record<string, unknown>>(values: readonly V[], text: (n: number) => string, columns: readonly string[]) => {
      for (let i = 0; i < values.length; i += ROWS_PER_STATEMENT) {
        const n = Math.min(ROWS_PER_STATEMENT, values.length - i);
        const params: unknown[] = new Array(n * columns.length);
        let k = 0;
        for (let r = i; r < i + n; r++) {
          const v = values[r]!;
          for (const c of columns) params[k++] = v[c] ?? null;
        }
        await run(text(n), params);
      }
    };
    return fn({
      async earliest(probes) {
        if (!probes.length) return [];
        const { rows } = await run<{ ord: number | string; id: number | string | null }>(st.earliestLeads, st.probeParams(probes.map((p) => [p.shopId, p.phone, p.since])));
        const out: Array<number | null> = new Array(probes.length).fill(null);
        for (const r of rows) out[Number(r.ord) - 1] = r.id === null ? null : Number(r.id);
        return out;
      },
      insertWithIds: (values) => chunked(values, (n) => multiRow(trx, st.insertLeadsWithIds, 'leads', LEAD_COLUMNS_WITH_ID, n), LEAD_COLUMNS_WITH_ID),
      insertEvents: (values) => chunked(values, (n) => multiRow(trx, st.insertEvents, 'lead_events', EVENT_COLUMNS, n), EVENT_COLUMNS),
    });
  });
}

/** Who is asking, as the repository narrows by it: a counselor sees only leads assigned to them. */
export interface LeadScope {
  accountId: number;
  scope: 'all' | 'assigned';
}

export interface LeadListFilter extends Omit<LeadListQuery, 'from' | 'to'> {
  fromIso: string;
  toIso: string;
}

/** The list's filters without its paging and sort: what an export narrows by. */
export type LeadFilter = Omit<LeadListFilter, 'page' | 'pageSize' | 'sort'>;

/** Where an export's next page starts: after this lead in (created_at, id) order. */
export interface LeadKey {
  createdAt: string;
  id: number;
}

/** The digits of a phone search, when the text is one (at least three digits, nothing but digits, spaces and dashes). */
export function phoneDigits(q: string): string | null {
  if (!/^[\d\s-]+$/.test(q)) return null;
  const d = q.replace(/\D/g, '');
  return d.length >= 3 ? d : null;
}

/** The next string after every string that starts with `prefix` (digits only): a prefix as an index range. */
const after = (prefix: string) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/**
 * Accounts leads can be assigned to in a shop: permitted to it, of a shop-area type that sees
 * only its own leads, not disabled (the counselors of DB 현황's filter and of allocation).
 */
export const shopCounselors = (db: Kysely<Database>, shopId: number) =>
  db
    .selectFrom('accounts as a')
    .innerJoin('account_types as t', 't.id', 'a.account_type_id')
    .innerJoin('shop_permissions as p', 'p.account_id', 'a.id')
    .where('p.shop_id', '=', shopId)
    .where('t.area', '=', 'shop')
    .where('t.data_scope', '=', 'assigned')
    .where('a.status', '!=', 'disabled');

/** The queries of the lead screens (the writes of intake are the compiled statements above). */
export function leadsRepository(db: Kysely<Database>) {
  /** The shop's leads the asker may see: not deleted, and a counselor's own. */
  const scoped = (shopId: number, who: LeadScope) => {
    let qb = db.selectFrom('leads as l').where('l.shop_id', '=', shopId).where('l.deleted_at', 'is', null);
    if (who.scope === 'assigned') qb = qb.where('l.assignee_id', '=', who.accountId);
    return qb;
  };
  const base = (shopId: number, who: LeadScope) =>
    scoped(shopId, who)
      .leftJoin('landings as g', 'g.id', 'l.landing_id')
      .leftJoin('code_items as m', 'm.id', 'l.media_type_id')
      .leftJoin('accounts as a', 'a.id', 'l.assignee_id');
  const LIST_COLUMNS = [
    'l.id', 'l.created_at', 'l.landing_id', 'g.title as landing_title', 'm.name as media_type_name', 'l.source', 'l.name', 'l.phone',
    'l.cs_status', 'l.assignee_id', 'a.name as assignee_name', 'l.reserved_at', 'l.memo', 'l.duplicate_of', 'l.validity',
    'l.invalid_reason', 'l.first_contact_at', 'l.utm_source', 'l.utm_campaign', 'l.variant',
  ] as const;

  /** The leads a list filter finds in the asker's scope: the period, status, assignee, duplicate, validity, search and equality filters. */
  const filtered = (shopId: number, who: LeadScope, f: LeadFilter) => {
    let qb = base(shopId, who).where('l.created_at', '>=', f.fromIso).where('l.created_at', '<', f.toIso);
    if (f.status?.length) qb = qb.where('l.cs_status', 'in', f.status);
    if (f.assignee === 'none') qb = qb.where('l.assignee_id', 'is', null);
    else if (f.assignee) qb = qb.where('l.assignee_id', '=', Number(f.assignee));
    if (f.duplicate) qb = qb.where('l.duplicate_of', f.duplicate === 'duplicate' ? 'is not' : 'is', null);
    if (f.validity) qb = qb.where('l.validity', f.validity === 'valid' ? '=' : '!=', 'valid');
    const digits = f.q ? phoneDigits(f.q) : null;
    if (digits) {
      // The number's start (an index range on phone) or its end (the last four, indexed, then the rest checked).
      qb = qb.where((eb) =>
        eb.or([
          eb.and([eb('l.phone', '>=', digits), eb('l.phone', '<', after(digits))]),
          ...(digits.length >= 4 ? [eb.and([eb('l.phone_last4', '=', digits.slice(-4)), eb('l.phone', 'like', `%${digits}`)])] : []),
        ]),
      );
    } else if (f.q) qb = qb.where(textMatch(['l.name'], f.q));
    if (f.landingId !== undefined) qb = qb.where('l.landing_id', '=', f.landingId);
    if (f.mediaTypeId !== undefined) qb = qb.where('l.media_type_id', '=', f.mediaTypeId);
    if (f.utmSource) qb = qb.where('l.utm_source', '=', f.utmSource);
    if (f.utmCampaign) qb = qb.where('l.utm_campaign', '=', f.utmCampaign);
    return qb;
  };

  return {
    list(shopId: number, who: LeadScope, f: LeadListFilter) {
      return paginate(filtered(shopId, who, f).select(LIST_COLUMNS), { ...f, q: undefined }, {
        sortable: {
          createdAt: 'l.created_at', name: 'l.name', csStatus: 'l.cs_status', reservedAt: 'l.reserved_at',
          firstContactAt: 'l.first_contact_at', assigneeName: 'a.name',
        },
        defaultSort: { column: 'l.created_at', desc: true },
        tieBreaker: 'l.id',
      });
    },

    /** How many leads a list filter finds (an export's row count). */
    count: async (shopId: number, who: LeadScope, f: LeadFilter) =>
      Number((await filtered(shopId, who, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0),

    /** A page of the leads a list filter finds, oldest first, after `key` (an export reads them page by page, never all at once). */
    exportPage(shopId: number, who: LeadScope, f: LeadFilter, key: LeadKey | null, limit: number) {
      let qb = filtered(shopId, who, f).select([...LIST_COLUMNS, 'l.utm_medium', 'l.answers']);
      if (key) {
        qb = qb.where((eb) =>
          eb.or([eb('l.created_at', '>', key.createdAt), eb.and([eb('l.created_at', '=', key.createdAt), eb('l.id', '>', key.id)])]),
        );
      }
      return qb.orderBy('l.created_at').orderBy('l.id').limit(limit).execute();
    },

    find: (shopId: number, who: LeadScope, id: number) =>
      base(shopId, who)
        .leftJoin('privacy_policies as p', 'p.id', 'l.privacy_policy_id')
        .select(LIST_COLUMNS)
        .select([
          'l.answers', 'l.utm_medium', 'l.utm_content', 'l.utm_term', 'l.referrer', 'l.user_agent', 'l.privacy_consent',
          'l.marketing_consent', 'l.sensitive_consent', 'p.version as policy_version', 'g.form_fields', leadVariantContent.as('variant_content'),
        ])
        .where('l.id', '=', id)
        .executeTakeFirst(),

    /** The ids among `ids` the asker may change (in the shop, in scope, not deleted). */
    visibleIds: async (shopId: number, who: LeadScope, ids: number[]) =>
      (await base(shopId, who).select('l.id').where('l.id', 'in', ids).execute()).map((r) => r.id),

    states: (ids: number[]) =>
      db.selectFrom('leads').select(['id', 'shop_id', 'cs_status', 'reserved_at', 'memo', 'first_contact_at', 'validity', 'invalid_reason', 'assignee_id']).where('id', 'in', ids).execute(),

    /** A lead's original, when the asker may see it (a counselor: only when it is theirs too). */
    summary: (shopId: number, who: LeadScope, id: number) =>
      scoped(shopId, who).select(['l.id', 'l.created_at', 'l.name', 'l.cs_status']).where('l.id', '=', id).executeTakeFirst(),

    /** A lead's later duplicates the asker may see. */
    duplicatesOf: (shopId: number, who: LeadScope, id: number) =>
      scoped(shopId, who).select(['l.id', 'l.created_at', 'l.name']).where('l.duplicate_of', '=', id).orderBy('l.created_at').limit(50).execute(),

    history: (id: number) =>
      db
        .selectFrom('lead_events as e')
        .leftJoin('accounts as a', 'a.id', 'e.account_id')
        .select(['e.id', 'e.at', 'e.action', 'a.name as account_name', 'e.before', 'e.after', 'e.ip'])
        .where('e.lead_id', '=', id)
        .orderBy('e.at', 'desc')
        // An intake lead's `created` event is written just after its commit (follow-up.ts), so after
        // the automatic allocation's `assign` of the same instant: it still reads first.
        .orderBy(sql`case when e.action = 'created' then 1 else 0 end`)
        .orderBy('e.id', 'desc')
        .limit(200)
        .execute(),

    phone: (id: number) => db.selectFrom('leads').select('phone').where('id', '=', id).executeTakeFirstOrThrow(),

    update: (ids: number[], set: Pick<Updateable<LeadsTable>, 'cs_status' | 'reserved_at' | 'memo' | 'first_contact_at' | 'validity' | 'invalid_reason'> & { updated_at: string }) =>
      db.updateTable('leads').set(set).where('id', 'in', ids).execute(),

    /** Sets the first contact of those still without one. */
    firstContact: (ids: number[], at: string) =>
      db.updateTable('leads').set({ first_contact_at: at }).where('id', 'in', ids).where('first_contact_at', 'is', null).execute(),

    insertEvents: (rows: Array<Insertable<LeadEventsTable>>) => (rows.length ? db.insertInto('lead_events').values(rows).execute() : Promise.resolve()),
    /** Records one view and answers its id (the opening a drawer's refetches name). */
    insertView: async (row: Insertable<LeadEventsTable>) => (await db.insertInto('lead_events').values(row).returning('id').executeTakeFirstOrThrow()).id,
    /** A recorded view, to check an opening a refetch names. */
    view: (eventId: number) =>
      db.selectFrom('lead_events').select(['id', 'lead_id', 'account_id', 'at']).where('id', '=', eventId).where('action', '=', 'view').executeTakeFirst(),

    /** Accounts leads can be assigned to in a shop: permitted to it, of a shop-area type that sees only its own leads. */
    counselors: (shopId: number) => shopCounselors(db, shopId).select(['a.id', 'a.name', 'a.login_id']).orderBy('a.name').execute(),

    settings: (shopId: number) => db.selectFrom('lead_settings').selectAll().where('shop_id', '=', shopId).executeTakeFirst(),

    saveSettings: (row: Insertable<LeadSettingsTable>) =>
      db
        .insertInto('lead_settings')
        .values(row)
        .onConflict((oc) => oc.column('shop_id').doUpdateSet({ overdue_minutes: row.overdue_minutes, updated_by: row.updated_by, updated_at: row.updated_at }))
        .execute(),
  };
}
