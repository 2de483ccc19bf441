import { describe, expect, it } from 'vitest';
import { QueueFull, workQueue } from './work-queue.ts';

/** A job that runs until its `finish` is called, and records when it started. */
function heldJob(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { job: async () => (log.push(name), await done, name), finish };
}

describe('work queue', () => {
  it('runs jobs one at a time in order, refuses a refusable job when full, and settles idle when drained', async () => {
    const q = workQueue({ concurrency: 1, capacity: 2 });
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => heldJob(log, n));
    const ran = [q.run(a!.job, { refuseWhenFull: true }), q.run(b!.job, { refuseWhenFull: true }), q.run(c!.job, { refuseWhenFull: true })];
    await Promise.resolve();
    expect([q.running, q.waiting, log]).toEqual([1, 2, ['a']]);
    // Full: a job that may be refused is, at once; the process's own work still waits its turn.
    await expect(q.run(async () => 'x', { refuseWhenFull: true })).rejects.toBeInstanceOf(QueueFull);
    const own = q.run(d!.job);
    expect(q.waiting).toBe(3);

    let idle = false;
    void q.idle().then(() => (idle = true));
    a!.finish();
    expect(await ran[0]).toBe('a');
    expect(log).toEqual(['a', 'b']);
    // A job started after the slot was handed on does not run beside the one that got it.
    const late = q.run(async () => 'late');
    expect(q.running).toBe(1);
    b!.finish();
    c!.finish();
    d!.finish();
    expect(await Promise.all([...ran, own, late])).toEqual(['a', 'b', 'c', 'd', 'late']);
    await q.idle();
    expect(idle).toBe(true);
    expect([q.running, q.waiting]).toEqual([0, 0]);
  });

  it('frees the slot when a job fails', async () => {
    const q = workQueue({ concurrency: 1, capacity: 1 });
    await expect(q.run(async () => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    expect(await q.run(async () => 'next')).toBe('next');
    expect(q.running).toBe(0);
  });
});
