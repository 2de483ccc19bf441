import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { eventStreams } from '../../plugins/event-stream.ts';
import { dashboardService } from './dashboard.service.ts';
import { DASHBOARD_STREAM_EVENT, dashboardApi, type DashboardStreamEvent } from '../../../contracts/dashboard.ts';
import { allows } from '../../../contracts/permissions.ts';
import { forbidden } from '../../lib/errors.ts';

export async function dashboardRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = dashboardService(app.db, app.clock, links);
  const streams = eventStreams(app);
  const read = { screen: 'dashboard', action: 'read' } as const;
  defineRoute(app, dashboardApi.get, {
    access: read,
    handler: (c) => {
      // The money, delivery and reservations are sent only to those who may open the screens they come from (every shop's, in the admin area).
      const { permissions } = c.auth.account;
      return service.get({
        contracts: allows(permissions, 'contract-status', 'read'), ads: allows(permissions, 'advertising-status', 'read'),
        delivery: allows(permissions, 'shop-data-deliver-history', 'read'), reservations: allows(permissions, 'system-reservation', 'read'),
      });
    },
  });
  // How each client shop keeps its promise is the agency's view of them all: never a client account's, whatever its matrix says.
  defineRoute(app, dashboardApi.slaRanking, {
    access: read,
    handler: (c) => {
      if (c.actor.side !== 'agency') throw forbidden('대행사 전용 기능입니다. 고객사 계정에는 열리지 않습니다.');
      return service.slaRanking();
    },
  });
  // The dashboard refreshes as leads arrive in any shop; the stream names shops and counts only.
  defineRoute(app, dashboardApi.stream, {
    access: read,
    handler(c) {
      const stream = streams.open(c.req, c.reply);
      const stop = links.watchAllLeads((change) => {
        const event: DashboardStreamEvent = { kind: change.kind, shopId: change.shopId, count: change.leads.length };
        stream.send(DASHBOARD_STREAM_EVENT, event);
      });
      stream.onEnd(stop);
    },
  });
}
