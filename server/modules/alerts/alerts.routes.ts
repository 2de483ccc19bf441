import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import type { ModuleLinks } from '../../links.ts';
import { alertsApi } from '../../../contracts/alerts.ts';
import { alertsService } from './alerts.service.ts';
import { alertNotifier } from './notifier.ts';
import { vapidSubject } from './vapid.ts';

// Every route is the caller's own account: any signed-in account may choose how it is alerted.
const own = { authenticated: true } as const;

export async function alertsRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = alertsService(app.db, app.clock, app.outbound);
  const notifier = alertNotifier(app.db, app.clock, { outbound: app.outbound, subject: vapidSubject(app.config.mailFrom), text: links.staffText });
  defineRoute(app, alertsApi.settings, { access: own, handler: ({ actor }) => service.settings(actor.id) });
  defineRoute(app, alertsApi.updateSettings, { access: own, handler: ({ actor, body }) => service.updateSettings(actor, body) });
  defineRoute(app, alertsApi.vapidKey, { access: own, handler: () => service.vapidPublicKey() });
  defineRoute(app, alertsApi.subscribe, { access: own, handler: ({ actor, body, req }) => service.subscribe(actor.id, body, req.headers['user-agent'] ?? null) });
  defineRoute(app, alertsApi.unsubscribe, { access: own, handler: ({ actor, query }) => service.unsubscribe(actor.id, query.endpoint) });
  defineRoute(app, alertsApi.test, {
    access: own,
    // Each test reaches push services and perhaps an SMS gateway: a few a minute are plenty.
    rateLimit: { max: 6, timeWindow: 60_000 },
    handler: async ({ actor }) => ({ outcomes: await notifier.test(actor.id) }),
  });
}
