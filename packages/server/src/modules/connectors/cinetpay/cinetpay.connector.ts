import { type Currency, formatAmount, isCurrency } from '../../../platform/money.ts';
import { decimalToMinor } from '../connectors.amounts.ts';
import { checkAmountBounds, fitMessage } from '../connectors.description.ts';
import { type HttpResult, ProviderHttp } from '../connectors.http.ts';
import { callbackTarget, outcomeLog } from '../connectors.outcomes.ts';
import { callbackSigner, isReference, newReference } from '../connectors.references.ts';
import { TokenCache, type TokenFetch } from '../connectors.tokens.ts';
import type {
  CallbackResult,
  Connector,
  ConnectorDeps,
  ConnectorKind,
  IncomingCallback,
  KnownRequest,
  PaymentRequest,
  StatusResult,
  SubmitResult,
} from '../connectors.types.ts';
import { CINETPAY_DESCRIPTION } from './cinetpay.description.ts';
import {
  cardCurrenciesOf,
  cinetPayAmount,
  codeText,
  FAILURE_REASONS,
  MOBILE_MONEY_CURRENCIES,
  PAYMENT_CODES,
  splitNumber,
  TRANSFER_CODES,
  verifyNotificationToken,
} from './cinetpay.rules.ts';
import {
  type CinetPayTransferView,
  checkCinetPayAnswer,
  checkCinetPayCheckAnswer,
  checkCinetPayLoginAnswer,
  checkCinetPayPaymentAnswer,
  checkCinetPayTransferAnswer,
  checkCinetPayTransferView,
} from './cinetpay.schema.ts';

/**
 * `cinetpay`: CinetPay's payment API v2 (the version its SDKs call: initialisation → payment page,
 * check by transaction_id, a notification signed with `x-token`) and its transfer API v1 (login
 * token, contacts, send, check by client_transaction_id) for payouts and refunds
 * (docs/decisions/0081-cinetpay.md). Our reference is the `transaction_id` and the
 * `client_transaction_id`, so every request is read back by it alone, also after a crash.
 * The payment API has no refund: a mobile-money payment is given back by a transfer
 * (`disburse`); a card payment cannot be (the description's `refundUnsupported`).
 */

export const CINETPAY = 'cinetpay';

export interface CinetPaySettings {
  /** https://api-checkout.cinetpay.com (or the sandbox's /cinetpay base). */
  baseUrl: string;
  /** https://client.cinetpay.com (or the sandbox's /cinetpay base); default: baseUrl. */
  transferBaseUrl?: string;
  apiKey: string;
  siteId: string;
  /** Signs notifications (x-token). */
  secretKey: string;
  /** The transfer API's password; without it the account neither pays out nor refunds. */
  transferPassword?: string;
  /** Base of notify_url; the connector appends `/{kind}/{reference}/{token}`. */
  callbackUrl: string;
  /** Where the payer comes back when the request names no returnUrl. */
  returnUrl?: string;
  /** The description CinetPay shows when the request names no payerName. */
  merchantName?: string;
  /** Bound on each call (default 10 s). */
  timeoutMs?: number;
  connections?: number;
  /** Currencies the service takes by card, a comma list (`XAF,USD`); unset: the francs only (USD is CinetPay's to enable). */
  cardCurrencies?: string;
}

/** A transfer token lives 5 minutes (docs.cinetpay.com, transfer API, "How to generate a token"). */
const TRANSFER_TOKEN_SECONDS = 300;
/** Requests remembered per process for their page (the oldest forgotten first); the caller stores what outlives it. */
const REMEMBERED = 10_000;

/** CinetPay's statuses of a payment that can still be paid. */
const WAITING = new Set([
  'WAITING_FOR_CUSTOMER',
  'PENDING',
  'WAITING_CUSTOMER_PAYMENT',
  'WAITING_CUSTOMER_TO_VALIDATE',
  'WAITING_CUSTOMER_OTP_CODE',
  'CREATED',
  'INITIATED',
]);
const REFUSED = new Set(['REFUSED', 'CANCELED', 'CANCELLED', 'FAILED']);

