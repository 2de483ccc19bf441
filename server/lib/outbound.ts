// Every request the server makes on a user's behalf (a shop's webhook, its SMS gateway) goes
// through one client, because the address is the user's to choose and the server sits inside
// the agency's network: it must never become a way to reach this machine, the LAN or the
// cloud's metadata service. So:
//
// - The host is resolved, and only addresses outside the internal ranges (loopback, private,
//   link-local, CGNAT, multicast, reserved … and their IPv4-mapped, NAT64 and 6to4 forms) are
//   connected to. The check runs inside the socket's own `lookup`, on the very addresses the
//   socket then connects to: a name that answers a public address when saved and a private one
//   when sent (DNS rebinding) is refused at the connect. A literal address is checked before
//   any socket is made, and every new socket's peer once more before a byte is written.
// - Plain http only to ranges the operator allowed (OUTBOUND_ALLOW_CIDRS, an on-premise CRM):
//   leads leave the building over TLS. The allowed ranges are the only way inside.
// - Redirects are never followed (node:http does not): a 3xx is the receiver's answer.
// - Failures say little: a refused address is "내부망 주소", anything that did not connect is
//   "연결할 수 없습니다" — refused, reset, no DNS, a failed TLS handshake and a connect timeout
//   alike, so the messages scan no ports. Only a request that reached a receiver over its
//   (TLS) connection and waited too long says so.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { DELIVERY_URL_MESSAGE } from '../../contracts/delivery-channels.ts';

export const OUTBOUND_REFUSED = '내부망 주소로는 보낼 수 없습니다.';
export const OUTBOUND_UNREACHABLE = '수신 서버에 연결할 수 없습니다. 주소와 서버 상태를 확인하세요.';
export const outboundNoAnswer = (timeoutMs: number) => `수신 서버가 ${(timeoutMs / 1000).toLocaleString('ko-KR')}초 안에 응답하지 않았습니다.`;
/** Added to a 3xx answer's message. */
export const REDIRECT_NOT_FOLLOWED = '다른 주소로 넘기는 응답은 따라가지 않습니다. 최종 주소를 입력하세요.';
/** Plain http to anything but an allowed range: said as the form's URL rule says it. */
export const OUTBOUND_HTTP_ONLY_INSIDE = DELIVERY_URL_MESSAGE;

/** Bytes of an answer read at most: the rest is not waited for. */
const ANSWER_BYTES = 64 * 1024;

export type Resolved = { address: string; family: number };
/** Answers every address of a host name (tests inject one; the default is the system's resolver). */
export type Resolver = (hostname: string) => Promise<Resolved[]>;

type OutboundFailure = 'refused' | 'unreachable' | 'timeout';
export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(readonly failure: OutboundFailure, message: string) {
    super(message);
  }
}

/** Any failure of a post as the sender reports it (an unexpected throw is one more "cannot connect"). */
export const outboundError = (err: unknown): OutboundError =>
  err instanceof OutboundError ? err : Object.assign(new OutboundError('unreachable', OUTBOUND_UNREACHABLE), { cause: err });

// ── The internal ranges ──────────────────────────────────────────────────────────────────

