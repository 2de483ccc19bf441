import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { actorOf } from '../../lib/audit.ts';
import { accountTypesService } from './account-types.service.ts';
import { idParam, listResponse } from '../../../contracts/list.ts';
import {
  accountType, accountTypeInput, accountTypeListQuery, accountTypeOptionsResponse, permissionListResponse, permissionUpdate,
} from '../../../contracts/account-types.ts';

export async function accountTypesRoutes(app: FastifyInstance): Promise<void> {
  const service = accountTypesService(app.db, app.clock);
  const screen = 'account-type-setting';
  const read = { screen, action: 'read' } as const;
  const write = { screen, action: 'write' } as const;

  defineRoute(app, {
    method: 'GET', url: '/api/account-types', access: read,
    query: accountTypeListQuery, response: listResponse(accountType),
    handler: ({ query }) => service.list(query),
  });
  // For the type select and filter of the screens that assign types.
  defineRoute(app, {
    method: 'GET', url: '/api/account-types/options',
    access: { screen: ['account-setting', 'account-type-setting', 'permission-setting', 'shop-permission-setting'], action: 'read' },
    response: accountTypeOptionsResponse,
    handler: () => service.options(),
  });
  defineRoute(app, {
    method: 'GET', url: '/api/account-types/:id', access: read,
    params: idParam, response: accountType,
    handler: ({ params }) => service.get(params.id),
  });
  defineRoute(app, {
    method: 'POST', url: '/api/account-types', access: write, status: 201,
    body: accountTypeInput, response: accountType,
    handler: (ctx) => service.create(ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'PUT', url: '/api/account-types/:id', access: write,
    params: idParam, body: accountTypeInput, response: accountType,
    handler: (ctx) => service.update(ctx.params.id, ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'DELETE', url: '/api/account-types/:id', access: write,
    params: idParam, response: null,
    handler: (ctx) => service.remove(ctx.params.id, actorOf(ctx)),
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
