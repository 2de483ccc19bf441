// Hot paths answered before Fastify's routing and hooks run: a cached landing page GET and a
// JSON lead submission. Each handler says whether it took the request; the rest go to Fastify.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
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
    for (const handle of handlers) {
      if (handle(req, res)) {
        if (req.method === 'POST') fast.intake++;
        else fast.landing++;
        return;
      }
    }
    // Every answer names its request (logger.ts); Fastify's request id is this same one.
    res.setHeader(REQUEST_ID_HEADER, requestIdOf(req));
    fastify.call(server, req, res);
  });
}

/**
 * A fast path's status and headers, with its request id, in one writeHead on a response that has
 * no header set yet: Node then stores the headers as given, while a header set before makes it
 * set each one again, checked (a landing GET cost 72 µs of the event loop that way, 40 before).
 */
export function writeFastHead(res: ServerResponse, status: number, headers: Readonly<OutgoingHttpHeaders> | readonly string[]): void {
  const id = requestIdOf(res.req);
  if (isFlat(headers)) res.writeHead(status, [...headers, REQUEST_ID_HEADER, id]);
  else res.writeHead(status, { ...headers, [REQUEST_ID_HEADER]: id });
}

const isFlat = (h: Readonly<OutgoingHttpHeaders> | readonly string[]): h is readonly string[] => Array.isArray(h);

/** The client address as Fastify gives it (req.ip): the same TRUST_PROXY rule (lib/trust-proxy.ts). */
export function clientIp(app: FastifyInstance, req: IncomingMessage): string {
  return clientAddress(req, app.proxyTrust);
}
