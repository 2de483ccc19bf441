import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { actorOf } from '../../lib/audit.ts';
import { accountsService } from './accounts.service.ts';
import { idParam, listResponse } from '../../../contracts/list.ts';
import { account, accountCreate, accountListQuery, accountUpdate, resetPasswordBody } from '../../../contracts/accounts.ts';

export async function accountsRoutes(app: FastifyInstance): Promise<void> {
  const service = accountsService(app.db, app.clock);
  const read = { screen: 'account-setting', action: 'read' } as const;
  const write = { screen: 'account-setting', action: 'write' } as const;

  defineRoute(app, {
    method: 'GET', url: '/api/accounts', access: read,
    query: accountListQuery, response: listResponse(account),
    handler: ({ query }) => service.list(query),
  });
  defineRoute(app, {
    method: 'GET', url: '/api/accounts/:id', access: read,
    params: idParam, response: account,
    handler: ({ params }) => service.get(params.id),
  });
  defineRoute(app, {
    method: 'POST', url: '/api/accounts', access: write, status: 201,
    body: accountCreate, response: account,
    handler: (ctx) => service.create(ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'PUT', url: '/api/accounts/:id', access: write,
    params: idParam, body: accountUpdate, response: account,
    handler: (ctx) => service.update(ctx.params.id, ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'POST', url: '/api/accounts/:id/reset-password', access: write,
    params: idParam, body: resetPasswordBody, response: account,
    handler: (ctx) => service.resetPassword(ctx.params.id, ctx.body.password, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'POST', url: '/api/accounts/:id/unlock', access: write,
    params: idParam, response: account,
    handler: (ctx) => service.unlock(ctx.params.id, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'POST', url: '/api/accounts/:id/lock', access: write,
    params: idParam, response: account,
    handler: (ctx) => service.lock(ctx.params.id, actorOf(ctx)),
  });
}
