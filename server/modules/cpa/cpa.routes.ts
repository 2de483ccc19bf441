import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { cpaService } from './cpa.service.ts';
import { cpaApi } from '../../../contracts/cpa.ts';

export async function cpaRoutes(app: FastifyInstance): Promise<void> {
  const service = cpaService(app.db, app.clock);
  const read = { screen: 'cpa-management', action: 'read', shop: true } as const;
  const write = { screen: 'cpa-management', action: 'write', shop: true } as const;
  defineRoute(app, cpaApi.overview, { access: read, handler: (c) => service.overview(c.shopId, c.query) });
  defineRoute(app, cpaApi.targets, { access: read, handler: (c) => service.targets(c.shopId, c.query.month) });
  defineRoute(app, cpaApi.saveTargets, { access: write, handler: (c) => service.saveTargets(c.shopId, c.body, c.actor) });
  defineRoute(app, cpaApi.copyTargets, { access: write, handler: (c) => service.copyTargets(c.shopId, c.body, c.actor) });
}
