import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { privacyPoliciesService } from './privacy-policies.service.ts';
import { privacyPoliciesApi as api } from '../../../contracts/privacy.ts';

export async function privacyPoliciesRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = privacyPoliciesService(app.db, app.clock, links.landingsChanged);
  const read = { screen: 'privacy-management', action: 'read', shop: true } as const;
  const write = { screen: 'privacy-management', action: 'write', shop: true } as const;

  defineRoute(app, api.list, { access: read, handler: (c) => service.list(c.shopId, c.query) });
  defineRoute(app, api.options, { access: { screen: ['landing-status', 'privacy-management'], action: 'read', shop: true }, handler: (c) => service.options(c.shopId) });
  defineRoute(app, api.get, { access: read, handler: (c) => service.get(c.shopId, c.params.id) });
  defineRoute(app, api.create, { access: write, handler: (c) => service.create(c.shopId, c.body, c.actor) });
  defineRoute(app, api.update, { access: write, handler: (c) => service.update(c.shopId, c.params.id, c.body, c.actor) });
  defineRoute(app, api.remove, { access: write, handler: (c) => service.remove(c.shopId, c.params.id, c.actor) });
  defineRoute(app, api.publish, { access: write, handler: (c) => service.publish(c.shopId, c.params.id, c.actor) });
}
