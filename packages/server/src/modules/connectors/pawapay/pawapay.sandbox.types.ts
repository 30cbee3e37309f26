import type { KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NotificationLog } from '../sandbox/redirect-payments.ts';
import type { ProviderSandboxOptions, SandboxAnswer, SandboxFaultSwitches } from '../sandbox/sandbox.http.ts';
import type { TestOutcome } from '../sandbox/test-numbers.ts';
import type { PawapayProvider } from './pawapay.providers.ts';

/** The pawaPay sandbox's options, what it keeps of a payment, and what tests see of it. */

/** Pre-authorisation codes the sandbox fails (any other code of 4 to 10 digits is good). */
export const PREAUTH_WRONG_CODE = '000000';
export const PREAUTH_EXPIRED_CODE = '999999';

export interface PawapaySandboxOptions extends ProviderSandboxOptions {
  /** When given, only this token is accepted; otherwise any. */
  apiToken?: string;
  /** Where callbacks go, per operation type (pawaPay's dashboard settings); unset: none are sent. */
  callbackUrls?: Partial<Record<'deposit' | 'payout' | 'refund', string>>;
  /** Whether callbacks are signed (the account's setting); default true. */
  signCallbacks?: boolean;
  /** The limits of one payment, in whole XAF/XOF, for every operator and operation (default 100 to 2 000 000). */
  limits?: { min: number; max: number };
  /** `caisse sandbox --production`: tokens of pawaPay's form only (a JWT); the sandbox's test token is refused. */
  production?: boolean;
  /**
   * Operations the account's active configuration leaves out, per operation, by operator code
   * (`{ REFUND: ['MTN_MOMO_CMR'] }`): not listed by `GET /v2/active-conf`, refused on initiation.
   */
  disabledOperations?: DisabledOperations;
}

export type PawapayOperation = 'DEPOSIT' | 'PAYOUT' | 'REFUND';
export type DisabledOperations = Partial<Record<PawapayOperation, readonly string[]>>;

export type Operation = 'deposit' | 'payout' | 'refund';
export type Status = 'ACCEPTED' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface SandboxPayment {
  operation: Operation;
  id: string;
  /** The deposit a refund gives back. */
  depositId?: string;
  provider: PawapayProvider;
  phoneNumber: string;
  amount: string;
  currency: string;
  customerMessage?: string;
  clientReferenceId?: string;
  createdAt: number;
  outcome: TestOutcome;
  status: Status;
  failureCode?: string;
  providerTransactionId?: string;
  /** What refunds took back so far (whole units), and whether one is in flight. */
  refunded: number;
  notifications: NotificationLog[];
  /** 109: the callback is sent once more after the next status read. */
  againAfterRead: boolean;
}

export interface PawapaySandbox {
  handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined>;
  payments(operation?: Operation): SandboxPayment[];
  /** The key callbacks are signed with, and its id (for tests that forge). */
  signingKey(): { keyId: string; privateKey: KeyObject };
  faults(): SandboxFaultSwitches;
  setFaults(change: Partial<SandboxFaultSwitches>): SandboxFaultSwitches;
  /** Sets the operations the account's active configuration leaves out (the option's, replaced); empty: all enabled. */
  setDisabledOperations(disabled: DisabledOperations): void;
  stats(): { deposits: number; payouts: number; refunds: number };
  settle(): void;
  tick(): Promise<void>;
  close(): Promise<void>;
}
