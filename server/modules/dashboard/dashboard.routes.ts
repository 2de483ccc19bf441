import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { dashboardService } from './dashboard.service.ts';
import { dashboardApi } from '../../../contracts/dashboard.ts';

export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  const service = dashboardService(app.db, app.clock);
  defineRoute(app, dashboardApi.get, { access: { screen: 'dashboard', action: 'read' }, handler: () => service.get() });
}
