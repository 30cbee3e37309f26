import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NotificationLog, PageAction, RedirectPayment } from '../sandbox/redirect-payments.ts';
import type { Hangs, Notifier, ProviderSandboxOptions, SandboxAnswer, SandboxFaultSwitches } from '../sandbox/sandbox.http.ts';
import type { TestOutcome } from '../sandbox/test-numbers.ts';
import type { CinetPayPaymentBody, CinetPayTransfer } from './cinetpay.schema.ts';

/** The CinetPay sandbox's options, what it keeps of a payment and a transfer, and what tests see of it. */

export interface CinetPaySandboxOptions extends ProviderSandboxOptions {
  /** When given, only this apikey is accepted; otherwise any that starts with `cinetpay_`. */
  apiKey?: string;
  /** When given, only this site_id; otherwise any of digits. */
  siteId?: string;
  /** Signs the notifications (x-token). */
  secretKey: string;
  /** When given, only this transfer password; otherwise any that is not empty. */
  transferPassword?: string;
  /**
   * Answer as CinetPay's production does (`caisse sandbox --production`): test mode's own apikey
   * (`cinetpay_sandbox_…`) does not exist there and is refused (609, 701); others are taken.
   */
  production?: boolean;
}

/** The apikey test mode's account sends (index.ts): test-only, refused by the production behaviour. */
export const SANDBOX_API_KEY_PREFIX = 'cinetpay_sandbox';

export interface Extra {
  body: CinetPayPaymentBody;
  token: string;
  card: boolean;
  /** CinetPay's payment_method code the payer paid with (OM, MOMO, …, VISAM). */
  paymentMethod?: string;
}

export interface Transfer {
  id: string;
  body: CinetPayTransfer;
  lot: string;
  createdAt: number;
  outcome: TestOutcome;
  status: 'NEW' | 'VAL' | 'REJ';
  comment?: string;
  notifications: NotificationLog[];
}

export interface CinetPaySandboxPayment {
  transaction_id: string;
  payment_token: string;
  amount: string;
  currency: string;
  state: RedirectPayment<Extra>['state'];
  reason?: string;
  channels: string;
  notifications: NotificationLog[];
}

export interface CinetPaySandboxTransfer {
  transaction_id: string;
  client_transaction_id: string;
  amount: number;
  receiver: string;
  /** NEW: not decided yet; VAL: paid; REJ: refused. */
  treatment_status: Transfer['status'];
  comment: string | null;
  notifications: NotificationLog[];
}

export interface CinetPaySandbox {
  handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined>;
  payments(): CinetPaySandboxPayment[];
  /** Every transfer sent (payouts and refunds alike), as the check endpoint shows it. */
  transfers(): CinetPaySandboxTransfer[];
  /** The payer's part, without the page: by payment token. */
  act(token: string, action: PageAction, phoneNumber?: string): { ok: true; location: string } | { ok: false; reason: string };
  faults(): SandboxFaultSwitches;
  setFaults(change: Partial<SandboxFaultSwitches>): SandboxFaultSwitches;
  stats(): { payments: number; transfers: number; contacts: number; tokensIssued: number };
  /** Every transfer token issued so far stops working (705). */
  expireTokens(): void;
  settle(): void;
  tick(): Promise<void>;
  close(): Promise<void>;
}

/** What the sandbox's payments and transfers share: its options, approval window, fault switches, held requests, notifier and apikey check. */
export interface CinetPaySandboxParts {
  opts: CinetPaySandboxOptions;
  windowMs: number;
  faults: () => SandboxFaultSwitches;
  hangs: Hangs;
  notifier: Notifier;
  keyOk: (apiKey: string) => boolean;
}
