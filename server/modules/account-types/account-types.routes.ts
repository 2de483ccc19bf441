import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { defineCrudRoutes } from '../../plugins/crud.ts';
import { accountTypesService } from './account-types.service.ts';
import { accountTypesApi, permissionsApi } from '../../../contracts/account-types.ts';

export async function accountTypesRoutes(app: FastifyInstance): Promise<void> {
  const service = accountTypesService(app.db, app.clock);

  defineRoute(app, accountTypesApi.options, {
    access: { screen: ['account-setting', 'account-type-setting', 'permission-setting', 'shop-permission-setting'], action: 'read' },
    handler: () => service.options(),
  });
  defineCrudRoutes(app, accountTypesApi, { screen: 'account-type-setting', service });
  defineRoute(app, permissionsApi.list, { access: { screen: 'permission-setting', action: 'read' }, handler: () => service.all() });
  defineRoute(app, permissionsApi.update, {
    access: { screen: 'permission-setting', action: 'write' },
    handler: (c) => service.updatePermissions(c.params.id, c.body, c.actor),
  });
}
