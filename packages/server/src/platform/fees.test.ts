import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeOf, feeReturned, mulDivHalfUp } from './fees.ts';

const amount = fc.bigInt({ min: 1n, max: 999_999_999_999n });
const schedule = fc.record({ bps: fc.integer({ min: 0, max: 10_000 }), fixedMinor: fc.bigInt({ min: 0n, max: 1_000_000n }) });

describe('fees', () => {
  it('1.5 % of 5 000 XAF is 75: the merchant receives 4 925', () => {
    expect(feeOf(5000n, { bps: 150, fixedMinor: 0n })).toBe(75n);
    expect(5000n - feeOf(5000n, { bps: 150, fixedMinor: 0n })).toBe(4925n);
  });

  it('rounds half up to the minor unit', () => {
    expect(feeOf(100n, { bps: 150, fixedMinor: 0n })).toBe(2n); // 1.5 → 2
    expect(feeOf(99n, { bps: 150, fixedMinor: 0n })).toBe(1n); // 1.485 → 1
    expect(feeOf(1n, { bps: 5000, fixedMinor: 0n })).toBe(1n); // 0.5 → 1
    expect(feeOf(3n, { bps: 1000, fixedMinor: 0n })).toBe(0n); // 0.3 → 0
    expect(mulDivHalfUp(5n, 1n, 2n)).toBe(3n);
  });

  it('fee + net = amount, 0 ≤ fee ≤ amount, for every amount and schedule', () => {
    fc.assert(
      fc.property(amount, schedule, (a, s) => {
        const fee = feeOf(a, s);
        const net = a - fee;
        return fee >= 0n && fee <= a && net >= 0n && fee + net === a;
      }),
      { numRuns: 2000 },
    );
  });

  it('refunds of any split return exactly the fee charged, never more at any step', () => {
    fc.assert(
      fc.property(amount, schedule, fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 12 }), (a, s, weights) => {
        const fee = feeOf(a, s);
        // Split the amount into refunds proportional to the weights; the last takes the rest.
        const total = weights.reduce((x, y) => x + y, 0);
        const parts: bigint[] = [];
        let left = a;
        for (let i = 0; i < weights.length - 1 && left > 0n; i++) {
          const part = mulDivHalfUp(a, BigInt(weights[i] as number), BigInt(total));
          const p = part > left ? left : part;
          if (p > 0n) parts.push(p);
          left -= p;
        }
        if (left > 0n) parts.push(left);
        let refunded = 0n;
        let returned = 0n;
        for (const r of parts) {
          const back = feeReturned({ amount: a, fee, refundedBefore: refunded, refund: r });
          if (back < 0n || back > r) return false;
          refunded += r;
          returned += back;
          if (returned > fee) return false;
        }
        return refunded === a && returned === fee;
      }),
      { numRuns: 2000 },
    );
  });
});
