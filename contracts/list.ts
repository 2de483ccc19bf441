// One list contract for every table screen: page, pageSize, sort, filters → { items, total }.
import { z } from './zod.ts';

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  /** `field` or `-field` (descending). */
  sort: z.string().regex(/^-?[a-zA-Z]+$/).optional(),
  q: z.string().trim().max(100).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export function listResponse<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int() });
}

export interface ListResult<T> {
  items: T[];
  total: number;
}

export function parseSort(sort: string | undefined): { field: string; desc: boolean } | null {
  if (!sort) return null;
  return sort.startsWith('-') ? { field: sort.slice(1), desc: true } : { field: sort, desc: false };
}

/** Query-string booleans: "true"/"1" → true, "false"/"0" → false. */
export const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const idParam = z.object({ id: z.coerce.number().int().positive() });
export const shopParam = z.object({ shopId: z.coerce.number().int().positive() });
