import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { defineCrudRoutes } from '../../plugins/crud.ts';
import { actorOf } from '../../lib/audit.ts';
import { accountTypesService } from './account-types.service.ts';
import { idParam } from '../../../contracts/list.ts';
import {
  accountType, accountTypeInput, accountTypeListQuery, accountTypeOptionsResponse, permissionListResponse, permissionUpdate,
} from '../../../contracts/account-types.ts';

export async function accountTypesRoutes(app: FastifyInstance): Promise<void> {
  const service = accountTypesService(app.db, app.clock);
  const screen = 'account-type-setting';

  // For the type select and filter of the screens that assign types.
  defineRoute(app, {
    method: 'GET', url: '/api/account-types/options',
    access: { screen: ['account-setting', 'account-type-setting', 'permission-setting', 'shop-permission-setting'], action: 'read' },
    response: accountTypeOptionsResponse,
    handler: () => service.options(),
  });
  defineCrudRoutes(app, {
    base: '/api/account-types', screen, remove: true,
    query: accountTypeListQuery, item: accountType, create: accountTypeInput, service,
  });

  defineRoute(app, {
    method: 'GET', url: '/api/permissions', access: { screen: 'permission-setting', action: 'read' },
    response: permissionListResponse,
    handler: () => service.all(),
  });
  defineRoute(app, {
    method: 'PUT', url: '/api/permissions/:id', access: { screen: 'permission-setting', action: 'write' },
    params: idParam, body: permissionUpdate, response: accountType,
    handler: (ctx) => service.updatePermissions(ctx.params.id, ctx.body, actorOf(ctx)),
  });
}