interface Sent {
  paymentUrl: string;
  paymentToken: string;
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** CinetPay's own words of an answer (`code message`), or its HTTP status. */
function wordsOf(res: { status: number; body: string }): string {
  const parsed = parse(res.body);
  if (checkCinetPayAnswer.Check(parsed) || checkCinetPayTransferAnswer.Check(parsed)) return `${codeText(parsed.code)} ${parsed.message}`;
  return `HTTP ${res.status}`;
}

/** A form's fields from the raw body (string or Buffer) or what a route already parsed. */
function formOf(body: unknown): Record<string, string> | undefined {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return Object.fromEntries(new URLSearchParams(body.toString('utf8')));
  if (body !== null && typeof body === 'object') {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
    return out;
  }
  return undefined;
}

function headerOf(headers: IncomingCallback['headers'], name: string): string | undefined {
  const v = headers?.[name];
  return Array.isArray(v) ? v[0] : v;
}

export function createCinetPayConnector(settings: CinetPaySettings, deps: ConnectorDeps): Connector {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  const payments = new ProviderHttp(settings.baseUrl, { timeoutMs, connections: settings.connections });
  const transferBase = settings.transferBaseUrl ?? settings.baseUrl;
  const transfers = transferBase === settings.baseUrl ? payments : new ProviderHttp(transferBase, { timeoutMs, connections: settings.connections });
  const signer = callbackSigner(deps.callbackKey, CINETPAY);
  const out = outcomeLog(CINETPAY, deps.logger);
  const sent = new Map<string, Sent>();
  const noTransfers =
    settings.transferPassword === undefined
      ? "no transfer password is configured (CAISSE_CINETPAY_TRANSFER_PASSWORD, or an account's transferPassword): CinetPay cannot send money"
      : undefined;

  function remember(reference: string, s: Sent): void {
    sent.set(reference, s);
    if (sent.size > REMEMBERED) sent.delete(sent.keys().next().value as string);
  }

  const currencies = cardCurrenciesOf(settings.cardCurrencies);
  const notifyUrl = (kind: ConnectorKind, reference: string) => `${settings.callbackUrl}/${kind}/${reference}/${signer.sign(kind, reference)}`;
  const json = { accept: 'application/json' };

  /** Why this request cannot be sent as it is, or undefined. */
  function invalid(kind: ConnectorKind, req: PaymentRequest, returnUrl: string | undefined): string | undefined {
    if (!isReference(req.reference)) return 'INVALID_REFERENCE';
    if (typeof req.amount !== 'bigint') return 'INVALID_AMOUNT';
    const bounds = checkAmountBounds(CINETPAY_DESCRIPTION, req.currency, req.amount);
    if (!bounds.ok)
      return bounds.reason === 'currency_unsupported'
        ? 'INVALID_CURRENCY'
        : bounds.reason === 'not_a_multiple'
          ? 'AMOUNT_NOT_A_MULTIPLE_OF_5'
          : 'AMOUNT_OUT_OF_BOUNDS';
    if (cinetPayAmount(req.amount, req.currency) === undefined) return 'AMOUNT_NOT_A_MULTIPLE_OF_5';
    // USD is taken only by a service CinetPay has enabled it for: never sent from another account.
    if (!currencies.includes(req.currency)) return 'INVALID_CURRENCY';
    // No operator of Caisse's countries takes USD on CinetPay's page: USD is for cards.
    if (kind === 'collection' && req.method !== 'card' && !MOBILE_MONEY_CURRENCIES.includes(req.currency)) return 'INVALID_CURRENCY';
    if (kind === 'collection') {
      if (returnUrl === undefined || !/^https?:\/\/[^\s]+$/.test(returnUrl)) return 'INVALID_RETURN_URL';
      if (req.method === 'card') {
        const c = req.customer;
        // CinetPay's page refuses a card payment without them (its code 624): asked before any call.
        if (c === undefined || [c.name, c.surname, c.email, c.phoneNumber, c.address, c.city, c.country, c.state, c.zipCode].some((v) => !v?.trim()))
          return 'CUSTOMER_DETAILS_REQUIRED';
      } else if (!/^\+?[1-9][0-9]{6,14}$/.test(req.phoneNumber)) return 'INVALID_PHONE_NUMBER';
    }
    return undefined;
  }

  // ---------------------------------------------------------------- payments

  async function collect(req: PaymentRequest): Promise<SubmitResult> {
    const returnUrl = req.returnUrl ?? settings.returnUrl;
    const bad = invalid('collection', req, returnUrl);
    if (bad !== undefined) return out.failed('collect', 'collection', req.reference, bad, 'not sent');
    const known = sent.get(req.reference);
    if (known !== undefined) return { status: 'PENDING', duplicate: true, redirectUrl: known.paymentUrl, providerReference: known.paymentToken };
    const card = req.method === 'card';
    const c = req.customer;
    const phone = req.phoneNumber.startsWith('+') ? req.phoneNumber : `+${req.phoneNumber}`;
    const body = {
      apikey: settings.apiKey,
      site_id: settings.siteId,
      transaction_id: req.reference,
      // A whole number of dollars or francs (checked above).
      amount: cinetPayAmount(req.amount, req.currency),
      currency: req.currency,
      // The merchant's short name, as CinetPay's page shows it (its rules: none of `#/$_&`).
      description: fitMessage(CINETPAY_DESCRIPTION.messages, req.payerName ?? settings.merchantName ?? 'Caisse', 'Caisse'),
      notify_url: notifyUrl('collection', req.reference),
      return_url: returnUrl,
      channels: card ? 'CREDIT_CARD' : 'MOBILE_MONEY',
      lang: req.language ?? 'fr',
      metadata: req.externalId,
      ...(card && c !== undefined
        ? {
            customer_name: c.name,
            customer_surname: c.surname,
            customer_email: c.email,
            customer_phone_number: c.phoneNumber,
            customer_address: c.address,
            customer_city: c.city,
            customer_country: c.country,
            customer_state: c.state,
            customer_zip_code: c.zipCode,
          }
        : // Only the number checkout was given can pay: the page opens on it.
          { customer_phone_number: phone, lock_phone_number: true }),
    };
    const res = await payments.send('POST', '/v2/payment', json, JSON.stringify(body));
    if (!res.ok) return out.unknown('collect', 'collection', req.reference, res.reason);
    if (res.status === 408 || res.status === 429 || res.status >= 500) return out.unknown('collect', 'collection', req.reference, wordsOf(res));
    const parsed = parse(res.body);
    if (checkCinetPayPaymentAnswer.Check(parsed) && codeText(parsed.code) === PAYMENT_CODES.CREATED) {
      remember(req.reference, { paymentUrl: parsed.data.payment_url, paymentToken: parsed.data.payment_token });
      deps.logger.info({ provider: CINETPAY, op: 'collect', reference: req.reference }, 'mobile-money request accepted');
      return { status: 'PENDING', duplicate: false, redirectUrl: parsed.data.payment_url, providerReference: parsed.data.payment_token };
    }
    if (!checkCinetPayAnswer.Check(parsed)) return out.unknown('collect', 'collection', req.reference, `unexpected answer (HTTP ${res.status})`);
    const code = codeText(parsed.code);
    if (code === PAYMENT_CODES.AUTH_NOT_FOUND || code === PAYMENT_CODES.ERROR_SITE_ID_NOTVALID)
      return out.failed('collect', 'collection', req.reference, 'CREDENTIALS_REFUSED', wordsOf(res));
    if (code === PAYMENT_CODES.ERROR_DOUBLE_PAYEMNT) {
      // The transaction_id is taken: ours, from an earlier try whose answer we lost. The check
      // says whether CinetPay has it; its page cannot be learnt again (see the decision).
      const found = await status('collection', req.reference);
      if (found.status === 'NOT_FOUND') return out.failed('collect', 'collection', req.reference, 'DUPLICATE_TRANSACTION_ID', wordsOf(res));
      if (found.status === 'UNKNOWN') return out.unknown('collect', 'collection', req.reference, `the transaction_id is taken; ${found.reason}`);
      return { status: 'PENDING', duplicate: true };
    }
    return out.failed('collect', 'collection', req.reference, parsed.message || `CINETPAY_${code}`, wordsOf(res));
  }

  function view(kind: ConnectorKind, reference: string, amountText: string, currencyText: string) {
    if (!isCurrency(currencyText) || !CINETPAY_DESCRIPTION.currencies.includes(currencyText))
      return out.unknown('status', kind, reference, `the answer's currency ${currencyText} is not one we handle`);
    const currency: Currency = currencyText;
    const amount = decimalToMinor(amountText, currency);
    if (amount === undefined) return out.unknown('status', kind, reference, `the answer's amount ${amountText} is not a ${currency} amount`);
    return { amount, currency };
  }

  async function paymentStatus(reference: string): Promise<StatusResult> {
    const body = JSON.stringify({ apikey: settings.apiKey, site_id: settings.siteId, transaction_id: reference });
    const res = await payments.send('POST', '/v2/payment/check', json, body);
    if (!res.ok) return out.unknown('status', 'collection', reference, res.reason);
    if (res.status === 408 || res.status === 429 || res.status >= 500) return out.unknown('status', 'collection', reference, wordsOf(res));
    const parsed = parse(res.body);
    if (checkCinetPayCheckAnswer.Check(parsed)) {
      const d = parsed.data;
      const v = view('collection', reference, d.amount, d.currency);
      if ('status' in v) return v;
      const status = d.status.toUpperCase();
      if (status === 'ACCEPTED') return { status: 'SUCCESSFUL', ...v, ...(d.operator_id ? { providerTransactionId: d.operator_id } : {}) };
      if (REFUSED.has(status)) return { status: 'FAILED', ...v, reason: FAILURE_REASONS[codeText(parsed.code)] ?? 'FAILED' };
      if (WAITING.has(status)) {
        const mine = sent.get(reference);
        return { status: 'PENDING', ...v, ...(mine ? { redirectUrl: mine.paymentUrl, providerReference: mine.paymentToken } : {}) };
      }
      return out.unknown('status', 'collection', reference, `unknown status ${d.status}`);
    }
    if (!checkCinetPayAnswer.Check(parsed)) return out.unknown('status', 'collection', reference, `unexpected answer (HTTP ${res.status})`);
    // Only CinetPay's own "no such transaction" says it never saw it (docs/decisions/0081-cinetpay.md).
    if (parsed.message === 'TRANSACTION_NOT_FOUND') return { status: 'NOT_FOUND' };
    return out.unknown('status', 'collection', reference, wordsOf(res));
  }

  // ---------------------------------------------------------------- transfers

  const tokens = new TokenCache(deps.clock, async (): Promise<TokenFetch> => {
    const form = new URLSearchParams({ apikey: settings.apiKey, password: settings.transferPassword ?? '' }).toString();
    const res = await transfers.send('POST', '/v1/auth/login?lang=fr', { ...json, 'content-type': 'application/x-www-form-urlencoded' }, form);
    if (!res.ok) return { ok: false, refused: false, reason: `token: ${res.reason}` };
    if (res.status >= 500 || res.status === 408 || res.status === 429) return { ok: false, refused: false, reason: `token: ${wordsOf(res)}` };
    const parsed = parse(res.body);
    if (checkCinetPayLoginAnswer.Check(parsed) && Number(parsed.code) === TRANSFER_CODES.OPERATION_SUCCES)
      return { ok: true, token: parsed.data.token, expiresInSeconds: TRANSFER_TOKEN_SECONDS };
    if (checkCinetPayTransferAnswer.Check(parsed) && Number(parsed.code) === TRANSFER_CODES.INVALID_CREDENTIALS)
      return { ok: false, refused: true, reason: `token: credentials refused (${wordsOf(res)})` };
    return { ok: false, refused: false, reason: `token: ${wordsOf(res)}` };
  });

  /**
   * A transfer API call with the token in the query; a token CinetPay calls expired or invalid
   * (705, 706) is renewed and the call made once more (nothing was done with it).
   */
  async function authorized(method: 'GET' | 'POST', path: string, query: Record<string, string>, form?: Record<string, string>) {
    const send = (token: string): Promise<HttpResult> => {
      const q = new URLSearchParams({ ...query, token, lang: 'fr' }).toString();
      const headers = form === undefined ? json : { ...json, 'content-type': 'application/x-www-form-urlencoded' };
      return transfers.send(method, `${path}?${q}`, headers, form === undefined ? undefined : new URLSearchParams(form).toString());
    };
    let t = await tokens.get();
    if (!t.ok) return t;
    let res = await send(t.token);
    const refusedToken = (r: HttpResult) => {
      if (!r.ok) return false;
      const parsed = parse(r.body);
      return checkCinetPayTransferAnswer.Check(parsed) && [TRANSFER_CODES.EXPIRED_TOKEN, TRANSFER_CODES.INVALID_TOKEN].includes(Number(parsed.code) as 705);
    };
    if (refusedToken(res) && !t.fresh) {
      tokens.drop(t.token);
      t = await tokens.get();
      if (!t.ok) return t;
      res = await send(t.token);
    }
    return { ok: true as const, res };
  }

  async function disburse(req: PaymentRequest): Promise<SubmitResult> {
    if (noTransfers !== undefined) return out.failed('disburse', 'disbursement', req.reference, 'DISBURSEMENT_NOT_CONFIGURED', noTransfers);
    const bad = invalid('disbursement', req, undefined);
    if (bad !== undefined) return out.failed('disburse', 'disbursement', req.reference, bad, 'not sent');
    const number = splitNumber(req.phoneNumber);
    if (number === undefined) return out.failed('disburse', 'disbursement', req.reference, 'INVALID_PHONE_NUMBER', 'not sent');
    // The transfer API takes no currency: the number's country decides it.
    if (number.currency !== req.currency)
      return out.failed('disburse', 'disbursement', req.reference, 'INVALID_CURRENCY', `a ${number.prefix} number is paid in ${number.currency}`);
    const label = fitMessage(CINETPAY_DESCRIPTION.messages, req.payerName ?? settings.merchantName ?? 'Caisse', 'Caisse');
    // A number must be one of the account's contacts before it is paid; adding one twice is
    // answered 726 inside a success, so it is done before every transfer.
    const contact = [{ prefix: number.prefix, phone: number.phone, name: label, surname: (req.payeeNote || req.externalId).slice(0, 100), email: '' }];
    const added = await authorized('POST', '/v1/transfer/contact', {}, { data: JSON.stringify(contact) });
    const refusal = (r: { refused: boolean; reason: string }) =>
      r.refused
        ? out.failed('disburse', 'disbursement', req.reference, 'CREDENTIALS_REFUSED', r.reason)
        : out.unknown('disburse', 'disbursement', req.reference, r.reason);
    if (!added.ok) return refusal(added);
    if (!added.res.ok) return out.unknown('disburse', 'disbursement', req.reference, added.res.reason);
    const addedBody = parse(added.res.body);
    if (added.res.status >= 500 || !checkCinetPayTransferAnswer.Check(addedBody))
      return out.unknown('disburse', 'disbursement', req.reference, `contact: ${wordsOf(added.res)}`);
    if (Number(addedBody.code) !== TRANSFER_CODES.OPERATION_SUCCES)
      return out.failed('disburse', 'disbursement', req.reference, addedBody.message || 'CONTACT_REFUSED', `contact: ${wordsOf(added.res)}`);
    const transfer = [
      {
        prefix: number.prefix,
        phone: number.phone,
        amount: cinetPayAmount(req.amount, req.currency),
        client_transaction_id: req.reference,
        notify_url: notifyUrl('disbursement', req.reference),
      },
    ];
    const sentOut = await authorized('POST', '/v1/transfer/money/send/contact', {}, { data: JSON.stringify(transfer) });
    if (!sentOut.ok) return refusal(sentOut);
    const res = sentOut.res;
    if (!res.ok) return out.unknown('disburse', 'disbursement', req.reference, res.reason);
    if (res.status === 408 || res.status === 429 || res.status >= 500) return out.unknown('disburse', 'disbursement', req.reference, wordsOf(res));
    const parsed = parse(res.body);
    if (!checkCinetPayTransferAnswer.Check(parsed)) return out.unknown('disburse', 'disbursement', req.reference, `unexpected answer (HTTP ${res.status})`);
    const code = Number(parsed.code);
    if (code === TRANSFER_CODES.OPERATION_SUCCES) {
      deps.logger.info({ provider: CINETPAY, op: 'disburse', reference: req.reference }, 'mobile-money request accepted');
      const first = transfersIn(parsed.data)[0];
      return { status: 'PENDING', duplicate: false, ...(first?.transaction_id ? { providerReference: first.transaction_id } : {}) };
    }
    // Our client_transaction_id is taken: the transfer an earlier try made.
    if (code === TRANSFER_CODES.CLIENT_TRANSACTION_ID_EXIST) return { status: 'PENDING', duplicate: true };
    if (code === TRANSFER_CODES.INVALID_CREDENTIALS) return out.failed('disburse', 'disbursement', req.reference, 'CREDENTIALS_REFUSED', wordsOf(res));
    return out.failed('disburse', 'disbursement', req.reference, parsed.message || `CINETPAY_${code}`, wordsOf(res));
  }

  /** The transfers an answer's `data` holds: a list of them, or a list of lists (CinetPay writes both). */
  function transfersIn(data: unknown): CinetPayTransferView[] {
    const list = Array.isArray(data) ? data.flat() : data === undefined || data === null ? [] : [data];
    return list.filter((t): t is CinetPayTransferView => checkCinetPayTransferView.Check(t));
  }

  async function transferStatus(reference: string, known?: KnownRequest): Promise<StatusResult> {
    if (noTransfers !== undefined) return { status: 'NOT_FOUND' };
    const got = await authorized('GET', '/v1/transfer/check/money', { client_transaction_id: reference });
    if (!got.ok) return out.unknown('status', 'disbursement', reference, got.reason);
    const res = got.res;
    if (!res.ok) return out.unknown('status', 'disbursement', reference, res.reason);
    if (res.status >= 500 || res.status === 408 || res.status === 429) return out.unknown('status', 'disbursement', reference, wordsOf(res));
    const parsed = parse(res.body);
    if (!checkCinetPayTransferAnswer.Check(parsed)) return out.unknown('status', 'disbursement', reference, `unexpected answer (HTTP ${res.status})`);
    const code = Number(parsed.code);
    if (code === TRANSFER_CODES.NOT_FOUND) return { status: 'NOT_FOUND' };
    if (code !== TRANSFER_CODES.OPERATION_SUCCES) return out.unknown('status', 'disbursement', reference, wordsOf(res));
    const found = transfersIn(parsed.data).find(
      (t) => t.client_transaction_id === undefined || t.client_transaction_id === null || t.client_transaction_id === reference,
    );
    if (found === undefined) return out.unknown('status', 'disbursement', reference, 'the answer holds no transfer of this client_transaction_id');
    // The answer names no currency: the one we asked for, else the receiver's country's.
    const v = view('disbursement', reference, String(found.amount), known?.currency ?? splitNumber(found.receiver ?? '')?.currency ?? 'XOF');
    if ('status' in v) return v;
    const id = found.transaction_id ? { providerTransactionId: found.transaction_id } : {};
    const treatment = found.treatment_status.toUpperCase();
    if (treatment === 'VAL') return { status: 'SUCCESSFUL', ...v, ...id };
    if (treatment === 'REJ') return { status: 'FAILED', ...v, ...id, reason: found.comment || 'REJECTED' };
    return { status: 'PENDING', ...v, ...id };
  }

  async function status(kind: ConnectorKind, reference: string, known?: KnownRequest): Promise<StatusResult> {
    if (!isReference(reference)) return out.unknown('status', kind, reference, 'the reference is not a UUID v4');
    return kind === 'collection' ? paymentStatus(reference) : transferStatus(reference, known);
  }

  /**
   * The notify_url is ours (`{kind}/{reference}/{token}`, constant-time compare). A payment's
   * notification must carry CinetPay's x-token over its fields (the account's secret key) and
   * name this transaction and site; then, as every callback, it is only a hint: the result is
   * what the check answers now, and a transaction CinetPay does not know, or whose amount or
   * currency is not the notification's or the one we asked for, is refused and logged.
   */
  async function verifyCallback(callback: IncomingCallback): Promise<CallbackResult> {
    const target = callbackTarget(callback.url);
    if (!target.ok) return out.refused(target.reason);
    if (!signer.verify(target.kind, target.reference, target.token)) return out.refused('the callback URL token does not match');
    const form = formOf(callback.body);
    if (form === undefined) return out.refused('the notification has no form fields');
    let claimed: 'PENDING' | 'SUCCESSFUL' | 'FAILED' | undefined;
    if (target.kind === 'collection') {
      const token = headerOf(callback.headers, 'x-token');
      if (token === undefined) return out.refused('the x-token header is missing');
      if (!verifyNotificationToken(settings.secretKey, form, token)) return out.refused('the x-token does not match the notification');
      if (form.cpm_trans_id !== target.reference) return out.refused('the notification is about another transaction');
      if (form.cpm_site_id !== settings.siteId) return out.refused('the notification is about another site_id');
      // Its status in words: SUCCES, a waiting code (some operators notify WAITING_… first), or a failure's.
      const said = form.cpm_error_message ?? '';
      claimed = said === 'SUCCES' ? 'SUCCESSFUL' : said.startsWith('WAITING') ? 'PENDING' : said !== '' ? 'FAILED' : undefined;
    } else if (form.client_transaction_id !== undefined && form.client_transaction_id !== target.reference) {
      return out.refused('the notification is about another transfer');
    }
    const result = await status(target.kind, target.reference, callback.known);
    if (result.status === 'NOT_FOUND') return out.refused('CinetPay does not know this transaction');
    if ('amount' in result) {
      const notified = form.cpm_amount ?? form.amount;
      const mismatch =
        (notified !== undefined && notified !== '' && decimalToMinor(notified, result.currency) !== result.amount) ||
        (form.cpm_currency !== undefined && form.cpm_currency !== '' && form.cpm_currency !== result.currency) ||
        (callback.known?.amount !== undefined && callback.known.amount !== result.amount) ||
        (callback.known?.currency !== undefined && callback.known.currency !== result.currency);
      if (mismatch)
        return out.refused(`the amount or currency does not match: CinetPay holds ${formatAmount(result.amount, result.currency)} ${result.currency}`);
    }
    return { ok: true, kind: target.kind, reference: target.reference, claimed, result };
  }

  /** A status check of a transaction that does not exist: accepted credentials read NOT_FOUND (and the transfer login, when configured). */
  async function check(): Promise<{ ok: boolean; detail: string }> {
    const reference = newReference();
    const body = JSON.stringify({ apikey: settings.apiKey, site_id: settings.siteId, transaction_id: reference });
    const res = await payments.send('POST', '/v2/payment/check', json, body);
    if (!res.ok) return { ok: false, detail: `payment API: ${res.reason}` };
    const parsed = parse(res.body);
    if (!checkCinetPayAnswer.Check(parsed)) return { ok: false, detail: `payment API: unexpected answer (HTTP ${res.status})` };
    if (parsed.message !== 'TRANSACTION_NOT_FOUND') return { ok: false, detail: `payment API: ${wordsOf(res)}` };
    const payment = `payment API: ${wordsOf(res)} for a transaction that does not exist (apikey and site_id accepted)`;
    if (noTransfers !== undefined) return { ok: true, detail: `${payment}; transfers: not configured` };
    const t = await tokens.get();
    return t.ok ? { ok: true, detail: `${payment}; transfer API: login accepted` } : { ok: false, detail: `${payment}; transfer API: ${t.reason}` };
  }

  return {
    provider: CINETPAY,
    // collect: the initialisation and, for a taken transaction_id, a check. disburse: a token, the
    // contact and the transfer, all again after a refused cached token.
    submitTimeoutMs: 6 * timeoutMs,
    collect,
    disburse,
    status,
    verifyCallback,
    check,
    currencies,
    ...(noTransfers !== undefined ? { lacks: { disburse: noTransfers, refund: noTransfers } } : {}),
    close: async () => {
      await payments.close();
      if (transfers !== payments) await transfers.close();
    },
  };
}
