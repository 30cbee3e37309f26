import { describe, expect, it } from 'vitest';
import { holdUntilSync } from './pglite-thread.ts';

const msg = (code: string, ...body: number[]) => Uint8Array.from([code.charCodeAt(0), ...body]);

describe('holdUntilSync', () => {
  it('hands Parse, Bind, Describe and Execute to the engine with the Sync that ends them, in one call', async () => {
    const calls: number[][] = [];
    const exec = holdUntilSync(async (batch) => {
      calls.push([...batch]);
      return ['answer'];
    });
    expect(await exec(msg('P', 1))).toEqual([]);
    expect(await exec(msg('B', 2))).toEqual([]);
    expect(await exec(msg('D', 3))).toEqual([]);
    expect(await exec(msg('E', 4))).toEqual([]);
    expect(calls).toEqual([]);
    expect(await exec(msg('S'))).toEqual(['answer']);
    expect(calls).toEqual([[80, 1, 66, 2, 68, 3, 69, 4, 83]]);
  });

  it('sends a simple Query or a Flush on its own, each in a buffer of its own', async () => {
    const batches: Uint8Array[] = [];
    const exec = holdUntilSync(async (batch) => {
      batches.push(batch);
      return [];
    });
    const q = msg('Q', 9);
    await exec(q);
    await exec(msg('C', 1));
    await exec(msg('H'));
    expect(batches.map((b) => [...b])).toEqual([
      [81, 9],
      [67, 1, 72],
    ]);
    expect(batches[0]?.buffer).not.toBe(q.buffer);
  });
});
