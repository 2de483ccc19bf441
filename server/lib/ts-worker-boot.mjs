// Starts a worker thread written in TypeScript when the server itself runs from sources
// (tsx, vitest): registers tsx's loader in this thread, then imports the real entry.
// The built server (dist/app) starts its compiled .js workers directly and never loads this.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.__entry);
