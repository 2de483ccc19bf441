// Every resource module's routes, registered in order by build().
import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth/auth.routes.ts';
import { codeItemsRoutes } from './code-items/code-items.routes.ts';

export const MODULES: Array<(app: FastifyInstance) => Promise<void>> = [authRoutes, codeItemsRoutes];
