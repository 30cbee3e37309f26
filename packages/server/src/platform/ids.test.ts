import { describe, expect, it } from 'vitest';
import { firstIdAt, idFactory } from './ids.ts';

const at = (ms: number) => ({ now: () => new Date(ms) });

describe('idFactory', () => {
  it('ids made in one millisecond sort in the order they were made, each kind on its own', () => {
    const ids = idFactory(at(1_764_000_000_000));
    const made = Array.from({ length: 500 }, () => ids('intent'));
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(500);
    const event = ids('event');
    expect(event).toMatch(/^evt_[0-9a-z]{26}$/);
    // Each id is above the smallest of its millisecond.
    expect(made.every((id) => id > firstIdAt('intent', new Date(1_764_000_000_000)))).toBe(true);
  });

  it('a new millisecond starts from a fresh random part, and ids still sort by time', () => {
    let ms = 1_764_000_000_000;
    const ids = idFactory({ now: () => new Date(ms) });
    const first = ids('refund');
    ms += 1;
    const second = ids('refund');
    expect(second > first).toBe(true);
    expect(second.slice(0, 13)).not.toBe(first.slice(0, 13));
  });

  it('a random part at its largest starts again from a fresh one instead of wrapping to zero', () => {
    const draws = [Buffer.alloc(10, 0xff), Buffer.alloc(10, 0x11)];
    const ids = idFactory(at(1_764_000_000_000), () => draws.shift() ?? Buffer.alloc(10, 0x22));
    ids('payout');
    const fresh = idFactory(at(1_764_000_000_000), () => Buffer.alloc(10, 0x11))('payout');
    expect(ids('payout')).toBe(fresh);
  });
});

describe('ids derived by their last character', () => {
  it('two ids of one millisecond differ before their last character', () => {
    const ids = idFactory(at(1_764_000_000_000));
    const made = Array.from({ length: 200 }, () => ids('delivery').slice(0, -1));
    expect(new Set(made).size).toBe(200);
  });
});
