import type { FastifyInstance, FastifyReply } from 'fastify';
import multipart from '@fastify/multipart';
import { defineRoute } from '../../plugins/route.ts';
import { actorOf } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { landingsService } from './landings.service.ts';
import { registerCodeUsage } from '../code-items/code-items.repository.ts';
import { shopParam } from '../../../contracts/list.ts';
import {
  IMAGE_UPLOAD_MAX_BYTES, landing, landingInput, landingListQuery, landingListResponse, landingParams, uploadResponse,
} from '../../../contracts/landings.ts';

const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; form-action 'none'; base-uri 'none'; frame-ancestors 'self'";

export async function landingsRoutes(app: FastifyInstance): Promise<void> {
  registerCodeUsage('media-type', 'landings', 'media_type_id');
  registerCodeUsage('event-type', 'landings', 'event_type_id');
  registerCodeUsage('media-type', 'leads', 'media_type_id');
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);

  const service = landingsService(app.db, app.clock, {
    changed: (ids) => app.landingPages.changed(ids),
    flushVisits: async () => app.visitCounter?.flush(),
    preview: (view) => app.landingPages.preview(view),
  });
  const read = { screen: 'landing-status', action: 'read', shop: true } as const;
  const write = { screen: 'landing-status', action: 'write', shop: true } as const;
  const base = '/api/shops/:shopId/landings';

  defineRoute(app, {
    method: 'GET', url: base, access: read,
    params: shopParam, query: landingListQuery, response: landingListResponse,
    handler: ({ shopId, query }) => service.list(shopId, query),
  });
  defineRoute(app, {
    method: 'POST', url: base, access: write, status: 201,
    params: shopParam, body: landingInput, response: landing,
    handler: (ctx) => service.create(ctx.shopId, ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'GET', url: `${base}/:id`, access: read,
    params: landingParams, response: landing,
    handler: ({ shopId, params }) => service.get(shopId, params.id),
  });
  defineRoute(app, {
    method: 'PUT', url: `${base}/:id`, access: write,
    params: landingParams, body: landingInput, response: landing,
    handler: (ctx) => service.update(ctx.shopId, ctx.params.id, ctx.body, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'POST', url: `${base}/:id/publish`, access: write,
    params: landingParams, response: landing,
    handler: (ctx) => service.publish(ctx.shopId, ctx.params.id, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'POST', url: `${base}/:id/close`, access: write,
    params: landingParams, response: landing,
    handler: (ctx) => service.close(ctx.shopId, ctx.params.id, actorOf(ctx)),
  });
  defineRoute(app, {
    method: 'POST', url: `${base}/uploads`, access: write, status: 201,
    params: shopParam, response: uploadResponse, bodyLimit: IMAGE_UPLOAD_MAX_BYTES + 64 * 1024,
    async handler(ctx) {
      const file = await ctx.req.file({ limits: { fileSize: IMAGE_UPLOAD_MAX_BYTES, files: 1, fields: 0 } });
      if (!file) throw new AppError(400, 'VALIDATION', '이미지 파일을 선택하세요.');
      const data = await file.toBuffer().catch((err: { statusCode?: number }) => {
        if (err.statusCode === 413) throw new AppError(413, 'PAYLOAD_TOO_LARGE', `이미지는 ${IMAGE_UPLOAD_MAX_BYTES / 1024 / 1024}MB 이하만 올릴 수 있습니다.`);
        throw err;
      });
      return service.upload(ctx.shopId, data, actorOf(ctx));
    },
  });

  // Previews answer HTML (shown in the editor's iframe): no scripts run, nothing submits.
  const sendPreview = (reply: FastifyReply, html: string) =>
    reply.header('content-security-policy', PREVIEW_CSP).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  app.route({
    method: 'GET', url: `${base}/:id/preview`, config: { access: read },
    handler: async (req, reply) => sendPreview(reply, await service.preview(req.shopId!, landingParams.parse(req.params).id, null)),
  });
  app.route({
    method: 'POST', url: `${base}/preview`, config: { access: read },
    handler: async (req, reply) => sendPreview(reply, await service.preview(req.shopId!, null, landingInput.parse(req.body ?? {}))),
  });
}
