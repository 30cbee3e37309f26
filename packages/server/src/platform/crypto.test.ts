import { describe, expect, it } from 'vitest';
import { systemRandom } from './crypto.ts';

describe('systemRandom', () => {
  it('hands out each drawn byte once, across the blocks it fetches', () => {
    // 10 000 draws of 10 bytes span about 25 blocks of 4 KiB; two equal draws would mean a byte reused.
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const bytes = systemRandom(10);
      expect(bytes.length).toBe(10);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(10_000);
  });

  it('returns buffers of their own: changing one changes no later draw', () => {
    const a = systemRandom(16);
    a.fill(0);
    const b = systemRandom(16);
    expect(b.equals(Buffer.alloc(16))).toBe(false);
    expect(a.buffer === b.buffer && a.byteOffset + 16 > b.byteOffset && b.byteOffset + 16 > a.byteOffset).toBe(false);
  });

  it('serves large draws too', () => {
    expect(systemRandom(5000).length).toBe(5000);
    expect(systemRandom(0).length).toBe(0);
  });
});
