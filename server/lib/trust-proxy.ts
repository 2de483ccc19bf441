// TRUST_PROXY: which of the hops a request came through are our own proxies. The client is the
// right-most address of X-Forwarded-For that is not one of them: everything left of it was
// written by the client (or by proxies we do not know) and proves nothing. Fastify's req.ip and
// the hot paths that answer before Fastify (plugins/fast-path.ts) both ask the one trust
// function built here, through @fastify/proxy-addr, the package Fastify itself uses.
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Off; the number of proxies in front of the app (`1`: nginx alone); or the proxies' addresses
 * and CIDRs (proxy-addr also knows `loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = false | number | string[];

/** Whether the address `hop` steps from the app (0: the socket's peer) is one of our proxies. */
export type TrustFunction = (address: string, hop: number) => boolean;

const USAGE = '앞단 프록시의 수(예: TRUST_PROXY=1) 또는 주소·CIDR 목록(예: TRUST_PROXY=10.0.0.5,10.0.1.0/24)을 적습니다';

/** TRUST_PROXY's value; anything unclear stops the start with the reason. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0' || value.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  // Fastify's `true` trusts every hop: the left-most, client-written address would become the client.
  if (value.toLowerCase() === 'true') throw new Error(`TRUST_PROXY=true는 X-Forwarded-For의 모든 주소를 믿어 누구나 IP를 꾸밀 수 있어 받지 않습니다. ${USAGE}.`);
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  try {
    proxyAddr.compile(list);
  } catch (err) {
    throw new Error(`TRUST_PROXY에 알 수 없는 주소가 있습니다 (${err instanceof Error ? err.message : String(err)}): ${USAGE}.`, { cause: err });
  }
  return list;
}

export function trustFunction(trust: TrustProxy): TrustFunction {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyAddr.compile(trust);
}

/** The client's address as Fastify's req.ip gives it under the same trust function. */
export function clientAddress(req: IncomingMessage, trust: TrustFunction): string {
  return proxyAddr(req, trust) ?? '';
}

/** The host a request names (as Fastify's req.host): the last X-Forwarded-Host only when the peer is our proxy. */
export function requestHostOf(req: IncomingMessage, trust: TrustFunction): string {
  const forwarded = req.headers['x-forwarded-host'];
  if (forwarded && trust(req.socket?.remoteAddress ?? '', 0)) return String(forwarded).split(',').at(-1)!.trim();
  return req.headers.host ?? '';
}
