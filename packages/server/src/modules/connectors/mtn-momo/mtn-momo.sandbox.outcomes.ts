import { SECOND } from '../../../platform/clock.ts';
import type { ConnectorKind } from '../connectors.types.ts';

/** What the MoMo sandbox does with a request, by the payer's or payee's number. */

/** How long a payer has to approve before MTN expires the request (106); `fast`: for tests and demos. */
export const APPROVAL_WINDOW_MS = 5 * 60 * SECOND;
export const FAST_APPROVAL_WINDOW_MS = 5 * SECOND;

/**
 * What a test number does besides its outcome: `answer500` / `hang` on the request (the request
 * is stored all the same, and decided SUCCESSFUL by the first status read), `callbackAgain` (the
 * callback is sent a second time after the first status read that follows it).
 */
export type NumberFault = 'answer500' | 'hang' | 'callbackAgain';

export interface Outcome {
  status: 'SUCCESSFUL' | 'FAILED';
  reason?: string;
  /** After creation; null: never by time (PENDING forever, or decided by a status read). */
  afterMs: number | null;
  /** The approval window (106): 5 min, or 5 s with `fast`. */
  window?: true;
  fault?: NumberFault;
}

/**
 * The test-number table of docs/spec/providers.md, by the number's last three digits, whatever the country
 * prefix: the same for every provider's sandbox. Any other number: SUCCESSFUL after about 1 s.
 */
const SANDBOX_OUTCOMES: Record<string, Outcome> = {
  '101': { status: 'SUCCESSFUL', afterMs: 10 * SECOND },
  '102': { status: 'SUCCESSFUL', afterMs: null },
  '103': { status: 'FAILED', reason: 'PAYER_NOT_FOUND', afterMs: 0 },
  '104': { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS', afterMs: 0 },
  '105': { status: 'FAILED', reason: 'APPROVAL_REJECTED', afterMs: SECOND },
  '106': { status: 'FAILED', reason: 'EXPIRED', afterMs: APPROVAL_WINDOW_MS, window: true },
  '107': { status: 'SUCCESSFUL', afterMs: null, fault: 'answer500' },
  '108': { status: 'SUCCESSFUL', afterMs: null, fault: 'hang' },
  '109': { status: 'SUCCESSFUL', afterMs: SECOND, fault: 'callbackAgain' },
};
const DEFAULT_OUTCOME: Outcome = { status: 'SUCCESSFUL', afterMs: SECOND };

/**
 * The test numbers MTN's own sandbox documents (momodeveloper.mtn.com, "API testing"), whole
 * numbers, with the outcomes MTN's sandbox gives them, so that a test written against MTN's
 * sandbox behaves the same here: failed, rejected, timed out, and two that stay pending ("ongoing"
 * and "pending"). Every other number follows our table (docs/decisions/0079-wave-as-wave-does.md).
 */
const MTN_DOCUMENTED_NUMBERS: Readonly<Record<string, Outcome>> = {
  '46733123450': { status: 'FAILED', reason: 'INTERNAL_PROCESSING_ERROR', afterMs: 0 },
  '46733123451': { status: 'FAILED', reason: 'APPROVAL_REJECTED', afterMs: 0 },
  '46733123452': { status: 'FAILED', reason: 'EXPIRED', afterMs: 0 },
  '46733123453': { status: 'SUCCESSFUL', afterMs: null },
  '46733123454': { status: 'SUCCESSFUL', afterMs: null },
};

/** The outcome of a number (digits only): MTN's documented number, else by its last three digits. */
function sandboxOutcome(partyId: string): Outcome {
  return MTN_DOCUMENTED_NUMBERS[partyId] ?? SANDBOX_OUTCOMES[partyId.slice(-3)] ?? DEFAULT_OUTCOME;
}

/** A transfer's payee is not a payer: MTN names it PAYEE_NOT_FOUND. */
export function outcomeFor(kind: ConnectorKind, partyId: string): Outcome {
  const outcome = sandboxOutcome(partyId);
  return kind === 'disbursement' && outcome.reason === 'PAYER_NOT_FOUND' ? { ...outcome, reason: 'PAYEE_NOT_FOUND' } : outcome;
}
