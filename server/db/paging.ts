// The one list contract on the server: a filtered query → { items, total } page, and text search (SQL helpers for repositories).
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { parseSort, type SortValue } from '../../contracts/list.ts';

interface ListSpec<S extends string> {
  /** Columns the list's `q` searches (case-insensitive "contains" on any of them). */
  search?: string[];
  /** Column → the filter's value: rows equal to it (a filter left empty filters nothing). */
  equals?: Record<string, string | number | undefined>;
  /** Every sort key the list endpoint declares → its SQL column reference (e.g. `name` → `s.name`). */
  sortable: Record<S, string>;
  /** Applied when no sort is asked for, and as a tie-breaker. */
  defaultSort: { column: string; desc?: boolean };
  /** A unique column ordered last, so pages never overlap (e.g. `t.id`). */
  tieBreaker?: string;
}

export async function paginate<DB, TB extends keyof DB, O, S extends string>(
  qb: SelectQueryBuilder<DB, TB, O>,
  query: { page: number; pageSize: number; sort?: SortValue<S>; q?: string },
  spec: ListSpec<S>,
): Promise<{ rows: O[]; total: number }> {
  if (spec.search && query.q) qb = qb.where(textMatch(spec.search, query.q));
  for (const [column, value] of Object.entries(spec.equals ?? {})) {
    if (value !== undefined && value !== '') qb = qb.where(sql<boolean>`${sql.ref(column)} = ${value}`);
  }
  const counted = qb
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst() as Promise<{ n: number | string } | undefined>;
  const asked = parseSort(query.sort);
  const column = asked && (spec.sortable[asked.field] as string | undefined);
  let ordered = qb;
  if (column) ordered = ordered.orderBy(sql.ref(column), asked!.desc ? 'desc' : 'asc');
  ordered = ordered.orderBy(sql.ref(spec.defaultSort.column), spec.defaultSort.desc ? 'desc' : 'asc');
  // Ties follow the list's direction: newest first stays newest first among equal times.
  const desc = column ? asked!.desc : !!spec.defaultSort.desc;
  if (spec.tieBreaker) ordered = ordered.orderBy(sql.ref(spec.tieBreaker), desc ? 'desc' : 'asc');
  // The count and the page side by side: on PostgreSQL two connections of the pool, one round trip's wait instead of two.
  const [countRow, rows] = await Promise.all([counted, ordered.limit(query.pageSize).offset((query.page - 1) * query.pageSize).execute()]);
  return { rows, total: Number(countRow?.n ?? 0) };
}

/**
 * A case-insensitive "contains" search over some text columns, the same on both engines:
 * LIKE's own wildcards in the search text are escaped, so `50%` finds "50%" literally.
 */
export function textMatch(columns: string[], q: string): RawBuilder<boolean> {
  const term = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`(${sql.join(
    columns.map((c) => sql`lower(${sql.ref(c)}) like ${term} escape '\\'`),
    sql` or `,
  )})`;
}

export const bool = (v: number | boolean) => v === true || v === 1;

/** A page of rows as the list endpoint answers it: each row mapped to its item. */
export const itemsOf = <R, T>(page: { rows: R[]; total: number }, toItem: (row: R) => T) => ({ items: page.rows.map(toItem), total: page.total });
