import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { actorOf } from '../../lib/audit.ts';
import { operatorService } from './operator.service.ts';
import { operatorInput, operatorResponse } from '../../../contracts/operator.ts';

export async function operatorRoutes(app: FastifyInstance): Promise<void> {
  const service = operatorService(app.db, app.clock, () => app.landingPages.revalidate());
  defineRoute(app, {
    method: 'GET', url: '/api/operator', access: { screen: 'client-setting', action: 'read' },
    response: operatorResponse,
    handler: (ctx) => service.get(actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'PUT', url: '/api/operator', access: { screen: 'client-setting', action: 'write' },
    body: operatorInput, response: operatorResponse,
    handler: (ctx) => service.save(ctx.body, actorOf(ctx)),
  });
}
