import { safeEqual } from '../../../platform/crypto.ts';
import { type Currency, isCurrency, MAX_MINOR_UNITS } from '../../../platform/money.ts';
import { type HttpResult, ProviderHttp, readJson } from '../connectors.http.ts';
import { bodyObject, callbackTarget, outcomeLog } from '../connectors.outcomes.ts';
import { callbackSigner, isReference } from '../connectors.references.ts';
import { TokenCache, type TokenFetch } from '../connectors.tokens.ts';
import { providerWords } from '../connectors.check.ts';
import type {
  AuthenticatedCallback,
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
  checkOrangeError,
  checkOrangeNotification,
  checkOrangeStatusAnswer,
  checkOrangeToken,
  checkWebPaymentAnswer,
  type OrangeStatus,
} from './orange-money.schema.ts';
import { chargeableCurrencies, DEV_CURRENCY } from './orange-money.environments.ts';

/**
 * `orange_money`: Orange Money Web Payment (docs/spec/providers.md). The payer approves on Orange's page
 * (`payment_url`), so `collect` answers a redirect; Orange's status read needs its `pay_token`
 * and the amount, which `collect` returns for the caller to store
 * (docs/decisions/0027-orange-money-and-wave-documentation-gaps.md). Collection only: Web Payment has no transfer or refund operation.
 */

export const ORANGE_MONEY = 'orange_money';

export interface OrangeMoneySettings {
  /** The API host, https://api.orange.com (or the sandbox's /orange-money base). */
  baseUrl: string;
  /** The path segment of the Web Payment API: `dev` (Orange's test environment) or the country (`cm`, `sn`, `ci`, …). */
  environment: string;
  /** The environment's currency, as configured (checked against it when read: orange-money.environments.ts). */
  currency?: string;
  clientId: string;
  clientSecret: string;
  merchantKey: string;
  /** Shown to the payer on Orange's page as the merchant (`reference`, at most 30 characters). */
  merchantName?: string;
  /** Base of notif_url; the connector appends `/collection/{reference}/{token}`. */
  callbackUrl: string;
  /** Where the payer comes back when the request names no returnUrl. */
  returnUrl?: string;
  /** Bound on each call (default 10 s). */
  timeoutMs?: number;
  connections?: number;
}

/** What the connector remembers of each request it sent, so that status and callbacks work without the caller's help. */
interface Sent {
  payToken: string;
  notifToken: string;
  paymentUrl: string;
  amount: bigint;
  currency: Currency;
}

/** Requests remembered per process (the oldest forgotten first); the caller stores what outlives it. */
const REMEMBERED = 10_000;

function codeOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (checkOrangeError.Check(parsed) && parsed.code !== undefined) return String(parsed.code);
  } catch {}
  return undefined;
}

function httpReason(status: number, body: string): string {
  const code = codeOf(body);
  return code === undefined ? `HTTP ${status}` : `HTTP ${status} ${code}`;
}

/** Orange's status → ours. INITIATED (page not opened yet) and PENDING (PIN being entered) are both pending. */
function statusOf(status: OrangeStatus): { status: 'PENDING' | 'SUCCESSFUL' } | { status: 'FAILED'; reason: string } {
  if (status === 'SUCCESS') return { status: 'SUCCESSFUL' };
  if (status === 'FAILED') return { status: 'FAILED', reason: 'FAILED' };
  if (status === 'EXPIRED') return { status: 'FAILED', reason: 'EXPIRED' };
  return { status: 'PENDING' };
}

function invalidRequest(req: PaymentRequest, returnUrl: string | undefined, currencies: readonly Currency[]): string | undefined {
  if (!isReference(req.reference)) return 'INVALID_REFERENCE';
  // The environment's currency only (Web Payment amounts are whole units: XAF or XOF).
  if (!currencies.includes(req.currency)) return 'INVALID_CURRENCY';
  if (typeof req.amount !== 'bigint' || req.amount <= 0n || req.amount > MAX_MINOR_UNITS) return 'INVALID_AMOUNT';
  if (returnUrl === undefined || !/^https?:\/\/[^\s]+$/.test(returnUrl) || returnUrl.length > 512) return 'INVALID_RETURN_URL';
  return undefined;
}

