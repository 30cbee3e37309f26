import { describe, expect, it } from 'vitest';
import {
  assertMove,
  effectiveStatus,
  findMove,
  INTENT_STATUSES,
  INTENT_TRANSITIONS,
  type IntentStatus,
  statusAfterFailedCharge,
  statusAfterRefund,
} from './intents.state.ts';

/** docs/spec/payment-intents.md's table, written out again by hand so that a change to the code has to match it. */
const SPECIFIED: [IntentStatus, IntentStatus, string | null][] = [
  ['PENDING', 'SUCCEEDED', 'payment.completed'],
  ['PENDING', 'PENDING', 'payment.failed'],
  ['PENDING', 'FAILED', 'payment.failed'],
  ['PENDING', 'EXPIRED', 'payment.expired'],
  ['PENDING', 'CANCELED', 'payment.canceled'],
  ['PENDING', 'PROCESSING', 'payment.processing'],
  ['PROCESSING', 'SUCCEEDED', 'payment.completed'],
  ['PROCESSING', 'PENDING', 'payment.failed'],
  ['PROCESSING', 'FAILED', 'payment.failed'],
  ['PROCESSING', 'EXPIRED', 'payment.failed'],
  ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'payment.refunded'],
  ['SUCCEEDED', 'REFUNDED', 'payment.refunded'],
  ['PARTIALLY_REFUNDED', 'PARTIALLY_REFUNDED', 'payment.refunded'],
  ['PARTIALLY_REFUNDED', 'REFUNDED', 'payment.refunded'],
];

describe('intent state machine', () => {
  it('has exactly the rows of the specification, each once', () => {
    expect(INTENT_TRANSITIONS.map((m) => [m.from, m.to, m.event])).toEqual(SPECIFIED);
    const keys = new Set(INTENT_TRANSITIONS.map((m) => `${m.from}>${m.to}`));
    expect(keys.size).toBe(INTENT_TRANSITIONS.length);
  });

  it.each(SPECIFIED)('allows %s → %s and names its event (%s)', (from, to, event) => {
    expect(assertMove(from, to)).toMatchObject({ from, to, event });
  });

  const others = INTENT_STATUSES.flatMap((from) => INTENT_STATUSES.map((to) => [from, to] as const)).filter(
    ([from, to]) => !SPECIFIED.some(([f, t]) => f === from && t === to),
  );

  it('refuses the other moves', () => {
    expect(others.length).toBe(8 * 8 - SPECIFIED.length);
  });

  it.each(others)('refuses %s → %s with a 409', (from, to) => {
    expect(findMove(from, to)).toBeUndefined();
    const code = from === 'EXPIRED' && (to === 'SUCCEEDED' || to === 'PROCESSING') ? 'intent_expired' : 'intent_state_invalid';
    expect(() => assertMove(from, to)).toThrow(expect.objectContaining({ code, status: 409 }));
  });

  it('final states have no way out', () => {
    for (const from of ['FAILED', 'EXPIRED', 'CANCELED', 'REFUNDED'] as const) {
      expect(INTENT_TRANSITIONS.filter((m) => m.from === from)).toEqual([]);
    }
  });

  it('a failed charge leaves the intent PENDING until the third attempt', () => {
    expect(statusAfterFailedCharge(1)).toBe('PENDING');
    expect(statusAfterFailedCharge(2)).toBe('PENDING');
    expect(statusAfterFailedCharge(3)).toBe('FAILED');
  });

  it('a refund of part or of the rest', () => {
    expect(statusAfterRefund(5000n, 1n)).toBe('PARTIALLY_REFUNDED');
    expect(statusAfterRefund(5000n, 4999n)).toBe('PARTIALLY_REFUNDED');
    expect(statusAfterRefund(5000n, 5000n)).toBe('REFUNDED');
  });

  it('a PENDING intent reads EXPIRED from its expiresAt on; other states never do', () => {
    const expiresAt = new Date('2026-11-01T10:30:00.000Z');
    const before = new Date(expiresAt.getTime() - 1);
    expect(effectiveStatus({ status: 'PENDING', expires_at: expiresAt }, before)).toBe('PENDING');
    expect(effectiveStatus({ status: 'PENDING', expires_at: expiresAt }, expiresAt)).toBe('EXPIRED');
    for (const status of INTENT_STATUSES.filter((s) => s !== 'PENDING')) {
      expect(effectiveStatus({ status, expires_at: expiresAt }, new Date(expiresAt.getTime() + 1))).toBe(status);
    }
  });
});
