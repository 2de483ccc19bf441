import type { FastifyInstance } from 'fastify';
import { defineCrudRoutes } from '../../plugins/crud.ts';
import { denyRulesService } from './deny-rules.service.ts';
import { denyRulesApi } from '../../../contracts/deny-rules.ts';

export async function denyRulesRoutes(app: FastifyInstance): Promise<void> {
  defineCrudRoutes(app, denyRulesApi, { screen: 'access-deny-setting', service: denyRulesService(app.db, app.clock) });
}
