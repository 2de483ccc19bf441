// What the rest of the server may use of the operations module: the worker heartbeat's row
// (server/worker/heartbeat.ts), which /api/health reads.
export { workerHeartbeats } from './operations.service.ts';
