import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { dashboardService } from './dashboard.service.ts';
import { dashboardResponse } from '../../../contracts/dashboard.ts';

export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  const service = dashboardService(app.db, app.dialect, app.clock);
  defineRoute(app, {
    method: 'GET', url: '/api/dashboard', access: { screen: 'dashboard', action: 'read' },
    response: dashboardResponse,
    handler: () => service.get(),
  });
}
