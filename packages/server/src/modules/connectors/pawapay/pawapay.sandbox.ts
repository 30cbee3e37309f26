import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomToken, safeEqual } from '../../../platform/crypto.ts';
import { lookupNumber } from '../connectors.numbering.ts';
import type { NotificationLog } from '../sandbox/redirect-payments.ts';
import { Hangs, headerOf, Notifier, type ProviderSandboxOptions, readRequestBody, SandboxAnswer, type SandboxFaultSwitches } from '../sandbox/sandbox.http.ts';
import { approvalWindowMs, testOutcome, type TestOutcome } from '../sandbox/test-numbers.ts';
import { CUSTOMER_MESSAGE } from './pawapay.description.ts';
import { looksLikePawapayToken } from './pawapay.live.ts';
import { PAWAPAY_PROVIDERS, type PawapayProvider, pawapayProvider } from './pawapay.providers.ts';
import {
  type ActiveConf,
  type Availability,
  checkDepositBody,
  checkPayoutBody,
  checkPredictBody,
  checkRefundBody,
  DepositBody,
  PayoutBody,
  PredictBody,
  RefundBody,
} from './pawapay.schema.ts';
import { signCallback } from './pawapay.signature.ts';

/**
 * The pawaPay sandbox (Merchant API v2), mounted under a base path of the sandbox server:
 * deposits, payouts and refunds (initiate, read by id), the active configuration, availability,
 * provider prediction and the public keys, and callbacks to one URL per operation type (as set
 * in pawaPay's dashboard), signed (RFC 9421) with a key made when it starts. The payer's number
 * decides the outcome (docs/spec/providers.md's test numbers). It refuses what pawaPay refuses:
 * a missing or wrong token, a body it cannot take, a `customerMessage` that is not 4 to 22
 * letters, digits and spaces, an amount outside the operator's limits or with decimals, a number
 * of another country, an unknown operator, a currency the operator does not take, a missing
 * pre-authorisation code for an operator that takes one; an id sent again is DUPLICATE_IGNORED.
 */

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
}

type Operation = 'deposit' | 'payout' | 'refund';
type Status = 'ACCEPTED' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

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
  stats(): { deposits: number; payouts: number; refunds: number };
  settle(): void;
  tick(): Promise<void>;
  close(): Promise<void>;
}

const NO_FAULTS: SandboxFaultSwitches = { answer500: false, hang: false, dropCallbacks: false };
const DEFAULT_LIMITS = { min: 100, max: 2_000_000 };

/** pawaPay's refusals outside initiation's REJECTED: an HTTP status and a failureReason. */
function refusal(status: number, failureCode: string, failureMessage: string): SandboxAnswer {
  return new SandboxAnswer(status, { failureReason: { failureCode, failureMessage } });
}

const PAWAPAY_TO_OURS: Readonly<Record<string, string>> = {
  NOT_ENOUGH_FUNDS: 'INSUFFICIENT_BALANCE',
  APPROVAL_REJECTED: 'PAYMENT_NOT_APPROVED',
  // pawaPay has no code of its own for a payer who never approves: the deposit is not approved.
  EXPIRED: 'PAYMENT_NOT_APPROVED',
};

