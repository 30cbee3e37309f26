import type { MinorUnits } from './money.ts';

/**
 * Fee arithmetic (docs/spec/money-out.md), in integer minor units only. A schedule is a percentage in basis
 * points (150 = 1.5 %) plus a fixed amount in the currency's minor units. Rounding is half up to
 * the minor unit. The fee never exceeds the amount, so the net is never negative.
 */

export interface FeeSchedule {
  /** Basis points: 1 % = 100. 0 to 10 000. */
  bps: number;
  /** Fixed part, in the currency's minor units. */
  fixedMinor: MinorUnits;
}

/** a × b / c rounded half up, for non-negative bigints (c > 0). */
export function mulDivHalfUp(a: bigint, b: bigint, c: bigint): bigint {
  return (a * b * 2n + c) / (2n * c);
}

/** An amount's share, half up: the result of non-negative operands is never negative. */
const share = (a: MinorUnits, b: bigint, c: bigint) => mulDivHalfUp(a, b, c) as MinorUnits;

/** The fee of a payment of `amount`: amount × bps / 10 000 (half up) + fixed, at most the amount. */
export function feeOf(amount: MinorUnits, schedule: FeeSchedule): MinorUnits {
  if (amount <= 0n) return 0n as MinorUnits;
  const fee = share(amount, BigInt(schedule.bps), 10_000n) + schedule.fixedMinor;
  return (fee > amount ? amount : fee) as MinorUnits;
}

/**
 * The part of a payment's fee a refund returns: the fee is returned in proportion to what is
 * refunded, counted on the running total so the refunds of any split return exactly the whole fee
 * once the whole amount is back (rounding never drifts): fee × refundedAfter / amount (half up)
 * minus what earlier refunds returned.
 */
export function feeReturned(q: { amount: MinorUnits; fee: MinorUnits; refundedBefore: MinorUnits; refund: MinorUnits }): MinorUnits {
  const after = q.refundedBefore + q.refund;
  // The running total only grows, so each difference is never negative.
  if (after >= q.amount) return (q.fee - share(q.fee, q.refundedBefore, q.amount)) as MinorUnits;
  return (share(q.fee, after, q.amount) - share(q.fee, q.refundedBefore, q.amount)) as MinorUnits;
}

/**
 * The rolling reserve's share of a charge's net: net × bps / 10 000, half up like fees (never
 * more than the net, since bps is at most 10 000).
 */
export function reserveOf(net: MinorUnits, bps: number): MinorUnits {
  if (net <= 0n || bps <= 0) return 0n as MinorUnits;
  return share(net, BigInt(bps), 10_000n);
}
