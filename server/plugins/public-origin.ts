// PUBLIC_ORIGIN: public pages on an origin of their own. Requests for that host reach only
// the public side (landings, privacy pages, uploads, intake, health); the back office and
// its API answer 404 there. On the back office's host, landing pages redirect to it, so
// nothing a landing runs ever shares an origin with the back office's session.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { requestHostOf } from '../lib/trust-proxy.ts';
import { NOT_FOUND_PAGE, STATIC_PAGE_CSP } from '../lib/static-pages.ts';
import { ERROR_CODES } from '../../contracts/errors.ts';

const PUBLIC_PATHS = ['/view/', '/uploads/', '/api/public/'];
const isPublicPath = (pathname: string) => PUBLIC_PATHS.some((p) => pathname.startsWith(p)) || pathname === '/api/health' || pathname === '/api/ready';

/** The host a request names, as Fastify's req.host gives it: X-Forwarded-Host only from a trusted proxy (TRUST_PROXY). */
export const requestHost = (app: FastifyInstance, req: IncomingMessage): string => requestHostOf(req, app.proxyTrust);

/** The public host, when public pages have an origin of their own. */
export const publicHostOf = (app: FastifyInstance): string | null => (app.config.publicOrigin ? new URL(app.config.publicOrigin).host : null);

export function publicOriginPlugin(app: FastifyInstance): void {
  const origin = app.config.publicOrigin;
  const publicHost = publicHostOf(app);
  if (!origin || !publicHost) return;
  app.addHook('onRequest', async (req, reply) => {
    const pathname = req.url.split('?')[0]!;
    if (req.host === publicHost) {
      if (isPublicPath(pathname)) return;
      if (pathname.startsWith('/api/')) throw new AppError(404, ERROR_CODES.NOT_FOUND, '이 주소에서는 공개 페이지만 제공합니다.');
      return reply.code(404).header('content-security-policy', STATIC_PAGE_CSP).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && pathname.startsWith('/view/')) return reply.redirect(`${origin}${req.url}`, 308);
  });
}