export function createPawapaySandbox(opts: PawapaySandboxOptions): PawapaySandbox {
  const log = opts.log ?? (() => {});
  const windowMs = approvalWindowMs(opts.fast ?? false);
  const limits = opts.limits ?? DEFAULT_LIMITS;
  let faults: SandboxFaultSwitches = { ...NO_FAULTS };
  const hangs = new Hangs();
  const notifier = new Notifier(opts.now, opts.callbackTimeoutMs);
  const sending = new Set<Promise<unknown>>();
  const payments = new Map<string, SandboxPayment>();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyId = `HTTP_EC_P256_${randomToken(opts.random, 6)}`;
  // As pawaPay publishes its keys: PEM.
  const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();

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

  /** The body as pawaPay reads it: 400 INVALID_INPUT when it is not JSON, MISSING/UNSUPPORTED/INVALID_PARAMETER by its shape. */
  function parse<T>(
    text: string,
    checker: { Check(v: unknown): v is T; Errors(v: unknown): { instancePath: string; message: string }[] },
    schema: { properties: Record<string, unknown> },
    required: string[],
  ): T {
    const allowed = Object.keys(schema.properties);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw refusal(400, 'INVALID_INPUT', 'The body is not JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw refusal(400, 'INVALID_INPUT', 'The body is not a JSON object');
    const missing = required.find((k) => !(k in value));
    if (missing !== undefined) throw refusal(400, 'MISSING_PARAMETER', `${missing} is required`);
    const unknown = Object.keys(value).find((k) => !allowed.includes(k));
    if (unknown !== undefined) throw refusal(400, 'UNSUPPORTED_PARAMETER', `${unknown} is not a parameter of this endpoint`);
    if (checker.Check(value)) return value;
    const first = checker.Errors(value)[0];
    throw refusal(400, 'INVALID_PARAMETER', first ? `${first.instancePath || '/'} ${first.message}` : 'invalid');
  }

  const rejected = (idField: string, id: string, failureCode: string, failureMessage: string) =>
    new SandboxAnswer(200, { [idField]: id, status: 'REJECTED', failureReason: { failureCode, failureMessage } });

  /** The checks every initiation makes, as REJECTED answers; undefined when the request may go on. */
  function checkMoney(idField: string, id: string, provider: string, phoneNumber: string, amount: string, currency: string, message: string | undefined) {
    if (message !== undefined && !CUSTOMER_MESSAGE.pattern.test(message))
      throw refusal(400, 'INVALID_PARAMETER', 'customerMessage must be 4 to 22 characters: letters, digits and spaces');
    const operator = pawapayProvider(provider);
    if (operator === undefined) return { answer: rejected(idField, id, 'INVALID_PROVIDER', `${provider} is not a provider of this account`) };
    if (currency !== operator.currency) return { answer: rejected(idField, id, 'INVALID_CURRENCY', `${operator.code} takes ${operator.currency}`) };
    if (!/^[0-9]+$/.test(amount) || amount.startsWith('0')) return { answer: rejected(idField, id, 'INVALID_AMOUNT', `${operator.code} takes no decimals`) };
    const whole = Number(amount);
    if (whole < limits.min || whole > limits.max)
      return { answer: rejected(idField, id, 'AMOUNT_OUT_OF_BOUNDS', `${operator.code} takes ${limits.min} to ${limits.max} ${operator.currency}`) };
    if (!phoneNumber.startsWith(operator.prefix) || phoneNumber.length < operator.prefix.length + 8)
      return { answer: rejected(idField, id, 'INVALID_PHONE_NUMBER', `${phoneNumber} is not a number of ${operator.country3}`) };
    return { operator };
  }

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

  /** An accepted initiation's answer, or the fault its number asks for (it is stored all the same). */
  function accepted(idField: string, p: SandboxPayment, res: ServerResponse): SandboxAnswer | undefined {
    settle();
    if (p.outcome.fault === 'hang') return hangs.hold(res);
    if (p.outcome.fault === 'answer500') return refusal(500, 'UNKNOWN_ERROR', 'Internal error');
    return new SandboxAnswer(200, {
      [idField]: p.id,
      status: 'ACCEPTED',
      created: new Date(p.createdAt).toISOString(),
      // A redirect operator's page comes later, with the status read (pawaPay's GET_AUTH_URL).
      ...(redirected(p) ? { nextStep: 'GET_AUTH_URL' } : {}),
    });
  }

  /** A deposit to an operator the payer approves on its own page (Wave), still in flight. */
  function redirected(p: SandboxPayment): boolean {
    return p.operation === 'deposit' && p.provider.authType === 'REDIRECT_AUTH' && p.status !== 'COMPLETED' && p.status !== 'FAILED';
  }

  async function deposit(req: IncomingMessage, res: ServerResponse) {
    const body = parse<DepositBody>(await readRequestBody(req, undefined), checkDepositBody, DepositBody, ['depositId', 'amount', 'currency', 'payer']);
    if (payments.has(body.depositId)) return new SandboxAnswer(200, { depositId: body.depositId, status: 'DUPLICATE_IGNORED' });
    const { phoneNumber, provider } = body.payer.accountDetails;
    const checked = checkMoney('depositId', body.depositId, provider, phoneNumber, body.amount, body.currency, body.customerMessage);
    if (checked.answer) return checked.answer;
    const { operator } = checked;
    const code = body.preAuthorisationCode;
    if (operator.authType === 'PREAUTH') {
      if (code === undefined) throw refusal(400, 'MISSING_PARAMETER', `preAuthorisationCode is required for ${operator.code}`);
      if (!/^[0-9]{4,10}$/.test(code)) throw refusal(400, 'INVALID_PARAMETER', 'preAuthorisationCode must be the 4 to 10 digits the payer was given');
    } else if (code !== undefined) {
      throw refusal(400, 'UNSUPPORTED_PARAMETER', `${operator.code} takes no preAuthorisationCode`);
    }
    const p = newPayment('deposit', body.depositId, operator, phoneNumber, body.amount, body.currency, {
      ...(body.customerMessage !== undefined ? { customerMessage: body.customerMessage } : {}),
      ...(body.clientReferenceId !== undefined ? { clientReferenceId: body.clientReferenceId } : {}),
    });
    // A wrong or expired code: accepted, then failed by the operator, as the phone's refusal would be.
    if (code === PREAUTH_WRONG_CODE) p.outcome = { status: 'FAILED', reason: 'INVALID_PREAUTHORISATION_CODE', afterMs: 0 };
    if (code === PREAUTH_EXPIRED_CODE) p.outcome = { status: 'FAILED', reason: 'PREAUTHORISATION_CODE_EXPIRED', afterMs: 0 };
    return accepted('depositId', p, res);
  }

  async function payout(req: IncomingMessage, res: ServerResponse) {
    const body = parse<PayoutBody>(await readRequestBody(req, undefined), checkPayoutBody, PayoutBody, ['payoutId', 'amount', 'currency', 'recipient']);
    if (payments.has(body.payoutId)) return new SandboxAnswer(200, { payoutId: body.payoutId, status: 'DUPLICATE_IGNORED' });
    const { phoneNumber, provider } = body.recipient.accountDetails;
    const checked = checkMoney('payoutId', body.payoutId, provider, phoneNumber, body.amount, body.currency, body.customerMessage);
    if (checked.answer) return checked.answer;
    const p = newPayment('payout', body.payoutId, checked.operator, phoneNumber, body.amount, body.currency, {
      ...(body.customerMessage !== undefined ? { customerMessage: body.customerMessage } : {}),
    });
    // No approval on a payout: the payee's number fails it or not, never by expiry.
    if (p.outcome.reason === 'PAYER_NOT_FOUND') p.outcome = { ...p.outcome, reason: 'RECIPIENT_NOT_FOUND' };
    return accepted('payoutId', p, res);
  }

  async function refund(req: IncomingMessage, res: ServerResponse) {
    const body = parse<RefundBody>(await readRequestBody(req, undefined), checkRefundBody, RefundBody, ['refundId', 'depositId']);
    if (payments.has(body.refundId)) return new SandboxAnswer(200, { refundId: body.refundId, status: 'DUPLICATE_IGNORED' });
    const d = payments.get(body.depositId);
    if (d === undefined || d.operation !== 'deposit') return rejected('refundId', body.refundId, 'DEPOSIT_NOT_FOUND', 'No deposit has this depositId');
    if (d.status !== 'COMPLETED') return rejected('refundId', body.refundId, 'DEPOSIT_NOT_COMPLETED', 'Only a completed deposit can be refunded');
    if ([...payments.values()].some((r) => r.operation === 'refund' && r.depositId === d.id && r.status !== 'COMPLETED' && r.status !== 'FAILED'))
      return rejected('refundId', body.refundId, 'REFUND_IN_PROGRESS', 'Another refund transaction is already in progress');
    const left = Number(d.amount) - d.refunded;
    if (left <= 0) return rejected('refundId', body.refundId, 'DEPOSIT_ALREADY_REFUNDED', 'Requested deposit has been already refunded');
    if (body.currency !== undefined && body.currency !== d.currency)
      return rejected('refundId', body.refundId, 'INVALID_CURRENCY', `The deposit is in ${d.currency}`);
    const amount = body.amount ?? String(left);
    if (!/^[1-9][0-9]*$/.test(amount)) return rejected('refundId', body.refundId, 'INVALID_AMOUNT', `${d.provider.code} takes no decimals`);
    if (Number(amount) > left) return rejected('refundId', body.refundId, 'AMOUNT_TOO_LARGE', `Amount should not be greater than ${left}`);
    const p = newPayment('refund', body.refundId, d.provider, d.phoneNumber, amount, d.currency, {
      depositId: d.id,
      outcome: { status: 'SUCCESSFUL', afterMs: 1000 },
      ...(body.clientReferenceId !== undefined ? { clientReferenceId: body.clientReferenceId } : {}),
    });
    // Held against the deposit from now: a second refund cannot take it too.
    d.refunded += Number(amount);
    return accepted('refundId', p, res);
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
    if (faults.dropCallbacks) {
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

  function activeConf(query: URLSearchParams): ActiveConf {
    const country = query.get('country');
    const operation = query.get('operationType');
    const ops = (['DEPOSIT', 'PAYOUT', 'REFUND'] as const).filter((o) => operation === null || o === operation);
    const countries = [...new Set(PAWAPAY_PROVIDERS.map((p) => p.country3))].filter((c) => country === null || c === country);
    return {
      companyName: 'Caisse sandbox',
      signatureConfiguration: { signedRequestsOnly: false, signedCallbacks: opts.signCallbacks !== false },
      countries: countries.map((c) => {
        const of = PAWAPAY_PROVIDERS.filter((p) => p.country3 === c);
        return {
          country: c,
          prefix: (of[0] as PawapayProvider).prefix,
          providers: of.map((p) => ({
            provider: p.code,
            nameDisplayedToCustomer: 'CAISSE SANDBOX',
            currencies: [
              {
                currency: p.currency,
                operationTypes: Object.fromEntries(
                  ops.map((o) => [
                    o,
                    {
                      minAmount: String(limits.min),
                      maxAmount: String(limits.max),
                      decimalsInAmount: 'NONE' as const,
                      status: 'OPERATIONAL' as const,
                      ...(o === 'DEPOSIT' ? { authType: p.authType } : {}),
                    },
                  ]),
                ),
              },
            ],
          })),
        };
      }),
    };
  }

  function availability(query: URLSearchParams): Availability {
    const conf = activeConf(query);
    return conf.countries.map((c) => ({
      country: c.country,
      providers: c.providers.map((p) => ({
        provider: p.provider,
        operationTypes: Object.fromEntries(Object.keys(p.currencies[0]?.operationTypes ?? {}).map((o) => [o, 'OPERATIONAL'])),
      })),
    }));
  }

  const OPERATOR_METHOD: Readonly<Record<string, string>> = { mtn: 'mtn_momo', orange: 'orange_money', moov: 'moov_money', free: 'free_money' };

  async function predict(req: IncomingMessage) {
    const body = parse(await readRequestBody(req, undefined), checkPredictBody, PredictBody, ['phoneNumber']);
    const digits = body.phoneNumber.replace(/[\s()+-]/g, '');
    const of = PAWAPAY_PROVIDERS.filter((p) => digits.startsWith(p.prefix));
    if (!/^[0-9]{8,15}$/.test(digits) || of.length === 0)
      return refusal(400, 'INVALID_PHONE_NUMBER', 'The phone number is not valid for any country of this account');
    const method = OPERATOR_METHOD[lookupNumber(`+${digits}`)?.operator ?? ''];
    const provider = of.find((p) => p.method === method) ?? (of[0] as PawapayProvider);
    return new SandboxAnswer(200, { country: provider.country3, provider: provider.code, phoneNumber: digits });
  }

  async function api(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
    if (method === 'POST' && path === '/v2/deposits') return deposit(req, res);
    if (method === 'POST' && path === '/v2/payouts') return payout(req, res);
    if (method === 'POST' && path === '/v2/refunds') return refund(req, res);
    const one = /^\/v2\/(deposits|payouts|refunds)\/([^/]+)$/.exec(path);
    if (one && method === 'GET') return read(one[1] === 'deposits' ? 'deposit' : one[1] === 'payouts' ? 'payout' : 'refund', one[2] as string);
    if (method === 'GET' && path === '/v2/active-conf') return new SandboxAnswer(200, activeConf(query));
    if (method === 'GET' && path === '/v2/availability') return new SandboxAnswer(200, availability(query));
    if (method === 'POST' && path === '/v2/predict-provider') return predict(req);
    if (method === 'GET' && path === '/v2/public-key/http') return new SandboxAnswer(200, [{ id: keyId, key: publicPem }]);
    return refusal(404, 'NOT_FOUND', 'No such endpoint');
  }

  async function handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    settle();
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
    payments: (operation) => [...payments.values()].filter((p) => operation === undefined || p.operation === operation),
    signingKey: () => ({ keyId, privateKey }),
    faults: () => ({ ...faults }),
    setFaults(change) {
      faults = { ...faults, ...change };
      return { ...faults };
    },
    stats() {
      const all = [...payments.values()];
      return {
        deposits: all.filter((p) => p.operation === 'deposit').length,
        payouts: all.filter((p) => p.operation === 'payout').length,
        refunds: all.filter((p) => p.operation === 'refund').length,
      };
    },
    settle,
    async tick() {
      settle();
      while (sending.size > 0) await Promise.allSettled([...sending]);
    },
    async close() {
      hangs.release();
      while (sending.size > 0) await Promise.allSettled([...sending]);
      await notifier.close();
    },
  };
  return sandbox;
}
