import type { FastifyInstance } from 'fastify';
import { defineCrudRoutes } from '../../plugins/crud.ts';
import { denyRulesService } from './deny-rules.service.ts';
import { denyRule, denyRuleInput, denyRuleListQuery } from '../../../contracts/deny-rules.ts';

export async function denyRulesRoutes(app: FastifyInstance): Promise<void> {
  defineCrudRoutes(app, {
    base: '/api/deny-rules', screen: 'access-deny-setting', remove: true,
    query: denyRuleListQuery, item: denyRule, create: denyRuleInput,
    service: denyRulesService(app.db, app.clock),
  });
}
