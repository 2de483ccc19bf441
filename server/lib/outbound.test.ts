// The outbound client against real servers on loopback: every form of an internal address is
// refused before a connection is made (literal tricks, names that resolve inside, a DNS answer
// that changes between the save and the send); an allowed range is reached; a redirect is the
// receiver's answer and is not followed; failures read the same whatever stopped them.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  isInternalAddress, outboundClient, parseAllowedRanges, OUTBOUND_HTTP_ONLY_INSIDE, OUTBOUND_REFUSED, OUTBOUND_UNREACHABLE, outboundNoAnswer,
  type OutboundError, type Resolved, type Resolver,
} from './outbound.ts';
import { Listener } from '../test-listener.ts';


const v6Loopback = await new Promise<boolean>((resolve) => {
  const s = net.createServer().once('error', () => resolve(false)).listen(0, '::1', () => s.close(() => resolve(true)));
});

let inside: Listener; // 127.0.0.1: what an attacker would like to read
let inside6: Listener | null; // ::1
let allowedReceiver: Listener; // 127.0.0.1 too, reached only where the operator allowed it
beforeAll(async () => {
  inside = await new Listener('127.0.0.1').start();
  inside6 = v6Loopback ? await new Listener('::1').start() : null;
  allowedReceiver = inside;
});
afterAll(async () => {
  await inside.stop();
  await inside6?.stop();
});
beforeEach(() => {
  for (const l of [inside, inside6]) if (l) Object.assign(l, { connections: 0, requests: 0, answer: (_r: unknown, res: http.ServerResponse) => res.writeHead(200).end('internal secret') });
});

/** A resolver a test controls: each name's answer, changed at will; other names do not resolve. */
function fakeDns(table: Record<string, string[]>): Resolver & { table: Record<string, string[]>; asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<Resolved[]> => {
    asked.push(hostname);
    const found = resolve.table[hostname];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: net.isIP(address) }));
  };
  resolve.table = table;
  resolve.asked = asked;
  return resolve;
}

const post = (client: ReturnType<typeof outboundClient>, url: string, timeoutMs = 5000) =>
  client.post(new URL(url), { headers: { 'content-type': 'application/json' }, body: '{"lead":1}', timeoutMs });
const failureOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return { failure: (err as OutboundError).failure, message: (err as OutboundError).message };
  }
  throw new Error('the request went through');
};

describe('the internal ranges', () => {
  it('knows every internal address in each of its forms, and leaves public ones alone', () => {
    const internal = [
      '127.0.0.1', '127.255.255.254', '0.0.0.0', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
      '100.100.100.200', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.2.1', '198.18.0.1',
      '::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1', 'fc00::1', 'fd00:ec2::254',
      'fe80::1', 'fec0::1', 'ff02::1', '2001:db8::1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1', '2002:7f00:1::1', '2002:c0a8:101::',
    ];
    const external = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '93.184.215.14', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::'];
    expect(internal.filter((a) => !isInternalAddress(a))).toEqual([]);
    expect(external.filter((a) => isInternalAddress(a))).toEqual([]);
  });

  it('reads OUTBOUND_ALLOW_CIDRS, and stops the start on anything but ranges', () => {
    expect(parseAllowedRanges(undefined)).toEqual([]);
    expect(parseAllowedRanges(' 10.1.2.0/24, 127.0.0.1/32 ,fd00:1::/64,192.168.0.9 ')).toEqual(['10.1.2.0/24', '127.0.0.1/32', 'fd00:1::/64', '192.168.0.9']);
    for (const bad of ['10.1.2.0/33', 'crm.local', '10.1.2/24', '10.1.2.0/24/1', '::1/129', '10.0.0.0/x']) {
      expect(() => parseAllowedRanges(bad), bad).toThrow(`OUTBOUND_ALLOW_CIDRS의 ${bad}`);
    }
  });
});

