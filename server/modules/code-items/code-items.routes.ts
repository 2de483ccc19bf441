import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { codeItemsService } from './code-items.service.ts';
import { z } from '../../../contracts/zod.ts';
import { idParam, listResponse } from '../../../contracts/list.ts';
import {
  CODE_KINDS, CODE_KIND_SCREENS, codeItem, codeItemInput, codeItemListQuery, reorderBody,
} from '../../../contracts/code-items.ts';

const option = z.object({ id: z.number(), name: z.string(), code: z.string() });

export async function codeItemsRoutes(app: FastifyInstance): Promise<void> {
  const service = codeItemsService(app.db, app.clock);

  for (const kind of CODE_KINDS) {
    const base = `/api/codes/${kind}`;
    const screen = CODE_KIND_SCREENS[kind];

    defineRoute(app, {
      method: 'GET', url: base, access: { screen, action: 'read' },
      query: codeItemListQuery, response: listResponse(codeItem),
      handler: ({ query }) => service.list(kind, query),
    });
    defineRoute(app, {
      method: 'POST', url: base, access: { screen, action: 'write' }, status: 201,
      body: codeItemInput, response: codeItem,
      handler: ({ body }) => service.create(kind, body),
    });
    defineRoute(app, {
      method: 'PUT', url: `${base}/:id`, access: { screen, action: 'write' },
      params: idParam, body: codeItemInput, response: codeItem,
      handler: ({ params, body }) => service.update(kind, params.id, body),
    });
    defineRoute(app, {
      method: 'DELETE', url: `${base}/:id`, access: { screen, action: 'write' },
      params: idParam, response: null,
      handler: ({ params }) => service.remove(kind, params.id),
    });
    defineRoute(app, {
      method: 'POST', url: `${base}/reorder`, access: { screen, action: 'write' },
      body: reorderBody, response: null,
      handler: ({ body }) => service.reorder(kind, body.ids),
    });
    // Active entries for selects on other screens: any logged-in account.
    defineRoute(app, {
      method: 'GET', url: `${base}/options`, access: { authenticated: true },
      response: z.object({ items: z.array(option) }),
      handler: async () => ({ items: await service.options(kind) }),
    });
  }
}
