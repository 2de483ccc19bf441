// The METRICS_PORT servers (npm run worker, the cluster's primary) answer a scraper and nothing
// else: GET and HEAD of /metrics from this machine; any other method 405, any other path 404.
import { once } from 'node:events';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics, serveClusterMetrics, serveMetrics } from './metrics.ts';

let server: http.Server | undefined;
afterEach(async () => {
  server?.close();
  if (server) await once(server, 'close');
  server = undefined;
});

async function base(s: http.Server): Promise<string> {
  server = s;
  if (!s.listening) await once(s, 'listening');
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

const registry = createMetrics().registry;
const servers = {
  worker: () => serveMetrics(0, async () => ({ text: await registry.metrics(), contentType: registry.contentType })),
  cluster: () => serveClusterMetrics(0),
};

describe.each(Object.entries(servers))('the %s metrics port', (_name, start) => {
  it('answers GET and HEAD of /metrics', async () => {
    const url = await base(start());
    const get = await fetch(`${url}/metrics`);
    expect(get.status).toBe(200);
    expect(get.headers.get('cache-control')).toBe('no-store');
    await get.text();
    const head = await fetch(`${url}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('refuses every other method with 405 and other paths with 404', async () => {
    const url = await base(start());
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const res = await fetch(`${url}/metrics`, { method, ...(method === 'OPTIONS' ? {} : { body: 'x' }) });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404);
  });
});
