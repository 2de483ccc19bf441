// A lane for heavy work of one kind (image conversion) in this process: at most `concurrency`
// jobs run at once, the rest wait in order. Work a person asked for (an upload) is turned away
// once `capacity` jobs already wait, so a burst costs a short queue and a quick "try again",
// never the CPU and memory of every job at once. Work the process gives itself (converting old
// uploads, one each) always waits its turn: it is bounded by what is stored, not by requests.
// Written here rather than taken from a library: a dozen lines, and the one library that fits
// (fastq) is only a transitive dependency of Fastify.

export class QueueFull extends Error {
  constructor() {
    super('work queue full');
  }
}

interface WorkQueue {
  /** Runs `job` in its turn; with `refuseWhenFull`, rejects with QueueFull at once when `capacity` jobs wait. */
  run<T>(job: () => Promise<T>, o?: { refuseWhenFull?: boolean }): Promise<T>;
  /** Jobs running, and waiting. */
  readonly running: number;
  readonly waiting: number;
  /** Settles when no job runs or waits (tests wait for queued work this way, never by time). */
  idle(): Promise<void>;
}

export function workQueue(o: { concurrency: number; capacity: number }): WorkQueue {
  let running = 0;
  const waiting: Array<() => void> = [];
  let idleWaiters: Array<() => void> = [];

  // A finished job hands its slot straight to the next one, so no newcomer slips in between.
  const release = () => {
    const next = waiting.shift();
    if (next) return next();
    running--;
    if (running === 0) {
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    }
  };

  return {
    async run(job, opts = {}) {
      if (running >= o.concurrency) {
        if (opts.refuseWhenFull && waiting.length >= o.capacity) throw new QueueFull();
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else running++;
      try {
        return await job();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
  };
}
