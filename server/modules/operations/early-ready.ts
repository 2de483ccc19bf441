// The port answers from the first moment, before the app is built: while this process migrates
// and seeds (which may wait on another process's set-up lock), /api/ready answers 503
// `starting` — a load balancer holds traffic back rather than finding the port closed or, worse,
// a half-started app — and every other request a 503 with Retry-After. Once the app is built
// this server closes and the app listens on the same port. (On SQLite the migrations run on the
// event loop, so during one long migration step nothing answers at all.)
import http from 'node:http';
import { errorBody, ERROR_CODES } from '../../../contracts/errors.ts';
import { healthApi, type ReadyReport } from '../../../contracts/health.ts';

const STARTING_MESSAGE = '서버를 시작하는 중입니다. 잠시 후 다시 시도하세요.';

interface EarlyServer {
  /** Stops answering (closes the port and its connections) so the app can listen there. */
  close(): Promise<void>;
}

export async function listenWhileStarting(port: number, host: string): Promise<EarlyServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    const body = path === healthApi.ready.path
      ? JSON.stringify({ ready: false, state: 'starting' } satisfies ReadyReport)
      : JSON.stringify(errorBody(ERROR_CODES.INTERNAL, STARTING_MESSAGE));
    // Connection: close — the client's next request reaches the app, not this stand-in.
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '5', connection: 'close' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
