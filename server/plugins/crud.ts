// The standard resource routes — list, get, create, update and (optionally) delete — of an
// endpoint group declared in contracts/, for a service of the usual shape, guarded by one screen.
import type { FastifyInstance } from 'fastify';
import { defineRoute } from './route.ts';
import type { Actor } from '../modules/audit/audit.service.ts';
import type { BodyOf, Endpoint, QueryOf, ReplyOf } from '../../contracts/endpoint.ts';

type IdEndpoint = Endpoint & { params: Endpoint['params'] };

interface CrudApi {
  list: Endpoint;
  get: IdEndpoint;
  create: Endpoint;
  update: IdEndpoint;
  remove?: IdEndpoint;
}

interface CrudService<A extends CrudApi> {
  list(query: QueryOf<A['list']>): Promise<ReplyOf<A['list']>>;
  get(id: number): Promise<ReplyOf<A['get']>>;
  create(input: BodyOf<A['create']>, actor: Actor): Promise<ReplyOf<A['create']>>;
  update(id: number, input: BodyOf<A['update']>, actor: Actor): Promise<ReplyOf<A['update']>>;
  remove?(id: number, actor: Actor): Promise<void>;
}

export function defineCrudRoutes<A extends CrudApi>(app: FastifyInstance, api: A, o: { screen: string; service: CrudService<A> }): void {
  const { service } = o;
  const read = { screen: o.screen, action: 'read' } as const;
  const write = { screen: o.screen, action: 'write' } as const;
  const idOf = (params: unknown) => (params as { id: number }).id;

  defineRoute(app, api.list, { access: read, handler: ({ query }) => service.list(query as QueryOf<A['list']>) as never });
  defineRoute(app, api.get, { access: read, handler: ({ params }) => service.get(idOf(params)) as never });
  defineRoute(app, api.create, { access: write, handler: ({ body, actor }) => service.create(body as BodyOf<A['create']>, actor) as never });
  defineRoute(app, api.update, {
    access: write,
    handler: ({ params, body, actor }) => service.update(idOf(params), body as BodyOf<A['update']>, actor) as never,
  });
  if (api.remove && service.remove) {
    const remove = service.remove;
    defineRoute(app, api.remove, { access: write, handler: ({ params, actor }) => remove(idOf(params), actor) as never });
  }
}
