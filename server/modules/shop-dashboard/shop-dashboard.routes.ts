import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { shopDashboardService } from './shop-dashboard.service.ts';
import { shopDashboardApi } from '../../../contracts/shop-dashboard.ts';
import { allows } from '../../../contracts/permissions.ts';

export async function shopDashboardRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = shopDashboardService(app.db, app.clock, links);
  const read = { screen: 'shop-dashboard', action: 'read', shop: true } as const;
  defineRoute(app, shopDashboardApi.sla, { access: read, handler: (c) => service.sla(c.shopId, c.actor) });
  defineRoute(app, shopDashboardApi.get, {
    access: read,
    handler: (c) => {
      // The money and the delivery figures are sent only to those who may open the screens they come from.
      const { permissions } = c.auth.account;
      return service.get(c.shopId, c.actor, {
        contracts: allows(permissions, 'contract-status', 'read'), ads: allows(permissions, 'advertising-status', 'read'),
        delivery: allows(permissions, 'shop-data-deliver-history', 'read'),
      });
    },
  });
}
