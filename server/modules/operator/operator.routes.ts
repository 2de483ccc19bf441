import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { operatorService } from './operator.service.ts';
import { operatorApi } from '../../../contracts/operator.ts';

export async function operatorRoutes(app: FastifyInstance): Promise<void> {
  const service = operatorService(app.db, app.clock, () => app.landingPages.revalidate());
  defineRoute(app, operatorApi.get, { access: { screen: 'client-setting', action: 'read' }, handler: (c) => service.get(c.actor) });
  defineRoute(app, operatorApi.update, { access: { screen: 'client-setting', action: 'write' }, handler: (c) => service.save(c.body, c.actor) });
}