const DENIED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 (reaches this machine)
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (also some clouds' metadata, 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, the metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relays
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 broadcast
];
const DENIED_V6: Array<[string, number]> = [
  ['::', 96], // unspecified ::, loopback ::1, IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID …)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique-local (also fd00:ec2::254, a metadata service)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

function blockList(ranges: Array<[string, number]>, type: 'ipv4' | 'ipv6'): net.BlockList {
  const list = new net.BlockList();
  for (const [address, prefix] of ranges) list.addSubnet(address, prefix, type);
  return list;
}
const DENIED = { v4: blockList(DENIED_V4, 'ipv4'), v6: blockList(DENIED_V6, 'ipv6') };

/** The 16 bytes of an IPv6 address (`net.isIP(a) === 6`), a trailing dotted quad included. */
function ipv6Bytes(address: string): number[] {
  let a = address.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (quad) {
    const [b0, b1, b2, b3] = quad.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, quad.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.split('::') as [string, string | undefined];
  const words = (s: string | undefined) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const h = words(head);
  const t = words(tail);
  const all = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

const v4Of = (bytes: number[], at: number) => bytes.slice(at, at + 4).join('.');

/** The IPv4 address an IPv6 one carries where it reaches that IPv4 host (mapped, NAT64, 6to4), else null. */
function embeddedV4(address: string): string | null {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4Of(b, 12); // ::ffff:a.b.c.d
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4Of(b, 12); // 64:ff9b::a.b.c.d
  if (b[0] === 0x20 && b[1] === 0x02) return v4Of(b, 2); // 2002:aabb:ccdd::
  return null;
}

/** An address inside the ranges no user may send to (any form of it). */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return DENIED.v4.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedV4(address);
  return v4 ? DENIED.v4.check(v4, 'ipv4') : DENIED.v6.check(address, 'ipv6');
}

/**
 * OUTBOUND_ALLOW_CIDRS: comma-separated ranges (`10.1.2.0/24`, `fd00:1::/64`, a bare address).
 * Anything else stops the start with the reason.
 */
export function parseAllowedRanges(value: string | undefined): string[] {
  const parts = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const p of parts) {
    const [address = '', prefix, extra] = p.split('/');
    const family = net.isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
    if (!family || extra !== undefined || bits < 0 || bits > (family === 6 ? 128 : 32)) {
      throw new Error(`OUTBOUND_ALLOW_CIDRS의 ${p}은(는) 주소 범위가 아닙니다. 10.1.2.0/24,127.0.0.1/32 처럼 쉼표로 나눠 적습니다.`);
    }
  }
  return parts;
}

function allowList(ranges: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const r of parseAllowedRanges(ranges.join(','))) {
    const [address = '', prefix] = r.split('/');
    const type = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(address, prefix === undefined ? (type === 'ipv6' ? 128 : 32) : Number(prefix), type);
  }
  return list;
}

// ── The client ───────────────────────────────────────────────────────────────────────────

interface OutboundOptions {
  /** Ranges the operator allowed (OUTBOUND_ALLOW_CIDRS): reachable even though internal, and by plain http. */
  allow?: readonly string[];
  /** How host names resolve (default: the system's resolver, every address). */
  resolve?: Resolver;
}

export interface OutboundAnswer {
  status: number;
  /** The start of the answer (up to 64 KB). */
  body: string;
}

export interface OutboundPost {
  headers: Record<string, string>;
  body: string | Buffer;
  timeoutMs: number;
}

