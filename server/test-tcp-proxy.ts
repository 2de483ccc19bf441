// Test support: a TCP proxy on 127.0.0.1 in front of a server (PostgreSQL), to do to the
// connections through it what a network does — stall them (the packets vanish, nothing is
// closed) or cut them (connections reset, new ones refused) — and to restore it.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** `url` (postgres://…) with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Connections open now pass nothing more, either way, and close nothing; new ones pass as usual. */
  stall(): void;
  /** Every connection is reset and new ones are refused. */
  cut(): Promise<void>;
  /** New connections are taken again (after cut()). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    stall() {
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const { client, upstream } of pairs) {
          client.resetAndDestroy();
          upstream.destroy();
        }
      });
    },
    restore: () => listen(port),
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
