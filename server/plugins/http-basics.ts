// What every response and every request body share, whichever path answers it: Fastify's
// routes, or the hot paths that answer before Fastify (plugins/fast-path.ts).
// - Security headers come from helmet, once: the back office and API get one set, public
//   pages (landings, privacy pages, uploads) the same set with a referrer policy that lets
//   a form post without JavaScript name its landing URL (UTM, see intake.routes.ts).
// - API answers are never cached (personal data, session-bound).
// - Request bodies: JSON is parsed as Fastify parses it (prototype poisoning refused); an
//   empty body is no body, whatever its content type, so a body-less action accepts it.
import { ERROR_CODES } from '../../contracts/errors.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import sjson from 'secure-json-parse';
import { AppError } from '../lib/errors.ts';

function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = { setHeader: (k: string, v: unknown) => void (headers[k.toLowerCase()] = String(v)), removeHeader: () => {} };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return headers;
}

// CSPs are set per response (the SPA's with its HTML, each landing its own).
const BASE: HelmetOptions = { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false };
const SECURITY_HEADERS = headersOf(BASE);
export const PUBLIC_PAGE_HEADERS = headersOf({ ...BASE, referrerPolicy: { policy: 'strict-origin-when-cross-origin' } });
export const API_HEADERS = { ...SECURITY_HEADERS, 'cache-control': 'no-store' };

const isPublicPage = (url: string) => url.startsWith('/view/') || url.startsWith('/uploads/');

/** The same JSON parsing as Fastify's own: `__proto__` and `constructor.prototype` keys are refused. */
export function parseJson(text: string): unknown {
  return sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
}

/** Media types are case-insensitive: `Application/JSON; charset=UTF-8` is JSON. */
export const isJsonType = (contentType: string | undefined) => /^application\/json\s*(;|$)/i.test(contentType ?? '');

export function httpBasics(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/api/')) reply.headers(API_HEADERS);
    else reply.headers(isPublicPage(req.url) ? PUBLIC_PAGE_HEADERS : SECURITY_HEADERS);
  });

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, parseJson(body as string));
    } catch {
      done(new AppError(400, ERROR_CODES.BAD_REQUEST, 'JSON 형식이 올바르지 않습니다.'), undefined);
    }
  });
  // Any other type: an empty body is no body; anything else is a type we do not take.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    done(new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, '지원하지 않는 형식입니다.'), undefined);
  });
}
