// Public intake endpoints, posted from landing pages (no session, no CSRF origin check).
// JSON requests get JSON; a plain form post (no JavaScript) gets an HTML page or a 303.
import { ERROR_CODES, errorBody } from '../../../contracts/errors.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { clientIp, writeFastHead } from '../../plugins/fast-path.ts';
import { API_HEADERS, isJsonType, parseJson } from '../../plugins/http-basics.ts';
import { intakeService, IntakeError, type LandingDefinition } from './intake.service.ts';
import { inlineWriter, threadWriter } from './intake-writer.ts';
import { AppError } from '../../lib/errors.ts';
import { landingSecret } from '../../lib/render-stamp.ts';
import { formErrorPage, STATIC_PAGE_CSP, thankYouPage } from '../../lib/static-pages.ts';
import { INTAKE_MESSAGES, UTM_KEYS } from '../../../contracts/intake.ts';
import { landingPath } from '../../../contracts/landings.ts';
import { SHOP_CODE_RE } from '../../../contracts/rules.ts';
import { eventLevel, requestIdOf } from '../../lib/logger.ts';
import { isDatabaseUnavailable } from '../../db/dialect-sql.ts';

export const INTAKE_BODY_LIMIT = 16 * 1024;

/** What intake offers the other modules (wired in app.ts). */
export interface IntakeHandle {
  /** Visit beacons are counted in memory; this writes them (before statistics are read). */
  flushVisits(): Promise<void>;
  /** Landings changed: forget their definitions. */
  forget(): void;
  /** Writes the `created` events and delivery jobs of every lead committed so far (they follow each batch by a moment). */
  followUps(): Promise<void>;
}

/** A form post from a browser without JavaScript (the inline script asks for JSON). */
function wantsHtml(req: FastifyRequest): boolean {
  return !isJsonType(req.headers['content-type']) && !/application\/json/i.test(req.headers.accept ?? '');
}

const bodyObject = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

function backUrl(body: Record<string, unknown>): string | null {
  const { shopCode, landingCode } = body;
  return typeof shopCode === 'string' && typeof landingCode === 'string' && SHOP_CODE_RE.test(shopCode) && SHOP_CODE_RE.test(landingCode)
    ? landingPath(shopCode, landingCode)
    : null;
}

/** The request body as text, refusing (413) one larger than `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => Object.assign(new Error('body too large'), { statusCode: 413 });
    if (Number(req.headers['content-length'] ?? 0) > limit) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Without JavaScript nothing copies the landing URL's UTM parameters into the form, but the
 * browser names that URL in Referer (same origin): take them from there when the body has none.
 */
function withRefererUtm(body: Record<string, unknown>, referer: string | undefined, host: string | undefined): Record<string, unknown> {
  if (!referer || UTM_KEYS.some((k) => body[k])) return body;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return body;
  }
  if (url.host !== host || !url.pathname.startsWith('/view/')) return body;
  const utm = Object.fromEntries(UTM_KEYS.map((k) => [k, url.searchParams.get(k)]).filter(([, v]) => v));
  return Object.keys(utm).length ? { ...body, ...utm } : body;
}

