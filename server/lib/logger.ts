// Logs: JSON lines for production log pipelines (LOG_FORMAT=json), or short human-readable
// lines for a person at a terminal (the default), where one line per request would bury the
// start banner: there, requests are not logged one by one — warnings and errors are.
import pino from 'pino';
import { LogController, type FastifyBaseLogger } from 'fastify';
import pretty from 'pino-pretty';
import type { Config } from '../config.ts';

export interface LoggerSetup {
  loggerInstance?: FastifyBaseLogger;
  logger?: false;
  logController?: LogController;
}

export function loggerFor(config: Pick<Config, 'logLevel' | 'logFormat'>): LoggerSetup {
  if (config.logLevel === 'silent') return { logger: false };
  if (config.logFormat === 'json') return { loggerInstance: pino({ level: config.logLevel }) };
  const stream = pretty({ colorize: !!process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId', sync: true });
  return { loggerInstance: pino({ level: config.logLevel }, stream), logController: new LogController({ disableRequestLogging: true }) };
}
