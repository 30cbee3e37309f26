import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hangs, Notifier, SandboxAnswer, type SandboxFaultSwitches } from '../sandbox/sandbox.http.ts';
import { approvalWindowMs } from '../sandbox/test-numbers.ts';
import { credentialChecks, refused, transferAnswer } from './cinetpay.sandbox.answers.ts';
import { cinetPayPayments } from './cinetpay.sandbox.payments.ts';
import { cinetPayTransfers } from './cinetpay.sandbox.transfers.ts';
import type { CinetPaySandbox, CinetPaySandboxOptions } from './cinetpay.sandbox.types.ts';

/**
 * The CinetPay sandbox, mounted under a base path of the sandbox server: the payment API
 * (`/v2/payment`, `/v2/payment/check`), its page (`/pay/{token}`: an operator or a card), the
 * notification (a form-encoded POST to notify_url with a valid `x-token`), and the transfer API
 * (`/v1/auth/login`, `/v1/transfer/contact`, `/v1/transfer/money/send/contact`,
 * `/v1/transfer/check/money`). The payer's number is the request's locked
 * `customer_phone_number` (or typed on the page), a card's the card number: their last three
 * digits decide the outcome (docs/spec/providers.md). It refuses what CinetPay refuses, with its
 * codes: a missing field or a character it does not take (608), an amount that is not a multiple
 * of 5 (608) or out of its bounds (641, 642), a currency other than XOF, XAF and USD (612; a USD
 * page lists no operator of our countries, so dollars are paid by card), an unknown apikey (609) or
 * site_id (613), a card payment without the customer's details (624), a transaction_id used
 * before (620); for transfers a bad password (701), a stale token (705, 706), a number that is
 * not a contact (724), a client_transaction_id used before (805).
 */

export {
  type CinetPaySandbox,
  type CinetPaySandboxOptions,
  type CinetPaySandboxPayment,
  type CinetPaySandboxTransfer,
  SANDBOX_API_KEY_PREFIX,
} from './cinetpay.sandbox.types.ts';

const NO_FAULTS: SandboxFaultSwitches = { answer500: false, hang: false, dropCallbacks: false };

export function createCinetPaySandbox(opts: CinetPaySandboxOptions): CinetPaySandbox {
  const windowMs = approvalWindowMs(opts.fast ?? false);
  let faults: SandboxFaultSwitches = { ...NO_FAULTS };
  const hangs = new Hangs();
  const notifier = new Notifier(opts.now, opts.callbackTimeoutMs);
  const { siteOk, keyOk } = credentialChecks(opts);
  const shared = { opts, windowMs, faults: () => faults, hangs, notifier, keyOk };
  const payments = cinetPayPayments({ ...shared, siteOk });
  const transfers = cinetPayTransfers(shared);
  const { store } = payments;

  async function api(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
    if (method === 'POST' && path === '/v2/payment') return payments.initPayment(req, res);
    if (method === 'POST' && path === '/v2/payment/check') return payments.checkPayment(req, res);
    if ((method === 'POST' || method === 'GET') && path === '/v1/auth/login') return transfers.login(req);
    if (path.startsWith('/v1/transfer/')) {
      const refusedToken = transfers.authorize(query);
      if (refusedToken) return refusedToken;
      if (method === 'POST' && path === '/v1/transfer/contact') return transfers.addContacts(req);
      if (method === 'POST' && path === '/v1/transfer/money/send/contact') return transfers.sendMoney(req, res);
      if (path === '/v1/transfer/check/money') return transfers.checkMoney(query);
      if (method === 'GET' && path === '/v1/transfer/check/balance')
        return transferAnswer(0, 'OPERATION_SUCCES', '', { amount: 1_000_000, inUsing: 0, available: 1_000_000 });
      return transferAnswer(708, 'NOT_ALLOWED', 'Vous n’êtes pas autorisé à visiter le lien');
    }
    return refused(404, '404', 'NOT_FOUND', `no route ${method} ${path}`);
  }

  async function handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    store.settle();
    transfers.settle();
    const pay = /^\/pay\/([A-Za-z0-9_-]+)$/.exec(path);
    if (pay && (method === 'GET' || method === 'POST')) return payments.page(method, pay[1] as string, req);
    if (method === 'GET' && path === '/_sandbox/payments') return new SandboxAnswer(200, { data: sandbox.payments() });
    if (!path.startsWith('/v1/') && !path.startsWith('/v2/')) return refused(404, '404', 'NOT_FOUND', `no route ${method} ${path}`);
    if (faults.hang) return hangs.hold(res);
    if (faults.answer500) return new SandboxAnswer(500, { code: '500', message: 'INTERNAL_ERROR' });
    return api(method, path, req, res);
  }

  const sandbox: CinetPaySandbox = {
    handle,
    payments: payments.list,
    transfers: transfers.list,
    act: (token, action, phoneNumber) => store.act(token, action, phoneNumber),
    faults: () => ({ ...faults }),
    setFaults(change) {
      faults = { ...faults, ...change };
      return { ...faults };
    },
    stats: () => ({ payments: store.all().length, ...transfers.stats() }),
    expireTokens: transfers.expireTokens,
    settle() {
      store.settle();
      transfers.settle();
    },
    async tick() {
      sandbox.settle();
      await store.drain();
      await transfers.drain();
    },
    async close() {
      hangs.release();
      await store.drain();
      await transfers.drain();
      await notifier.close();
    },
  };
  return sandbox;
}
