import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { AppError } from '../../lib/errors.ts';
import { stripControls } from '../../../contracts/zod.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import { IMPORT_MAX_BYTES, dataInsertionApi as api } from '../../../contracts/data-insertion.ts';
import { dataInsertionService } from './data-insertion.service.ts';

const TOO_LARGE = `파일은 ${IMPORT_MAX_BYTES / 1024 / 1024}MB 이하만 올릴 수 있습니다. 파일을 나눠서 올려 주세요.`;

export async function dataInsertionRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);

  const service = dataInsertionService(app.db, app.clock, {
    dataDir: app.config.dataDir,
    announce: links.leadsChanged,
    landingsChanged: links.landingsChanged,
    log: (err, message) => app.log.error({ err }, message),
  });
  const read = { screen: 'data-insertion', action: 'read', shop: true } as const;
  const write = { screen: 'data-insertion', action: 'write', shop: true } as const;

  defineRoute(app, api.options, { access: write, handler: (c) => service.options(c.shopId) });
  defineRoute(app, api.create, { access: write, handler: (c) => service.create(c.shopId, c.body, c.actor) });
  defineRoute(app, api.upload, {
    access: write,
    bodyLimit: IMPORT_MAX_BYTES + 1024 * 1024,
    async handler(c) {
      let file;
      try {
        file = await c.req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 0 } });
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 413) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, TOO_LARGE);
        throw err;
      }
      if (!file) throw new AppError(400, ERROR_CODES.VALIDATION, '올릴 파일을 선택하세요.');
      const fileName = stripControls(file.filename ?? '').replace(/^.*[\\/]/, '').trim().slice(0, 200) || '가져오기.csv';
      try {
        return await service.upload(c.shopId, { fileName, stream: file.file }, c.actor);
      } catch (err) {
        // The size limit cuts the stream short (and fails it).
        if (file.file.truncated || ((err as { statusCode?: number }).statusCode === 413 && !(err instanceof AppError))) {
          throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, TOO_LARGE);
        }
        throw err;
      }
    },
  });
  defineRoute(app, api.list, { access: read, handler: (c) => service.list(c.shopId, c.query) });
  defineRoute(app, api.get, { access: write, handler: (c) => service.get(c.shopId, c.params.id) });
  defineRoute(app, api.start, { access: write, handler: (c) => service.start(c.shopId, c.params.id, c.body, c.actor) });
  defineRoute(app, api.cancel, { access: write, handler: (c) => service.cancel(c.shopId, c.params.id, c.actor) });
  defineRoute(app, api.errors, { access: write, handler: (c) => service.errorReport(c.shopId, c.params.id, c.actor) });
}
