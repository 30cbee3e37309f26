import { describe, expect, it } from 'vitest';
import { groupCommit } from './batch.ts';

describe('groupCommit', () => {
  it('runs the calls of one turn together, the calls made meanwhile in the next batch, each with its own answer', async () => {
    const batches: number[][] = [];
    let release: (() => void) | undefined;
    const run = groupCommit(async (keys: number[]) => {
      batches.push(keys);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return new Map(keys.map((k) => [k, k * 10]));
    });
    const first = [run(1), run(2), run(2)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1, 2]]);
    // While the first is in flight, these wait, and then go in one batch.
    const second = [run(3), run(4)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toHaveLength(1);
    release?.();
    expect(await Promise.all([...first, ...second])).toEqual([10, 20, 20, 30, 40]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it("a batch's failure is each of its callers' error; the next batch runs", async () => {
    let fail = true;
    const run = groupCommit(async (keys: string[]) => {
      if (fail) throw new Error('connection lost');
      return new Map(keys.map((k) => [k, k.length]));
    });
    await expect(Promise.all([run('a'), run('bb')])).rejects.toThrow('connection lost');
    fail = false;
    expect(await run('ccc')).toBe(3);
    expect(await run('unknown')).toBe(7);
  });
});
