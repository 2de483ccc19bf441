import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import type { ModuleLinks } from '../../links.ts';
import multipart from '@fastify/multipart';
import { defineRoute } from '../../plugins/route.ts';
import { AppError } from '../../lib/errors.ts';
import { landingsService } from './landings.service.ts';
import { IMAGE_UPLOAD_MAX_BYTES, IMAGE_UPLOADS_PER_MINUTE, landingsApi as api } from '../../../contracts/landings.ts';

const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; form-action 'none'; base-uri 'none'; frame-ancestors 'self'";

export async function landingsRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);

  const service = landingsService(app.db, app.clock, {
    changed: links.landingsChanged,
    flushVisits: links.flushVisits,
    preview: links.renderPreview,
  });
  const read = { screen: 'landing-status', action: 'read', shop: true } as const;
  const write = { screen: 'landing-status', action: 'write', shop: true } as const;

  defineRoute(app, api.list, { access: read, handler: (c) => service.list(c.shopId, c.query) });
  defineRoute(app, api.options, {
    access: { screen: ['landing-status', 'database-status', 'landing-script-management', 'shop-data-delivery'], action: 'read', shop: true },
    handler: (c) => service.options(c.shopId),
  });
  defineRoute(app, api.create, { access: write, handler: (c) => service.create(c.shopId, c.body, c.actor) });
  defineRoute(app, api.get, { access: read, handler: (c) => service.get(c.shopId, c.params.id) });
  defineRoute(app, api.update, { access: write, handler: (c) => service.update(c.shopId, c.params.id, c.body, c.actor) });
  defineRoute(app, api.publish, { access: write, handler: (c) => service.publish(c.shopId, c.params.id, c.actor) });
  defineRoute(app, api.close, { access: write, handler: (c) => service.close(c.shopId, c.params.id, c.actor) });
  defineRoute(app, api.upload, {
    access: write,
    bodyLimit: IMAGE_UPLOAD_MAX_BYTES + 64 * 1024,
    // Per account, not per address: staff behind one office address do not share it, and one
    // account cannot fill the image queue from many addresses.
    rateLimit: {
      max: IMAGE_UPLOADS_PER_MINUTE, timeWindow: '1 minute',
      keyGenerator: (req) => `upload:${req.auth?.account.id ?? req.ip}`,
      errorResponseBuilder: (_req, ctx) =>
        new AppError(429, ERROR_CODES.RATE_LIMITED, `이미지는 계정마다 1분에 ${ctx.max}장까지 올릴 수 있습니다. 잠시 후 다시 시도하세요.`),
    },
    async handler(c) {
      const file = await c.req.file({ limits: { fileSize: IMAGE_UPLOAD_MAX_BYTES, files: 1, fields: 0 } });
      if (!file) throw new AppError(400, ERROR_CODES.VALIDATION, '이미지 파일을 선택하세요.');
      const data = await file.toBuffer().catch((err: { statusCode?: number }) => {
        if (err.statusCode === 413) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, `이미지는 ${IMAGE_UPLOAD_MAX_BYTES / 1024 / 1024}MB 이하만 올릴 수 있습니다.`);
        throw err;
      });
      return service.upload(c.shopId, data, c.actor).catch((err: unknown) => {
        if (err instanceof AppError && err.code === ERROR_CODES.BUSY) c.reply.header('retry-after', '10');
        throw err;
      });
    },
  });

  // Previews answer HTML (shown in the editor's iframe): no scripts run, nothing submits.
  const preview = (c: { reply: { header(k: string, v: string): unknown } }, html: Promise<string>) => {
    c.reply.header('content-security-policy', PREVIEW_CSP);
    c.reply.header('cache-control', 'no-store');
    return html;
  };
  defineRoute(app, api.preview, { access: read, handler: (c) => preview(c, service.preview(c.shopId, c.params.id, null)) });
  defineRoute(app, api.previewInput, { access: read, handler: (c) => preview(c, service.preview(c.shopId, null, c.body)) });
}
