import type { IncomingMessage, ServerResponse } from 'node:http';
import { safeEqual } from '../../../platform/crypto.ts';
import { Hangs, headerOf, Notifier, SandboxAnswer, type SandboxFaultSwitches } from '../sandbox/sandbox.http.ts';
import { approvalWindowMs } from '../sandbox/test-numbers.ts';
import { looksLikePawapayToken } from './pawapay.live.ts';
import { type AccountSettings, activeConf, availability, enables, predict } from './pawapay.sandbox.account.ts';
import { refusal } from './pawapay.sandbox.answers.ts';
import { pawapayInitiations } from './pawapay.sandbox.initiations.ts';
import { pawapayPayments } from './pawapay.sandbox.payments.ts';
import type { PawapaySandbox, PawapaySandboxOptions } from './pawapay.sandbox.types.ts';

/**
 * The pawaPay sandbox (Merchant API v2), mounted under a base path of the sandbox server:
 * deposits, payouts and refunds (initiate, read by id), the active configuration, availability,
 * provider prediction and the public keys, and callbacks to one URL per operation type (as set
 * in pawaPay's dashboard), signed (RFC 9421) with a key made when it starts. The payer's number
 * decides the outcome (docs/spec/providers.md's test numbers). It refuses what pawaPay refuses:
 * a missing or wrong token, a body it cannot take, a `customerMessage` that is not 4 to 22
 * letters, digits and spaces, an amount outside the operator's limits or with decimals, a number
 * of another country, an unknown operator, a currency the operator does not take, a missing
 * pre-authorisation code for an operator that takes one, an operation the account's active
 * configuration leaves out for the operator (`disabledOperations`); an id sent again is
 * DUPLICATE_IGNORED.
 */

export { type PawapaySandbox, type PawapaySandboxOptions, PREAUTH_EXPIRED_CODE, PREAUTH_WRONG_CODE, type SandboxPayment } from './pawapay.sandbox.types.ts';

const NO_FAULTS: SandboxFaultSwitches = { answer500: false, hang: false, dropCallbacks: false };
const DEFAULT_LIMITS = { min: 100, max: 2_000_000 };

export function createPawapaySandbox(opts: PawapaySandboxOptions): PawapaySandbox {
  const limits = opts.limits ?? DEFAULT_LIMITS;
  let faults: SandboxFaultSwitches = { ...NO_FAULTS };
  const hangs = new Hangs();
  const notifier = new Notifier(opts.now, opts.callbackTimeoutMs);
  const payments = pawapayPayments({ opts, windowMs: approvalWindowMs(opts.fast ?? false), faults: () => faults, notifier });
  const account: AccountSettings = { limits, signCallbacks: opts.signCallbacks, disabled: opts.disabledOperations };
  const initiations = pawapayInitiations({ limits, hangs, payments, enabled: (operation, code) => enables(account, operation, code) });

  function authorize(req: IncomingMessage): SandboxAnswer | undefined {
    const header = headerOf(req, 'authorization');
    if (header === undefined || !header.startsWith('Bearer ')) return refusal(401, 'NO_AUTHENTICATION', 'The API token was not found in the request headers');
    const token = header.slice(7);
    // Production knows only the tokens its dashboard issues: test mode's does not exist there.
    if (opts.apiToken === undefined && opts.production === true && !looksLikePawapayToken(token))
      return refusal(403, 'AUTHENTICATION_ERROR', 'The API token is not valid');
    const ok = opts.apiToken === undefined ? token.length > 0 : safeEqual(token, opts.apiToken);
    return ok ? undefined : refusal(403, 'AUTHENTICATION_ERROR', 'The API token is not valid');
  }

  async function api(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
    if (method === 'POST' && path === '/v2/deposits') return initiations.deposit(req, res);
    if (method === 'POST' && path === '/v2/payouts') return initiations.payout(req, res);
    if (method === 'POST' && path === '/v2/refunds') return initiations.refund(req, res);
    const one = /^\/v2\/(deposits|payouts|refunds)\/([^/]+)$/.exec(path);
    if (one && method === 'GET') return payments.read(one[1] === 'deposits' ? 'deposit' : one[1] === 'payouts' ? 'payout' : 'refund', one[2] as string);
    if (method === 'GET' && path === '/v2/active-conf') return new SandboxAnswer(200, activeConf(query, account));
    if (method === 'GET' && path === '/v2/availability') return new SandboxAnswer(200, availability(query, account));
    if (method === 'POST' && path === '/v2/predict-provider') return predict(req);
    if (method === 'GET' && path === '/v2/public-key/http') return new SandboxAnswer(200, [{ id: payments.keyId, key: payments.publicPem }]);
    return refusal(404, 'NOT_FOUND', 'No such endpoint');
  }

  async function handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    payments.settle();
    if (method === 'GET' && path === '/_sandbox/payments') return new SandboxAnswer(200, { data: sandbox.payments() });
    // The operator's page a redirect deposit sends the payer to: in the sandbox, the number decides.
    const page = /^\/authorize\/([0-9a-f-]{36})$/.exec(path);
    if (page && method === 'GET') {
      const p = payments.get(page[1] as string);
      if (p === undefined || p.operation !== 'deposit') return new SandboxAnswer(404, '<!doctype html><title>pawaPay sandbox</title><p>No such payment.</p>');
      return new SandboxAnswer(
        200,
        `<!doctype html><title>pawaPay sandbox</title><p>${p.provider.code}: ${p.amount} ${p.currency} from ${p.phoneNumber}, ${p.status}. The payer's number decides the outcome (test numbers).</p>`,
      );
    }
    if (!path.startsWith('/v2/')) return refusal(404, 'NOT_FOUND', 'No such endpoint');
    if (faults.hang) return hangs.hold(res);
    if (faults.answer500) return refusal(500, 'UNKNOWN_ERROR', 'Internal error');
    const refused = authorize(req);
    if (refused) return refused;
    return api(method, path, req, res);
  }

  const sandbox: PawapaySandbox = {
    handle,
    payments: (operation) => [...payments.all()].filter((p) => operation === undefined || p.operation === operation),
    signingKey: () => ({ keyId: payments.keyId, privateKey: payments.privateKey }),
    faults: () => ({ ...faults }),
    setFaults(change) {
      faults = { ...faults, ...change };
      return { ...faults };
    },
    setDisabledOperations(disabled) {
      account.disabled = disabled;
    },
    stats() {
      const all = [...payments.all()];
      return {
        deposits: all.filter((p) => p.operation === 'deposit').length,
        payouts: all.filter((p) => p.operation === 'payout').length,
        refunds: all.filter((p) => p.operation === 'refund').length,
      };
    },
    settle: payments.settle,
    async tick() {
      payments.settle();
      await payments.drain();
    },
    async close() {
      hangs.release();
      await payments.drain();
      await notifier.close();
    },
  };
  return sandbox;
}
