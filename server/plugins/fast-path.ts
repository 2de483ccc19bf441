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
 * A fast path's status and headers, with its request id, in one writeHead of a flat list on a
 * response with no header set yet: Node then stores the list as given. A header set before made
 * it set each one again (a landing GET cost 72 µs of the event loop, 40 at 4babd9d), and a new
 * object per answer made it walk that object's keys slowly. An object's list is made once (a
 * fast path hands the same object every time); `more`: this answer's own headers, a flat list.
 */
export function writeFastHead(res: ServerResponse, status: number, headers: Readonly<OutgoingHttpHeaders>, more: readonly string[] = []): void {
  res.writeHead(status, [...flatHeaders(headers), ...more, REQUEST_ID_HEADER, requestIdOf(res.req)]);
}

const flatLists = new WeakMap<object, readonly string[]>();

function flatHeaders(headers: Readonly<OutgoingHttpHeaders>): readonly string[] {
  let flat = flatLists.get(headers);
  if (!flat) {
    flat = Object.entries(headers).flatMap(([k, v]) => (v === undefined ? [] : Array.isArray(v) ? v.flatMap((x) => [k, x]) : [k, String(v)]));
    flatLists.set(headers, flat);
  }
  return flat;
}

/** The client address as Fastify gives it (req.ip): the same TRUST_PROXY rule (lib/trust-proxy.ts). */
export function clientIp(app: FastifyInstance, req: IncomingMessage): string {
  return clientAddress(req, app.proxyTrust);
}
