/**
 * Fee arithmetic (docs/spec/money-out.md), in integer minor units only. A schedule is a percentage in basis
 * points (150 = 1.5 %) plus a fixed amount in the currency's minor units. Rounding is half up to
 * the minor unit. The fee never exceeds the amount, so the net is never negative.
 */

export interface FeeSchedule {
  /** Basis points: 1 % = 100. 0 to 10 000. */
  bps: number;
  /** Fixed part, in the currency's minor units (never negative). */
  fixedMinor: bigint;
}

/** a × b / c rounded half up, for non-negative bigints (c > 0). */
export function mulDivHalfUp(a: bigint, b: bigint, c: bigint): bigint {
  return (a * b * 2n + c) / (2n * c);
}

/** The fee of a payment of `amount`: amount × bps / 10 000 (half up) + fixed, at most the amount. */
export function feeOf(amount: bigint, schedule: FeeSchedule): bigint {
  if (amount <= 0n) return 0n;
  const fee = mulDivHalfUp(amount, BigInt(schedule.bps), 10_000n) + schedule.fixedMinor;
  return fee > amount ? amount : fee;
}

/**
 * The part of a payment's fee a refund returns: the fee is returned in proportion to what is
 * refunded, counted on the running total so the refunds of any split return exactly the whole fee
 * once the whole amount is back (rounding never drifts): fee × refundedAfter / amount (half up)
 * minus what earlier refunds returned.
 */
export function feeReturned(q: { amount: bigint; fee: bigint; refundedBefore: bigint; refund: bigint }): bigint {
  const after = q.refundedBefore + q.refund;
  if (after >= q.amount) return q.fee - mulDivHalfUp(q.fee, q.refundedBefore, q.amount);
  return mulDivHalfUp(q.fee, after, q.amount) - mulDivHalfUp(q.fee, q.refundedBefore, q.amount);
}

/**
 * The rolling reserve's share of a charge's net: net × bps / 10 000, half up like fees (never
 * more than the net, since bps is at most 10 000).
 */
export function reserveOf(net: bigint, bps: number): bigint {
  if (net <= 0n || bps <= 0) return 0n;
  return mulDivHalfUp(net, BigInt(bps), 10_000n);
}
