import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { globalSearchService } from './global-search.service.ts';
import { globalSearchApi } from '../../../contracts/global-search.ts';

export async function globalSearchRoutes(app: FastifyInstance): Promise<void> {
  const service = globalSearchService(app.db, app.clock);
  // Not shop-scoped: the service searches the shops the account may enter, whatever the request says.
  defineRoute(app, globalSearchApi.search, {
    access: { screen: 'global-db-search', action: 'read' },
    handler: (c) => service.search(c.query, c.actor, c.auth.account.area),
  });
}
