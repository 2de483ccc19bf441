import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { actorOf } from '../../lib/audit.ts';
import { shopPermissionsService } from './shop-permissions.service.ts';
import { listResponse } from '../../../contracts/list.ts';
import {
  accountParam, shopOptionsResponse, shopPermissionListQuery, shopPermissionRow, shopPermissionUpdate,
} from '../../../contracts/shop-permissions.ts';

export async function shopPermissionsRoutes(app: FastifyInstance): Promise<void> {
  const service = shopPermissionsService(app.db, app.clock);
  const read = { screen: 'shop-permission-setting', action: 'read' } as const;

  defineRoute(app, {
    method: 'GET', url: '/api/shop-permissions', access: read,
    query: shopPermissionListQuery, response: listResponse(shopPermissionRow),
    handler: ({ query }) => service.list(query),
  });
  // Every shop, for the pickers here and on the account form (the client-setting list needs another screen's right).
  defineRoute(app, {
    method: 'GET', url: '/api/shop-permissions/shops', access: { screen: ['shop-permission-setting', 'account-setting'], action: 'read' },
    response: shopOptionsResponse,
    handler: () => service.shops(),
  });
  defineRoute(app, {
    method: 'PUT', url: '/api/shop-permissions/:accountId', access: { screen: 'shop-permission-setting', action: 'write' },
    params: accountParam, body: shopPermissionUpdate, response: shopPermissionRow,
    handler: (ctx) => service.update(ctx.params.accountId, ctx.body.shopIds, actorOf(ctx)),
  });
}
