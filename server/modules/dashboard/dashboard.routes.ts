import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { eventStreams } from '../../plugins/event-stream.ts';
import { dashboardService } from './dashboard.service.ts';
import { DASHBOARD_STREAM_EVENT, dashboardApi, type DashboardStreamEvent } from '../../../contracts/dashboard.ts';

export async function dashboardRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = dashboardService(app.db, app.clock);
  const streams = eventStreams(app);
  const read = { screen: 'dashboard', action: 'read' } as const;
  defineRoute(app, dashboardApi.get, { access: read, handler: () => service.get() });
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
