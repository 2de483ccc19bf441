import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { actorOf } from '../../lib/audit.ts';
import { privacyPoliciesService } from './privacy-policies.service.ts';
import { shopParam } from '../../../contracts/list.ts';
import { policyOptionsResponse, policyParams, privacyPolicy, privacyPolicyInput, privacyPolicyListResponse } from '../../../contracts/privacy.ts';

export async function privacyPoliciesRoutes(app: FastifyInstance): Promise<void> {
  const service = privacyPoliciesService(app.db, app.clock, (ids) => app.landingPages.changed(ids));
  const read = { screen: 'privacy-management', action: 'read', shop: true } as const;
  const write = { screen: 'privacy-management', action: 'write', shop: true } as const;
  const base = '/api/shops/:shopId/privacy-policies';

  defineRoute(app, {
    method: 'GET', url: base, access: read,
    params: shopParam, response: privacyPolicyListResponse,
    handler: ({ shopId }) => service.list(shopId),
  });
  // Published versions for the landing editor's policy select.
  defineRoute(app, {
    method: 'GET', url: `${base}/options`, access: { screen: ['landing-status', 'privacy-management'], action: 'read', shop: true },
    params: shopParam,
    response: policyOptionsResponse,
    handler: ({ shopId }) => service.options(shopId),
  });
  defineRoute(app, {
    method: 'GET', url: `${base}/:id`, access: read,
    params: policyParams, response: privacyPolicy,
    handler: ({ shopId, params }) => service.get(shopId, params.id),
  });
  defineRoute(app, {
    method: 'POST', url: base, access: write, status: 201,
    params: shopParam, body: privacyPolicyInput, response: privacyPolicy,
    handler: (ctx) => service.create(ctx.shopId, ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'PUT', url: `${base}/:id`, access: write,
    params: policyParams, body: privacyPolicyInput, response: privacyPolicy,
    handler: (ctx) => service.update(ctx.shopId, ctx.params.id, ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'DELETE', url: `${base}/:id`, access: write,
    params: policyParams, response: null,
    handler: (ctx) => service.remove(ctx.shopId, ctx.params.id, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'POST', url: `${base}/:id/publish`, access: write,
    params: policyParams, response: privacyPolicy,
    handler: (ctx) => service.publish(ctx.shopId, ctx.params.id, actorOf(ctx)),
  });
}
