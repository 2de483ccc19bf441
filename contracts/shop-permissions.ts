import { z } from './zod.ts';
import { listQuery } from './list.ts';

export const shopPermissionRow = z.object({
  accountId: z.number(),
  loginId: z.string(),
  name: z.string(),
  accountTypeName: z.string(),
  area: z.enum(['admin', 'shop']),
  shopIds: z.array(z.number()),
});
export type ShopPermissionRow = z.infer<typeof shopPermissionRow>;

export const shopPermissionUpdate = z.object({ shopIds: z.array(z.number().int().positive(), '업체를 선택하세요.').max(10000) });

export const shopPermissionListQuery = listQuery.extend({ area: z.enum(['admin', 'shop']).optional() });
export const accountParam = z.object({ accountId: z.coerce.number().int().positive() });

/** Every shop, for the picker on the shop-permission screen. */
export const shopOption = z.object({ id: z.number(), shopCode: z.string(), name: z.string(), status: z.string() });
export const shopOptionsResponse = z.object({ items: z.array(shopOption) });
