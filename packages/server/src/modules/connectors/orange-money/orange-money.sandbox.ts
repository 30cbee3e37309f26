import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomToken, safeEqual } from '../../../platform/crypto.ts';
import { servePaymentPage } from '../sandbox/payment-page.ts';
import { type NotificationLog, type PageAction, type RedirectPayment, RedirectPayments } from '../sandbox/redirect-payments.ts';
import {
  formFields,
  Hangs,
  headerOf,
  Notifier,
  parseWith,
  type ProviderSandboxOptions,
  readRequestBody,
  SandboxAnswer,
  type SandboxFaultSwitches,
  TEST_ONLY_CREDENTIAL,
} from '../sandbox/sandbox.http.ts';
import { approvalWindowMs } from '../sandbox/test-numbers.ts';
import { environmentCurrency } from './orange-money.environments.ts';
import { ORANGE_DEV_ENVIRONMENT } from './orange-money.live.ts';
import { checkOrangeStatusBody, checkWebPaymentBody } from './orange-money.schema.ts';

/**
 * The Orange Money Web Payment sandbox, mounted under a base path of the sandbox server: the
 * token, webpayment and transactionstatus routes as Orange answers them, the payment page Orange's
 * `payment_url` opens (the payer's number is typed there, or prefilled by `?msisdn=`), and the
 * notification to `notif_url` (none for a cancel on the page, as Orange in production). It refuses what Orange refuses: bad credentials or merchant key, a
 * currency other than the environment's (OUV in `dev`, XAF in `cm`, XOF elsewhere), amount 0,
 * over-long fields, and a reused order_id (409).
 */

export interface OrangeSandboxOptions extends ProviderSandboxOptions {
  /** When given, only these are accepted; otherwise any non-empty ones. */
  credentials?: { clientId: string; clientSecret: string; merchantKey: string };
  tokenTtlSeconds?: number;
  /**
   * A cancel on the page sends its notification too (as Orange sometimes does). Default false: as
   * Orange usually does in production, none, and the merchant learns it from a status read.
   */
  notifyCancel?: boolean;
}

export interface OrangeSandboxPayment {
  payToken: string;
  orderId: string;
  /** The request's `reference`: the merchant's name the page shows the payer. */
  reference?: string;
  amount: number;
  currency: string;
  status: 'INITIATED' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'EXPIRED';
  phoneNumber?: string;
  reason?: string;
  txnid?: string;
  paymentUrl: string;
  notifUrl: string;
  createdAt: string;
  notifications: NotificationLog[];
}

export interface OrangeSandbox {
  handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined>;
  payments(): OrangeSandboxPayment[];
  /** What the payer does on the page, as the page's form would: where the page sends them, or why not. */
  act(payToken: string, action: PageAction, phoneNumber?: string): { ok: true; location: string } | { ok: false; reason: string };
  faults(): SandboxFaultSwitches;
  setFaults(change: Partial<SandboxFaultSwitches>): SandboxFaultSwitches;
  revokeTokens(): number;
  stats(): { tokensIssued: number; payments: number };
  settle(): void;
  tick(): Promise<void>;
  close(): Promise<void>;
}

interface Extra {
  orderId: string;
  amount: number;
  notifUrl: string;
  notifToken: string;
}

const NO_FAULTS: SandboxFaultSwitches = { answer500: false, hang: false, dropCallbacks: false };

function invalid(reason: string, json: boolean) {
  return { code: json ? 'INVALID_REQUEST' : 'INVALID_JSON', message: 'Bad request', description: reason };
}