export async function intakeRoutes(app: FastifyInstance, links: ModuleLinks): Promise<IntakeHandle> {
  let secret: Buffer | undefined;
  const service = intakeService(app.db, app.clock, {
    rateLimit: app.config.intakeRateLimit,
    limiter: app.windowLimiter,
    secret: () => (secret ??= landingSecret(app.config.dataDir)),
    tokenMaxAgeMs: app.config.landingTokenMaxAgeHours * 3_600_000,
    writer: app.sqliteFile && app.config.intakeWriterThread
      ? threadWriter(app.sqliteFile, (err) => app.log.error({ err }, 'intake writer thread failed'))
      : inlineWriter(app.db),
    announce: links.leadsChanged,
    landingsClosed: (ids) => links.landingsChanged(ids).catch((err: unknown) => app.log.error({ err, landingIds: ids }, 'closed landings not refreshed')),
    deliveriesQueued: links.deliveriesQueued,
    onError: (err) => app.log.error({ err }, 'lead follow-ups (created events, delivery jobs) not written; the worker writes them'),
  });
  app.addHook('onClose', async () => service.close());

  function refusal(err: unknown): AppError {
    if (err instanceof AppError) return err;
    const status = (err as FastifyError).statusCode ?? 500;
    if (status === 413) return new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, INTAKE_MESSAGES.tooLarge);
    if (status >= 400 && status < 500) return new AppError(400, ERROR_CODES.BAD_REQUEST, INTAKE_MESSAGES.badRequest);
    // The database restarting or out of reach: not acknowledged, and the visitor may send again shortly.
    if (isDatabaseUnavailable(err)) return new AppError(503, ERROR_CODES.UNAVAILABLE, INTAKE_MESSAGES.unavailable);
    return new AppError(500, ERROR_CODES.INTERNAL, INTAKE_MESSAGES.internal);
  }

  const ACCEPTED_BODY = '{"ok":true}';
  const ACCEPTED_HEADERS = { ...API_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(ACCEPTED_BODY)) };
  const REFUSAL_HEADERS = { ...API_HEADERS, 'content-type': 'application/json; charset=utf-8' };
  const errorJson = (e: AppError) => JSON.stringify(errorBody(e.code, e.message, e.fields));

  // Each decision is counted (/metrics), and an accepted lead's id is logged with its request's
  // id: the delivery worker's lines name the lead again, so it can be followed to its sends.
  const acceptedLevel = eventLevel(app.config);
  function accepted(reqId: string, leadId: number, duplicateOf: number | null, landing: LandingDefinition) {
    app.metrics.intakeAccepted.inc({ duplicate: String(duplicateOf !== null) });
    app.log[acceptedLevel]({ reqId, leadId, duplicateOf, shopId: landing.shopId, landingId: landing.id }, 'lead accepted');
  }
  const refused = (e: AppError) => app.metrics.intakeRefused.inc({ reason: e.code });

  function sendRefusal(err: unknown, req: FastifyRequest, reply: FastifyReply) {
    const e = refusal(err);
    refused(e);
    if (e.status >= 500) req.log[e.status === 503 ? 'warn' : 'error']({ err }, 'intake failed');
    if (wantsHtml(req)) {
      const landing: LandingDefinition | undefined = err instanceof IntakeError ? err.landing : undefined;
      const back = landing ? landingPath(landing.shopCode, landing.landingCode) : backUrl(bodyObject(req.body));
      return reply.code(e.status).header('content-security-policy', STATIC_PAGE_CSP).header('cache-control', 'no-store')
        .type('text/html; charset=utf-8').send(formErrorPage(e.message, e.fields, back));
    }
    return reply.code(e.status).type('application/json; charset=utf-8').send(errorJson(e));
  }

  // The hot path: a JSON submission (what the landing page's script sends) is answered
  // without Fastify's routing and hooks — same checks, same answers, less work per lead.
  // Form posts without JavaScript, and everything else, take the route below.
  async function fastJsonIntake(req: IncomingMessage, res: ServerResponse) {
    const send = (status: number, body: string) => {
      // The answer to every accepted lead: its headers built once.
      if (status === 201 && body === ACCEPTED_BODY) {
        writeFastHead(res, 201, ACCEPTED_HEADERS);
        res.end(body);
        return;
      }
      writeFastHead(res, status, REFUSAL_HEADERS, ['content-length', String(Buffer.byteLength(body)), ...(status === 413 ? ['connection', 'close'] : [])]);
      res.end(body);
    };
    try {
      const text = await readBody(req, INTAKE_BODY_LIMIT);
      let parsed: unknown;
      try {
        parsed = parseJson(text);
      } catch {
        throw new AppError(400, ERROR_CODES.BAD_REQUEST, INTAKE_MESSAGES.badRequest);
      }
      const body = withRefererUtm(bodyObject(parsed), req.headers.referer, req.headers.host);
      const { landing, leadId, duplicateOf } = await service.submit(body, { ip: clientIp(app, req), userAgent: req.headers['user-agent'] });
      accepted(requestIdOf(req), leadId, duplicateOf, landing);
      send(201, ACCEPTED_BODY);
    } catch (err) {
      const e = refusal(err);
      refused(e);
      if (e.status >= 500) app.log[e.status === 503 ? 'warn' : 'error']({ err, reqId: requestIdOf(req) }, 'intake failed');
      send(e.status, errorJson(e));
    }
  }
  app.fastPaths.push((req, res) => {
    if (req.method !== 'POST' || req.url !== '/api/public/leads' || !isJsonType(req.headers['content-type'])) return false;
    void fastJsonIntake(req, res);
    return true;
  });

  app.route({
    method: 'POST',
    url: '/api/public/leads',
    bodyLimit: INTAKE_BODY_LIMIT,
    config: { access: { public: true } },
    errorHandler: (err, req, reply) => sendRefusal(err, req, reply),
    async handler(req, reply) {
      const body = withRefererUtm(bodyObject(req.body), req.headers.referer, req.headers.host);
      const { landing, leadId, duplicateOf } = await service.submit(body, { ip: req.ip, userAgent: req.headers['user-agent'] });
      accepted(req.id, leadId, duplicateOf, landing);
      if (!wantsHtml(req)) return reply.code(201).type('application/json; charset=utf-8').send('{"ok":true}');
      if (landing.thankYouUrl) return reply.redirect(landing.thankYouUrl, 303);
      const freeScripts = !!app.config.publicOrigin;
      const page = thankYouPage({
        title: landing.title, message: landing.thankYouMessage, color: landing.color, backUrl: landingPath(landing.shopCode, landing.landingCode),
        trackingTags: landing.trackingTags,
        headScript: freeScripts ? landing.headScript : '', conversionScript: freeScripts ? landing.conversionScript : '',
      });
      return reply.code(200).header('content-security-policy', page.csp).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page.html);
    },
  });

  // The visit beacon (navigator.sendBeacon): counted per landing, Seoul day and source.
  app.route({
    method: 'POST',
    url: '/api/public/visits',
    bodyLimit: 2048,
    config: { access: { public: true } },
    errorHandler: (_err, _req, reply) => reply.code(204).send(),
    async handler(req, reply) {
      await service.countVisit(bodyObject(req.body), { ip: req.ip, userAgent: req.headers['user-agent'] });
      return reply.code(204).send();
    },
  });
  return { flushVisits: service.flushVisits, forget: service.forget, followUps: service.followUps };
}
