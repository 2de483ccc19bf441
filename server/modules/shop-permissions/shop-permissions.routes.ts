import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { shopPermissionsService } from './shop-permissions.service.ts';
import { shopPermissionsApi } from '../../../contracts/shop-permissions.ts';

export async function shopPermissionsRoutes(app: FastifyInstance): Promise<void> {
  const service = shopPermissionsService(app.db, app.clock);
  const read = { screen: 'shop-permission-setting', action: 'read' } as const;
  defineRoute(app, shopPermissionsApi.list, { access: read, handler: ({ query }) => service.list(query) });
  defineRoute(app, shopPermissionsApi.shops, { access: { screen: ['shop-permission-setting', 'account-setting'], action: 'read' }, handler: () => service.shops() });
  defineRoute(app, shopPermissionsApi.update, {
    access: { screen: 'shop-permission-setting', action: 'write' },
    handler: (c) => service.update(c.params.accountId, c.body.shopIds, c.actor),
  });
}
