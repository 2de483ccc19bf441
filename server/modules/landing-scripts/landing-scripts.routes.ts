import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { actorOf } from '../../lib/audit.ts';
import { landingScriptsService } from './landing-scripts.service.ts';
import { z } from '../../../contracts/zod.ts';
import { shopParam } from '../../../contracts/list.ts';
import { landingParams, landingScripts, landingScriptsInput } from '../../../contracts/landings.ts';

export async function landingScriptsRoutes(app: FastifyInstance): Promise<void> {
  const service = landingScriptsService(app.db, app.clock, {
    freeScriptsEnabled: !!app.config.publicOrigin,
    changed: (ids) => app.landingPages.changed(ids),
  });
  const read = { screen: 'landing-script-management', action: 'read', shop: true } as const;
  const write = { screen: 'landing-script-management', action: 'write', shop: true } as const;

  defineRoute(app, {
    method: 'GET', url: '/api/shops/:shopId/landing-scripts', access: read,
    params: shopParam, response: z.object({ items: z.array(landingScripts) }),
    handler: ({ shopId }) => service.list(shopId),
  });
  defineRoute(app, {
    method: 'GET', url: '/api/shops/:shopId/landings/:id/scripts', access: read,
    params: landingParams, response: landingScripts,
    handler: ({ shopId, params }) => service.get(shopId, params.id),
  });
  defineRoute(app, {
    method: 'PUT', url: '/api/shops/:shopId/landings/:id/scripts', access: write,
    params: landingParams, body: landingScriptsInput, response: landingScripts,
    handler: (ctx) => service.update(ctx.shopId, ctx.params.id, ctx.body, actorOf(ctx)),
  });
}
