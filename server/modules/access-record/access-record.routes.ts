import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { accessRecordService } from './access-record.service.ts';
import { accessRecordApi as api } from '../../../contracts/access-record.ts';

// No route deletes a lead event or an access event: the record is kept (see the service).
export async function accessRecordRoutes(app: FastifyInstance): Promise<void> {
  const service = accessRecordService(app.db, app.clock);
  const read = { screen: 'database-history', action: 'read', shop: true } as const;
  const write = { screen: 'database-history', action: 'write', shop: true } as const;
  defineRoute(app, api.list, { access: read, handler: (c) => service.list(c.shopId, c.query) });
  defineRoute(app, api.export, { access: read, handler: (c) => service.export(c.shopId, c.query, c.actor) });
  defineRoute(app, api.accounts, { access: read, handler: (c) => service.accounts(c.shopId, c.actor) });
  defineRoute(app, api.review, { access: read, handler: (c) => service.review(c.shopId, c.query) });
  defineRoute(app, api.markReviewed, { access: write, handler: (c) => service.markReviewed(c.shopId, c.body, c.actor) });
}