describe('an internal address', () => {
  const dns = fakeDns({ 'crm.loopback.test': ['127.0.0.1'], 'crm.lan.test': ['10.0.0.7', '192.168.0.7'], 'crm.v6.test': ['::1'], 'metadata.test': ['169.254.169.254'] });
  const client = outboundClient({ resolve: dns });
  const port = () => inside.port;
  // Each is 127.0.0.1 (or ::1) to the socket: the URL parser and the resolver make them so.
  const forms = () => [
    `http://127.0.0.1:${port()}/hook`, `https://127.0.0.1:${port()}/hook`, `http://2130706433:${port()}/`, `https://2130706433:${port()}/`,
    `http://0177.0.0.1:${port()}/`, `https://0x7f.0.0.1:${port()}/`, `https://0x7f000001:${port()}/`, `https://127.1:${port()}/`,
    `HTTPS://LOCALHOST:${port()}/`, `https://localhost.:${port()}/`, `https://api.localhost:${port()}/`, `https://127.0.0.1.:${port()}/`,
    `https://[::ffff:127.0.0.1]:${port()}/`, `https://[::ffff:7f00:1]:${port()}/`, `https://[64:ff9b::7f00:1]:${port()}/`,
    `https://crm.loopback.test:${port()}/`, `https://0.0.0.0:${port()}/`, `https://0:${port()}/`,
    ...(inside6 ? [`https://[::1]:${inside6.port}/`, `https://crm.v6.test:${inside6.port}/`] : []),
  ];

  it('is refused when saved: every form of loopback, the private ranges, link-local and metadata, names that resolve there', async () => {
    const others = ['https://10.0.0.5/', 'https://172.16.3.4/', 'https://192.168.0.1/', 'https://169.254.169.254/latest/meta-data/', 'https://100.64.1.1/',
      'https://[fd00::1]/', 'https://[fe80::1]/', 'https://[::1]/', 'https://224.0.0.1/', 'https://255.255.255.255/', 'https://crm.lan.test/', 'https://metadata.test/',
      'http://10.0.0.5/', 'http://crm.lan.test/'];
    for (const url of [...forms(), ...others]) expect(await client.urlProblem(url), url).toBe(OUTBOUND_REFUSED);
    // The outside is fine over https; plain http is for allowed ranges only.
    dns.table['crm.example.test'] = ['93.184.215.14'];
    expect(await client.urlProblem('https://crm.example.test/hook')).toBeNull();
    expect(await client.urlProblem('https://93.184.215.14/hook')).toBeNull();
    expect(await client.urlProblem('http://crm.example.test/hook')).toBe(OUTBOUND_HTTP_ONLY_INSIDE);
    expect(await client.urlProblem('http://93.184.215.14/hook')).toBe(OUTBOUND_HTTP_ONLY_INSIDE);
    // A name that does not resolve (yet) over https: its sends will tell; over http: refused.
    expect(await client.urlProblem('https://not-yet.test/hook')).toBeNull();
    expect(await client.urlProblem('http://not-yet.test/hook')).toBe(OUTBOUND_HTTP_ONLY_INSIDE);
  });

  it('is refused when sent, before any connection is made, with the same words for every form', async () => {
    for (const url of forms()) {
      expect(await failureOf(post(client, url)), url).toEqual({ failure: 'refused', message: OUTBOUND_REFUSED });
    }
    expect(inside.connections).toBe(0);
    expect(inside6?.connections ?? 0).toBe(0);
  });

  it('is refused when a name answered outside at the save and inside at the send (DNS rebinding)', async () => {
    const rebinding = fakeDns({ 'crm.rebind.test': ['93.184.215.14'] });
    const c = outboundClient({ resolve: rebinding });
    const url = `https://crm.rebind.test:${inside.port}/hook`;
    expect(await c.urlProblem(url)).toBeNull();
    rebinding.table['crm.rebind.test'] = ['127.0.0.1'];
    expect(await failureOf(post(c, url))).toEqual({ failure: 'refused', message: OUTBOUND_REFUSED });
    // Checked in the socket's own lookup: the answer it judged is the one it would have connected to.
    expect(rebinding.asked).toEqual(['crm.rebind.test', 'crm.rebind.test']);
    expect(inside.connections).toBe(0);
  });
});

