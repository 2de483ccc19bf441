import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { shopContractsService } from './shop-contracts.service.ts';
import { returnsService } from './returns.ts';
import { shopContractsApi as api } from '../../../contracts/shop-contracts.ts';

/**
 * 계약 현황 reads the figures, the leads behind them and the settlement; 계약 관리 reads and
 * writes contracts and decides returns. Requesting a return needs only 계약 관리 read: the
 * shop's own people (who have read) are the ones returning, and agency staff may do it for them.
 */
export async function shopContractsRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = shopContractsService(app.db, app.clock, links);
  // A decided return changes a lead's past day: this process's kept figures forget it before the feed's echo arrives.
  const returns = returnsService(app.db, app.clock, {
    ...links,
    leadsChanged: (change) => {
      service.leadsChanged(change.shopId);
      links.leadsChanged(change);
    },
  });
  const status = { screen: 'contract-status', action: 'read', shop: true } as const;
  const read = { screen: 'contract-management', action: 'read', shop: true } as const;
  const write = { screen: 'contract-management', action: 'write', shop: true } as const;

  defineRoute(app, api.list, { access: { ...read, screen: ['contract-management', 'contract-status'] }, handler: (c) => service.list(c.shopId, c.query) });
  defineRoute(app, api.get, { access: { ...read, screen: ['contract-management', 'contract-status'] }, handler: (c) => service.get(c.shopId, c.params.id) });
  defineRoute(app, api.create, { access: write, handler: (c) => service.create(c.shopId, c.body, c.actor) });
  defineRoute(app, api.update, { access: write, handler: (c) => service.update(c.shopId, c.params.id, c.body, c.actor) });
  defineRoute(app, api.stop, { access: write, handler: (c) => service.stop(c.shopId, c.params.id, c.body, c.actor) });
  defineRoute(app, api.resume, { access: write, handler: (c) => service.resume(c.shopId, c.params.id, c.actor) });
  defineRoute(app, api.remove, { access: write, handler: (c) => service.remove(c.shopId, c.params.id, c.actor) });

  defineRoute(app, api.status, { access: status, handler: (c) => service.status(c.shopId, c.query.contractId) });
  defineRoute(app, api.leads, { access: status, handler: (c) => service.leads(c.shopId, c.params.id, c.query, c.actor) });
  defineRoute(app, api.settlement, { access: status, handler: (c) => service.settlement(c.shopId, c.params.id, c.query) });
  defineRoute(app, api.settlementXlsx, { access: status, handler: (c) => service.settlementXlsx(c.shopId, c.params.id, c.query) });

  defineRoute(app, api.returns, { access: read, handler: (c) => returns.list(c.shopId, c.query, c.actor) });
  defineRoute(app, api.returnable, { access: read, handler: (c) => returns.returnable(c.shopId, c.params.leadId) });
  defineRoute(app, api.requestReturn, { access: read, handler: (c) => returns.request(c.shopId, c.params.leadId, c.body, c.actor) });
  defineRoute(app, api.decideReturn, { access: write, handler: (c) => returns.decide(c.shopId, c.params.id, c.body, c.actor) });
}
