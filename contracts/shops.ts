import { z } from './zod.ts';
import { idParam, listEndpoint, shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { SHOP_CODE_RE } from './rules.ts';
import { businessDetails, businessDetailsView, requiredText, rowTimes } from './fields.ts';

export const SHOP_STATUSES = ['active', 'disabled'] as const;
export const SHOP_STATUS_LABELS: Record<(typeof SHOP_STATUSES)[number], string> = { active: '운영', disabled: '사용 중지' };

export const shop = z.object({
  id: z.number(),
  shopCode: z.string(),
  name: z.string(),
  clientTypeId: z.number().nullable(),
  clientTypeName: z.string().nullable(),
  status: z.enum(SHOP_STATUSES),
  ...businessDetailsView,
  leadCount: z.number(),
  ...rowTimes,
});
export type Shop = z.infer<typeof shop>;

/** Business details a shop may also edit itself (base-information). */
export const shopDetails = z.object({
  name: requiredText(60, '업체명을 입력하세요.'),
  ...businessDetails,
});

export type ShopDetails = z.infer<typeof shopDetails>;

export const shopInput = shopDetails.extend({
  shopCode: requiredText(40, '업체 코드를 입력하세요.').regex(SHOP_CODE_RE, '업체 코드는 영문 소문자·숫자·하이픈으로 40자 이내입니다.'),
  clientTypeId: z.number().int().positive().nullable().optional(),
  status: z.enum(SHOP_STATUSES).default('active'),
});
export type ShopInput = z.infer<typeof shopInput>;

export const shopsApi = {
  list: listEndpoint({
    path: '/api/shops', item: shop, sort: ['name', 'shopCode', 'createdAt', 'status'],
    filters: { status: z.enum(SHOP_STATUSES).optional(), clientTypeId: z.coerce.number().int().positive().optional() },
  }),
  get: endpoint({ method: 'GET', path: '/api/shops/:id', params: idParam, response: shop }),
  create: endpoint({ method: 'POST', path: '/api/shops', body: shopInput, response: shop, status: 201 }),
  update: endpoint({ method: 'PUT', path: '/api/shops/:id', params: idParam, body: shopInput, response: shop }),
  remove: endpoint({ method: 'DELETE', path: '/api/shops/:id', params: idParam, response: null }),
  /** The shop's own details, inside the shop area. */
  baseInformation: endpoint({ method: 'GET', path: '/api/shops/:shopId/base-information', params: shopParam, response: shop }),
  updateBaseInformation: endpoint({ method: 'PUT', path: '/api/shops/:shopId/base-information', params: shopParam, body: shopDetails, response: shop }),
};
export type ShopListQuery = QueryOf<typeof shopsApi.list>;
