// The pull API and its keys: the keys under the shop's DB 전송 설정 (screen permission), the
// public API under /api/v1/ (a shop's API key, rate-limited per key), its OpenAPI document and
// its docs page (public: a shop's developer reads them without a back-office account).
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import type { ResourceModule } from '../../links.ts';
import { AppError } from '../../lib/errors.ts';
import { apiKeysService, presentedKey } from './api-keys.service.ts';
import { pullApiService } from './pull-api.service.ts';
import { openApiDocument, withServer } from './openapi.ts';
import { DOCS_CSP, docsPage } from './docs-page.ts';
import { apiKeysApi } from '../../../contracts/api-keys.ts';
import { PULL_RATE_LIMIT, pullApi } from '../../../contracts/pull-api.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';

/** One bucket per key presented (its hash: the key itself is never kept), else per address. */
function rateKey(req: FastifyRequest): string {
  const key = presentedKey(req.headers);
  return key ? `key:${crypto.createHash('sha256').update(key).digest('hex').slice(0, 32)}` : `ip:${req.ip}`;
}

const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

export const pullApiRoutes: ResourceModule = async (app) => {
  const keys = apiKeysService(app.db, app.clock);
  const pull = pullApiService(app.db, app.clock);
  const read = { screen: 'database-delivery-settings', action: 'read', shop: true } as const;
  const write = { ...read, action: 'write' } as const;

  defineRoute(app, apiKeysApi.list, { access: read, handler: ({ shopId }) => keys.list(shopId) });
  defineRoute(app, apiKeysApi.create, { access: write, handler: ({ shopId, body, actor }) => keys.create(shopId, body, actor) });
  defineRoute(app, apiKeysApi.revoke, { access: write, handler: ({ shopId, params, actor }) => keys.revoke(shopId, params.id, actor) });

  defineRoute(app, pullApi.leads, {
    access: { apiKey: true },
    authenticate: (req, reply) => keys.authenticate(req.headers, req.ip, reply),
    rateLimit: {
      max: PULL_RATE_LIMIT.max, timeWindow: PULL_RATE_LIMIT.timeWindowMs, keyGenerator: rateKey,
      errorResponseBuilder: (_req, ctx) =>
        new AppError(429, ERROR_CODES.RATE_LIMITED, `요청이 너무 많습니다: 키마다 분당 ${ctx.max}회까지입니다. ${ctx.after} 뒤에 다시 보내세요. (Rate limit exceeded: retry after ${ctx.after}.)`),
    },
    handler: ({ apiKey, query, req }) => pull.leads(apiKey, query, req.ip),
  });

  // Generated once per process: the schemas do not change while it runs.
  const doc = openApiDocument();
  defineRoute(app, pullApi.openapi, { access: { public: true }, handler: ({ req }) => withServer(doc, originOf(req)) });
  defineRoute(app, pullApi.docs, {
    access: { public: true },
    handler: ({ req, reply }) => {
      reply.header('content-security-policy', DOCS_CSP);
      return docsPage(withServer(doc, originOf(req)), originOf(req));
    },
  });
};