describe('an allowed range', () => {
  it('is reached, over plain http too, and by a name that resolves into it; the rest of the inside stays refused', async () => {
    const dns = fakeDns({ 'crm.onprem.test': ['127.0.0.1'], 'mixed.test': ['127.0.0.2', '127.0.0.1'] });
    const client = outboundClient({ allow: ['127.0.0.1/32'], resolve: dns });
    expect(await client.urlProblem(`http://127.0.0.1:${allowedReceiver.port}/hook`)).toBeNull();
    expect(await client.urlProblem(`http://2130706433:${allowedReceiver.port}/hook`)).toBeNull();
    expect(await client.urlProblem('http://crm.onprem.test/hook')).toBeNull();
    expect(await client.urlProblem('http://127.0.0.2/hook')).toBe(OUTBOUND_REFUSED);

    expect(await post(client, `http://127.0.0.1:${allowedReceiver.port}/hook`)).toEqual({ status: 200, body: 'internal secret' });
    expect(await post(client, `http://crm.onprem.test:${allowedReceiver.port}/hook`)).toEqual({ status: 200, body: 'internal secret' });
    // A name answering an allowed and a refused address: only the allowed one is connected to.
    expect(await post(client, `http://mixed.test:${allowedReceiver.port}/hook`)).toEqual({ status: 200, body: 'internal secret' });
    expect(allowedReceiver.requests).toBe(3);
    expect(await failureOf(post(client, `http://127.0.0.2:${allowedReceiver.port}/hook`))).toEqual({ failure: 'refused', message: OUTBOUND_REFUSED });
  });

  it('does not follow a redirect: a 3xx is the answer, its Location is never asked', async () => {
    const target = await new Listener('127.0.0.2').start();
    const client = outboundClient({ allow: ['127.0.0.1/32'] });
    allowedReceiver.answer = (_req, res) => res.writeHead(302, { location: `http://127.0.0.2:${target.port}/secret` }).end();
    expect(await post(client, `http://127.0.0.1:${allowedReceiver.port}/hook`)).toMatchObject({ status: 302 });
    expect(target.connections).toBe(0);
    await target.stop();
  });

  it('says "cannot connect" alike for a closed port, a reset and a failed TLS handshake; only a receiver that took the request and kept silent is "no answer"', async () => {
    const client = outboundClient({ allow: ['127.0.0.1/32'] });
    const closed = await new Listener('127.0.0.1').start();
    const closedPort = closed.port;
    await closed.stop();
    const reset = net.createServer((s) => s.resetAndDestroy()).listen(0, '127.0.0.1');
    await new Promise((resolve) => reset.once('listening', resolve));
    const unreachable = { failure: 'unreachable', message: OUTBOUND_UNREACHABLE };
    expect(await failureOf(post(client, `http://127.0.0.1:${closedPort}/`))).toEqual(unreachable);
    expect(await failureOf(post(client, `http://127.0.0.1:${(reset.address() as AddressInfo).port}/`))).toEqual(unreachable);
    // https to a plain-http server: the handshake fails.
    expect(await failureOf(post(client, `https://127.0.0.1:${allowedReceiver.port}/`))).toEqual(unreachable);
    await new Promise((resolve) => reset.close(resolve));

    allowedReceiver.answer = () => {}; // takes the request, never answers
    expect(await failureOf(post(client, `http://127.0.0.1:${allowedReceiver.port}/`, 300))).toEqual({ failure: 'timeout', message: outboundNoAnswer(300) });
  });
});
