import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { systemReservationsService } from './system-reservations.service.ts';
import { systemReservationsApi as api } from '../../../contracts/system-reservations.ts';
import { allows, sideAllows } from '../../../contracts/permissions.ts';

export async function systemReservationsRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = systemReservationsService(app.db, app.clock, { setLandingStatus: links.setLandingStatus, stopExperiment: links.stopExperiment });
  const read = { screen: 'system-reservation', action: 'read' } as const;
  const write = { screen: 'system-reservation', action: 'write' } as const;

  defineRoute(app, api.list, { access: read, handler: (c) => service.list(c.query) });
  defineRoute(app, api.options, { access: write, handler: () => service.options() });
  defineRoute(app, api.create, { access: write, handler: (c) => service.create(c.body, c.actor) });
  defineRoute(app, api.update, { access: write, handler: (c) => service.update(c.params.id, c.body, c.actor) });
  defineRoute(app, api.cancel, { access: write, handler: (c) => service.cancel(c.params.id, c.body.reason, c.actor) });
  // Every logged-in account: the banner in both areas (and open during maintenance, see plugins/maintenance.ts).
  defineRoute(app, api.notices, { access: { authenticated: true }, handler: (c) => {
    const { side, permissions } = c.auth.account;
    // The screens the reader may open, as the route check decides them (plugins/auth.ts).
    return service.notices(c.actor, (screen) => sideAllows(side, screen, 'read') && allows(permissions, screen, 'read'));
  } });
}
