// Hot paths answered before Fastify's routing and hooks run: a cached landing page GET and a
// JSON lead submission. Each handler says whether it took the request; the rest go to Fastify.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER, requestIdOf } from '../lib/logger.ts';
import { clientAddress } from '../lib/trust-proxy.ts';

type FastHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

declare module 'fastify' {
  interface FastifyInstance {
    fastPaths: FastHandler[];
  }
}

export function installFastPaths(app: FastifyInstance): void {
  const handlers: FastHandler[] = [];
  app.decorate('fastPaths', handlers);
  const server = app.server;
  const [fastify] = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (!fastify || server.listenerCount('request') !== 1) return;
  server.removeAllListeners('request');
  // Counted as plain integers (metrics.ts reads them when scraped): no per-request timing here.
  const fast = app.hasDecorator('metrics') ? app.metrics.fast : { landing: 0, intake: 0 };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Every answer names its request (logger.ts); Fastify's request id is this same one.
    res.setHeader(REQUEST_ID_HEADER, requestIdOf(req));
    for (const handle of handlers) {
      if (handle(req, res)) {
        if (req.method === 'POST') fast.intake++;
        else fast.landing++;
        return;
      }
    }
    fastify.call(server, req, res);
  });
}

/** The client address as Fastify gives it (req.ip): the same TRUST_PROXY rule (lib/trust-proxy.ts). */
export function clientIp(app: FastifyInstance, req: IncomingMessage): string {
  return clientAddress(req, app.proxyTrust);
}
