import type { RandomBytes } from '../../../platform/crypto.ts';
import { type TestOutcome, testOutcome } from './test-numbers.ts';

/**
 * The life of one payment at a redirect provider's sandbox (Orange Money, Wave): created by the
 * API, approved (or declined, cancelled, left to expire) by the payer on the sandbox's payment
 * page, then final as the test-number table says for the payer's number, with the provider's
 * notification sent. Time is the sandbox's clock: nothing happens between requests unless
 * `settle` runs (each request, the ticker, or a test's tick()).
 */

export type PaymentState = 'INITIATED' | 'PENDING' | 'SUCCESSFUL' | 'FAILED';
export type PageAction = 'approve' | 'decline' | 'cancel' | 'expire';

export interface NotificationLog {
  at: string;
  httpStatus?: number;
  error?: string;
}

export interface RedirectPayment<Extra> {
  /** The provider's id (Orange's pay_token, Wave's session id). */
  id: string;
  /** The merchant's reference (Orange's order_id, Wave's client_reference). */
  reference: string | undefined;
  amount: string;
  currency: string;
  createdAt: number;
  expiresAt: number;
  /** The payer's number: given at creation (Wave's restrict_payer_mobile) or entered on the page. */
  phoneNumber: string | undefined;
  /** The merchant as the page shows it, when the request names one (Orange's `reference`). */
  merchantName?: string;
  state: PaymentState;
  reason?: string;
  /**
   * Where a failed payment leaves the request open (Wave's session): why the payer's last try
   * failed, while the page can still be paid.
   */
  lastError?: string;
  outcome?: TestOutcome;
  approvedAt?: number;
  finalAt?: number;
  transactionId?: string;
  /** Where the page sends the payer after a success, and after anything else. */
  successUrl: string;
  failureUrl: string;
  language: 'fr' | 'en';
  notifications: NotificationLog[];
  /** 107/108 learnt on the page: the next status read answers 500 or hangs, once. */
  statusFault?: 'answer500' | 'hang';
  /** 109: the notification goes again after the next status read. */
  notifyAgainOnRead?: boolean;
  extra: Extra;
}

export interface RedirectPaymentsOptions<Extra> {
  now: () => number;
  random: RandomBytes;
  windowMs: number;
  /**
   * Sends the provider's notification about a payment that just became final, or (with
   * `failureKeepsOpen`) whose try just failed.
   */
  notify: (payment: RedirectPayment<Extra>) => Promise<NotificationLog>;
  /**
   * A decline, or a payment that fails, leaves the request open until it expires or is expired
   * (Wave's checkout session): the payer may pay it still. A cancel on the page changes nothing.
   * Otherwise (Orange) any of them ends it.
   */
  failureKeepsOpen?: boolean;
}

export interface NewPayment<Extra> {
  id: string;
  reference: string | undefined;
  amount: string;
  currency: string;
  phoneNumber?: string;
  merchantName?: string;
  successUrl: string;
  failureUrl: string;
  language: 'fr' | 'en';
  extra: Extra;
}

export class RedirectPayments<Extra> {
  readonly #byId = new Map<string, RedirectPayment<Extra>>();
  readonly #deliveries = new Set<Promise<void>>();

  constructor(private readonly opts: RedirectPaymentsOptions<Extra>) {}

  /**
   * A new payment waiting for the payer. A number known now whose outcome is a fault (107, 108)
   * is paid at once: the caller answers 500 or hangs, and the status read finds it SUCCESSFUL.
   */
  create(input: NewPayment<Extra>): RedirectPayment<Extra> {
    const now = this.opts.now();
    const p: RedirectPayment<Extra> = {
      ...input,
      phoneNumber: input.phoneNumber,
      createdAt: now,
      expiresAt: now + this.opts.windowMs,
      state: 'INITIATED',
      notifications: [],
    };
    this.#byId.set(p.id, p);
    if (p.phoneNumber !== undefined && testOutcome(p.phoneNumber).fault !== undefined) this.#approve(p, p.phoneNumber, false);
    return p;
  }

  get(id: string): RedirectPayment<Extra> | undefined {
    return this.#byId.get(id);
  }

