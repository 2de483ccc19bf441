// defineRoute: registers an endpoint declared in contracts/ with its access rule. Params,
// query and body are validated, and the response serialized, by Fastify through the zod
// type provider (the same schemas the back office uses); the handler receives them parsed,
// with the caller's session and its actor.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Action } from '../../contracts/permissions.ts';
import type { BodyOf, Endpoint, FileReply, ParamsOf, QueryOf, ReplyOf } from '../../contracts/endpoint.ts';
import type { AuthContext } from './auth.ts';
import type { Actor } from '../modules/audit/audit.service.ts';

export type RouteAccess =
  | { public: true }
  | { authenticated: true }
  /** The account's type must allow `action` on `screen` (any of them when a list). With `shop`, the route has `:shopId` and the account must be permitted that shop. */
  | { screen: string | readonly string[]; action: Action; shop?: boolean }
  /**
   * A shop's API key (the public pull API under /api/v1/): no session and no same-origin check
   * (a bearer key is not sent by browsers on their own); the route's `authenticate` checks the
   * key before the input is validated and names the shop.
   */
  | { apiKey: true };

/** Who calls an API-key route: the key, its shop and what it may see. */
export interface ApiKeyCaller {
  id: number;
  shopId: number;
  name: string;
  /** The key's first characters (never the key). */
  prefix: string;
  fullPhone: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of an API-key route (null elsewhere). */
    apiKey: ApiKeyCaller | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** The contracts/ endpoint the route serves (the route table checks every /api route has one). */
    endpoint?: Endpoint;
  }
}

interface HandlerContext<E extends Endpoint> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  req: FastifyRequest;
  reply: FastifyReply;
  /** Present on every non-public route. */
  auth: AuthContext;
  /** Who is calling, for the audit trail and rules about oneself (non-public routes). */
  actor: Actor;
  /** The `:shopId` of a shop-scoped route, already checked; an API-key route's key's shop. */
  shopId: number;
  /** The key of an API-key route, already checked. */
  apiKey: ApiKeyCaller;
}

interface RouteOptions<E extends Endpoint> {
  access: RouteAccess;
  handler: (ctx: HandlerContext<E>) => Promise<ReplyOf<E>> | ReplyOf<E>;
  /** Per client address, unless `keyGenerator` names the bucket (e.g. per API key). */
  rateLimit?: { max: number; timeWindow: number | string; keyGenerator?: (req: FastifyRequest) => string; errorResponseBuilder?: (req: FastifyRequest, context: { after: string; max: number }) => Error };
  bodyLimit?: number;
  /** An API-key route's key check (required with `{ apiKey: true }`): answers the caller or throws a 401. */
  authenticate?: (req: FastifyRequest, reply: FastifyReply) => Promise<ApiKeyCaller>;
}

const isSchema = (v: unknown): v is z.ZodType => typeof v === 'object' && v !== null;

function actorOf(auth: AuthContext, ip: string): Actor {
  return {
    id: auth.account.id,
    loginId: auth.account.loginId,
    accountTypeId: auth.account.accountTypeId,
    superadmin: auth.row.builtin_key === 'superadmin',
    scope: auth.row.data_scope,
    side: auth.account.side,
    canUnmask: !!auth.row.can_unmask,
    canExport: !!auth.row.can_export,
    ip,
  };
}

export function defineRoute<E extends Endpoint>(app: FastifyInstance, e: E, o: RouteOptions<E>): void {
  const status = e.status ?? (e.response === null ? 204 : 200);
  const body = isSchema(e.body) ? e.body : undefined;
  const authenticate = 'apiKey' in o.access ? o.authenticate : undefined;
  if ('apiKey' in o.access && !authenticate) throw new Error(`${e.method} ${e.path}: an API-key route needs authenticate`);
  const preValidation = [
    // Before the input is validated: a caller without a key learns nothing of the route's input rules.
    ...(authenticate ? [async (req: FastifyRequest, reply: FastifyReply) => {
      req.apiKey = await authenticate(req, reply);
      req.shopId = req.apiKey.shopId;
    }] : []),
    // A body-less request to a route that takes one is an empty object: its fields say what is missing.
    ...(body ? [async (req: FastifyRequest) => void (req.body ??= {})] : []),
  ];
  app.withTypeProvider<ZodTypeProvider>().route({
    method: e.method,
    url: e.path,
    schema: {
      ...(e.params ? { params: e.params } : {}),
      ...(e.query ? { querystring: e.query } : {}),
      ...(body ? { body } : {}),
      ...(isSchema(e.response) ? { response: { [status]: e.response } } : {}),
    },
    config: { access: o.access, endpoint: e, ...(o.rateLimit ? { rateLimit: o.rateLimit } : {}) },
    ...(o.bodyLimit ? { bodyLimit: o.bodyLimit } : {}),
    ...(preValidation.length ? { preValidation } : {}),
    handler: async (req, reply) => {
      const result = await o.handler({
        params: req.params, query: req.query, body: req.body, req, reply,
        auth: req.auth as AuthContext,
        actor: (req.auth ? actorOf(req.auth, req.ip) : undefined) as Actor,
        shopId: req.shopId as number,
        apiKey: req.apiKey as ApiKeyCaller,
      } as HandlerContext<E>);
      // A stream's handler took the connection over (reply.hijack()).
      if (reply.sent || e.response === 'events') return reply;
      if (e.response === null) return reply.code(status).send();
      if (e.response === 'html') return reply.code(status).type('text/html; charset=utf-8').send(result);
      if (e.response === 'file') return sendFile(reply, status, result as FileReply);
      return reply.code(status).send(result);
    },
  });
}

/** A download: its name (RFC 6266, UTF-8 for Korean names), type and body, streamed when it is a stream. */
function sendFile(reply: FastifyReply, status: number, f: FileReply) {
  const ascii = f.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  reply
    .code(status)
    .type(f.contentType)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(f.fileName)}`)
    .header('x-content-type-options', 'nosniff');
  for (const [k, v] of Object.entries(f.headers ?? {})) reply.header(k, v);
  const body = f.body;
  return reply.send(typeof body === 'string' || body instanceof Uint8Array ? body : Readable.from(body));
}
