import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { defineCrudRoutes } from '../../plugins/crud.ts';
import { shopsService } from './shops.service.ts';
import { shopsApi } from '../../../contracts/shops.ts';
import type { ModuleLinks } from '../../links.ts';

export async function shopsRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = shopsService(app.db, app.clock, () => links.pagesStale());
  defineCrudRoutes(app, shopsApi, { screen: 'client-setting', service });
  defineRoute(app, shopsApi.baseInformation, { access: { screen: 'base-information', action: 'read', shop: true }, handler: (c) => service.get(c.shopId) });
  defineRoute(app, shopsApi.updateBaseInformation, {
    access: { screen: 'base-information', action: 'write', shop: true },
    handler: (c) => service.updateDetails(c.shopId, c.body, c.actor),
  });
}
