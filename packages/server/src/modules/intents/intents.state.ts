import { ApiError } from '../../platform/errors.ts';
import type { EventType } from '../events/index.ts';

/**
 * The payment intent's state machine (docs/spec/payment-intents.md), in one place: the table below is the whole
 * of it. Every module that changes an intent's status (cancel and expiry here, charges, refunds)
 * goes through `assertMove`, and `applyTransition` in intents.service.ts writes the row's event.
 */
export const INTENT_STATUSES = ['PENDING', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'EXPIRED', 'CANCELED', 'PARTIALLY_REFUNDED', 'REFUNDED'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

/** Charge attempts per intent (docs/spec/payment-intents.md): the third failure makes the intent FAILED. */
export const MAX_CHARGE_ATTEMPTS = 3;

export interface Move {
  from: IntentStatus;
  to: IntentStatus;
  /** What makes the move, in the specification's words. */
  by: string;
  /** The event written in the same transaction, or null when the move has none. */
  event: EventType | null;
  /** A second event the move also writes, after the first (the expiry of a failed in-flight charge). */
  also?: EventType;
}

/**
 * Every allowed move. (from, to) names a row uniquely, so a caller says where it wants the
 * intent to go and the table says whether that is allowed and which event it writes.
 *
 * Beyond the specification's literal rows: an intent that is PROCESSING settles like a PENDING one
 * ("then SUCCEEDED or PENDING/FAILED as above"), and a PARTIALLY_REFUNDED intent can be refunded
 * again, in part or for the rest ("refund of part / of the rest").
 */
export const INTENT_TRANSITIONS: readonly Move[] = [
  { from: 'PENDING', to: 'SUCCEEDED', by: 'charge succeeds', event: 'payment.completed' },
  { from: 'PENDING', to: 'PENDING', by: 'charge fails, attempts left', event: 'payment.failed' },
  { from: 'PENDING', to: 'FAILED', by: 'charge fails, no attempt left', event: 'payment.failed' },
  { from: 'PENDING', to: 'EXPIRED', by: 'expiresAt passes', event: 'payment.expired' },
  { from: 'PENDING', to: 'CANCELED', by: 'merchant cancels', event: 'payment.canceled' },
  { from: 'PENDING', to: 'PROCESSING', by: 'an asynchronous source accepted the charge', event: 'payment.processing' },
  { from: 'PROCESSING', to: 'SUCCEEDED', by: 'the asynchronous charge succeeds', event: 'payment.completed' },
  { from: 'PROCESSING', to: 'PENDING', by: 'the asynchronous charge fails, attempts left', event: 'payment.failed' },
  { from: 'PROCESSING', to: 'FAILED', by: 'the asynchronous charge fails, no attempt left', event: 'payment.failed' },
  // docs/spec/mobile-money-payments.md: an attempt in flight holds off expiry until the provider's final answer.
  // The attempt failed (payment.failed, with it) and the intent expired (payment.expired): a merchant
  // that closes orders on payment.expired sees every expiry.
  { from: 'PROCESSING', to: 'EXPIRED', by: 'the asynchronous charge fails after expiresAt', event: 'payment.failed', also: 'payment.expired' },
  { from: 'SUCCEEDED', to: 'PARTIALLY_REFUNDED', by: 'refund of part', event: 'payment.refunded' },
  { from: 'SUCCEEDED', to: 'REFUNDED', by: 'refund of the whole', event: 'payment.refunded' },
  { from: 'PARTIALLY_REFUNDED', to: 'PARTIALLY_REFUNDED', by: 'refund of another part', event: 'payment.refunded' },
  { from: 'PARTIALLY_REFUNDED', to: 'REFUNDED', by: 'refund of the rest', event: 'payment.refunded' },
];

/** The move from → to, or undefined when the table has no such row. */
export function findMove(from: IntentStatus, to: IntentStatus): Move | undefined {
  return INTENT_TRANSITIONS.find((m) => m.from === from && m.to === to);
}

/**
 * The move from → to, or the 409 that refuses it: `intent_expired` for a charge (to SUCCEEDED or
 * PROCESSING) of an expired intent, so a client knows to start a new one; `intent_state_invalid`
 * for any other move, a cancel or refund of an expired intent included.
 */
export function assertMove(from: IntentStatus, to: IntentStatus): Move {
  const move = findMove(from, to);
  if (move) return move;
  if (from === 'EXPIRED' && (to === 'SUCCEEDED' || to === 'PROCESSING')) throw new ApiError('intent_expired', 'The intent has expired; create a new intent');
  throw new ApiError('intent_state_invalid', `An intent that is ${from} cannot become ${to}`, { extra: { intentStatus: from } });
}

/** Where a failed charge leaves the intent, given the attempts made so far including this one. */
export function statusAfterFailedCharge(attempts: number): 'PENDING' | 'FAILED' {
  return attempts >= MAX_CHARGE_ATTEMPTS ? 'FAILED' : 'PENDING';
}

/** Where a refund leaves the intent, given the amount refunded in all after it. */
export function statusAfterRefund(amountMinor: bigint, refundedMinor: bigint): 'PARTIALLY_REFUNDED' | 'REFUNDED' {
  return refundedMinor >= amountMinor ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
}

/**
 * The status a reader sees at `now`: a PENDING intent past its expiresAt is EXPIRED at once, even
 * before the sweeper has moved it (docs/spec/payment-intents.md). The validity ends at expiresAt itself.
 */
export function effectiveStatus(row: { status: IntentStatus; expires_at: Date }, now: Date): IntentStatus {
  return row.status === 'PENDING' && isDue(row.expires_at, now) ? 'EXPIRED' : row.status;
}

export function isDue(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime();
}
