import { z } from './zod.ts';
import { listEndpoint } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';

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

export const accountParam = z.object({ accountId: z.coerce.number().int().positive() });

/** Every shop, for the picker on the shop-permission screen. */
export const shopOption = z.object({ id: z.number(), shopCode: z.string(), name: z.string(), status: z.string() });
export const shopOptionsResponse = z.object({ items: z.array(shopOption) });

export const shopPermissionsApi = {
  list: listEndpoint({
    path: '/api/shop-permissions', item: shopPermissionRow, sort: ['loginId', 'name', 'accountTypeName'],
    filters: { area: z.enum(['admin', 'shop']).optional() },
  }),
  /** Every shop, for the pickers here and on the account form (the client-setting list needs another screen's right). */
  shops: endpoint({ method: 'GET', path: '/api/shop-permissions/shops', response: shopOptionsResponse }),
  update: endpoint({ method: 'PUT', path: '/api/shop-permissions/:accountId', params: accountParam, body: shopPermissionUpdate, response: shopPermissionRow }),
};
export type ShopPermissionListQuery = QueryOf<typeof shopPermissionsApi.list>;
