import { z } from './zod.ts';
import { endpoint } from './endpoint.ts';

export const healthApi = {
  get: endpoint({ method: 'GET', path: '/api/health', response: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) }) }),
};
