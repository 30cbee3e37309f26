import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECOND } from '../../platform/clock.ts';
import {
  backoffMs,
  FIRST_RETRY_MS,
  MAX_BACKOFF_MS,
  MAX_RETRY_AFTER_MS,
  MIN_RETRY_AFTER_MS,
  nextAttemptAt,
  RETRY_WINDOW_MS,
  retryAfterMs,
} from './retry-policy.ts';

/** Every attempt time of a delivery that always fails, from its creation, with the jitter draws given. */
function schedule(createdAt: Date, draws: () => number): number[] {
  const times = [createdAt.getTime()];
  for (let attempts = 1; attempts < 1000; attempts++) {
    const next = nextAttemptAt({ now: new Date(times[times.length - 1] as number), createdAt, attempts, unit: draws() });
    if (next === null) return times;
    times.push(next.getTime());
  }
  throw new Error('the schedule never ends');
}

describe('webhook retry schedule', () => {
  const createdAt = new Date('2026-11-01T00:00:00Z');

  it('whatever the jitter: strictly later each time, ends with one try at the 3-day mark, then stops', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 64 }), (units) => {
        let i = 0;
        const times = schedule(createdAt, () => units[i++ % units.length] as number);
        const deadline = createdAt.getTime() + RETRY_WINDOW_MS;
        for (let k = 1; k < times.length; k++) if ((times[k] as number) <= (times[k - 1] as number)) return false;
        // 20 attempts (late jitter) to 25 (early jitter) fit in the window: 30 s doubling to the 6-hour cap.
        return times[times.length - 1] === deadline && times.length >= 20 && times.length <= 25;
      }),
      { numRuns: 300 },
    );
  });

  it('the backoff never shrinks as attempts grow (same jitter), and stays within ±20 % of 30 s × 2ⁿ⁻¹ capped at 6 h', () => {
    for (const unit of [0, 0.25, 0.5, 0.999999]) {
      let before = 0;
      for (let n = 1; n <= 40; n++) {
        const ms = backoffMs(n, unit);
        expect(ms).toBeGreaterThanOrEqual(before);
        const base = Math.min(FIRST_RETRY_MS * 2 ** (n - 1), MAX_BACKOFF_MS);
        expect(ms).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
        expect(ms).toBeLessThanOrEqual(Math.ceil(base * 1.2));
        before = ms;
      }
    }
  });

  it("a receiver's shortest Retry-After still moves the next attempt a second on, and never past the window", () => {
    const zero = retryAfterMs('0', createdAt);
    expect(nextAttemptAt({ now: createdAt, createdAt, attempts: 1, unit: 0.5, retryAfterMs: zero })?.getTime()).toBe(createdAt.getTime() + MIN_RETRY_AFTER_MS);
    const deadline = createdAt.getTime() + RETRY_WINDOW_MS;
    const late = new Date(deadline - 500);
    expect(nextAttemptAt({ now: late, createdAt, attempts: 19, unit: 0.5, retryAfterMs: MAX_RETRY_AFTER_MS })?.getTime()).toBe(deadline);
  });

  it('Retry-After: a date in the past is the minimum, the first of several headers counts, blanks around it are ignored', () => {
    expect(retryAfterMs(new Date(createdAt.getTime() - 60 * SECOND).toUTCString(), createdAt)).toBe(MIN_RETRY_AFTER_MS);
    expect(retryAfterMs(['30', '5000'], createdAt)).toBe(30 * SECOND);
    expect(retryAfterMs(' 45 ', createdAt)).toBe(45 * SECOND);
    expect(retryAfterMs(new Date(createdAt.getTime() + 10 * 86_400_000).toUTCString(), createdAt)).toBe(MAX_RETRY_AFTER_MS);
    // Not a number of seconds and not an HTTP date: the backoff applies, not a 1-second retry.
    for (const text of ['-5', '2026', '1.5', '+30']) expect(retryAfterMs(text, createdAt), text).toBe(text === '2026' ? 2026 * SECOND : undefined);
  });
});
