import { SECOND } from '../../../platform/clock.ts';

/**
 * The test-number table of docs/spec/providers.md, the same for every provider's sandbox: the number's last
 * three digits decide the outcome, whatever the country prefix.
 */
export interface TestOutcome {
  status: 'SUCCESSFUL' | 'FAILED';
  reason?: string;
  /** When the final state is reached after the payer approved (null: never; 'window': when the approval window closes). */
  afterMs: number | null | 'window';
  /** The provider misbehaves on the request that creates it (or, where the number is learnt later, on the next status read). */
  fault?: 'answer500' | 'hang';
  /** The callback is sent a second time, after the next status read. */
  callbackTwice?: boolean;
}

export const TEST_NUMBERS: Record<string, TestOutcome> = {
  '101': { status: 'SUCCESSFUL', afterMs: 10 * SECOND },
  '102': { status: 'SUCCESSFUL', afterMs: null },
  '103': { status: 'FAILED', reason: 'PAYER_NOT_FOUND', afterMs: 0 },
  '104': { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS', afterMs: 0 },
  '105': { status: 'FAILED', reason: 'APPROVAL_REJECTED', afterMs: 0 },
  '106': { status: 'FAILED', reason: 'EXPIRED', afterMs: 'window' },
  '107': { status: 'SUCCESSFUL', afterMs: 0, fault: 'answer500' },
  '108': { status: 'SUCCESSFUL', afterMs: 0, fault: 'hang' },
  '109': { status: 'SUCCESSFUL', afterMs: SECOND, callbackTwice: true },
};

/** `000`–`099` and any number not in the table: SUCCESSFUL after about a second. */
export const DEFAULT_TEST_OUTCOME: TestOutcome = { status: 'SUCCESSFUL', afterMs: SECOND };

export function testOutcome(phoneNumber: string): TestOutcome {
  return TEST_NUMBERS[phoneNumber.replace(/[^0-9]/g, '').slice(-3)] ?? DEFAULT_TEST_OUTCOME;
}

/** The approval window of a redirect payment: 5 minutes, or 5 seconds in fast mode (`--fast`). */
export function approvalWindowMs(fast: boolean): number {
  return fast ? 5 * SECOND : 5 * 60 * SECOND;
}

/** One line per number, for the CLI's banner and the payment page. */
export const TEST_NUMBERS_HELP =
  'last digits 101 SUCCESSFUL after 10 s, 102 never answered, 103 PAYER_NOT_FOUND, 104 NOT_ENOUGH_FUNDS, 105 APPROVAL_REJECTED, ' +
  '106 EXPIRED after the window, 107 500 then SUCCESSFUL, 108 hang then SUCCESSFUL, 109 callback twice; others SUCCESSFUL after 1 s';
