import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { leadCalendarService } from './lead-calendar.service.ts';
import { leadCalendarApi as api } from '../../../contracts/lead-calendar.ts';

export async function leadCalendarRoutes(app: FastifyInstance): Promise<void> {
  const service = leadCalendarService(app.db, app.clock);
  const read = { screen: 'database-calendar', action: 'read', shop: true } as const;
  defineRoute(app, api.month, { access: read, handler: (c) => service.month(c.shopId, c.query.month, c.actor) });
  defineRoute(app, api.day, { access: read, handler: (c) => service.day(c.shopId, c.params.day, c.actor) });
}
