import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { leadsService } from './leads.service.ts';
import { leadsApi as api } from '../../../contracts/leads.ts';

/** The screens that work leads, each reading the shop's counselors. */
const COUNSELOR_READERS = ['database-status', 'data-allocation', 'data-allocation-modify', 'database-calendar', 'cs-stats'];

export async function leadsRoutes(app: FastifyInstance): Promise<void> {
  const service = leadsService(app.db, app.clock);
  const read = { screen: 'database-status', action: 'read', shop: true } as const;
  const write = { screen: 'database-status', action: 'write', shop: true } as const;

  defineRoute(app, api.list, { access: read, handler: (c) => service.list(c.shopId, c.query, c.actor) });
  defineRoute(app, api.get, { access: read, handler: (c) => service.get(c.shopId, c.params.id, c.actor) });
  defineRoute(app, api.update, { access: write, handler: (c) => service.update(c.shopId, c.params.id, c.body, c.actor) });
  defineRoute(app, api.bulkStatus, { access: write, handler: (c) => service.bulkStatus(c.shopId, c.body, c.actor) });
  defineRoute(app, api.unmask, { access: read, handler: (c) => service.unmask(c.shopId, c.params.id, c.actor) });
  defineRoute(app, api.counselors, { access: { screen: COUNSELOR_READERS, action: 'read', shop: true }, handler: (c) => service.counselors(c.shopId) });
  defineRoute(app, api.settings, { access: read, handler: (c) => service.settings(c.shopId) });
  defineRoute(app, api.updateSettings, { access: write, handler: (c) => service.updateSettings(c.shopId, c.body, c.actor) });
}
