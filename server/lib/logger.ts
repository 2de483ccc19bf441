// Logs: JSON lines for production log pipelines (LOG_FORMAT=json), or short human-readable
// lines for a person at a terminal (the default), where one line per request would bury the
// start banner: there, requests are not logged one by one — warnings and errors are.
//
// Every request has an id: the caller's X-Request-Id when it is a sane one (a proxy or load
// balancer in front names the request in its own log), else a new one: this process's random
// prefix and a counter (unique across processes and restarts, and cheaper than a UUID on the hot
// paths, which run at tens of thousands a second). It is echoed in the
// x-request-id response header and carried by every log line of the request (`reqId`, Fastify's
// request logger); the hot paths that answer before Fastify (fast-path.ts) share the same id.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino from 'pino';
import { LogController, type FastifyBaseLogger } from 'fastify';
import pretty from 'pino-pretty';

interface LoggerSetup {
  loggerInstance?: FastifyBaseLogger;
  logger?: false;
  logController?: LogController;
}

/** What the logs are set up from (config.ts reads them from LOG_LEVEL and LOG_FORMAT). */
export interface LogSettings {
  logLevel: string;
  logFormat: 'pretty' | 'json';
}

export function loggerFor(config: LogSettings): LoggerSetup {
  if (config.logLevel === 'silent') return { logger: false };
  // ISO times: log pipelines and people read them alike.
  if (config.logFormat === 'json') return { loggerInstance: pino({ level: config.logLevel, timestamp: pino.stdTimeFunctions.isoTime }) };
  const stream = pretty({ colorize: !!process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId', sync: true });
  return { loggerInstance: pino({ level: config.logLevel }, stream), logController: new LogController({ disableRequestLogging: true }) };
}

/**
 * The level of lines written once per event of ordinary work (a lead accepted, a delivery
 * sent): info for a log pipeline, debug at a terminal, where they would bury everything else.
 */
export const eventLevel = (config: Pick<LogSettings, 'logFormat'>): 'info' | 'debug' => (config.logFormat === 'json' ? 'info' : 'debug');

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_ID = /^[A-Za-z0-9._-]{1,64}$/;
const ID = Symbol('requestId');
const PREFIX = `${crypto.randomBytes(6).toString('hex')}-`;
let seq = 0;

/** This request's id (computed once per request): the caller's X-Request-Id if sane, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const r = req as IncomingMessage & { [ID]?: string };
  if (r[ID] !== undefined) return r[ID];
  const given = req.headers[REQUEST_ID_HEADER];
  return (r[ID] = typeof given === 'string' && SANE_ID.test(given) ? given : PREFIX + (++seq).toString(36));
}
