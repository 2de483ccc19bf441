// defineRoute: every API route declares its access rule and its response schema.
// Params, query and body are parsed with the same zod schemas the SPA uses.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Action } from '../../contracts/permissions.ts';
import type { AuthContext } from './auth.ts';

export type RouteAccess =
  | { public: true }
  | { authenticated: true }
  /** The account's type must allow `action` on `screen` (any of them when a list). With `shop`, the route has `:shopId` and the account must be permitted that shop. */
  | { screen: string | readonly string[]; action: Action; shop?: boolean };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: FastifyRequest;
  reply: FastifyReply;
  /** Present on every non-public route. */
  auth: AuthContext;
  /** The `:shopId` of a shop-scoped route, already checked. */
  shopId: number;
}

export interface RouteDef<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined, R extends Schema | null> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: RouteAccess;
  params?: P;
  query?: Q;
  body?: B;
  /** Response schema; `null` answers 204 with no body. */
  response: R;
  status?: number;
  bodyLimit?: number;
  rateLimit?: { max: number; timeWindow: number | string };
  handler: (ctx: HandlerContext<Out<P>, Out<Q>, Out<B>>) => Promise<R extends z.ZodType ? z.input<R> : void>;
}

export function defineRoute<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema | null = null,
>(app: FastifyInstance, def: RouteDef<P, Q, B, R>): void {
  app.route({
    method: def.method,
    url: def.url,
    config: {
      access: def.access,
      ...(def.rateLimit ? { rateLimit: def.rateLimit } : {}),
    },
    ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
    handler: async (req, reply) => {
      const params = def.params ? def.params.parse(req.params) : undefined;
      const query = def.query ? def.query.parse(req.query) : undefined;
      const body = def.body ? def.body.parse(req.body ?? {}) : undefined;
      const result = await def.handler({
        params, query, body, req, reply,
        auth: req.auth as AuthContext,
        shopId: req.shopId as number,
      } as HandlerContext<Out<P>, Out<Q>, Out<B>>);
      if (reply.sent) return reply;
      if (def.response === null) return reply.code(def.status ?? 204).send();
      reply.code(def.status ?? 200).type('application/json; charset=utf-8');
      return JSON.stringify(def.response.parse(result));
    },
  });
}
