import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { shopDashboardService } from './shop-dashboard.service.ts';
import { shopDashboardApi } from '../../../contracts/shop-dashboard.ts';

export async function shopDashboardRoutes(app: FastifyInstance): Promise<void> {
  const service = shopDashboardService(app.db, app.clock);
  defineRoute(app, shopDashboardApi.get, {
    access: { screen: 'shop-dashboard', action: 'read', shop: true },
    handler: (c) => service.get(c.shopId, c.actor),
  });
}
