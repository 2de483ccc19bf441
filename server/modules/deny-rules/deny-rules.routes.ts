import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { actorOf } from '../../lib/audit.ts';
import { denyRulesService } from './deny-rules.service.ts';
import { idParam, listResponse } from '../../../contracts/list.ts';
import { denyRule, denyRuleInput, denyRuleListQuery } from '../../../contracts/deny-rules.ts';

export async function denyRulesRoutes(app: FastifyInstance): Promise<void> {
  const service = denyRulesService(app.db, app.clock);
  const read = { screen: 'access-deny-setting', action: 'read' } as const;
  const write = { screen: 'access-deny-setting', action: 'write' } as const;

  defineRoute(app, {
    method: 'GET', url: '/api/deny-rules', access: read,
    query: denyRuleListQuery, response: listResponse(denyRule),
    handler: ({ query }) => service.list(query),
  });
  defineRoute(app, {
    method: 'GET', url: '/api/deny-rules/:id', access: read,
    params: idParam, response: denyRule,
    handler: ({ params }) => service.get(params.id),
  });
  defineRoute(app, {
    method: 'POST', url: '/api/deny-rules', access: write, status: 201,
    body: denyRuleInput, response: denyRule,
    handler: (ctx) => service.create(ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'PUT', url: '/api/deny-rules/:id', access: write,
    params: idParam, body: denyRuleInput, response: denyRule,
    handler: (ctx) => service.update(ctx.params.id, ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'DELETE', url: '/api/deny-rules/:id', access: write,
    params: idParam, response: null,
    handler: (ctx) => service.remove(ctx.params.id, actorOf(ctx)),
  });
}
