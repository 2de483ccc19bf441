import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { deliveryChannelsApi as api } from '../../../contracts/delivery-channels.ts';
import { deliveryChannelsService } from './delivery-channels.service.ts';
import { sendTest } from './sending.ts';

const SCREEN = 'database-delivery-settings';
const read = { screen: SCREEN, action: 'read', shop: true } as const;
const write = { screen: SCREEN, action: 'write', shop: true } as const;

export async function deliveryChannelsRoutes(app: FastifyInstance): Promise<void> {
  const service = deliveryChannelsService(app.db, app.clock, {
    sendTest: (channelId, now) => sendTest(app.db, channelId, now, { deps: { smtpUrl: app.config.smtpUrl, mailFrom: app.config.mailFrom, outbound: app.outbound } }),
    urlProblem: (url) => app.outbound.urlProblem(url),
    smtpUrl: app.config.smtpUrl,
    mailFrom: app.config.mailFrom,
  });

  defineRoute(app, api.list, { access: read, handler: ({ shopId, query }) => service.list(shopId, query) });
  defineRoute(app, api.smtpStatus, { access: read, handler: () => service.smtpStatus() });
  defineRoute(app, api.landings, { access: read, handler: ({ shopId }) => service.landings(shopId) });
  defineRoute(app, api.get, { access: read, handler: ({ shopId, params }) => service.get(shopId, params.id) });
  defineRoute(app, api.create, { access: write, handler: ({ shopId, body, actor }) => service.create(shopId, body, actor) });
  defineRoute(app, api.update, { access: write, handler: ({ shopId, params, body, actor }) => service.update(shopId, params.id, body, actor) });
  defineRoute(app, api.remove, { access: write, handler: ({ shopId, params, actor }) => service.remove(shopId, params.id, actor) });
  defineRoute(app, api.setEnabled, {
    access: write, handler: ({ shopId, params, body, actor }) => service.setEnabled(shopId, params.id, body.enabled, actor),
  });
  defineRoute(app, api.rotateSecret, { access: write, handler: ({ shopId, params, actor }) => service.rotateSecret(shopId, params.id, actor) });
  // A test send reaches out to the receiver: a few a minute is plenty for a person at the button.
  defineRoute(app, api.test, {
    access: write, rateLimit: { max: 20, timeWindow: '1 minute' },
    handler: ({ shopId, params, actor }) => service.test(shopId, params.id, actor),
  });
}
