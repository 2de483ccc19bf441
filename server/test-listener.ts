// A server on a loopback address that counts every connection and request made to it: the
// outbound tests check that a refused address gets no connection at all, and what a receiver
// answered reaches (or does not reach) the caller.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server on `host` that counts every connection made to it (a refusal must make none). */
export class Listener {
  server!: http.Server;
  port = 0;
  connections = 0;
  requests = 0;
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.writeHead(200).end('internal secret');
  constructor(readonly host: string) {}
  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      this.requests++;
      req.resume();
      req.on('end', () => this.answer(req, res));
    });
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server.listen(0, this.host, resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
