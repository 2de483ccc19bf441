import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { actorOf } from '../../lib/audit.ts';
import { shopsService } from './shops.service.ts';
import { idParam, listResponse, shopParam } from '../../../contracts/list.ts';
import { shop, shopDetails, shopInput, shopListQuery } from '../../../contracts/shops.ts';

export async function shopsRoutes(app: FastifyInstance): Promise<void> {
  const service = shopsService(app.db, app.clock);
  const read = { screen: 'client-setting', action: 'read' } as const;
  const write = { screen: 'client-setting', action: 'write' } as const;

  defineRoute(app, {
    method: 'GET', url: '/api/shops', access: read,
    query: shopListQuery, response: listResponse(shop),
    handler: ({ query }) => service.list(query),
  });
  defineRoute(app, {
    method: 'GET', url: '/api/shops/:id', access: read,
    params: idParam, response: shop,
    handler: ({ params }) => service.get(params.id),
  });
  defineRoute(app, {
    method: 'POST', url: '/api/shops', access: write, status: 201,
    body: shopInput, response: shop,
    handler: (ctx) => service.create(ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'PUT', url: '/api/shops/:id', access: write,
    params: idParam, body: shopInput, response: shop,
    handler: (ctx) => service.update(ctx.params.id, ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'DELETE', url: '/api/shops/:id', access: write,
    params: idParam, response: null,
    handler: (ctx) => service.remove(ctx.params.id, actorOf(ctx)),
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
