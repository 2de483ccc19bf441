// Server-sent event streams (text/event-stream) for the back office: a comment every 25 s keeps
// proxies from closing the connection, the session and the route's access (screen, side, shop)
// are checked again every minute (a stream never outlives its login, nor the account's right to
// the shop; the checks do not count as activity), and the server ends every stream when it closes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkAccess, SESSION_COOKIE } from './auth.ts';
import { toSessionAccount } from '../db/sessions.ts';

const HEARTBEAT_MS = 25_000;
const SESSION_CHECK_MS = 60_000;

interface EventStream {
  send(event: string, data: unknown): void;
  /** Runs when the stream ends (the browser left, the session ended, the server closed). */
  onEnd(fn: () => void): void;
}

/**
 * The event streams of routes registered with this app (call while building it): each opened
 * with `open(req, reply)`, all ended when the server closes.
 */
export function eventStreams(app: FastifyInstance): { open(req: FastifyRequest, reply: FastifyReply): EventStream } {
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
  return { open: (req, reply) => openEventStream(app, streams, req, reply) };
}

function openEventStream(app: FastifyInstance, streams: Set<() => void>, req: FastifyRequest, reply: FastifyReply): EventStream {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  // Reconnect after 3 s when the connection drops (EventSource does so on its own).
  res.write('retry: 3000\n\n');

  const ends: Array<() => void> = [];
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(beat);
    clearInterval(check);
    streams.delete(end);
    for (const fn of ends) fn();
    res.end();
  };
  streams.add(end);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const token = req.cookies[SESSION_COOKIE];
  const access = req.routeOptions.config.access;
  // Throws (403) when the account has lost the screen or the shop since the stream opened.
  const stillAllowed = async () => {
    const s = token ? await app.sessions.resume(token, { background: true }) : null;
    if (s && access && 'screen' in access) await checkAccess(app.sessions, toSessionAccount(s.account), access, req.params);
    return !!s;
  };
  const check = setInterval(() => {
    void stillAllowed()
      .then((ok) => {
        if (!ok) end();
      })
      .catch(end);
  }, SESSION_CHECK_MS);
  req.raw.on('close', end);

  return {
    send(event, data) {
      if (!ended) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    onEnd: (fn) => void ends.push(fn),
  };
}