export function createOrangeSandbox(opts: OrangeSandboxOptions): OrangeSandbox {
  const log = opts.log ?? (() => {});
  const ttl = opts.tokenTtlSeconds ?? 7_776_000;
  const production = opts.production === true;
  const tokens = new Map<string, number>();
  let tokensIssued = 0;
  let faults: SandboxFaultSwitches = { ...NO_FAULTS };
  const hangs = new Hangs();
  const notifier = new Notifier(opts.now, opts.callbackTimeoutMs);

  async function notify(p: RedirectPayment<Extra>): Promise<NotificationLog> {
    if (faults.dropCallbacks) return { at: new Date(opts.now()).toISOString(), error: 'dropped' };
    // A cancel on Orange's page usually sends no notification in production: the merchant learns
    // it from a status read (its poll or its timeout). The sandbox does the same.
    if (p.reason === 'CANCELLED' && opts.notifyCancel !== true) return { at: new Date(opts.now()).toISOString(), error: 'not sent: Orange notifies no cancel' };
    const body = JSON.stringify({ status: p.state === 'SUCCESSFUL' ? 'SUCCESS' : 'FAILED', notif_token: p.extra.notifToken, txnid: p.transactionId ?? null });
    const entry = await notifier.post(p.extra.notifUrl, {}, body);
    log(`orange notification ${p.extra.orderId} → ${entry.httpStatus ?? entry.error}`);
    return entry;
  }

  const store = new RedirectPayments<Extra>({ now: opts.now, random: opts.random, windowMs: approvalWindowMs(opts.fast ?? false), notify });

  function orangeStatus(p: RedirectPayment<Extra>): OrangeSandboxPayment['status'] {
    if (p.state === 'SUCCESSFUL') return 'SUCCESS';
    if (p.state === 'FAILED') return p.reason === 'EXPIRED' ? 'EXPIRED' : 'FAILED';
    return p.state;
  }

  function view(p: RedirectPayment<Extra>): OrangeSandboxPayment {
    return {
      payToken: p.id,
      orderId: p.extra.orderId,
      ...(p.merchantName !== undefined ? { reference: p.merchantName } : {}),
      amount: p.extra.amount,
      currency: p.currency,
      status: orangeStatus(p),
      ...(p.phoneNumber !== undefined ? { phoneNumber: p.phoneNumber } : {}),
      ...(p.reason !== undefined ? { reason: p.reason } : {}),
      ...(p.transactionId !== undefined ? { txnid: p.transactionId } : {}),
      paymentUrl: `${opts.baseUrl()}/pay/${p.id}`,
      notifUrl: p.extra.notifUrl,
      createdAt: new Date(p.createdAt).toISOString(),
      notifications: p.notifications,
    };
  }

  function issueToken(req: IncomingMessage, body: string): SandboxAnswer {
    const auth = headerOf(req, 'authorization') ?? '';
    const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const [id, secret] = colon > 0 ? [decoded.slice(0, colon), decoded.slice(colon + 1)] : ['', ''];
    const c = opts.credentials;
    // Production knows no application of the sandbox's: test mode's placeholder credentials are refused there.
    const testOnly = production && (id === TEST_ONLY_CREDENTIAL || secret === TEST_ONLY_CREDENTIAL);
    const ok = c === undefined ? id !== '' && secret !== '' && !testOnly : safeEqual(id, c.clientId) && safeEqual(secret, c.clientSecret);
    if (!ok)
      return new SandboxAnswer(401, {
        error: 'invalid_client',
        error_description: 'The requested service needs credentials, but the ones provided were invalid.',
      });
    if (formFields(body).grant_type !== 'client_credentials')
      return new SandboxAnswer(400, { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' });
    const token = randomToken(opts.random, 24);
    tokens.set(token, opts.now() + ttl * 1000);
    tokensIssued++;
    return new SandboxAnswer(200, { token_type: 'Bearer', access_token: token, expires_in: ttl });
  }

  function authorize(req: IncomingMessage): SandboxAnswer | undefined {
    const auth = headerOf(req, 'authorization') ?? '';
    const expires = auth.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    if (expires === undefined || expires <= opts.now())
      return new SandboxAnswer(401, {
        code: 42,
        message: 'Expired credentials',
        description: 'The requested service needs credentials, but the ones provided were invalid or expired.',
      });
    return undefined;
  }

  async function webpayment(req: IncomingMessage, environment: string): Promise<SandboxAnswer> {
    const body = parseWith(await readRequestBody(req, invalid('too large', true)), checkWebPaymentBody, invalid);
    const testKey = production && body.merchant_key === TEST_ONLY_CREDENTIAL;
    if (testKey || (opts.credentials !== undefined && !safeEqual(body.merchant_key, opts.credentials.merchantKey))) {
      return new SandboxAnswer(400, { code: 'INVALID_MERCHANT_KEY', message: 'Bad request', description: 'The merchant key is not valid.' });
    }
    const expected = environmentCurrency(environment);
    if (expected === undefined) return new SandboxAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'Resource not found' });
    if (body.currency !== expected)
      return new SandboxAnswer(400, { code: 'INVALID_CURRENCY', message: 'Bad request', description: `The currency of this environment is ${expected}.` });
    if (store.find((p) => p.extra.orderId === body.order_id).length > 0) {
      return new SandboxAnswer(409, { code: 'DUPLICATE_ORDER_ID', message: 'Conflict', description: 'This order_id was already used.' });
    }
    const payToken = `v1${randomToken(opts.random, 24)}`;
    const notifToken = randomToken(opts.random, 16);
    store.create({
      id: payToken,
      reference: body.order_id,
      // Orange's page names the merchant by the request's `reference`.
      merchantName: body.reference,
      amount: String(body.amount),
      currency: body.currency,
      successUrl: body.return_url,
      failureUrl: body.cancel_url,
      language: body.lang,
      extra: { orderId: body.order_id, amount: body.amount, notifUrl: body.notif_url, notifToken },
    });
    return new SandboxAnswer(201, {
      status: 201,
      message: 'OK',
      pay_token: payToken,
      payment_url: `${opts.baseUrl()}/pay/${payToken}`,
      notif_token: notifToken,
    });
  }

  async function transactionStatus(req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const body = parseWith(await readRequestBody(req, invalid('too large', true)), checkOrangeStatusBody, invalid);
    const p = store.get(body.pay_token);
    if (p === undefined || p.extra.orderId !== body.order_id || p.extra.amount !== body.amount) {
      return new SandboxAnswer(404, {
        code: 'TRANSACTION_NOT_FOUND',
        message: 'Not found',
        description: 'No transaction has this order_id, amount and pay_token.',
      });
    }
    const fault = store.onStatusRead(p);
    if (fault === 'hang') return hangs.hold(res);
    if (fault === 'answer500') return new SandboxAnswer(500, { code: 'INTERNAL_ERROR', message: 'Internal error' });
    return new SandboxAnswer(201, { status: orangeStatus(p), order_id: p.extra.orderId, txnid: p.transactionId ?? null });
  }

  async function handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    store.settle();
    const pay = /^\/pay\/([A-Za-z0-9]+)$/.exec(path);
    if (pay && (method === 'GET' || method === 'POST'))
      return servePaymentPage('Orange Money', store, method, pay[1] as string, req, `${opts.baseUrl()}/pay/${pay[1]}`);
    if (method === 'GET' && path === '/_sandbox/payments') return new SandboxAnswer(200, { data: api.payments() });
    const api_ = /^\/orange-money-webpay\/([a-z]{2,8})\/v1\/(webpayment|transactionstatus)$/.exec(path);
    const isToken = method === 'POST' && path === '/oauth/v3/token';
    if (!isToken && (api_ === null || method !== 'POST')) return new SandboxAnswer(404, { code: 'RESOURCE_NOT_FOUND', message: 'Resource not found' });
    if (faults.hang) return hangs.hold(res);
    if (faults.answer500) return new SandboxAnswer(500, { code: 'INTERNAL_ERROR', message: 'Internal error' });
    if (isToken) return issueToken(req, await readRequestBody(req, invalid('too large', true)));
    const refused = authorize(req);
    if (refused) return refused;
    const [, environment, op] = api_ as RegExpExecArray;
    // A production application is not subscribed to the test environment.
    if (production && environment === ORANGE_DEV_ENVIRONMENT)
      return new SandboxAnswer(403, { code: 50, message: 'Access denied', description: 'The dev environment is not open to production applications.' });
    return op === 'webpayment' ? webpayment(req, environment as string) : transactionStatus(req, res);
  }

  const api: OrangeSandbox = {
    handle,
    payments: () => store.all().map(view),
    act: (payToken, action, phoneNumber) => store.act(payToken, action, phoneNumber),
    faults: () => ({ ...faults }),
    setFaults(change) {
      faults = { ...faults, ...change };
      return { ...faults };
    },
    revokeTokens() {
      const n = tokens.size;
      tokens.clear();
      return n;
    },
    stats: () => ({ tokensIssued, payments: store.all().length }),
    settle: () => store.settle(),
    async tick() {
      store.settle();
      await store.drain();
    },
    async close() {
      hangs.release();
      await store.drain();
      await notifier.close();
    },
  };
  return api;
}
