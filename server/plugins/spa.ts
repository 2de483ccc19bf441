// Serves the built SPA: hashed assets with a year's cache, index.html (no-cache) for
// SPA paths only. /api/* answers JSON 404; asset-like paths answer a plain 404.
import { ERROR_CODES, errorBody } from '../../contracts/errors.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

const SPA_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // antd's CSS-in-JS writes <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function spaPlugin(app: FastifyInstance): Promise<void> {
  const root = path.join(app.config.distDir, 'spa');
  const indexFile = path.join(root, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  const indexHtml = hasBuild ? fs.readFileSync(indexFile) : null;

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, file) {
        if (file.includes(`${path.sep}spa-assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker and its offline page: a new release's reach every browser at its next load.
        else if (path.basename(file) === 'sw.js' || path.basename(file) === 'offline.html') res.header('cache-control', 'no-cache');
        else res.header('cache-control', 'public, max-age=3600');
      },
      globIgnore: ['**/index.html'],
    });
  }

  app.setNotFoundHandler({}, async (req, reply) => {
    const url = req.url.split('?')[0]!;
    if (url.startsWith('/api/') || url === '/api') {
      return reply.code(404).send(errorBody(ERROR_CODES.NOT_FOUND, '요청한 API를 찾을 수 없습니다.'));
    }
    const assetLike = /\.[a-z0-9]{1,8}$/i.test(url);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return reply.code(404).send(errorBody(ERROR_CODES.NOT_FOUND, '찾을 수 없습니다.'));
    }
    if (assetLike || !indexHtml) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', SPA_CSP)
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  });
}
