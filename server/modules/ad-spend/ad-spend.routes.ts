import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { defineRoute } from '../../plugins/route.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { stripControls } from '../../../contracts/zod.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import { AD_IMPORT_MAX_BYTES, adSpendApi as api } from '../../../contracts/ad-spend.ts';
import { adSpendService } from './ad-spend.service.ts';

const TOO_LARGE = `파일은 ${AD_IMPORT_MAX_BYTES / 1024 / 1024}MB 이하만 올릴 수 있습니다. 기간을 나눠 내려받아 올려 주세요.`;

export async function adSpendRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);

  const service = adSpendService(app.db, app.clock, { dataDir: app.config.dataDir, log: (err, message) => app.log.error({ err }, message) });
  const read = { screen: 'advertising-status', action: 'read', shop: true } as const;
  const write = { screen: 'advertising-status', action: 'write', shop: true } as const;

  defineRoute(app, api.figures, { access: read, handler: (c) => service.figures(c.shopId, c.query) });
  defineRoute(app, api.save, { access: write, handler: (c) => service.save(c.shopId, c.body, c.actor) });
  defineRoute(app, api.importPreview, {
    access: write,
    bodyLimit: AD_IMPORT_MAX_BYTES + 1024 * 1024,
    async handler(c) {
      let data: Buffer;
      let fileName: string;
      try {
        const file = await c.req.file({ limits: { fileSize: AD_IMPORT_MAX_BYTES, files: 1, fields: 0 } });
        if (!file) throw badRequest('올릴 파일을 선택하세요.');
        data = await file.toBuffer();
        fileName = stripControls(file.filename ?? '').replace(/^.*[\\/]/, '').trim().slice(0, 200) || '광고비.csv';
      } catch (err) {
        // The size limit fails the stream (toBuffer) with a 413 of its own.
        if (!(err instanceof AppError) && (err as { statusCode?: number }).statusCode === 413) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, TOO_LARGE);
        throw err;
      }
      return service.importPreview(c.shopId, c.query, { fileName, data }, c.actor);
    },
  });
  defineRoute(app, api.importCommit, { access: write, handler: (c) => service.importCommit(c.shopId, c.body, c.actor) });
}