  all(): RedirectPayment<Extra>[] {
    return [...this.#byId.values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  find(match: (p: RedirectPayment<Extra>) => boolean): RedirectPayment<Extra>[] {
    return this.all().filter(match);
  }

  /** What the payer did on the page; answers where the page sends them next, or why nothing happened. */
  act(
    id: string,
    action: PageAction,
    phoneNumber: string | undefined,
  ): { ok: true; location: string } | { ok: false; reason: 'unknown' | 'closed' | 'number' } {
    this.settle();
    const p = this.#byId.get(id);
    if (p === undefined) return { ok: false, reason: 'unknown' };
    if (p.state !== 'INITIATED') return { ok: false, reason: 'closed' };
    if (action === 'approve') {
      const number = p.phoneNumber ?? phoneNumber;
      if (number === undefined || !/^\+?[0-9]{5,15}$/.test(number)) return { ok: false, reason: 'number' };
      this.#approve(p, number, true);
      return { ok: true, location: p.outcome?.status === 'FAILED' ? p.failureUrl : p.successUrl };
    }
    if (action === 'decline') this.#fail(p, 'APPROVAL_REJECTED');
    // Where the request stays open, leaving the page is only that: the session waits for its expiry.
    if (action === 'cancel' && !this.opts.failureKeepsOpen) this.#finish(p, 'FAILED', 'CANCELLED');
    // "Let it expire": the payer walks away; the window closes on its own (settle).
    return { ok: true, location: p.failureUrl };
  }

  #approve(p: RedirectPayment<Extra>, number: string, onPage: boolean): void {
    const outcome = testOutcome(number);
    p.phoneNumber = number;
    p.outcome = outcome;
    p.approvedAt = this.opts.now();
    p.state = 'PENDING';
    if (onPage && outcome.fault !== undefined) p.statusFault = outcome.fault;
    if (outcome.callbackTwice) p.notifyAgainOnRead = true;
    this.settle();
  }

  /**
   * Closes an open request at the merchant's word (Wave's `/expire`): FAILED with the last try's
   * error, or EXPIRED. Answers false when it is not open (paid, failed, or a payment under way).
   */
  expire(id: string): 'expired' | 'unknown' | 'closed' {
    this.settle();
    const p = this.#byId.get(id);
    if (p === undefined) return 'unknown';
    if (p.state !== 'INITIATED') return 'closed';
    this.#finish(p, 'FAILED', p.lastError ?? 'EXPIRED');
    return 'expired';
  }

  /** The payer's try failed: the request ends, or stays open for another try (`failureKeepsOpen`). */
  #fail(p: RedirectPayment<Extra>, reason: string | undefined): void {
    // A try that fails as the window closes leaves nothing open to pay.
    if (!this.opts.failureKeepsOpen || this.opts.now() >= p.expiresAt) {
      this.#finish(p, 'FAILED', reason);
      return;
    }
    p.state = 'INITIATED';
    p.lastError = reason ?? 'FAILED';
    p.outcome = undefined;
    p.approvedAt = undefined;
    this.#track(p);
  }

  #finish(p: RedirectPayment<Extra>, state: 'SUCCESSFUL' | 'FAILED', reason?: string): void {
    p.state = state;
    p.finalAt = this.opts.now();
    if (reason !== undefined) p.reason = reason;
    if (state === 'SUCCESSFUL') p.transactionId = `TX${this.opts.random(6).toString('hex').toUpperCase()}`;
    this.#track(p);
  }

  #track(p: RedirectPayment<Extra>): void {
    const delivery = this.opts.notify(p).then((log) => {
      p.notifications.push(log);
    });
    this.#deliveries.add(delivery);
    void delivery.finally(() => this.#deliveries.delete(delivery));
  }

  /** Every payment whose time has come reaches its final state (and its notification leaves). */
  settle(): void {
    const now = this.opts.now();
    for (const p of this.#byId.values()) {
      if (p.state === 'PENDING' && p.outcome !== undefined && p.approvedAt !== undefined) {
        const { afterMs } = p.outcome;
        const due = afterMs === null ? undefined : afterMs === 'window' ? p.expiresAt : p.approvedAt + afterMs;
        if (due !== undefined && now >= due) {
          if (p.outcome.status === 'FAILED') this.#fail(p, p.outcome.reason);
          else this.#finish(p, 'SUCCESSFUL');
        }
      }
      // An open request expires with its last try's error, if it had one.
      if (p.state === 'INITIATED' && now >= p.expiresAt) this.#finish(p, 'FAILED', p.lastError ?? 'EXPIRED');
    }
  }

  /** Called on each status read: the fault it must show, if any (once), and 109's second notification. */
  onStatusRead(p: RedirectPayment<Extra>): 'answer500' | 'hang' | undefined {
    const fault = p.statusFault;
    p.statusFault = undefined;
    if (fault === undefined && p.notifyAgainOnRead && p.finalAt !== undefined) {
      p.notifyAgainOnRead = false;
      this.#track(p);
    }
    return fault;
  }

  /** Resolves when every notification under way has been answered (or failed). */
  async drain(): Promise<void> {
    while (this.#deliveries.size > 0) await Promise.allSettled([...this.#deliveries]);
  }
}
