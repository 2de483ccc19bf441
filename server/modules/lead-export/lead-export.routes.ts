import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { leadExportService } from './lead-export.service.ts';
import { leadExportApi } from '../../../contracts/lead-export.ts';

export async function leadExportRoutes(app: FastifyInstance): Promise<void> {
  const service = leadExportService(app.db, app.clock);
  // Reading DB 현황 and, in the service, the account type's export right.
  defineRoute(app, leadExportApi.export, {
    access: { screen: 'database-status', action: 'read', shop: true },
    handler: (c) => service.export(c.shopId, c.body, c.actor),
  });
}
