import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { defineCrudRoutes } from '../../plugins/crud.ts';
import { accountsService } from './accounts.service.ts';
import { accountsApi } from '../../../contracts/accounts.ts';

export async function accountsRoutes(app: FastifyInstance): Promise<void> {
  const service = accountsService(app.db, app.clock);
  const write = { screen: 'account-setting', action: 'write' } as const;

  defineCrudRoutes(app, accountsApi, { screen: 'account-setting', service });
  defineRoute(app, accountsApi.resetPassword, { access: write, handler: (c) => service.resetPassword(c.params.id, c.body.password, c.actor) });
  defineRoute(app, accountsApi.unlock, { access: write, handler: (c) => service.unlock(c.params.id, c.actor) });
  defineRoute(app, accountsApi.lock, { access: write, handler: (c) => service.lock(c.params.id, c.actor) });
}
