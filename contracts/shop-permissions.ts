import { z } from './zod.ts';

export const shopPermissionRow = z.object({
  accountId: z.number(),
  loginId: z.string(),
  name: z.string(),
  accountTypeName: z.string(),
  area: z.enum(['admin', 'shop']),
  shopIds: z.array(z.number()),
});
export type ShopPermissionRow = z.infer<typeof shopPermissionRow>;

export const shopPermissionUpdate = z.object({ shopIds: z.array(z.number().int().positive()).max(10000) });