export function createOrangeMoneyConnector(settings: OrangeMoneySettings, deps: ConnectorDeps): Connector {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  const http = new ProviderHttp(settings.baseUrl, { timeoutMs, connections: settings.connections });
  const signer = callbackSigner(deps.callbackKey, ORANGE_MONEY);
  const out = outcomeLog(ORANGE_MONEY, deps.logger);
  const basic = `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`;
  const api = `/orange-money-webpay/${encodeURIComponent(settings.environment)}/v1`;
  const sent = new Map<string, Sent>();
  const currencies = chargeableCurrencies(settings.environment).filter(isCurrency);

  function remember(reference: string, s: Sent): void {
    sent.set(reference, s);
    if (sent.size > REMEMBERED) sent.delete(sent.keys().next().value as string);
  }

  const tokens = new TokenCache(deps.clock, async (): Promise<TokenFetch> => {
    const res = await http.send(
      'POST',
      '/oauth/v3/token',
      { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      'grant_type=client_credentials',
    );
    if (!res.ok) return { ok: false, refused: false, reason: `token: ${res.reason}` };
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      return { ok: false, refused: true, reason: `token: credentials refused (${httpReason(res.status, res.body)})` };
    }
    if (res.status !== 200) return { ok: false, refused: false, reason: `token: ${httpReason(res.status, res.body)}` };
    const answer = readJson(res.body, checkOrangeToken);
    if (!answer.ok) return { ok: false, refused: false, reason: `token: ${answer.reason}` };
    deps.logger.debug({ provider: ORANGE_MONEY, expiresIn: answer.value.expires_in }, 'mobile-money access token obtained');
    return { ok: true, token: answer.value.access_token, expiresInSeconds: Number(answer.value.expires_in) };
  });

  /**
   * A token from Orange's OAuth endpoint with this client id and secret: the one call Web Payment
   * has that moves nothing (the merchant key is only ever sent with a payment). Not cached: the
   * payments' token stays whatever it was.
   */
  async function check(): Promise<CheckResult> {
    const res = await http.send(
      'POST',
      '/oauth/v3/token',
      { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      'grant_type=client_credentials',
    );
    if (!res.ok || res.status !== 200) return { ok: false, detail: `token refused: ${providerWords(res)}` };
    const answer = readJson(res.body, checkOrangeToken);
    if (!answer.ok) return { ok: false, detail: `token: ${answer.reason}` };
    return { ok: true, detail: `token issued (expires in ${answer.value.expires_in} s) for Web Payment ${settings.environment}` };
  }

  /** A POST with the bearer token; a 401 on a cached token renews it and tries once more (nothing was taken). */
  async function authorized(path: string, body: string) {
    const send = (bearer: string) => http.send('POST', `${api}${path}`, { authorization: `Bearer ${bearer}`, accept: 'application/json' }, body);
    let t = await tokens.get();
    if (!t.ok) return t;
    let res: HttpResult = await send(t.token);
    if (res.ok && res.status === 401 && !t.fresh) {
      tokens.drop(t.token);
      t = await tokens.get();
      if (!t.ok) return t;
      res = await send(t.token);
    }
    return { ok: true as const, res };
  }

  const wireCurrency = (currency: Currency) => (settings.environment === 'dev' ? DEV_CURRENCY : currency);

  async function collect(req: PaymentRequest): Promise<SubmitResult> {
    const returnUrl = req.returnUrl ?? settings.returnUrl;
    const invalid = invalidRequest(req, returnUrl, currencies);
    if (invalid !== undefined) return out.failed('collect', 'collection', req.reference, invalid, 'not sent');
    const known = sent.get(req.reference);
    if (known !== undefined) return { status: 'PENDING', duplicate: true, redirectUrl: known.paymentUrl, providerReference: known.payToken };
    const body = JSON.stringify({
      merchant_key: settings.merchantKey,
      currency: wireCurrency(req.currency),
      order_id: req.reference,
      amount: Number(req.amount),
      return_url: returnUrl,
      cancel_url: req.cancelUrl ?? returnUrl,
      notif_url: `${settings.callbackUrl}/collection/${req.reference}/${signer.sign('collection', req.reference)}`,
      lang: req.language ?? 'fr',
      reference: (req.payerName ?? settings.merchantName ?? 'Caisse').slice(0, 30),
    });
    const sentOut = await authorized('/webpayment', body);
    if (!sentOut.ok)
      return sentOut.refused
        ? out.failed('collect', 'collection', req.reference, 'CREDENTIALS_REFUSED', sentOut.reason)
        : out.unknown('collect', 'collection', req.reference, sentOut.reason);
    const res = sentOut.res;
    if (!res.ok) return out.unknown('collect', 'collection', req.reference, res.reason);
    if (res.status === 200 || res.status === 201) {
      const answer = readJson(res.body, checkWebPaymentAnswer);
      if (!answer.ok) return out.unknown('collect', 'collection', req.reference, answer.reason);
      const a = answer.value;
      remember(req.reference, { payToken: a.pay_token, notifToken: a.notif_token, paymentUrl: a.payment_url, amount: req.amount, currency: req.currency });
      deps.logger.info({ provider: ORANGE_MONEY, op: 'collect', reference: req.reference }, 'mobile-money request accepted');
      return { status: 'PENDING', duplicate: false, redirectUrl: a.payment_url, providerReference: a.pay_token };
    }
    // Orange already has this order_id: an earlier try whose answer we lost. Its page is the one
    // the payer may hold; we cannot learn its URL again (docs/decisions/0027-orange-money-and-wave-documentation-gaps.md).
    if (res.status === 409) return { status: 'PENDING', duplicate: true };
    if (res.status === 401 || res.status === 403)
      return out.failed('collect', 'collection', req.reference, 'CREDENTIALS_REFUSED', httpReason(res.status, res.body));
    if (res.status === 408 || res.status === 429 || res.status >= 500)
      return out.unknown('collect', 'collection', req.reference, httpReason(res.status, res.body));
    if (res.status >= 400)
      return out.failed('collect', 'collection', req.reference, codeOf(res.body) ?? `HTTP_${res.status}`, httpReason(res.status, res.body));
    return out.unknown('collect', 'collection', req.reference, `unexpected ${httpReason(res.status, res.body)}`);
  }

  async function status(kind: ConnectorKind, reference: string, known?: KnownRequest): Promise<StatusResult> {
    // Web Payment only collects: no disbursement ever went to Orange.
    if (kind !== 'collection') return { status: 'NOT_FOUND' };
    if (!isReference(reference)) return out.unknown('status', kind, reference, 'the reference is not a UUID v4');
    const mine = sent.get(reference);
    const payToken = known?.providerReference ?? mine?.payToken;
    const amount = known?.amount ?? mine?.amount;
    const currency = known?.currency ?? mine?.currency;
    // Orange is asked by pay_token and amount together; without them nothing can be asked.
    if (payToken === undefined || amount === undefined || currency === undefined)
      return out.unknown('status', kind, reference, 'the pay_token and amount of this request are not known');
    const sentOut = await authorized('/transactionstatus', JSON.stringify({ order_id: reference, amount: Number(amount), pay_token: payToken }));
    if (!sentOut.ok) return out.unknown('status', kind, reference, sentOut.reason);
    const res = sentOut.res;
    if (!res.ok) return out.unknown('status', kind, reference, res.reason);
    if (res.status !== 200 && res.status !== 201) return out.unknown('status', kind, reference, httpReason(res.status, res.body));
    const answer = readJson(res.body, checkOrangeStatusAnswer);
    if (!answer.ok) return out.unknown('status', kind, reference, answer.reason);
    if (answer.value.order_id !== reference) return out.unknown('status', kind, reference, `the answer is about order ${answer.value.order_id}`);
    // Orange matched the amount we asked with: it is the amount it holds.
    const view = { amount, currency, ...(answer.value.txnid ? { providerTransactionId: answer.value.txnid } : {}) };
    const mapped = statusOf(answer.value.status);
    return mapped.status === 'FAILED' ? { ...view, status: 'FAILED', reason: mapped.reason } : { ...view, status: mapped.status };
  }

  /**
   * The notif_url's last segments are `collection/{reference}/{token}` (ours, constant-time
   * compare), and the body's `notif_token` must be the one Orange gave for this payment when this
   * process still knows it. Then the body is only a hint.
   */
  async function authenticateCallback(callback: IncomingCallback): Promise<AuthenticatedCallback> {
    const target = callbackTarget(callback.url);
    if (!target.ok) return out.refused(target.reason);
    if (target.kind !== 'collection' || !signer.verify(target.kind, target.reference, target.token))
      return out.refused('the callback URL token does not match');
    const body = bodyObject(callback.body);
    if (!checkOrangeNotification.Check(body)) return out.refused('the notification is not an Orange Money notification');
    const mine = sent.get(target.reference);
    if (mine !== undefined && !safeEqual(body.notif_token, mine.notifToken)) return out.refused('the notif_token does not match');
    const claimed = body.status === 'SUCCESS' ? 'SUCCESSFUL' : body.status === 'FAILED' ? 'FAILED' : undefined;
    return { ok: true, kind: 'collection', reference: target.reference, claimed };
  }

  /** Authenticated, then the result is what Orange answers now. */
  async function verifyCallback(callback: IncomingCallback): Promise<CallbackResult> {
    const authenticated = await authenticateCallback(callback);
    if (!authenticated.ok) return authenticated;
    const result = await status('collection', authenticated.reference, callback.known);
    return { ...authenticated, result };
  }

  return {
    provider: ORANGE_MONEY,
    // A token and the webpayment, both again after a refused cached token.
    submitTimeoutMs: 4 * timeoutMs,
    collect,
    disburse: async (req) => out.failed('disburse', 'disbursement', req.reference, 'DISBURSEMENT_UNSUPPORTED', 'Orange Money Web Payment cannot send money'),
    status,
    verifyCallback,
    authenticateCallback,
    check,
    currencies,
    close: () => http.close(),
  };
}
