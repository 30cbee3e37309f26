import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomToken, safeEqual } from '../../../platform/crypto.ts';
import { servePaymentPage } from '../sandbox/payment-page.ts';
import { type NotificationLog, type PageAction, type RedirectPayment, RedirectPayments } from '../sandbox/redirect-payments.ts';
import {
  Hangs,
  headerOf,
  Notifier,
  parseWith,
  type ProviderSandboxOptions,
  readRequestBody,
  SandboxAnswer,
  type SandboxFaultSwitches,
} from '../sandbox/sandbox.http.ts';
import { approvalWindowMs, testOutcome, type TestOutcome } from '../sandbox/test-numbers.ts';
import { checkWaveCheckoutBody, checkWavePayoutBody, type WaveCheckoutBody, type WavePayoutBody } from './wave.schema.ts';
import { scopeOfPath, type WaveScope, type WaveWebhookStrategy } from './wave.scopes.ts';
import { verifyWaveSignature, waveSignatureHeader } from './wave.signature.ts';

/**
 * The Wave sandbox, mounted under a base path of the sandbox server: checkout sessions (create,
 * get, search by client_reference, refund), payouts (create, get, search), the page
 * `wave_launch_url` opens, and signed webhooks (`Wave-Signature`) to the webhook URL it was
 * given. The payer's number is the session's `restrict_payer_mobile` (or typed on the page); for
 * payouts it is the `mobile`. It refuses what Wave refuses: a missing or wrong API key, a call
 * unsigned or badly signed for a key that requires signing (401), a call outside the key's APIs
 * (403), a currency other than XOF, amount 0, over-long fields, and an Idempotency-Key reused
 * with another body (409). As at Wave, a declined or failed payment leaves the session open (the
 * payer may pay it still) until it expires or the merchant expires it (`/expire`).
 */

export interface WaveSandboxOptions extends ProviderSandboxOptions {
  /** When given, only this key is accepted; otherwise any key that starts with `wave_`. */
  apiKey?: string;
  /** Where webhooks go (Wave's Business Portal setting); unset: none are sent. */
  webhookUrl?: string;
  webhookSecret: string;
  /** The webhook's security strategy (default `signing`: `Wave-Signature`; `shared`: `Authorization: Bearer <secret>`). */
  webhookStrategy?: WaveWebhookStrategy;
  /** When given, the key requires signed requests: every API call must carry a valid `Wave-Signature` made with it. */
  signingSecret?: string;
  /** The Wave APIs the key may call (default: all); a call outside them is 403. */
  scopes?: readonly WaveScope[];
}

export interface WaveSandboxSession {
  id: string;
  amount: string;
  currency: string;
  checkout_status: 'open' | 'complete' | 'expired';
  payment_status: 'processing' | 'cancelled' | 'succeeded';
  client_reference: string | null;
  transaction_id: string | null;
  last_payment_error: { code: string; message: string } | null;
  wave_launch_url: string;
  success_url: string;
  error_url: string;
  restrict_payer_mobile?: string;
  when_created: string;
  when_expires: string;
  when_completed: string | null;
  refunded: boolean;
  notifications: NotificationLog[];
}

interface Payout {
  id: string;
  body: WavePayoutBody;
  createdAt: number;
  outcome: TestOutcome;
  status: 'processing' | 'succeeded' | 'failed';
  error?: string;
}

export interface WaveSandbox {
  handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined>;
  sessions(): WaveSandboxSession[];
  act(sessionId: string, action: PageAction, phoneNumber?: string): { ok: true; location: string } | { ok: false; reason: string };
  /** Sends a webhook of any type, authenticated as every other (an event Caisse does not act on). */
  sendEvent(type: string, data: Record<string, unknown>): Promise<NotificationLog>;
  faults(): SandboxFaultSwitches;
  setFaults(change: Partial<SandboxFaultSwitches>): SandboxFaultSwitches;
  stats(): { sessions: number; payouts: number };
  settle(): void;
  tick(): Promise<void>;
  close(): Promise<void>;
}

