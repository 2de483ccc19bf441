// Every resource module's routes, registered in order by build().
import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth/auth.routes.ts';
import { codeItemsRoutes } from './code-items/code-items.routes.ts';
import { accountTypesRoutes } from './account-types/account-types.routes.ts';
import { accountsRoutes } from './accounts/accounts.routes.ts';
import { shopsRoutes } from './shops/shops.routes.ts';
import { shopPermissionsRoutes } from './shop-permissions/shop-permissions.routes.ts';
import { denyRulesRoutes } from './deny-rules/deny-rules.routes.ts';

export const MODULES: Array<(app: FastifyInstance) => Promise<void>> = [
  authRoutes, codeItemsRoutes, accountTypesRoutes, accountsRoutes, shopsRoutes, shopPermissionsRoutes, denyRulesRoutes,
];
