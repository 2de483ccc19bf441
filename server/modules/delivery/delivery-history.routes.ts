import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { deliveryHistoryService } from './delivery-history.service.ts';
import { deliveryApi as api } from '../../../contracts/delivery-history.ts';

export async function deliveryHistoryRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  // Jobs a send or a retry set going are taken by the workers at once, not at their next poll.
  const service = deliveryHistoryService(app.db, app.clock, links);
  const history = { screen: 'shop-data-deliver-history', action: 'read', shop: true } as const;
  defineRoute(app, api.send, { access: { screen: 'shop-data-delivery', action: 'write', shop: true }, handler: (c) => service.send(c.shopId, c.body, c.actor) });
  // The picker (DB 전송) and the history's channel filter.
  defineRoute(app, api.channels, {
    access: { screen: ['shop-data-delivery', 'shop-data-deliver-history'], action: 'read', shop: true },
    handler: (c) => service.channels(c.shopId),
  });
  // The send screen follows its own send; the history may be opened on it.
  defineRoute(app, api.progress, {
    access: { screen: ['shop-data-delivery', 'shop-data-deliver-history'], action: 'read', shop: true },
    handler: (c) => service.progress(c.shopId, c.query.jobIds),
  });
  defineRoute(app, api.summary, { access: history, handler: (c) => service.summary(c.shopId) });
  defineRoute(app, api.history, { access: history, handler: (c) => service.history(c.shopId, c.query, c.actor) });
  defineRoute(app, api.jobs, { access: history, handler: (c) => service.jobs(c.shopId, c.query, c.actor) });
  defineRoute(app, api.retry, {
    access: { screen: 'shop-data-deliver-history', action: 'write', shop: true },
    handler: (c) => service.retry(c.shopId, c.body, c.actor),
  });
}
