import { generateKeyPairSync } from 'node:crypto';
import { randomToken } from '../../../platform/crypto.ts';
import { type Notifier, SandboxAnswer, type SandboxFaultSwitches } from '../sandbox/sandbox.http.ts';
import { testOutcome } from '../sandbox/test-numbers.ts';
import type { PawapayProvider } from './pawapay.providers.ts';
import type { Operation, PawapaySandboxOptions, SandboxPayment } from './pawapay.sandbox.types.ts';
import { signCallback } from './pawapay.signature.ts';

const PAWAPAY_TO_OURS: Readonly<Record<string, string>> = {
  NOT_ENOUGH_FUNDS: 'INSUFFICIENT_BALANCE',
  APPROVAL_REJECTED: 'PAYMENT_NOT_APPROVED',
  // pawaPay has no code of its own for a payer who never approves: the deposit is not approved.
  EXPIRED: 'PAYMENT_NOT_APPROVED',
};

/**
 * The deposits, payouts and refunds the pawaPay sandbox holds: their final states, reached when
 * their time comes, what a read answers about each, and their callbacks, signed with a key made
 * when the sandbox starts.
 */
export function pawapayPayments(ctx: { opts: PawapaySandboxOptions; windowMs: number; faults: () => SandboxFaultSwitches; notifier: Notifier }) {
  const { opts, windowMs, notifier } = ctx;
  const log = opts.log ?? (() => {});
  const sending = new Set<Promise<unknown>>();
  const payments = new Map<string, SandboxPayment>();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyId = `HTTP_EC_P256_${randomToken(opts.random, 6)}`;
  // As pawaPay publishes its keys: PEM.
  const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();

  function newPayment(
    operation: Operation,
    id: string,
    operator: PawapayProvider,
    phoneNumber: string,
    amount: string,
    currency: string,
    extra: Partial<SandboxPayment>,
  ) {
    const p: SandboxPayment = {
      operation,
      id,
      provider: operator,
      phoneNumber,
      amount,
      currency,
      createdAt: opts.now(),
      outcome: testOutcome(phoneNumber),
      status: 'ACCEPTED',
      refunded: 0,
      notifications: [],
      againAfterRead: false,
      ...extra,
    };
    payments.set(id, p);
    return p;
  }

  /** A deposit to an operator the payer approves on its own page (Wave), still in flight. */
  function redirected(p: SandboxPayment): boolean {
    return p.operation === 'deposit' && p.provider.authType === 'REDIRECT_AUTH' && p.status !== 'COMPLETED' && p.status !== 'FAILED';
  }

  function view(p: SandboxPayment) {
    const party = { type: 'MMO', accountDetails: { phoneNumber: p.phoneNumber, provider: p.provider.code } };
    return {
      [p.operation === 'deposit' ? 'depositId' : p.operation === 'payout' ? 'payoutId' : 'refundId']: p.id,
      ...(p.depositId !== undefined ? { depositId: p.depositId } : {}),
      status: p.status,
      amount: p.amount,
      currency: p.currency,
      country: p.provider.country3,
      [p.operation === 'deposit' ? 'payer' : 'recipient']: party,
      ...(p.customerMessage !== undefined ? { customerMessage: p.customerMessage } : {}),
      ...(p.clientReferenceId !== undefined ? { clientReferenceId: p.clientReferenceId } : {}),
      created: new Date(p.createdAt).toISOString(),
      ...(p.providerTransactionId !== undefined ? { providerTransactionId: p.providerTransactionId } : {}),
      ...(p.failureCode !== undefined
        ? { failureReason: { failureCode: p.failureCode, failureMessage: p.failureCode.toLowerCase().replaceAll('_', ' ') } }
        : {}),
      ...(redirected(p) ? { nextStep: 'REDIRECT_TO_AUTH_URL', authorizationUrl: `${opts.baseUrl()}/authorize/${p.id}` } : {}),
    };
  }

  function notify(p: SandboxPayment): void {
    const url = opts.callbackUrls?.[p.operation];
    const at = new Date(opts.now()).toISOString();
    if (url === undefined) {
      p.notifications.push({ at, error: 'no callback URL' });
      return;
    }
    if (ctx.faults().dropCallbacks) {
      p.notifications.push({ at, error: 'dropped' });
      return;
    }
    const body = JSON.stringify(view(p));
    const target = new URL(url);
    const headers =
      opts.signCallbacks === false
        ? {}
        : signCallback(
            { key: privateKey, keyId, nowMs: opts.now() },
            { method: 'POST', authority: target.host, path: target.pathname, body, contentType: 'application/json' },
          );
    const sent = notifier.post(url, headers, body).then((entry) => {
      p.notifications.push(entry);
      log(`pawapay callback ${p.operation} ${p.id} ${p.status} → ${entry.httpStatus ?? entry.error}`);
    });
    sending.add(sent);
    void sent.finally(() => sending.delete(sent));
  }

  function settle(): void {
    const now = opts.now();
    for (const p of payments.values()) {
      if (p.status === 'COMPLETED' || p.status === 'FAILED') continue;
      const { afterMs } = p.outcome;
      const due = afterMs === null ? undefined : afterMs === 'window' ? p.createdAt + windowMs : p.createdAt + afterMs;
      if (due === undefined || now < due) {
        p.status = 'PROCESSING';
        continue;
      }
      if (p.outcome.status === 'SUCCESSFUL') {
        p.status = 'COMPLETED';
        p.providerTransactionId = `PP${randomToken(opts.random, 8)}`;
      } else {
        p.status = 'FAILED';
        const reason = p.outcome.reason ?? 'UNSPECIFIED_FAILURE';
        p.failureCode = PAWAPAY_TO_OURS[reason] ?? reason;
        // A failed refund gives its amount back to the deposit.
        if (p.operation === 'refund' && p.depositId !== undefined) {
          const d = payments.get(p.depositId);
          if (d) d.refunded -= Number(p.amount);
        }
      }
      p.againAfterRead = p.outcome.callbackTwice === true;
      notify(p);
    }
  }

  function read(operation: Operation, id: string): SandboxAnswer {
    const p = payments.get(id);
    if (p === undefined || p.operation !== operation) return new SandboxAnswer(200, { status: 'NOT_FOUND' });
    const answer = new SandboxAnswer(200, { status: 'FOUND', data: view(p) });
    if (p.againAfterRead) {
      p.againAfterRead = false;
      notify(p);
    }
    return answer;
  }

  return {
    get: (id: string) => payments.get(id),
    all: () => payments.values(),
    newPayment,
    redirected,
    settle,
    read,
    keyId,
    privateKey,
    publicPem,
    /** Waits until every callback that left is delivered. */
    async drain(): Promise<void> {
      while (sending.size > 0) await Promise.allSettled([...sending]);
    },
  };
}

export type PawapayPayments = ReturnType<typeof pawapayPayments>;
