// The SQL of leads and their access-record events. The statements a batch runs per lead are
// compiled once per engine and run straight on the transaction's connection: Kysely would
// build the SQL on every call, which costs more than SQLite running it.
import { CompiledQuery, type DatabaseConnection, type Insertable, type Kysely, type QueryResult, type Transaction } from 'kysely';
import type { Database, LeadsTable } from '../../db/schema.ts';
import { dialectOf } from '../../db/dialect-sql.ts';
import type { DialectName } from '../../db/dialect.ts';

export type NewLead = Omit<Insertable<LeadsTable>, 'duplicate_of' | 'created_at' | 'updated_at'>;

const LEAD_COLUMNS = [
  'shop_id', 'landing_id', 'source', 'name', 'phone', 'answers', 'privacy_consent', 'marketing_consent', 'sensitive_consent', 'privacy_policy_id',
  'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term', 'media_type_id', 'referrer', 'ip', 'user_agent',
  'cs_status', 'duplicate_of', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof LeadsTable>;
export type LeadValues = { [K in (typeof LEAD_COLUMNS)[number]]: unknown };

const EVENT_COLUMNS = ['lead_id', 'account_id', 'action', 'before', 'after', 'ip', 'at'] as const;
export type EventValues = { [K in (typeof EVENT_COLUMNS)[number]]: unknown };

interface Statements {
  insertLead: string;
  earliestLead: string;
  insertEvent: string;
}

const compiled = new Map<DialectName, Statements>();

function statements(db: Kysely<Database>): Statements {
  const dialect = dialectOf(db);
  let s = compiled.get(dialect);
  if (!s) {
    s = {
      insertLead: db.insertInto('leads').values(Object.fromEntries(LEAD_COLUMNS.map((c) => [c, null])) as never).returning('id').compile().sql,
      // Parameters in the compiled order: shop, phone, since, limit.
      earliestLead: db
        .selectFrom('leads')
        .select('id')
        .where('shop_id', '=', 0)
        .where('phone', '=', '')
        .where('created_at', '>=', '')
        .where('deleted_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .compile().sql,
      insertEvent: db.insertInto('lead_events').values(Object.fromEntries(EVENT_COLUMNS.map((c) => [c, null])) as never).compile().sql,
    };
    compiled.set(dialect, s);
  }
  return s;
}

/** The lead statements on one transaction's connection. */
export interface LeadRows {
  /** The earliest live lead of a shop and phone since an instant: one index probe (shop_id, phone, created_at). */
  earliest(shopId: number, phone: string, since: string): Promise<number | null>;
  insert(values: LeadValues): Promise<number>;
  insertEvent(values: EventValues): Promise<void>;
}

/** Runs `fn` with the lead statements on the transaction's own connection. */
export function withLeadRows<T>(trx: Transaction<Database>, fn: (rows: LeadRows) => Promise<T>): Promise<T> {
  const st = statements(trx);
  return trx.getExecutor().provideConnection(async (conn: DatabaseConnection) => {
    const run = <R>(text: string, params: unknown[]): Promise<QueryResult<R>> => conn.executeQuery(CompiledQuery.raw(text, params));
    return fn({
      async earliest(shopId, phone, since) {
        const { rows } = await run<{ id: number }>(st.earliestLead, [shopId, phone, since, 1]);
        return rows[0] ? Number(rows[0].id) : null;
      },
      async insert(values) {
        const { rows } = await run<{ id: number }>(st.insertLead, LEAD_COLUMNS.map((c) => values[c]));
        return Number(rows[0]!.id);
      },
      async insertEvent(values) {
        await run(st.insertEvent, EVENT_COLUMNS.map((c) => values[c]));
      },
    });
  });
}
