// Every resource module's routes, registered in order by build().
import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth/auth.routes.ts';
import { codeItemsRoutes } from './code-items/code-items.routes.ts';
import { accountTypesRoutes } from './account-types/account-types.routes.ts';
import { accountsRoutes } from './accounts/accounts.routes.ts';
import { shopsRoutes } from './shops/shops.routes.ts';
import { shopPermissionsRoutes } from './shop-permissions/shop-permissions.routes.ts';
import { denyRulesRoutes } from './deny-rules/deny-rules.routes.ts';
import { dashboardRoutes } from './dashboard/dashboard.routes.ts';
import { landingsRoutes } from './landings/landings.routes.ts';
import { landingScriptsRoutes } from './landing-scripts/landing-scripts.routes.ts';
import { privacyPoliciesRoutes } from './privacy-policies/privacy-policies.routes.ts';
import { intakeRoutes } from './intake/intake.routes.ts';
import { operatorRoutes } from './operator/operator.routes.ts';

export const MODULES: Array<(app: FastifyInstance) => Promise<void>> = [
  authRoutes, codeItemsRoutes, accountTypesRoutes, accountsRoutes, shopsRoutes, shopPermissionsRoutes, denyRulesRoutes,
  dashboardRoutes, operatorRoutes,
  landingsRoutes, landingScriptsRoutes, privacyPoliciesRoutes, intakeRoutes,
];
