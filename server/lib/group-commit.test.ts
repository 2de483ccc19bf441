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
});
