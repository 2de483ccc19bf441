import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.ts';

/** A run that fails every batch of more than one item with `err`, and counts its calls. */
function failing(err: Error) {
  const calls: number[][] = [];
  const run = async (items: number[]) => {
    calls.push(items);
    if (items.length > 1) throw err;
    return items.map((i) => i * 10);
  };
  return { calls, run };
}

describe('GroupCommit', () => {
  it('retries each item of a failed batch alone: one bad item does not fail its neighbours', async () => {
    const { calls, run } = failing(new Error('one bad row'));
    const gc = new GroupCommit(run);
    expect(await Promise.all([1, 2, 3].map((i) => gc.submit(i)))).toEqual([10, 20, 30]);
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('fails the whole batch at once when retrying alone is not worth it (the database is away)', async () => {
    const away = new Error('Connection terminated unexpectedly');
    const { calls, run } = failing(away);
    const gc = new GroupCommit(run, 200, 1, (err) => err !== away);
    const results = await Promise.allSettled([1, 2, 3].map((i) => gc.submit(i)));
    expect(results).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: away })));
    expect(calls).toEqual([[1, 2, 3]]);
  });

  /**
   * `clients` submitters in a closed loop, as under load: each submits again a moment after it
   * is answered (0–4 turns of the event loop, as responses and new requests take their time),
   * `rounds` times. The run takes a few turns, as a commit does.
   */
  async function closedLoop(lingerMs: number, clients = 20, rounds = 15) {
    const sizes: number[] = [];
    const gc = new GroupCommit<number, number>(async (items) => {
      sizes.push(items.length);
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      return items;
    }, 200, 1, () => true, lingerMs);
    await Promise.all(Array.from({ length: clients }, async (_, c) => {
      for (let r = 0; r < rounds; r++) {
        expect(await gc.submit(c)).toBe(c);
        for (let i = 0; i < c % 5; i++) await new Promise((r) => setImmediate(r));
      }
    }));
    return { sizes, steady: sizes.slice(4, -4) };
  }

  it('without a linger, submitters under steady load split into two cohorts, each commit carrying about half of them', async () => {
    const { sizes, steady } = await closedLoop(0);
    expect(sizes.reduce((s, n) => s + n, 0)).toBe(20 * 15);
    expect(Math.max(...steady)).toBeLessThan(20);
  });

  it('with a linger, a batch right after another waits for the cohort just answered: each commit carries them all', async () => {
    // A linger long beside the few turns the cohort takes to come back: the batch starts as soon as it is all queued (the last rounds, whose submitters do not come back, wait it out).
    const { sizes } = await closedLoop(50);
    expect(sizes.reduce((s, n) => s + n, 0)).toBe(20 * 15);
    expect(sizes.every((n) => n === 20)).toBe(true);
    expect(sizes).toHaveLength(15);
  });

  it('never lingers for a lone submission, nor past lingerMs for a cohort that does not come back', async () => {
    const sizes: number[] = [];
    const gc = new GroupCommit<number, number>(async (items) => (sizes.push(items.length), items), 200, 1, () => true, 60_000);
    // From idle: answered at once (a linger of a minute would time the test out).
    expect(await gc.submit(1)).toBe(1);
    // Two in the first batch, one queued behind it; the two answered do not come back: the
    // next batch waits lingerMs at most (here 20 ms), then goes with the one it has.
    const short = new GroupCommit<number, number>(async (items) => (sizes.push(items.length), await new Promise((r) => setImmediate(r)), items), 200, 1, () => true, 20);
    const first = [short.submit(1), short.submit(2)];
    await new Promise((r) => setImmediate(r));
    const third = short.submit(3);
    expect(await Promise.all([...first, third])).toEqual([1, 2, 3]);
    expect(sizes).toEqual([1, 2, 1]);
  });
});
