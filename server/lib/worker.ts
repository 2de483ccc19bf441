// Worker threads for work that would block the event loop (SQLite writes, reading uploaded files).
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** True when this code runs from TypeScript sources (tsx, vitest) rather than the build. */
const fromSources = import.meta.url.endsWith('.ts');

/**
 * Starts the worker module `name` (without extension) that sits beside `base` (import.meta.url
 * of the caller): its .js file in the build, its .ts file through tsx when running from sources.
 * `options` (e.g. resourceLimits) apply to the thread either way.
 */
export function startWorker(base: string, name: string, data: Record<string, unknown>, options: Omit<WorkerOptions, 'workerData'> = {}): Worker {
  if (!fromSources) return new Worker(new URL(`./${name}.js`, base), { ...options, workerData: data });
  const entry = new URL(`./${name}.ts`, base).href;
  return new Worker(new URL('./ts-worker-boot.mjs', import.meta.url), { ...options, workerData: { ...data, __entry: entry } });
}
