// One list contract for every table screen: page, pageSize, sort, filters → { items, total }.
// A list endpoint is built by listEndpoint() from its item, its sort keys and its filters.
import { z } from './zod.ts';
import { endpoint, type Endpoint } from './endpoint.ts';

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  q: z.string().trim().max(100, '100자 이하로 입력하세요.').optional(),
});

function listResponse<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int() });
}

/** `field` or `-field` (descending), of the keys a list declares. */
export type SortValue<S extends string> = S | `-${S}`;

export function parseSort<S extends string>(sort: SortValue<S> | undefined): { field: S; desc: boolean } | null {
  if (!sort) return null;
  return sort.startsWith('-') ? { field: sort.slice(1) as S, desc: true } : { field: sort as S, desc: false };
}

/**
 * A list endpoint: GET `path` → { items, total } of `item`, paged, sorted by one of `sort`
 * (its repository maps each key to a column) and filtered by `filters` (kept in the URL).
 */
export function listEndpoint<
  const S extends string,
  I extends z.ZodType,
  F extends z.ZodRawShape = Record<never, never>,
  P extends z.ZodType | undefined = undefined,
  X extends z.ZodRawShape = Record<never, never>,
>(o: {
  path: string;
  item: I;
  sort: readonly S[];
  filters?: F;
  params?: P;
  /** More the answer carries beside items and total (e.g. the period a list's figures cover). */
  extra?: X;
}) {
  const values = o.sort.flatMap((s) => [s, `-${s}`]) as [SortValue<S>, ...Array<SortValue<S>>];
  const query = listQuery.extend({ sort: z.enum(values, '정렬할 수 없는 항목입니다.').optional(), ...(o.filters ?? ({} as F)) });
  const response = listResponse(o.item).extend(o.extra ?? ({} as X));
  return { ...endpoint({ method: 'GET', path: o.path, params: o.params, query, response }), sortKeys: o.sort };
}

/** A list endpoint as the table that shows it needs it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any params and query: the table passes them through
export type ListEndpoint<T = unknown> = Endpoint<any, any, undefined, z.ZodType<{ items: T[]; total: number }>> & { readonly sortKeys: readonly string[] };

/** Query-string booleans: "true"/"1" → true, "false"/"0" → false. */
export const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const idParam = z.object({ id: z.coerce.number().int().positive() });
export const shopParam = z.object({ shopId: z.coerce.number().int().positive() });
export const shopItemParams = z.object({ shopId: z.coerce.number().int().positive(), id: z.coerce.number().int().positive() });
