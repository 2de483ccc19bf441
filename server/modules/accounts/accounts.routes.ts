import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { defineCrudRoutes } from '../../plugins/crud.ts';
import { actorOf } from '../../lib/audit.ts';
import { accountsService } from './accounts.service.ts';
import { idParam } from '../../../contracts/list.ts';
import { account, accountCreate, accountListQuery, accountUpdate, resetPasswordBody } from '../../../contracts/accounts.ts';

export async function accountsRoutes(app: FastifyInstance): Promise<void> {
  const service = accountsService(app.db, app.clock);
  const write = { screen: 'account-setting', action: 'write' } as const;

  // No DELETE: accounts are disabled, so their history keeps its names.
  defineCrudRoutes(app, {
    base: '/api/accounts', screen: 'account-setting',
    query: accountListQuery, item: account, create: accountCreate, update: accountUpdate, service,
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
