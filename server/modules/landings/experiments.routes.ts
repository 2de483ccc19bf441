import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { experimentForViewer, experimentsService } from './experiments.service.ts';
import { allows } from '../../../contracts/permissions.ts';
import type { Experiment } from '../../../contracts/experiments.ts';
import { experimentsApi as api } from '../../../contracts/experiments.ts';
import { forbidden } from '../../lib/errors.ts';
import type { Actor } from '../audit/audit.service.ts';

/**
 * Experiments are the agency's tool: a client's account may read the results of its own landings
 * (their visits and conversion are the client's figures on 랜딩 관리 already) but decides nothing,
 * whatever its matrix says.
 */
const agency = (actor: Actor) => {
  if (actor.side !== 'agency') throw forbidden('대행사 전용 기능입니다. 고객사 계정에는 열리지 않습니다.');
  return actor;
};

/** Landing experiments: the agency's staff who may edit the shop's landings (랜딩 관리 write) decide; readers read. */
export async function experimentsRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = experimentsService(app.db, app.clock, { changed: links.landingsChanged, flushVisits: links.flushVisits });
  const read = { screen: 'landing-status', action: 'read', shop: true } as const;
  const write = { screen: 'landing-status', action: 'write', shop: true } as const;

  /** Spend and CPA per variant are the agency's figures: its side, with 광고 현황 read (where the spend is entered). */
  type Ctx = { actor: Actor; auth: { account: { permissions: Parameters<typeof allows>[0] } } };
  const shown = (c: Ctx) => {
    const money = c.actor.side === 'agency' && allows(c.auth.account.permissions, 'advertising-status', 'read');
    return (e: Experiment) => experimentForViewer(e, money);
  };

  defineRoute(app, api.list, { access: read, handler: async (c) => ({ items: (await service.list(c.shopId, c.params.id)).items.map(shown(c)) }) });
  defineRoute(app, api.create, { access: write, handler: async (c) => shown(c)(await service.create(c.shopId, c.params.id, c.body, agency(c.actor))) });
  defineRoute(app, api.update, { access: write, handler: async (c) => shown(c)(await service.update(c.shopId, c.params.id, c.params.experimentId, c.body, agency(c.actor))) });
  defineRoute(app, api.start, { access: write, handler: async (c) => shown(c)(await service.start(c.shopId, c.params.id, c.params.experimentId, agency(c.actor))) });
  defineRoute(app, api.stop, { access: write, handler: async (c) => shown(c)(await service.stop(c.shopId, c.params.id, c.params.experimentId, c.body.promote, agency(c.actor))) });
}
