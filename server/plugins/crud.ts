// The standard resource routes — list, get, create, update and (optionally) delete —
// for a service of the usual shape, each declaring its access and response schema.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { defineRoute } from './route.ts';
import { actorOf, type Actor } from '../lib/audit.ts';
import { idParam, listResponse, type ListResult } from '../../contracts/list.ts';

export interface CrudService<Q, C, U, T> {
  list(query: Q): Promise<ListResult<T>>;
  get(id: number): Promise<T>;
  create(input: C, actor: Actor): Promise<T>;
  update(id: number, input: U, actor: Actor): Promise<T>;
  remove?(id: number, actor: Actor): Promise<void>;
}

export interface CrudSpec<Q extends z.ZodType, C extends z.ZodType, U extends z.ZodType, T extends z.ZodType> {
  /** e.g. `/api/deny-rules`; items live at `${base}/:id`. */
  base: string;
  screen: string;
  query: Q;
  item: T;
  create: C;
  /** Defaults to the create schema. */
  update?: U;
  service: CrudService<z.output<Q>, z.output<C>, z.output<U>, z.input<T>>;
  /** Offer DELETE `${base}/:id` (needs service.remove). */
  remove?: boolean;
}

export function defineCrudRoutes<Q extends z.ZodType, C extends z.ZodType, U extends z.ZodType, T extends z.ZodType>(
  app: FastifyInstance,
  spec: CrudSpec<Q, C, U, T>,
): void {
  const { base, service } = spec;
  // The spec's types are checked at the call site; inside, the generic route types stay opaque.
  const read = { screen: spec.screen, action: 'read' } as const;
  const write = { screen: spec.screen, action: 'write' } as const;

  defineRoute(app, {
    method: 'GET', url: base, access: read, query: spec.query, response: listResponse(spec.item),
    handler: ({ query }) => service.list(query as z.output<Q>) as never,
  });
  defineRoute(app, {
    method: 'GET', url: `${base}/:id`, access: read, params: idParam, response: spec.item,
    handler: ({ params }) => service.get(params.id) as never,
  });
  defineRoute(app, {
    method: 'POST', url: base, access: write, status: 201, body: spec.create, response: spec.item,
    handler: (ctx) => service.create(ctx.body as z.output<C>, actorOf(ctx)) as never,
  });
  defineRoute(app, {
    method: 'PUT', url: `${base}/:id`, access: write, params: idParam, body: (spec.update ?? spec.create) as U, response: spec.item,
    handler: (ctx) => service.update(ctx.params.id, ctx.body as z.output<U>, actorOf(ctx)) as never,
  });
  if (spec.remove) {
    defineRoute(app, {
      method: 'DELETE', url: `${base}/:id`, access: write, params: idParam, response: null,
      handler: (ctx) => service.remove!(ctx.params.id, actorOf(ctx)),
    });
  }
}
