import { describe, expect, it } from 'vitest';
import { sharedFlights } from './shared-flights.ts';

/** Computations that end when told, in the order they began. */
function computations() {
  const pending: Array<(v: number) => void> = [];
  return {
    fn: () => new Promise<number>((resolve) => pending.push(resolve)),
    get began() {
      return pending.length;
    },
    end: (i: number, v: number) => pending[i]!(v),
  };
}

describe('shared flights', () => {
  it('shares a computation under way with the same key, not one begun before a change, and none once it has ended', async () => {
    const flights = sharedFlights<string, number>();
    const c = computations();
    const first = flights.run('a', c.fn);
    const joined = flights.run('a', c.fn);
    const otherKey = flights.run('b', c.fn);
    expect(joined).toBe(first);
    expect(c.began).toBe(2);

    flights.changed();
    const afterChange = flights.run('a', c.fn);
    expect(afterChange).not.toBe(first);
    expect(c.began).toBe(3);
    c.end(0, 1);
    c.end(1, 2);
    c.end(2, 3);
    expect([await first, await joined, await otherKey, await afterChange]).toEqual([1, 1, 2, 3]);

    // Ended: the next request computes again.
    const later = flights.run('a', c.fn);
    expect(c.began).toBe(4);
    c.end(3, 4);
    expect(await later).toBe(4);
  });

  it('hands a failure to those who shared the computation, and computes again after it', async () => {
    const flights = sharedFlights<string, number>();
    let runs = 0;
    const failing = () => {
      runs++;
      return Promise.reject(new Error('down'));
    };
    const a = flights.run('a', failing);
    const b = flights.run('a', failing);
    await expect(a).rejects.toThrow('down');
    await expect(b).rejects.toThrow('down');
    expect(await flights.run('a', async () => 5)).toBe(5);
    expect(runs).toBe(1);
  });
});
