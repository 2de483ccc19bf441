import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { deletionService } from './deletion.ts';
import { leadDeletionApi as api } from '../../../contracts/lead-deletion.ts';

/** DB 삭제 deletes; 삭제 DB 관리 lists, restores, destroys, keeps the log and the grace period. */
export async function leadDeletionRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = deletionService(app.db, app.clock, links.leadsChanged);
  const read = { screen: 'deleted-data-management', action: 'read', shop: true } as const;
  const write = { screen: 'deleted-data-management', action: 'write', shop: true } as const;

  defineRoute(app, api.remove, { access: { screen: 'data-deletion', action: 'write', shop: true }, handler: (c) => service.remove(c.shopId, c.body, c.actor) });
  defineRoute(app, api.deleted, { access: read, handler: (c) => service.deleted(c.shopId, c.query) });
  defineRoute(app, api.deleters, { access: read, handler: (c) => service.deleters(c.shopId) });
  defineRoute(app, api.restore, { access: write, handler: (c) => service.restore(c.shopId, c.body, c.actor) });
  defineRoute(app, api.purge, { access: write, handler: (c) => service.purge(c.shopId, c.body, c.actor) });
  defineRoute(app, api.destructions, { access: read, handler: (c) => service.destructions(c.shopId, c.query) });
  defineRoute(app, api.upcoming, { access: read, handler: (c) => service.upcoming(c.shopId) });
  defineRoute(app, api.settings, { access: read, handler: (c) => service.settings(c.shopId) });
  defineRoute(app, api.updateSettings, { access: write, handler: (c) => service.updateSettings(c.shopId, c.body, c.actor) });
}