interface Extra {
  body: WaveCheckoutBody;
  refunded: boolean;
}

const NO_FAULTS: SandboxFaultSwitches = { answer500: false, hang: false, dropCallbacks: false };

function invalid(reason: string) {
  return { code: 'request-validation-error', message: reason };
}

/** The form of Wave's API keys as its documentation shows them (`wave_sn_prod_…`): what the production behaviour takes. */
const PRODUCTION_KEY = /^wave_[a-z]{2}_prod_[A-Za-z0-9_-]+$/;

export function createWaveSandbox(opts: WaveSandboxOptions): WaveSandbox {
  const log = opts.log ?? (() => {});
  const windowMs = approvalWindowMs(opts.fast ?? false);
  let faults: SandboxFaultSwitches = { ...NO_FAULTS };
  const hangs = new Hangs();
  const notifier = new Notifier(opts.now, opts.callbackTimeoutMs);
  /** Idempotency-Key → the request it went with and the object it made. */
  const keys = new Map<string, { route: string; body: string; id: string }>();
  const payouts = new Map<string, Payout>();

  function session(p: RedirectPayment<Extra>): Omit<WaveSandboxSession, 'refunded' | 'notifications'> {
    const paid = p.state === 'SUCCESSFUL';
    const failed = p.state === 'FAILED';
    // A failed try leaves the session open with its error, as at Wave; an expired one keeps it.
    const error = failed ? p.reason : p.lastError;
    return {
      id: p.id,
      amount: p.amount,
      currency: p.currency,
      checkout_status: paid ? 'complete' : failed ? 'expired' : 'open',
      payment_status: paid ? 'succeeded' : failed || p.lastError !== undefined ? 'cancelled' : 'processing',
      client_reference: p.reference ?? null,
      transaction_id: p.transactionId ?? null,
      last_payment_error: error !== undefined ? { code: error, message: error.toLowerCase().replaceAll('_', ' ') } : null,
      wave_launch_url: `${opts.baseUrl()}/pay/${p.id}`,
      success_url: p.successUrl,
      error_url: p.failureUrl,
      ...(p.extra.body.restrict_payer_mobile !== undefined ? { restrict_payer_mobile: p.extra.body.restrict_payer_mobile } : {}),
      when_created: new Date(p.createdAt).toISOString(),
      when_expires: new Date(p.expiresAt).toISOString(),
      when_completed: p.finalAt !== undefined ? new Date(p.finalAt).toISOString() : null,
    };
  }

  async function notify(p: RedirectPayment<Extra>): Promise<NotificationLog> {
    const at = new Date(opts.now()).toISOString();
    if (opts.webhookUrl === undefined) return { at, error: 'no webhook URL' };
    if (faults.dropCallbacks) return { at, error: 'dropped' };
    const type = p.state === 'SUCCESSFUL' ? 'checkout.session.completed' : 'checkout.session.payment_failed';
    const body = JSON.stringify({ id: `AE_${randomToken(opts.random, 9)}`, type, data: session(p) });
    const entry = await notifier.post(opts.webhookUrl, webhookHeaders(body), body);
    log(`wave webhook ${type} ${p.id} → ${entry.httpStatus ?? entry.error}`);
    return entry;
  }

  /** The webhook authenticated as its endpoint's strategy says. */
  function webhookHeaders(body: string): Record<string, string> {
    return opts.webhookStrategy === 'shared'
      ? { authorization: `Bearer ${opts.webhookSecret}` }
      : { 'wave-signature': waveSignatureHeader(opts.webhookSecret, opts.now(), body) };
  }

  /** Sends any event, authenticated as the others (tests: an event Caisse does not act on). */
  async function sendEvent(type: string, data: Record<string, unknown>): Promise<NotificationLog> {
    if (opts.webhookUrl === undefined) return { at: new Date(opts.now()).toISOString(), error: 'no webhook URL' };
    const body = JSON.stringify({ id: `AE_${randomToken(opts.random, 9)}`, type, data });
    return notifier.post(opts.webhookUrl, webhookHeaders(body), body);
  }

  const store = new RedirectPayments<Extra>({ now: opts.now, random: opts.random, windowMs, notify, failureKeepsOpen: true });

  function settlePayouts(): void {
    const now = opts.now();
    for (const p of payouts.values()) {
      const { afterMs } = p.outcome;
      const due = afterMs === null ? undefined : afterMs === 'window' ? p.createdAt + windowMs : p.createdAt + afterMs;
      if (p.status !== 'processing' || due === undefined || now < due) continue;
      p.status = p.outcome.status === 'SUCCESSFUL' ? 'succeeded' : 'failed';
      if (p.outcome.reason !== undefined) p.error = p.outcome.reason;
    }
  }

  function payoutView(p: Payout) {
    return {
      id: p.id,
      currency: p.body.currency,
      receive_amount: p.body.receive_amount,
      fee: '0',
      mobile: p.body.mobile,
      ...(p.body.name !== undefined ? { name: p.body.name } : {}),
      client_reference: p.body.client_reference ?? null,
      ...(p.body.payment_reason !== undefined ? { payment_reason: p.body.payment_reason } : {}),
      status: p.status,
      ...(p.error !== undefined ? { payout_error: { error_code: p.error, error_message: p.error.toLowerCase().replaceAll('_', ' ') } } : {}),
      timestamp: new Date(p.createdAt).toISOString(),
    };
  }

  function authorize(req: IncomingMessage, path: string): SandboxAnswer | undefined {
    const auth = headerOf(req, 'authorization');
    if (auth === undefined) return new SandboxAnswer(401, { code: 'missing-auth-header', message: 'Your request should include an HTTP auth header.' });
    const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (opts.apiKey === undefined && opts.production === true && !PRODUCTION_KEY.test(key))
      // Production knows only its own keys: test mode's (wave_sandbox_…) does not exist there.
      return new SandboxAnswer(401, { code: 'no-matching-api-key', message: "The key you provided doesn't exist in our system." });
    const ok = opts.apiKey === undefined ? key.startsWith('wave_') : safeEqual(key, opts.apiKey);
    if (!ok) return new SandboxAnswer(401, { code: 'invalid-auth', message: "Your HTTP auth header can't be processed." });
    const scope = scopeOfPath(path);
    if (opts.scopes !== undefined && scope !== undefined && !opts.scopes.includes(scope))
      return new SandboxAnswer(403, { code: 'missing-scope', message: `This API key is not allowed to use the ${scope} API.` });
    return undefined;
  }

  /** A key that requires signing: the `Wave-Signature` of the timestamp and the exact body, recent. */
  function checkSignature(req: IncomingMessage, body: string): SandboxAnswer | undefined {
    if (opts.signingSecret === undefined) return undefined;
    const header = headerOf(req, 'wave-signature');
    if (header === undefined)
      return new SandboxAnswer(401, { code: 'missing-signature', message: 'This API key requires signed requests: the Wave-Signature header is missing.' });
    const checked = verifyWaveSignature(opts.signingSecret, header, body, opts.now());
    return checked.ok ? undefined : new SandboxAnswer(401, { code: 'invalid-signature', message: `The request signature is invalid: ${checked.reason}.` });
  }

  /** Wave answers a replay of an Idempotency-Key with the same object, and a key reused for another request with 409. */
  function replay(req: IncomingMessage, route: string, text: string): { key: string | undefined; id?: string } {
    const key = headerOf(req, 'idempotency-key');
    if (key === undefined) return { key };
    const seen = keys.get(key);
    if (seen === undefined) return { key };
    if (seen.route !== route || seen.body !== text)
      throw new SandboxAnswer(409, { code: 'idempotency-mismatch', message: 'This Idempotency-Key was used with another request.' });
    return { key, id: seen.id };
  }

  function xofAmount(amount: string): void {
    if (!/^[1-9][0-9]*$/.test(amount)) throw new SandboxAnswer(400, invalid('amount must be a positive whole number of XOF'));
  }

  async function createSession(req: IncomingMessage, res: ServerResponse, text: string): Promise<SandboxAnswer | undefined> {
    const body = parseWith(text, checkWaveCheckoutBody, invalid);
    if (body.currency !== 'XOF') throw new SandboxAnswer(400, invalid(`currency ${body.currency} is not supported`));
    xofAmount(body.amount);
    const seen = replay(req, 'checkout', text);
    if (seen.id !== undefined) return new SandboxAnswer(200, session(store.get(seen.id) as RedirectPayment<Extra>));
    const id = `cos-${randomToken(opts.random, 12).toLowerCase()}`;
    const p = store.create({
      id,
      reference: body.client_reference,
      amount: body.amount,
      currency: body.currency,
      phoneNumber: body.restrict_payer_mobile,
      successUrl: body.success_url,
      failureUrl: body.error_url,
      language: 'fr',
      extra: { body, refunded: false },
    });
    if (seen.key !== undefined) keys.set(seen.key, { route: 'checkout', body: text, id });
    const fault = body.restrict_payer_mobile !== undefined ? testOutcome(body.restrict_payer_mobile).fault : undefined;
    if (fault === 'hang') return hangs.hold(res);
    if (fault === 'answer500') return new SandboxAnswer(500, { code: 'internal-server-error', message: 'Internal server error' });
    return new SandboxAnswer(200, session(p));
  }

  async function createPayout(req: IncomingMessage, res: ServerResponse, text: string): Promise<SandboxAnswer | undefined> {
    const body = parseWith(text, checkWavePayoutBody, invalid);
    if (body.currency !== 'XOF') throw new SandboxAnswer(400, invalid(`currency ${body.currency} is not supported`));
    xofAmount(body.receive_amount);
    if (headerOf(req, 'idempotency-key') === undefined) throw new SandboxAnswer(400, invalid('the idempotency-key header is required'));
    const seen = replay(req, 'payout', text);
    if (seen.id !== undefined) return new SandboxAnswer(200, payoutView(payouts.get(seen.id) as Payout));
    const outcome = testOutcome(body.mobile);
    const p: Payout = { id: `pt-${randomToken(opts.random, 12).toLowerCase()}`, body, createdAt: opts.now(), outcome, status: 'processing' };
    payouts.set(p.id, p);
    keys.set(seen.key as string, { route: 'payout', body: text, id: p.id });
    settlePayouts();
    if (outcome.fault === 'hang') return hangs.hold(res);
    if (outcome.fault === 'answer500') return new SandboxAnswer(500, { code: 'internal-server-error', message: 'Internal server error' });
    return new SandboxAnswer(200, payoutView(p));
  }

  function readSession(id: string, res: ServerResponse): SandboxAnswer | undefined {
    const p = store.get(id);
    if (p === undefined) return new SandboxAnswer(404, { code: 'checkout-session-not-found', message: 'Checkout session not found.' });
    const fault = store.onStatusRead(p);
    if (fault === 'hang') return hangs.hold(res);
    if (fault === 'answer500') return new SandboxAnswer(500, { code: 'internal-server-error', message: 'Internal server error' });
    return new SandboxAnswer(200, session(p));
  }

  function refund(id: string): SandboxAnswer {
    const p = store.get(id);
    if (p === undefined) return new SandboxAnswer(404, { code: 'checkout-session-not-found', message: 'Checkout session not found.' });
    if (p.state !== 'SUCCESSFUL') return new SandboxAnswer(400, { code: 'checkout-refund-failed', message: 'Only a paid checkout session can be refunded.' });
    if (p.extra.refunded) return new SandboxAnswer(400, { code: 'checkout-refund-failed', message: 'This checkout session was already refunded.' });
    p.extra.refunded = true;
    return new SandboxAnswer(200);
  }

  /** Wave's expire: an open session can no longer be paid; a paid or expired one is not open. */
  function expire(id: string): SandboxAnswer {
    const done = store.expire(id);
    if (done === 'unknown') return new SandboxAnswer(404, { code: 'checkout-session-not-found', message: 'Checkout session not found.' });
    if (done === 'closed') return new SandboxAnswer(409, { code: 'checkout-session-not-open', message: 'Only an open checkout session can be expired.' });
    return new SandboxAnswer(200);
  }

  async function api(method: string, path: string, req: IncomingMessage, res: ServerResponse, text: string): Promise<SandboxAnswer | undefined> {
    const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(req, res, text);
    if (method === 'GET' && path === '/v1/checkout/sessions/search') {
      const ref = query.get('client_reference');
      const found = store.find((p) => ref === null || p.reference === ref);
      // A search by our reference is a status read as well (107–109).
      const fault = ref === null ? undefined : found.map((p) => store.onStatusRead(p)).find((f) => f !== undefined);
      if (fault === 'hang') return hangs.hold(res);
      if (fault === 'answer500') return new SandboxAnswer(500, { code: 'internal-server-error', message: 'Internal server error' });
      return new SandboxAnswer(200, { result: found.map(session) });
    }
    const one = /^\/v1\/checkout\/sessions\/([A-Za-z0-9-]+)(\/refund|\/expire)?$/.exec(path);
    if (one && method === 'GET' && one[2] === undefined) return readSession(one[1] as string, res);
    if (one && method === 'POST' && one[2] === '/refund') return refund(one[1] as string);
    if (one && method === 'POST' && one[2] === '/expire') return expire(one[1] as string);
    if (method === 'POST' && path === '/v1/payout') return createPayout(req, res, text);
    if (method === 'GET' && path === '/v1/payouts/search') {
      const ref = query.get('client_reference');
      return new SandboxAnswer(200, { result: [...payouts.values()].filter((p) => ref === null || p.body.client_reference === ref).map(payoutView) });
    }
    const payout = /^\/v1\/payout\/([A-Za-z0-9-]+)$/.exec(path);
    if (payout && method === 'GET') {
      const p = payouts.get(payout[1] as string);
      return p ? new SandboxAnswer(200, payoutView(p)) : new SandboxAnswer(404, { code: 'payout-not-found', message: 'Payout not found.' });
    }
    return new SandboxAnswer(404, { code: 'not-found', message: 'Resource not found' });
  }

  async function handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    store.settle();
    settlePayouts();
    const pay = /^\/pay\/([A-Za-z0-9-]+)$/.exec(path);
    if (pay && (method === 'GET' || method === 'POST'))
      return servePaymentPage('Wave', store, method, pay[1] as string, req, `${opts.baseUrl()}/pay/${pay[1]}`);
    if (method === 'GET' && path === '/_sandbox/sessions') return new SandboxAnswer(200, { data: sandbox.sessions() });
    if (!path.startsWith('/v1/')) return new SandboxAnswer(404, { code: 'not-found', message: 'Resource not found' });
    if (faults.hang) return hangs.hold(res);
    if (faults.answer500) return new SandboxAnswer(500, { code: 'internal-server-error', message: 'Internal server error' });
    const refused = authorize(req, path);
    if (refused) return refused;
    // The body as sent: what a signature covers (empty for a GET).
    const text = await readRequestBody(req, invalid('too large'));
    const unsigned = checkSignature(req, text);
    if (unsigned) return unsigned;
    return api(method, path, req, res, text);
  }

  const sandbox: WaveSandbox = {
    handle,
    sessions: () => store.all().map((p) => ({ ...session(p), refunded: p.extra.refunded, notifications: p.notifications })),
    act: (id, action, phoneNumber) => store.act(id, action, phoneNumber),
    sendEvent,
    faults: () => ({ ...faults }),
    setFaults(change) {
      faults = { ...faults, ...change };
      return { ...faults };
    },
    stats: () => ({ sessions: store.all().length, payouts: payouts.size }),
    settle() {
      store.settle();
      settlePayouts();
    },
    async tick() {
      sandbox.settle();
      await store.drain();
    },
    async close() {
      hangs.release();
      await store.drain();
      await notifier.close();
    },
  };
  return sandbox;
}
