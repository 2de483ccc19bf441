import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { landingScriptsService } from './landing-scripts.service.ts';
import { landingScriptsApi as api } from '../../../contracts/landings.ts';

export async function landingScriptsRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = landingScriptsService(app.db, app.clock, {
    freeScriptsEnabled: !!app.config.publicOrigin,
    changed: links.landingsChanged,
  });
  const read = { screen: 'landing-script-management', action: 'read', shop: true } as const;
  const write = { screen: 'landing-script-management', action: 'write', shop: true } as const;

  defineRoute(app, api.list, { access: read, handler: (c) => service.list(c.shopId) });
  defineRoute(app, api.get, { access: read, handler: (c) => service.get(c.shopId, c.params.id) });
  defineRoute(app, api.update, { access: write, handler: (c) => service.update(c.shopId, c.params.id, c.body, c.actor) });
}
