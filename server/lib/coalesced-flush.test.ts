import { describe, expect, it } from 'vitest';
import { CoalescedFlush } from './coalesced-flush.ts';

/** A flush the test finishes by hand; each records the writes it saw when it began. */
function manualFlush() {
  let writes = 0;
  const flushes: Array<{ saw: number; finish: () => void; fail: (e: Error) => void }> = [];
  const flush = new CoalescedFlush(
    () => new Promise<void>((resolve, reject) => flushes.push({ saw: writes, finish: resolve, fail: reject })),
  );
  return { flush, flushes, write: () => ++writes };
}

const settled = async <T>(p: Promise<T>) => {
  let state = 'pending';
  p.then(() => (state = 'resolved'), () => (state = 'rejected'));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return state;
};

describe('CoalescedFlush', () => {
  it('answers a caller only after a flush that began after its call', async () => {
    const { flush, flushes, write } = manualFlush();
    write();
    const first = flush.after();
    expect(flushes).toHaveLength(1);
    // A write during that flush: that flush may not cover it, so the caller waits for the next.
    write();
    const second = flush.after();
    expect(flushes).toHaveLength(1);
    flushes[0]!.finish();
    await first;
    expect(await settled(second)).toBe('pending');
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(flushes).toHaveLength(2);
    expect(flushes[1]!.saw).toBe(2);
    flushes[1]!.finish();
    await second;
  });

  it('gives every caller that came during one flush the same next flush', async () => {
    const { flush, flushes } = manualFlush();
    const first = flush.after();
    const waiting = [flush.after(), flush.after(), flush.after()];
    expect(new Set(waiting).size).toBe(1);
    flushes[0]!.finish();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(flushes).toHaveLength(2);
    flushes[1]!.finish();
    await Promise.all(waiting);
    // Quiet again: the next caller starts a flush of its own at once.
    void flush.after();
    expect(flushes).toHaveLength(3);
  });

  it('passes a failed flush to its callers, and the next caller flushes again', async () => {
    const { flush, flushes } = manualFlush();
    const first = flush.after();
    const second = flush.after();
    flushes[0]!.fail(new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    await new Promise((r) => setImmediate(r));
    // The failed flush does not stand for those queued behind it.
    expect(flushes).toHaveLength(2);
    flushes[1]!.finish();
    await expect(second).resolves.toBeUndefined();
  });
});