export interface OutboundClient {
  /**
   * Why a receiver's URL may not be saved, in Korean, or null. A literal address is judged as
   * is; a host name by what it resolves to now — refused when no address it answers may be
   * reached (it is resolved again, and judged again, at every connect). A name that does not
   * resolve yet is accepted for https (the test send will tell).
   */
  urlProblem(url: string): Promise<string | null>;
  /** POSTs `body` (text, or bytes: an encrypted Web Push); the status and the start of the answer, or throws an OutboundError. */
  post(url: URL, init: OutboundPost): Promise<OutboundAnswer>;
}

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** `localhost` and its sub-domains are this machine whatever a resolver says (RFC 6761). */
const isLocalhostName = (hostname: string) => /(?:^|\.)localhost\.?$/i.test(hostname);
const LOCALHOST: Resolved[] = [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

export function outboundClient(o: OutboundOptions = {}): OutboundClient {
  const allowed = allowList(o.allow ?? []);
  const resolver = o.resolve ?? systemResolver;
  const resolve = (hostname: string) => (isLocalhostName(hostname) ? Promise.resolve(LOCALHOST) : resolver(hostname));

  // BlockList matches an IPv4-mapped address against the IPv4 ranges too.
  const isAllowed = (address: string) => allowed.check(address, net.isIP(address) === 6 ? 'ipv6' : 'ipv4');
  /** May a request of this scheme go to this address. */
  const permits = (protocol: string, address: string) => isAllowed(address) || (protocol === 'https:' && !isInternalAddress(address));

  /** Why none of these addresses may be reached: an internal one, or plain http to the outside. */
  const refusal = (protocol: string, addresses: readonly string[]) =>
    protocol === 'http:' && !addresses.some(isInternalAddress) ? OUTBOUND_HTTP_ONLY_INSIDE : OUTBOUND_REFUSED;
  const refused = (protocol: string, addresses: readonly string[]) => new OutboundError('refused', refusal(protocol, addresses));

  /** The socket's own lookup: only the permitted addresses are handed to the connect. */
  const lookupFor = (protocol: string): net.LookupFunction => (hostname, options, callback) => {
    const cb = callback as (err: Error | null, address: string | Resolved[], family?: number) => void;
    resolve(hostname).then(
      (found) => {
        const usable = found.filter((a) => (!options.family || a.family === options.family) && permits(protocol, a.address));
        if (usable.length > 0) return options.all ? cb(null, usable) : cb(null, usable[0]!.address, usable[0]!.family);
        const addresses = found.map((a) => a.address);
        cb(addresses.length ? refused(protocol, addresses) : Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      },
      (err: Error) => cb(err, ''),
    );
  };

  /** Connections kept open between deliveries to one receiver; every new socket's peer is checked before anything is written. */
  function agentFor<A extends typeof http.Agent | typeof https.Agent>(Base: A, protocol: string): InstanceType<A> {
    const agent = new Base({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, scheduling: 'lifo', timeout: 60_000, lookup: lookupFor(protocol) });
    const create = agent.createConnection.bind(agent) as (options: object, cb?: unknown) => Duplex;
    agent.createConnection = ((options: object, cb?: unknown) => {
      const socket = create(options, cb) as net.Socket;
      socket.prependOnceListener('connect', () => {
        const peer = socket.remoteAddress ?? '';
        if (!permits(protocol, peer)) socket.destroy(refused(protocol, [peer]));
      });
      return socket;
    }) as typeof agent.createConnection;
    return agent as InstanceType<A>;
  }
  const agents: Record<string, http.Agent> = { 'http:': agentFor(http.Agent, 'http:'), 'https:': agentFor(https.Agent, 'https:') };

  function postOnce(url: URL, init: OutboundPost): Promise<OutboundAnswer> {
    return new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      let connected = false;
      let answered = false;
      let timedOut = false;
      const req = (secure ? https : http).request(url, {
        method: 'POST', agent: agents[url.protocol], headers: { ...init.headers, 'content-length': Buffer.byteLength(init.body) },
      }, (res) => {
        answered = true;
        let body = '';
        let bytes = 0;
        const done = () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body });
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          bytes += chunk.length;
          if (body.length < ANSWER_BYTES) body += chunk;
          if (bytes > ANSWER_BYTES) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', (err) => fail(err));
      });
      req.on('socket', (socket: net.Socket) => {
        if (!socket.connecting) connected = true;
        else socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true));
      });
      const fail = (err: Error) => {
        clearTimeout(timer);
        if (err instanceof OutboundError) return reject(err);
        // Only a connection that was made (its TLS too) and then kept waiting is told apart; the rest is one answer.
        const failure = timedOut && connected ? new OutboundError('timeout', outboundNoAnswer(init.timeoutMs)) : new OutboundError('unreachable', OUTBOUND_UNREACHABLE);
        // A reused connection reset before any answer: the receiver closed it as it was reused (worth one more try, on a new one).
        const reused = req.reusedSocket && !answered && (err as { code?: string }).code === 'ECONNRESET';
        reject(Object.assign(failure, { cause: err, reused }));
      };
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new Error('timeout'));
      }, init.timeoutMs);
      req.on('error', fail);
      req.end(init.body);
    });
  }

  return {
    async urlProblem(value) {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return OUTBOUND_HTTP_ONLY_INSIDE;
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return OUTBOUND_HTTP_ONLY_INSIDE;
      const host = bare(url.hostname);
      let found: Resolved[];
      if (net.isIP(host)) found = [{ address: host, family: net.isIP(host) }];
      else {
        try {
          found = await resolve(host);
        } catch {
          found = [];
        }
      }
      if (found.some((a) => permits(url.protocol, a.address))) return null;
      // https to a name that does not resolve (yet): the sends will say whether it ever does.
      if (found.length === 0 && url.protocol === 'https:') return null;
      return refusal(url.protocol, found.map((a) => a.address));
    },

    async post(url, init) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundError('refused', OUTBOUND_HTTP_ONLY_INSIDE);
      // A literal address never reaches the lookup: judged here, before a socket is made.
      const host = bare(url.hostname);
      if (net.isIP(host) && !permits(url.protocol, host)) throw refused(url.protocol, [host]);
      try {
        return await postOnce(url, init);
      } catch (err) {
        // A kept-alive connection the receiver closed just as it was reused fails before anything was read: once more on a new one, as Node advises.
        if ((err as { reused?: boolean }).reused) return postOnce(url, init);
        throw err;
      }
    },
  };
}

let fallback: OutboundClient | undefined;
/** The client of a sender handed none: nothing inside is allowed. */
export const defaultOutbound = (): OutboundClient => (fallback ??= outboundClient());
