import { safeEqual } from '../../../platform/crypto.ts';
import { type Currency, formatAmount, MAX_MINOR_UNITS } from '../../../platform/money.ts';
import { decimalToMinor } from '../connectors.amounts.ts';
import { type Checker, ProviderHttp, readJson } from '../connectors.http.ts';
import { bodyObject, outcomeLog } from '../connectors.outcomes.ts';
import type { Capability } from '../connectors.description.ts';
import { isReference, newReference } from '../connectors.references.ts';
import { providerWords } from '../connectors.check.ts';
import type {
  CallbackResult,
  CancelResult,
  CheckResult,
  Connector,
  ConnectorDeps,
  ConnectorKind,
  IncomingCallback,
  KnownRequest,
  PaymentRequest,
  StatusResult,
  SubmitResult,
} from '../connectors.types.ts';
import {
  checkWaveError,
  checkWaveEvent,
  checkWavePayout,
  checkWavePayoutSearch,
  checkWaveSession,
  checkWaveSessionSearch,
  type WaveCheckoutSession,
  type WavePayout,
} from './wave.schema.ts';
import { DEFAULT_WAVE_SCOPES, parseWaveScopes, type WaveScope, type WaveWebhookStrategy } from './wave.scopes.ts';
import { verifyWaveSignature, waveSignatureHeader } from './wave.signature.ts';

/**
 * `wave`: Wave's Checkout API (money in: the payer approves in the Wave app or page opened by
 * `wave_launch_url`) and Payout API (money out), docs/spec/providers.md. Our reference is both the
 * `Idempotency-Key` and the `client_reference`, so a request can be found again by our reference
 * alone (Wave's search by client_reference), also after a crash. Webhooks are authenticated as
 * the account's strategy says (signed, or a shared secret) and, as every callback, only a hint
 * confirmed by a status read. A key that requires signed requests has each one signed; a key
 * limited to some Wave APIs says what it lacks (docs/decisions/0079-wave-as-wave-does.md).
 */

export const WAVE = 'wave';

export interface WaveSettings {
  /** https://api.wave.com (or the sandbox's /wave base). */
  baseUrl: string;
  /** The API key (`wave_sn_prod_…`), sent as a bearer token. */
  apiKey: string;
  /** The secret of the webhook registered in Wave's Business Portal, whichever its strategy. */
  webhookSecret: string;
  /**
   * The webhook's security strategy chosen in the Business Portal: `signing` (default: the
   * `Wave-Signature` HMAC) or `shared` (the secret as `Authorization: Bearer <secret>`).
   */
  webhookStrategy?: WaveWebhookStrategy;
  /**
   * The API key's signing secret, when the key was made to require signed requests: every call
   * then carries `Wave-Signature: t=…,v1=…` (HMAC-SHA256 of the timestamp and body), or Wave answers 401.
   */
  signingSecret?: string;
  /** The Wave APIs the key may call, comma-separated (`checkout,payout`); unset: checkout and payout. */
  scopes?: string;
  /** Where the payer comes back when the request names no returnUrl. */
  returnUrl?: string;
  /** Bound on each call (default 10 s). */
  timeoutMs?: number;
  connections?: number;
}

/** Why this account cannot do `capability`: its key lacks the Wave API it needs (docs/decisions/0079-wave-as-wave-does.md). */
function scopeMissing(scope: WaveScope, what: string): string {
  return `this Wave API key is not allowed to use Wave's ${scope} API (CAISSE_WAVE_SCOPES): it cannot ${what}; make a key with the ${scope} API in Wave's Business Portal`;
}

/** What an account whose key has these scopes cannot do, with why. */
export function waveLacks(scopes: readonly WaveScope[]): Partial<Record<Capability, string>> {
  const lacks: Partial<Record<Capability, string>> = {};
  // Payments and their refunds are both the Checkout API's (a refund is the session's refund).
  if (!scopes.includes('checkout')) {
    lacks.collect = scopeMissing('checkout', 'take payments');
    lacks.refund = scopeMissing('checkout', 'refund payments');
  }
  if (!scopes.includes('payout')) lacks.disburse = scopeMissing('payout', 'send payouts');
  return lacks;
}

/** Wave's payout `payment_reason` is at most 40 characters: a label, so a longer note is cut rather than refused later. */
const PAYMENT_REASON_MAX = 40;

function codeOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (checkWaveError.Check(parsed) && parsed.code !== undefined) return parsed.code;
  } catch {}
  return undefined;
}

function httpReason(status: number, body: string): string {
  const code = codeOf(body);
  return code === undefined ? `HTTP ${status}` : `HTTP ${status} ${code}`;
}

function e164(phone: string): string {
  return phone.startsWith('+') ? phone : `+${phone}`;
}

function invalidRequest(kind: ConnectorKind, req: PaymentRequest, returnUrl: string | undefined): string | undefined {
  if (!isReference(req.reference)) return 'INVALID_REFERENCE';
  if (req.currency !== 'XOF') return 'INVALID_CURRENCY';
  if (typeof req.amount !== 'bigint' || req.amount <= 0n || req.amount > MAX_MINOR_UNITS) return 'INVALID_AMOUNT';
  if (!/^\+?[1-9][0-9]{6,14}$/.test(req.phoneNumber)) return 'INVALID_PHONE_NUMBER';
  if (kind === 'collection' && (returnUrl === undefined || !/^https?:\/\/[^\s]+$/.test(returnUrl))) return 'INVALID_RETURN_URL';
  return undefined;
}

export function createWaveConnector(settings: WaveSettings, deps: ConnectorDeps): Connector {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  const http = new ProviderHttp(settings.baseUrl, { timeoutMs, connections: settings.connections });
  const out = outcomeLog(WAVE, deps.logger);
  const auth = { authorization: `Bearer ${settings.apiKey}`, accept: 'application/json' };
  const parsedScopes = settings.scopes === undefined ? undefined : parseWaveScopes(settings.scopes);
  // The description checked the setting at start; a connector built by hand with a bad one can do nothing.
  const scopes: readonly WaveScope[] = parsedScopes === undefined ? DEFAULT_WAVE_SCOPES : parsedScopes.ok ? parsedScopes.scopes : [];
  const lacks = waveLacks(scopes);
  const strategy: WaveWebhookStrategy = settings.webhookStrategy ?? 'signing';

  /**
   * One call to Wave: with the key, and signed when the key requires it (the timestamp and the
   * exact body sent, an empty one for a GET), on the injected clock.
   */
  function call(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string) {
    const signed: Record<string, string> =
      settings.signingSecret === undefined ? {} : { 'wave-signature': waveSignatureHeader(settings.signingSecret, deps.clock.now().getTime(), body ?? '') };
    return http.send(method, path, { ...auth, ...signed, ...headers }, body);
  }

  async function submit(kind: ConnectorKind, req: PaymentRequest): Promise<SubmitResult> {
    const op = kind === 'collection' ? 'collect' : 'disburse';
    const returnUrl = req.returnUrl ?? settings.returnUrl;
    const invalid = invalidRequest(kind, req, returnUrl);
    if (invalid !== undefined) return out.failed(op, kind, req.reference, invalid, 'not sent');
    // Wave would answer 403 to a key without the API: refused before the call, saying why.
    const missing = kind === 'collection' ? lacks.collect : lacks.disburse;
    if (missing !== undefined) return out.failed(op, kind, req.reference, 'SCOPE_MISSING', missing);
    const amount = formatAmount(req.amount, req.currency);
    const [path, body] =
      kind === 'collection'
        ? [
            '/v1/checkout/sessions',
            {
              amount,
              currency: req.currency,
              success_url: returnUrl,
              error_url: req.cancelUrl ?? returnUrl,
              client_reference: req.reference,
              // Only the payer who gave this number can pay the session.
              restrict_payer_mobile: e164(req.phoneNumber),
            },
          ]
        : [
            '/v1/payout',
            {
              currency: req.currency,
              receive_amount: amount,
              mobile: e164(req.phoneNumber),
              client_reference: req.reference,
              payment_reason: (req.payerMessage || req.externalId).slice(0, PAYMENT_REASON_MAX),
            },
          ];
    const res = await call('POST', path, { 'idempotency-key': req.reference }, JSON.stringify(body));
    if (!res.ok) return out.unknown(op, kind, req.reference, res.reason);
    if (res.status === 200 || res.status === 201) {
      const answer = kind === 'collection' ? readJson(res.body, checkWaveSession) : readJson(res.body, checkWavePayout);
      if (!answer.ok) return out.unknown(op, kind, req.reference, answer.reason);
      deps.logger.info({ provider: WAVE, op, kind, reference: req.reference }, 'mobile-money request accepted');
      const a = answer.value;
      // Wave answers a replay of the same key with the same object: not told apart from the first.
      return { status: 'PENDING', duplicate: false, providerReference: a.id, ...('wave_launch_url' in a ? { redirectUrl: a.wave_launch_url } : {}) };
    }
    if (res.status === 401 || res.status === 403) return out.failed(op, kind, req.reference, 'CREDENTIALS_REFUSED', httpReason(res.status, res.body));
    if (res.status === 408 || res.status === 429 || res.status >= 500) return out.unknown(op, kind, req.reference, httpReason(res.status, res.body));
    // 409: this key went with another request before; this call created nothing.
    if (res.status >= 400) return out.failed(op, kind, req.reference, codeOf(res.body) ?? `HTTP_${res.status}`, httpReason(res.status, res.body));
    return out.unknown(op, kind, req.reference, `unexpected ${httpReason(res.status, res.body)}`);
  }

  function view(kind: ConnectorKind, reference: string, amountText: string, currencyText: string) {
    if (currencyText !== 'XOF') return out.unknown('status', kind, reference, `the answer's currency ${currencyText} is not one we handle`);
    const currency: Currency = currencyText;
    const amount = decimalToMinor(amountText, currency);
    if (amount === undefined) return out.unknown('status', kind, reference, `the answer's amount ${amountText} is not a ${currency} amount`);
    return { amount, currency };
  }

  function fromSession(reference: string, s: WaveCheckoutSession): StatusResult {
    const v = view('collection', reference, s.amount, s.currency);
    if ('status' in v) return v;
    if (s.payment_status === 'succeeded') return { status: 'SUCCESSFUL', ...v, ...(s.transaction_id ? { providerTransactionId: s.transaction_id } : {}) };
    // An open session can still be paid (the payer may try again in the app) until it expires.
    if (s.checkout_status !== 'expired') return { status: 'PENDING', ...v, redirectUrl: s.wave_launch_url, providerReference: s.id };
    return { status: 'FAILED', ...v, reason: s.last_payment_error?.code ?? 'EXPIRED' };
  }

  function fromPayout(reference: string, p: WavePayout): StatusResult {
    const v = view('disbursement', reference, p.receive_amount, p.currency);
    if ('status' in v) return v;
    if (p.status === 'succeeded') return { status: 'SUCCESSFUL', ...v, providerTransactionId: p.id };
    if (p.status === 'processing') return { status: 'PENDING', ...v };
    return { status: 'FAILED', ...v, reason: p.status === 'reversed' ? 'REVERSED' : (p.payout_error?.error_code ?? 'FAILED') };
  }

  /** One object by Wave's id, or the one whose client_reference is ours (Wave's search). */
  async function read<T extends { client_reference?: string | null }>(
    kind: ConnectorKind,
    reference: string,
    byId: string | undefined,
    paths: { one: string; search: string },
    one: Checker<T>,
    search: Checker<{ result: T[] }>,
  ): Promise<{ ok: true; found: T | undefined } | { ok: false; result: StatusResult }> {
    const path = byId !== undefined ? `${paths.one}/${encodeURIComponent(byId)}` : `${paths.search}?client_reference=${encodeURIComponent(reference)}`;
    const res = await call('GET', path, {});
    if (!res.ok) return { ok: false, result: out.unknown('status', kind, reference, res.reason) };
    if (res.status !== 200) return { ok: false, result: out.unknown('status', kind, reference, httpReason(res.status, res.body)) };
    if (byId !== undefined) {
      const answer = readJson(res.body, one);
      if (!answer.ok) return { ok: false, result: out.unknown('status', kind, reference, answer.reason) };
      if (answer.value.client_reference !== reference)
        return { ok: false, result: out.unknown('status', kind, reference, 'the answer is about another client_reference') };
      return { ok: true, found: answer.value };
    }
    const answer = readJson(res.body, search);
    if (!answer.ok) return { ok: false, result: out.unknown('status', kind, reference, answer.reason) };
    // Only Wave's own empty search result says it never saw the reference.
    return { ok: true, found: answer.value.result.find((r) => r.client_reference === reference) };
  }

  /**
   * A search of checkout sessions by a client_reference nobody ever used: a read the Checkout
   * API scope allows, which moves nothing and finds nothing. A key without that scope, revoked
   * or of another wallet is refused in Wave's words.
   */
  async function check(): Promise<CheckResult> {
    // A read the key's scopes allow (a payout-only key cannot search sessions), signed as every call.
    const [what, path, checker, noun] =
      scopes.includes('checkout') || !scopes.includes('payout')
        ? (['checkout session search', '/v1/checkout/sessions/search', checkWaveSessionSearch, 'session'] as const)
        : (['payout search', '/v1/payouts/search', checkWavePayoutSearch, 'payout'] as const);
    const res = await call('GET', `${path}?client_reference=${newReference()}`, {});
    if (!res.ok || res.status !== 200) return { ok: false, detail: `${what} refused: ${providerWords(res)}` };
    const answer = readJson<{ result: unknown[] }>(res.body, checker);
    if (!answer.ok) return { ok: false, detail: `${what}: ${answer.reason}` };
    const n = answer.value.result.length;
    return { ok: true, detail: `${what} answered: ${n === 0 ? `no ${noun}` : `${n} ${noun}s`} for a new client_reference` };
  }

  async function status(kind: ConnectorKind, reference: string, known?: KnownRequest): Promise<StatusResult> {
    if (!isReference(reference)) return out.unknown('status', kind, reference, 'the reference is not a UUID v4');
    if (kind === 'collection') {
      const got = await read(
        kind,
        reference,
        known?.providerReference,
        { one: '/v1/checkout/sessions', search: '/v1/checkout/sessions/search' },
        checkWaveSession,
        checkWaveSessionSearch,
      );
      if (!got.ok) return got.result;
      return got.found === undefined ? { status: 'NOT_FOUND' } : fromSession(reference, got.found);
    }
    const got = await read(
      kind,
      reference,
      known?.providerReference,
      { one: '/v1/payout', search: '/v1/payouts/search' },
      checkWavePayout,
      checkWavePayoutSearch,
    );
    if (!got.ok) return got.result;
    return got.found === undefined ? { status: 'NOT_FOUND' } : fromPayout(reference, got.found);
  }

  /**
   * A webhook, authenticated as its endpoint's strategy says: `signing`, the `Wave-Signature`
   * HMAC of the raw body under the webhook secret, recent on the injected clock; `shared`, the
   * secret itself as `Authorization: Bearer`. Then it must be a checkout or payout event about one
   * of our references, and the result is what Wave answers now, never the body. An authenticated
   * event Caisse does not act on is `ignored`: answered 2xx, or Wave sends it again and again.
   */
  async function verifyCallback(callback: IncomingCallback): Promise<CallbackResult> {
    const raw = typeof callback.body === 'string' ? callback.body : Buffer.isBuffer(callback.body) ? callback.body.toString('utf8') : undefined;
    if (raw === undefined) return out.refused('the raw body is needed to authenticate a Wave webhook');
    const header = (name: string) => {
      const value = callback.headers?.[name];
      return Array.isArray(value) ? value.join(',') : value;
    };
    if (strategy === 'shared') {
      const given = header('authorization');
      if (given === undefined) return out.refused('the Authorization header is missing (shared-secret webhook)');
      if (!safeEqual(given, `Bearer ${settings.webhookSecret}`)) return out.refused('the Authorization header does not carry the shared secret');
    } else {
      const signature = header('wave-signature');
      if (signature === undefined) return out.refused('the Wave-Signature header is missing');
      const checked = verifyWaveSignature(settings.webhookSecret, signature, raw, deps.clock.now().getTime());
      if (!checked.ok) return out.refused(checked.reason);
    }
    const event = bodyObject(raw);
    if (!checkWaveEvent.Check(event)) return out.refused('the body is not a Wave event');
    const kind: ConnectorKind | undefined = event.type.startsWith('checkout.session.')
      ? 'collection'
      : event.type.startsWith('payout.')
        ? 'disbursement'
        : undefined;
    if (kind === undefined) return ignored(`Wave event ${event.type} is not one Caisse acts on`);
    const reference = event.data.client_reference;
    // A session or payout made outside Caisse on the same Wave account.
    if (typeof reference !== 'string' || !isReference(reference)) return ignored(`Wave event ${event.type} names none of our references`);
    const claimed = event.type === 'checkout.session.completed' ? 'SUCCESSFUL' : event.type === 'checkout.session.payment_failed' ? 'FAILED' : undefined;
    const result = await status(kind, reference);
    return { ok: true, kind, reference, claimed, result };
  }

  function ignored(reason: string): CallbackResult {
    deps.logger.info({ provider: WAVE, reason }, 'mobile-money callback ignored');
    return { ok: false, reason, ignored: true };
  }

  /**
   * Expires an open checkout session (`POST /v1/checkout/sessions/{id}/expire`): its page can no
   * longer be paid. By Wave's session id, or the one our reference finds. Only a hint to the
   * caller, who still decides by the status read (a session already paid stays paid).
   */
  async function cancel(kind: ConnectorKind, reference: string, known?: KnownRequest): Promise<CancelResult> {
    if (kind !== 'collection') return { ok: false, reason: 'Wave cannot cancel a payout' };
    if (lacks.collect !== undefined) return { ok: false, reason: lacks.collect };
    let id = known?.providerReference;
    if (id === undefined) {
      const found = await status(kind, reference);
      if (found.status !== 'PENDING' || found.providerReference === undefined) return { ok: false, reason: `the session is ${found.status}` };
      id = found.providerReference;
    }
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return { ok: false, reason: 'INVALID_PROVIDER_REFERENCE' };
    const res = await call('POST', `/v1/checkout/sessions/${encodeURIComponent(id)}/expire`, {});
    if (!res.ok) return { ok: false, reason: res.reason };
    if (res.status >= 200 && res.status < 300) {
      deps.logger.info({ provider: WAVE, op: 'cancel', reference }, 'mobile-money request closed at the provider');
      return { ok: true };
    }
    const reason = httpReason(res.status, res.body);
    deps.logger.warn({ provider: WAVE, op: 'cancel', reference, reason }, 'mobile-money request not closed at the provider');
    return { ok: false, reason };
  }

  /**
   * Wave's checkout refund: the whole session back to the payer, by Wave's session id. Wave
   * answers 200 with no body; a session that is not paid, or already refunded, is 400
   * `checkout-refund-failed` (one code for both: the caller's own record says which). Wave makes
   * the refund when it answers 200 and the session object has no field that reads it back, so
   * the caller records the refund on this answer (docs/decisions/0030-orange-money-and-wave-in-attempts.md, "Wave refunds").
   */
  async function refund(req: PaymentRequest & { providerReference: string }): Promise<SubmitResult> {
    if (!isReference(req.reference)) return out.failed('refund', 'collection', req.reference, 'INVALID_REFERENCE', 'not sent');
    if (lacks.refund !== undefined) return out.failed('refund', 'collection', req.reference, 'SCOPE_MISSING', lacks.refund);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(req.providerReference))
      return out.failed('refund', 'collection', req.reference, 'INVALID_PROVIDER_REFERENCE', 'not sent');
    const res = await call('POST', `/v1/checkout/sessions/${encodeURIComponent(req.providerReference)}/refund`, { 'idempotency-key': req.reference });
    if (!res.ok) return out.unknown('refund', 'collection', req.reference, res.reason);
    if (res.status === 200 || res.status === 201 || res.status === 204) {
      deps.logger.info({ provider: WAVE, op: 'refund', reference: req.reference }, 'mobile-money request accepted');
      return { status: 'PENDING', duplicate: false, providerReference: req.providerReference };
    }
    if (res.status === 401 || res.status === 403)
      return out.failed('refund', 'collection', req.reference, 'CREDENTIALS_REFUSED', httpReason(res.status, res.body));
    if (res.status === 408 || res.status === 429 || res.status >= 500)
      return out.unknown('refund', 'collection', req.reference, httpReason(res.status, res.body));
    if (res.status >= 400) return out.failed('refund', 'collection', req.reference, codeOf(res.body) ?? `HTTP_${res.status}`, httpReason(res.status, res.body));
    return out.unknown('refund', 'collection', req.reference, `unexpected ${httpReason(res.status, res.body)}`);
  }

  return {
    provider: WAVE,
    // One POST: the API key needs no token.
    submitTimeoutMs: timeoutMs,
    collect: (req) => submit('collection', req),
    disburse: (req) => submit('disbursement', req),
    refund,
    cancel,
    status,
    verifyCallback,
    check,
    ...(Object.keys(lacks).length > 0 ? { lacks } : {}),
    close: () => http.close(),
  };
}
