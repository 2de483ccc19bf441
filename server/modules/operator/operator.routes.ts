import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { operatorService } from './operator.service.ts';
import { operatorApi } from '../../../contracts/operator.ts';

export async function operatorRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = operatorService(app.db, app.clock, () => links.pagesStale());
  defineRoute(app, operatorApi.get, { access: { screen: 'client-setting', action: 'read' }, handler: (c) => service.get(c.actor) });
  defineRoute(app, operatorApi.update, { access: { screen: 'client-setting', action: 'write' }, handler: (c) => service.save(c.body, c.actor) });
}
