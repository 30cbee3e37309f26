import { type Currency, formatAmount, MAX_MINOR_UNITS } from '../../../platform/money.ts';
import { decimalToMinor } from '../connectors.amounts.ts';
import { type Checker, ProviderHttp, readJson } from '../connectors.http.ts';
import { bodyObject, outcomeLog } from '../connectors.outcomes.ts';
import { isReference, newReference } from '../connectors.references.ts';
import { providerWords } from '../connectors.check.ts';
import type {
  CallbackResult,
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
import { verifyWaveSignature } from './wave.signature.ts';

/**
 * `wave`: Wave's Checkout API (money in: the payer approves in the Wave app or page opened by
 * `wave_launch_url`) and Payout API (money out), docs/spec/providers.md. Our reference is both the
 * `Idempotency-Key` and the `client_reference`, so a request can be found again by our reference
 * alone (Wave's search by client_reference), also after a crash. Webhooks are signed
 * (`Wave-Signature`) and, as every callback, only a hint confirmed by a status read.
 */

export const WAVE = 'wave';

export interface WaveSettings {
  /** https://api.wave.com (or the sandbox's /wave base). */
  baseUrl: string;
  /** The API key (`wave_sn_prod_…`), sent as a bearer token. */
  apiKey: string;
  /** The secret of the webhook registered in Wave's Business Portal (signing-secret strategy). */
  webhookSecret: string;
  /** Where the payer comes back when the request names no returnUrl. */
  returnUrl?: string;
  /** Bound on each call (default 10 s). */
  timeoutMs?: number;
  connections?: number;
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

  async function submit(kind: ConnectorKind, req: PaymentRequest): Promise<SubmitResult> {
    const op = kind === 'collection' ? 'collect' : 'disburse';
    const returnUrl = req.returnUrl ?? settings.returnUrl;
    const invalid = invalidRequest(kind, req, returnUrl);
    if (invalid !== undefined) return out.failed(op, kind, req.reference, invalid, 'not sent');
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
    const res = await http.send('POST', path, { ...auth, 'idempotency-key': req.reference }, JSON.stringify(body));
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
    const res = await http.send('GET', path, auth);
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
    const res = await http.send('GET', `/v1/checkout/sessions/search?client_reference=${newReference()}`, auth);
    if (!res.ok || res.status !== 200) return { ok: false, detail: `checkout session search refused: ${providerWords(res)}` };
    const answer = readJson(res.body, checkWaveSessionSearch);
    if (!answer.ok) return { ok: false, detail: `checkout session search: ${answer.reason}` };
    const n = answer.value.result.length;
    return { ok: true, detail: `checkout session search answered: ${n === 0 ? 'no session' : `${n} sessions`} for a new client_reference` };
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
   * Wave signs the raw body with the webhook secret (`Wave-Signature`); the signature must match
   * and be recent (injected clock), and the event must name one of our references. Then the
   * result is what Wave answers now, never the body.
   */
  async function verifyCallback(callback: IncomingCallback): Promise<CallbackResult> {
    const raw = typeof callback.body === 'string' ? callback.body : Buffer.isBuffer(callback.body) ? callback.body.toString('utf8') : undefined;
    if (raw === undefined) return out.refused('the raw body is needed to check the Wave-Signature');
    const header = callback.headers?.['wave-signature'];
    const signature = Array.isArray(header) ? header.join(',') : header;
    if (signature === undefined) return out.refused('the Wave-Signature header is missing');
    const checked = verifyWaveSignature(settings.webhookSecret, signature, raw, deps.clock.now().getTime());
    if (!checked.ok) return out.refused(checked.reason);
    const event = bodyObject(raw);
    if (!checkWaveEvent.Check(event)) return out.refused('the body is not a Wave event');
    const reference = event.data.client_reference;
    if (typeof reference !== 'string' || !isReference(reference)) return out.refused('the event names none of our references');
    const kind: ConnectorKind = event.type.startsWith('checkout.') ? 'collection' : 'disbursement';
    const claimed = event.type === 'checkout.session.completed' ? 'SUCCESSFUL' : event.type === 'checkout.session.payment_failed' ? 'FAILED' : undefined;
    const result = await status(kind, reference);
    return { ok: true, kind, reference, claimed, result };
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
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(req.providerReference))
      return out.failed('refund', 'collection', req.reference, 'INVALID_PROVIDER_REFERENCE', 'not sent');
    const res = await http.send('POST', `/v1/checkout/sessions/${encodeURIComponent(req.providerReference)}/refund`, {
      ...auth,
      'idempotency-key': req.reference,
    });
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
    status,
    verifyCallback,
    check,
    close: () => http.close(),
  };
}
