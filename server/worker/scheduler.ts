// The in-process scheduler: each job runs once when started and then every `everyMs`, never
// overlapping itself (a run still going when the next is due skips that turn). Timers do not
// keep the process alive; stop() clears them and waits for the runs in progress, so the
// database is still open when they finish. Several processes may each run the same jobs:
// every job takes its own lock in the database (see purge.ts). Each run has an id, so the log
// lines of one run (its error, what it did) can be told from the next one's.
import crypto from 'node:crypto';

export interface Job {
  name: string;
  everyMs: number;
  run(ctx?: { runId: string }): Promise<unknown>;
}

export interface Scheduler {
  stop(): Promise<void>;
}

export function startScheduler(jobs: readonly Job[], onError: (job: Job, err: unknown, runId: string) => void): Scheduler {
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  const running = new Map<Job, Promise<void>>();

  const tick = (job: Job) => {
    if (stopped || running.has(job)) return;
    const runId = crypto.randomBytes(4).toString('hex');
    const run = job
      .run({ runId })
      .then(() => undefined, (err: unknown) => onError(job, err, runId))
      .finally(() => running.delete(job));
    running.set(job, run);
  };

  for (const job of jobs) {
    tick(job);
    const timer = setInterval(() => tick(job), job.everyMs);
    timer.unref();
    timers.push(timer);
  }

  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.all(running.values());
    },
  };
}
