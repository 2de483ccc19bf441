import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { defineCrudRoutes } from '../../plugins/crud.ts';
import { actorOf } from '../../lib/audit.ts';
import { shopsService } from './shops.service.ts';
import { shopParam } from '../../../contracts/list.ts';
import { shop, shopDetails, shopInput, shopListQuery } from '../../../contracts/shops.ts';

export async function shopsRoutes(app: FastifyInstance): Promise<void> {
  const service = shopsService(app.db, app.clock);

  defineCrudRoutes(app, {
    base: '/api/shops', screen: 'client-setting', remove: true,
    query: shopListQuery, item: shop, create: shopInput, service,
  });

  // The shop's own details, inside the shop area.
  defineRoute(app, {
    method: 'GET', url: '/api/shops/:shopId/base-information', access: { screen: 'base-information', action: 'read', shop: true },
    params: shopParam, response: shop,
    handler: ({ shopId }) => service.get(shopId),
  });
  defineRoute(app, {
    method: 'PUT', url: '/api/shops/:shopId/base-information', access: { screen: 'base-information', action: 'write', shop: true },
    params: shopParam, body: shopDetails, response: shop,
    handler: (ctx) => service.updateDetails(ctx.shopId, ctx.body, actorOf(ctx)),
  });
}
