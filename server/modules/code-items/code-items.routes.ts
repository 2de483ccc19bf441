import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { codeItemsService } from './code-items.service.ts';
import { CODE_KINDS, CODE_KIND_SCREENS, codeItemsApi } from '../../../contracts/code-items.ts';

export async function codeItemsRoutes(app: FastifyInstance): Promise<void> {
  const service = codeItemsService(app.db, app.clock);

  for (const kind of CODE_KINDS) {
    const api = codeItemsApi(kind);
    const read = { screen: CODE_KIND_SCREENS[kind], action: 'read' } as const;
    const write = { screen: CODE_KIND_SCREENS[kind], action: 'write' } as const;
    defineRoute(app, api.list, { access: read, handler: ({ query }) => service.list(kind, query) });
    defineRoute(app, api.create, { access: write, handler: ({ body }) => service.create(kind, body) });
    defineRoute(app, api.update, { access: write, handler: ({ params, body }) => service.update(kind, params.id, body) });
    defineRoute(app, api.remove, { access: write, handler: ({ params }) => service.remove(kind, params.id) });
    defineRoute(app, api.reorder, { access: write, handler: ({ body }) => service.reorder(kind, body.ids) });
    defineRoute(app, api.options, { access: { authenticated: true }, handler: async () => ({ items: await service.options(kind) }) });
  }
}
