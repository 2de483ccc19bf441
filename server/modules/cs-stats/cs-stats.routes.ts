import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { csStatsService } from './cs-stats.service.ts';
import { csStatsApi } from '../../../contracts/cs-stats.ts';

export async function csStatsRoutes(app: FastifyInstance): Promise<void> {
  const service = csStatsService(app.db, app.clock);
  defineRoute(app, csStatsApi.shop, { access: { screen: 'cs-stats', action: 'read', shop: true }, handler: (c) => service.shop(c.shopId, c.query, c.actor) });
  defineRoute(app, csStatsApi.sla, { access: { screen: 'cs-stats', action: 'read', shop: true }, handler: (c) => service.sla(c.shopId, c.query, c.actor) });
  defineRoute(app, csStatsApi.admin, {
    access: { screen: 'admin-cs-stats', action: 'read' },
    handler: (c) => service.admin(c.query, c.actor, c.auth.account.area),
  });
}
