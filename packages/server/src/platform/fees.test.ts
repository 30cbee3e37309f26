import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeOf, feeReturned, mulDivHalfUp, reserveOf } from './fees.ts';
import { MAX_MINOR_UNITS, type MinorUnits, minorUnits, parseAmount } from './money.ts';

const amount = fc.bigInt({ min: 1n, max: 999_999_999_999n }).map(minorUnits);
const schedule = fc.record({ bps: fc.integer({ min: 0, max: 10_000 }), fixedMinor: fc.bigInt({ min: 0n, max: 1_000_000n }).map(minorUnits) });
const m = (n: bigint): MinorUnits => minorUnits(n);
const none = m(0n);

describe('fees', () => {
  it('1.5 % of 5 000 XAF is 75: the merchant receives 4 925', () => {
    expect(feeOf(m(5000n), { bps: 150, fixedMinor: none })).toBe(75n);
    expect(5000n - feeOf(m(5000n), { bps: 150, fixedMinor: none })).toBe(4925n);
  });

  it('rounds half up to the minor unit', () => {
    expect(feeOf(m(100n), { bps: 150, fixedMinor: none })).toBe(2n); // 1.5 → 2
    expect(feeOf(m(99n), { bps: 150, fixedMinor: none })).toBe(1n); // 1.485 → 1
    expect(feeOf(m(1n), { bps: 5000, fixedMinor: none })).toBe(1n); // 0.5 → 1
    expect(feeOf(m(3n), { bps: 1000, fixedMinor: none })).toBe(0n); // 0.3 → 0
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
        const parts: MinorUnits[] = [];
        let left: bigint = a;
        for (let i = 0; i < weights.length - 1 && left > 0n; i++) {
          const part = mulDivHalfUp(a, BigInt(weights[i] as number), BigInt(total));
          const p = part > left ? left : part;
          if (p > 0n) parts.push(m(p));
          left -= p;
        }
        if (left > 0n) parts.push(m(left));
        let refunded = 0n;
        let returned = 0n;
        for (const r of parts) {
          const back = feeReturned({ amount: a, fee, refundedBefore: m(refunded), refund: r });
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

  it('rounds half units up the same way with no decimals (XAF) and with two (EUR)', () => {
    const xaf = (text: string) => parseAmount(text, 'XAF');
    const eur = (text: string) => parseAmount(text, 'EUR');
    // 2.5 % of 100 XAF = 2.5 → 3; of 60 XAF = 1.5 → 2; of 20 XAF = 0.5 → 1; of 19 XAF = 0.475 → 0.
    expect(feeOf(xaf('100'), { bps: 250, fixedMinor: none })).toBe(3n);
    expect(feeOf(xaf('60'), { bps: 250, fixedMinor: none })).toBe(2n);
    expect(feeOf(xaf('20'), { bps: 250, fixedMinor: none })).toBe(1n);
    expect(feeOf(xaf('19'), { bps: 250, fixedMinor: none })).toBe(0n);
    // 2.5 % of 1.00 EUR = 0.025 EUR = 2.5 cents → 3 cents; of 0.20 EUR = 0.5 cent → 1 cent.
    expect(feeOf(eur('1.00'), { bps: 250, fixedMinor: none })).toBe(3n);
    expect(feeOf(eur('0.20'), { bps: 250, fixedMinor: none })).toBe(1n);
    expect(feeOf(eur('0.19'), { bps: 250, fixedMinor: none })).toBe(0n);
  });

  it('the fixed part is a minimum fee, yet never more than the payment', () => {
    const s = { bps: 150, fixedMinor: m(50n) };
    expect(feeOf(m(1000n), s)).toBe(65n); // 15 + 50
    expect(feeOf(m(50n), s)).toBe(50n); // 0.75 → 1 + 50 = 51, capped at 50
    expect(feeOf(m(1n), s)).toBe(1n);
    expect(feeOf(none, s)).toBe(0n);
    expect(feeOf(m(1n), { bps: 10_000, fixedMinor: none })).toBe(1n);
  });

  it('stays exact at the largest amount (no float, no overflow)', () => {
    // 999 999 999 999 × 1.5 % = 14 999 999 999.985 → 15 000 000 000; Number would lose the units.
    expect(feeOf(MAX_MINOR_UNITS, { bps: 150, fixedMinor: none })).toBe(15_000_000_000n);
    expect(feeOf(MAX_MINOR_UNITS, { bps: 10_000, fixedMinor: m(1_000_000n) })).toBe(MAX_MINOR_UNITS);
    expect(feeOf(MAX_MINOR_UNITS, { bps: 1, fixedMinor: none })).toBe(100_000_000n); // 99 999 999.9999 → 100 000 000
    expect(reserveOf(MAX_MINOR_UNITS, 1000)).toBe(100_000_000_000n); // 99 999 999 999.9 → 100 000 000 000
  });

  it('a reserve rounds half up like a fee, and holds nothing of nothing', () => {
    expect(reserveOf(m(5n), 1000)).toBe(1n); // 0.5 → 1
    expect(reserveOf(m(4n), 1000)).toBe(0n); // 0.4 → 0
    expect(reserveOf(none, 1000)).toBe(0n);
    expect(reserveOf(m(5000n), 0)).toBe(0n);
    expect(reserveOf(m(5000n), 10_000)).toBe(5000n);
  });

  it('a whole refund returns the whole fee, and two halves of an odd fee return it once', () => {
    const a = m(1001n);
    const fee = feeOf(a, { bps: 150, fixedMinor: none }); // 15.015 → 15
    expect(fee).toBe(15n);
    expect(feeReturned({ amount: a, fee, refundedBefore: none, refund: a })).toBe(15n);
    const first = feeReturned({ amount: a, fee, refundedBefore: none, refund: m(500n) }); // 7.49 → 7
    const second = feeReturned({ amount: a, fee, refundedBefore: m(500n), refund: m(501n) });
    expect([first, second]).toEqual([7n, 8n]);
  });
});
