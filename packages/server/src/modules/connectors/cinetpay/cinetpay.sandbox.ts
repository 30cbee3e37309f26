import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomToken, safeEqual } from '../../../platform/crypto.ts';
import { checkAmountBounds } from '../connectors.description.ts';
import { type NotificationLog, type PageAction, type RedirectPayment, RedirectPayments } from '../sandbox/redirect-payments.ts';
import {
  formFields,
  Hangs,
  headerOf,
  Notifier,
  type ProviderSandboxOptions,
  readRequestBody,
  SandboxAnswer,
  type SandboxFaultSwitches,
} from '../sandbox/sandbox.http.ts';
import { approvalWindowMs, testOutcome, type TestOutcome } from '../sandbox/test-numbers.ts';
import { CINETPAY_DESCRIPTION } from './cinetpay.description.ts';
import { type CinetPayPageLanguage, cinetPayPage, PAGE_OPERATORS } from './cinetpay.page.ts';
import { notificationToken, PAYMENT_CODES, REFUSED_CHARACTERS, TRANSFER_CODES } from './cinetpay.rules.ts';
import {
  type CinetPayContact,
  type CinetPayPaymentBody,
  type CinetPayTransfer,
  checkCinetPayCheckBody,
  checkCinetPayContacts,
  checkCinetPayPaymentBody,
  checkCinetPayTransfers,
} from './cinetpay.schema.ts';

/**
 * The CinetPay sandbox, mounted under a base path of the sandbox server: the payment API
 * (`/v2/payment`, `/v2/payment/check`), its page (`/pay/{token}`: an operator or a card), the
 * notification (a form-encoded POST to notify_url with a valid `x-token`), and the transfer API
 * (`/v1/auth/login`, `/v1/transfer/contact`, `/v1/transfer/money/send/contact`,
 * `/v1/transfer/check/money`). The payer's number is the request's locked
 * `customer_phone_number` (or typed on the page), a card's the card number: their last three
 * digits decide the outcome (docs/spec/providers.md). It refuses what CinetPay refuses, with its
 * codes: a missing field or a character it does not take (608), an amount that is not a multiple
 * of 5 (608) or out of its bounds (641, 642), another currency (612), an unknown apikey (609) or
 * site_id (613), a card payment without the customer's details (624), a transaction_id used
 * before (620); for transfers a bad password (701), a stale token (705, 706), a number that is
 * not a contact (724), a client_transaction_id used before (805).
 */

export interface CinetPaySandboxOptions extends ProviderSandboxOptions {
  /** When given, only this apikey is accepted; otherwise any that starts with `cinetpay_`. */
  apiKey?: string;
  /** When given, only this site_id; otherwise any of digits. */
  siteId?: string;
  /** Signs the notifications (x-token). */
  secretKey: string;
  /** When given, only this transfer password; otherwise any that is not empty. */
  transferPassword?: string;
  /**
   * Answer as CinetPay's production does (`caisse sandbox --production`): test mode's own apikey
   * (`cinetpay_sandbox_…`) does not exist there and is refused (609, 701); others are taken.
   */
  production?: boolean;
}

/** The apikey test mode's account sends (index.ts): test-only, refused by the production behaviour. */
export const SANDBOX_API_KEY_PREFIX = 'cinetpay_sandbox';

interface Extra {
  body: CinetPayPaymentBody;
  token: string;
  card: boolean;
  /** CinetPay's payment_method code the payer paid with (OM, MOMO, …, VISAM). */
  paymentMethod?: string;
}

interface Transfer {
  id: string;
  body: CinetPayTransfer;
  lot: string;
  createdAt: number;
  outcome: TestOutcome;
  status: 'NEW' | 'VAL' | 'REJ';
  comment?: string;
  notifications: NotificationLog[];
}

export interface CinetPaySandboxPayment {
  transaction_id: string;
  payment_token: string;
  amount: string;
  currency: string;
  state: RedirectPayment<Extra>['state'];
  reason?: string;
  channels: string;
  notifications: NotificationLog[];
}

export interface CinetPaySandboxTransfer {
  transaction_id: string;
  client_transaction_id: string;
  amount: number;
  receiver: string;
  /** NEW: not decided yet; VAL: paid; REJ: refused. */
  treatment_status: Transfer['status'];
  comment: string | null;
  notifications: NotificationLog[];
}

export interface CinetPaySandbox {
  handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined>;
  payments(): CinetPaySandboxPayment[];
  /** Every transfer sent (payouts and refunds alike), as the check endpoint shows it. */
  transfers(): CinetPaySandboxTransfer[];
  /** The payer's part, without the page: by payment token. */
  act(token: string, action: PageAction, phoneNumber?: string): { ok: true; location: string } | { ok: false; reason: string };
  faults(): SandboxFaultSwitches;
  setFaults(change: Partial<SandboxFaultSwitches>): SandboxFaultSwitches;
  stats(): { payments: number; transfers: number; contacts: number; tokensIssued: number };
  /** Every transfer token issued so far stops working (705). */
  expireTokens(): void;
  settle(): void;
  tick(): Promise<void>;
  close(): Promise<void>;
}

const NO_FAULTS: SandboxFaultSwitches = { answer500: false, hang: false, dropCallbacks: false };
const TOKEN_LIFE_MS = 5 * 60_000;

/** A payment API refusal: CinetPay answers `{code, message, description}`. */
function refused(status: number, code: string, message: string, description: string): SandboxAnswer {
  return new SandboxAnswer(status, { code, message, description, api_response_id: `${Date.now() / 1000}` });
}

function transferAnswer(code: number, message: string, description: string, data: unknown = []): SandboxAnswer {
  return new SandboxAnswer(200, { code, message, description, data });
}

/** CinetPay's date form (`2022-09-15 22:57:15`). */
function cinetPayDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The payment code a failure is read back with (the connector reads them back: cinetpay.rules.ts). */
function failureCode(reason: string | undefined): { code: string; message: string } {
  switch (reason) {
    case 'PAYER_NOT_FOUND':
      return { code: PAYMENT_CODES.ERROR_PHONE_NUMBER_NOT_FOUND, message: 'ERROR_PHONE_NUMBER_NOT_FOUND' };
    case 'NOT_ENOUGH_FUNDS':
      return { code: PAYMENT_CODES.INSUFFICIENT_BALANCE, message: 'INSUFFICIENT_BALANCE' };
    case 'APPROVAL_REJECTED':
    case 'CANCELLED':
      return { code: PAYMENT_CODES.TRANSACTION_CANCEL, message: 'TRANSACTION_CANCEL' };
    case 'EXPIRED':
      return { code: PAYMENT_CODES.ABONNEMENT_OR_TRANSACTIONS_EXPIRED, message: 'ABONNEMENT_OR_TRANSACTIONS_EXPIRED' };
    default:
      return { code: PAYMENT_CODES.PAYMENT_FAILED, message: 'PAYMENT_FAILED' };
  }
}

/** A body as JSON, or as a form (CinetPay takes both; its Python SDK posts a form). */
function bodyFields(req: IncomingMessage, text: string): unknown {
  const type = headerOf(req, 'content-type') ?? '';
  if (type.includes('application/x-www-form-urlencoded')) {
    const f: Record<string, unknown> = formFields(text);
    if (typeof f.amount === 'string' && /^[0-9]+$/.test(f.amount)) f.amount = Number(f.amount);
    if (f.lock_phone_number === 'true' || f.lock_phone_number === 'false') f.lock_phone_number = f.lock_phone_number === 'true';
    return f;
  }
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return undefined;
  }
}

export function createCinetPaySandbox(opts: CinetPaySandboxOptions): CinetPaySandbox {
  const log = opts.log ?? (() => {});
  const windowMs = approvalWindowMs(opts.fast ?? false);
  let faults: SandboxFaultSwitches = { ...NO_FAULTS };
  const hangs = new Hangs();
  const notifier = new Notifier(opts.now, opts.callbackTimeoutMs);
  /** transaction_id → payment token (the store's id). */
  const byTransaction = new Map<string, string>();
  const tokens = new Map<string, number>();
  let tokensIssued = 0;
  const contacts = new Set<string>();
  const transfers = new Map<string, Transfer>();

  const siteOk = (siteId: string) => (opts.siteId === undefined ? /^[0-9]{1,12}$/.test(siteId) : safeEqual(siteId, opts.siteId));
  const keyOk = (apiKey: string) => {
    if (opts.apiKey !== undefined) return safeEqual(apiKey, opts.apiKey);
    // Production knows only its merchants' keys: test mode's does not exist there.
    if (opts.production === true) return apiKey !== '' && !apiKey.startsWith(SANDBOX_API_KEY_PREFIX);
    return apiKey.startsWith('cinetpay_');
  };

  /** The notification's form fields, as CinetPay posts them. */
  function notificationFields(p: RedirectPayment<Extra>): Record<string, string> {
    const b = p.extra.body;
    const digits = p.extra.card ? '' : (p.phoneNumber ?? '').replace(/[^0-9]/g, '');
    return {
      cpm_site_id: b.site_id,
      cpm_trans_id: b.transaction_id,
      cpm_trans_date: cinetPayDate(p.createdAt),
      cpm_amount: p.amount,
      cpm_currency: p.currency,
      signature: p.extra.token.slice(0, 32),
      payment_method: p.extra.paymentMethod ?? '',
      cel_phone_num: digits.slice(3),
      cpm_phone_prefixe: digits.slice(0, 3),
      cpm_language: b.lang ?? 'fr',
      cpm_version: 'V4',
      cpm_payment_config: 'SINGLE',
      cpm_page_action: 'PAYMENT',
      cpm_custom: b.metadata ?? '',
      cpm_designation: b.description,
      cpm_error_message: p.state === 'SUCCESSFUL' ? 'SUCCES' : failureCode(p.reason).message,
    };
  }

  async function notify(p: RedirectPayment<Extra>): Promise<NotificationLog> {
    const at = new Date(opts.now()).toISOString();
    if (faults.dropCallbacks) return { at, error: 'dropped' };
    const fields = notificationFields(p);
    const entry = await notifier.post(
      p.extra.body.notify_url,
      { 'content-type': 'application/x-www-form-urlencoded', 'x-token': notificationToken(opts.secretKey, fields) },
      new URLSearchParams(fields).toString(),
    );
    log(`cinetpay notification ${p.extra.body.transaction_id} ${p.state} → ${entry.httpStatus ?? entry.error}`);
    return entry;
  }

  const store = new RedirectPayments<Extra>({ now: opts.now, random: opts.random, windowMs, notify });

  function pageUrl(token: string): string {
    return `${opts.baseUrl()}/pay/${token}`;
  }

  /** Refuses what CinetPay's initialisation refuses, in its order: fields, credentials, values. */
  function validatePayment(fields: unknown): CinetPayPaymentBody {
    if (!checkCinetPayPaymentBody.Check(fields)) {
      const first = checkCinetPayPaymentBody.Errors(fields)[0];
      throw refused(400, PAYMENT_CODES.MINIMUM_REQUIRED_FIELDS, 'MINIMUM_REQUIRED_FIELDS', `${first?.instancePath || 'body'} ${first?.message ?? 'invalid'}`);
    }
    const b = fields;
    if (!keyOk(b.apikey)) throw refused(403, PAYMENT_CODES.AUTH_NOT_FOUND, 'AUTH_NOT_FOUND', 'apikey not found');
    if (!siteOk(b.site_id)) throw refused(403, PAYMENT_CODES.ERROR_SITE_ID_NOTVALID, 'ERROR_SITE_ID_NOTVALID', 'site_id is not valid for this apikey');
    if (REFUSED_CHARACTERS.test(b.description) || REFUSED_CHARACTERS.test(b.transaction_id) || /\s/.test(b.transaction_id))
      throw refused(
        400,
        PAYMENT_CODES.MINIMUM_REQUIRED_FIELDS,
        'MINIMUM_REQUIRED_FIELDS',
        'description and transaction_id take no special characters (#,/,$,_,&)',
      );
    if (b.currency !== 'XOF' && b.currency !== 'XAF')
      throw refused(400, PAYMENT_CODES.ERROR_CURRENCY_NOTVALID, 'ERROR_CURRENCY_NOTVALID', `currency ${b.currency} is not valid`);
    if (b.amount % 5 !== 0) throw refused(400, PAYMENT_CODES.MINIMUM_REQUIRED_FIELDS, 'MINIMUM_REQUIRED_FIELDS', 'amount must be a multiple of 5');
    const bounds = checkAmountBounds(CINETPAY_DESCRIPTION, b.currency, BigInt(b.amount));
    if (!bounds.ok && bounds.reason === 'below_minimum')
      throw refused(400, PAYMENT_CODES.ERROR_AMOUNT_TOO_LOW, 'ERROR_AMOUNT_TOO_LOW', `amount must be at least ${bounds.bounds?.min}`);
    if (!bounds.ok && bounds.reason === 'above_maximum')
      throw refused(400, PAYMENT_CODES.ERROR_AMOUNT_TOO_HIGH, 'ERROR_AMOUNT_TOO_HIGH', `amount must be at most ${bounds.bounds?.max}`);
    if (b.channels === 'CREDIT_CARD') {
      const needed = [
        'customer_name',
        'customer_surname',
        'customer_email',
        'customer_phone_number',
        'customer_address',
        'customer_city',
        'customer_country',
        'customer_state',
        'customer_zip_code',
      ] as const;
      const missing = needed.filter((k) => !b[k]?.trim());
      if (missing.length > 0)
        throw refused(400, PAYMENT_CODES.UNKNOWN_ERROR, 'An error occurred while processing the request', `a card payment needs ${missing.join(', ')}`);
    }
    if (b.lock_phone_number === true && !/^\+?[0-9]{6,15}$/.test(b.customer_phone_number ?? ''))
      throw refused(400, PAYMENT_CODES.MINIMUM_REQUIRED_FIELDS, 'MINIMUM_REQUIRED_FIELDS', 'lock_phone_number needs customer_phone_number');
    return b;
  }

  async function initPayment(req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const text = await readRequestBody(req, { code: PAYMENT_CODES.MINIMUM_REQUIRED_FIELDS, message: 'MINIMUM_REQUIRED_FIELDS', description: 'too large' });
    const b = validatePayment(bodyFields(req, text));
    if (byTransaction.has(b.transaction_id))
      throw refused(400, PAYMENT_CODES.ERROR_DOUBLE_PAYEMNT, 'ERROR_DOUBLE_PAYEMNT', 'this transaction_id was used before');
    const token = randomToken(opts.random, 24);
    const locked = b.lock_phone_number === true && b.channels !== 'CREDIT_CARD' ? b.customer_phone_number : undefined;
    const p = store.create({
      id: token,
      reference: b.transaction_id,
      amount: String(b.amount),
      currency: b.currency,
      phoneNumber: locked,
      merchantName: b.description,
      successUrl: b.return_url,
      failureUrl: b.return_url,
      language: b.lang ?? 'fr',
      extra: { body: b, token, card: b.channels === 'CREDIT_CARD' },
    });
    byTransaction.set(b.transaction_id, token);
    const fault = locked !== undefined ? testOutcome(locked).fault : undefined;
    if (fault === 'hang') return hangs.hold(res);
    if (fault === 'answer500') return new SandboxAnswer(500, { code: '500', message: 'INTERNAL_ERROR' });
    log(`cinetpay payment ${b.transaction_id} created (${p.id})`);
    return new SandboxAnswer(200, {
      code: PAYMENT_CODES.CREATED,
      message: 'CREATED',
      description: 'Transaction created with success',
      data: { payment_token: token, payment_url: pageUrl(token) },
      api_response_id: `${opts.now() / 1000}`,
    });
  }

  function checkView(p: RedirectPayment<Extra>) {
    const data = {
      amount: p.amount,
      currency: p.currency,
      payment_method: p.extra.paymentMethod ?? null,
      description: p.extra.body.description,
      metadata: p.extra.body.metadata ?? null,
      operator_id: p.transactionId ?? null,
      payment_date: p.finalAt !== undefined ? cinetPayDate(p.finalAt) : ' ',
    };
    const api_response_id = `${opts.now() / 1000}`;
    if (p.state === 'SUCCESSFUL') return { code: PAYMENT_CODES.SUCCES, message: 'SUCCES', data: { ...data, status: 'ACCEPTED' }, api_response_id };
    if (p.state === 'FAILED') return { ...failureCode(p.reason), data: { ...data, status: 'REFUSED' }, api_response_id };
    if (p.state === 'PENDING')
      return {
        code: PAYMENT_CODES.WAITING_CUSTOMER_TO_VALIDATE,
        message: 'WAITING_CUSTOMER_TO_VALIDATE',
        data: { ...data, status: 'PENDING' },
        api_response_id,
      };
    return {
      code: PAYMENT_CODES.WAITING_CUSTOMER_PAYMENT,
      message: 'WAITING_CUSTOMER_PAYMENT',
      data: { ...data, status: 'WAITING_FOR_CUSTOMER' },
      api_response_id,
    };
  }

  async function checkPayment(req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const text = await readRequestBody(req, { code: PAYMENT_CODES.MINIMUM_REQUIRED_FIELDS, message: 'MINIMUM_REQUIRED_FIELDS', description: 'too large' });
    const b = bodyFields(req, text);
    if (!checkCinetPayCheckBody.Check(b))
      throw refused(400, PAYMENT_CODES.MINIMUM_REQUIRED_FIELDS, 'MINIMUM_REQUIRED_FIELDS', 'apikey, site_id and transaction_id are required');
    if (!keyOk(b.apikey)) throw refused(403, PAYMENT_CODES.AUTH_NOT_FOUND, 'AUTH_NOT_FOUND', 'apikey not found');
    if (!siteOk(b.site_id)) throw refused(403, PAYMENT_CODES.ERROR_SITE_ID_NOTVALID, 'ERROR_SITE_ID_NOTVALID', 'site_id is not valid for this apikey');
    const token = byTransaction.get(b.transaction_id);
    const p = token === undefined ? undefined : store.get(token);
    // Not documented by CinetPay: the sandbox's answer for a transaction it never saw (docs/decisions/0081-cinetpay.md).
    if (p === undefined) return refused(404, '404', 'TRANSACTION_NOT_FOUND', 'no transaction has this transaction_id');
    const fault = store.onStatusRead(p);
    if (fault === 'hang') return hangs.hold(res);
    if (fault === 'answer500') return new SandboxAnswer(500, { code: '500', message: 'INTERNAL_ERROR' });
    return new SandboxAnswer(200, checkView(p));
  }

  /** The page's form: an operator and a number, a card, or decline / cancel / expire. */
  async function page(method: string, token: string, req: IncomingMessage): Promise<SandboxAnswer> {
    const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
    const p = store.get(token);
    const view =
      p === undefined ? undefined : { mobile: !p.extra.card, card: p.extra.card || p.extra.body.channels === 'ALL', merchant: p.extra.body.description };
    const path = pageUrl(token);
    const language = (v: string | null | undefined, fallback: CinetPayPageLanguage): CinetPayPageLanguage => (v === 'fr' || v === 'en' ? v : fallback);
    let lang = language(query.get('lang'), p?.language ?? 'fr');
    if (method === 'GET') return new SandboxAnswer(p ? 200 : 404, cinetPayPage(p, view, lang, { path }));
    const form = formFields(await readRequestBody(req, 'too large'));
    lang = language(form.lang, lang);
    if (p === undefined) return new SandboxAnswer(404, cinetPayPage(p, view, lang, { path }));
    if (form.channel === 'card') {
      const digits = (form.cardNumber ?? '').replace(/[\s-]/g, '');
      if (!view?.card || !/^[0-9]{13,19}$/.test(digits)) return new SandboxAnswer(400, cinetPayPage(p, view, lang, { path, error: 'card' }));
      p.extra.paymentMethod = p.currency === 'XAF' ? 'VISAMCM' : 'VISAM';
      // The card's last digits decide, as a number's do (the store reads at most 15 digits).
      const done = store.act(token, 'approve', digits.slice(-12));
      return done.ok ? new SandboxAnswer(303, undefined, { location: done.location }) : new SandboxAnswer(409, cinetPayPage(p, view, lang, { path }));
    }
    const action = form.action;
    if (action !== 'approve' && action !== 'decline' && action !== 'cancel' && action !== 'expire')
      return new SandboxAnswer(400, cinetPayPage(p, view, lang, { path }));
    if (action === 'approve') {
      if (p.extra.card) return new SandboxAnswer(400, cinetPayPage(p, view, lang, { path, error: 'card' }));
      p.extra.paymentMethod = PAGE_OPERATORS.find((o) => o.code === form.operator)?.code ?? 'OM';
    }
    const done = store.act(token, action, form.phoneNumber?.trim() || undefined);
    if (done.ok) return new SandboxAnswer(303, undefined, { location: done.location });
    if (done.reason === 'number') return new SandboxAnswer(400, cinetPayPage(p, view, lang, { path, error: 'number' }));
    return new SandboxAnswer(done.reason === 'unknown' ? 404 : 409, cinetPayPage(p, view, lang, { path }));
  }

  // ---------------------------------------------------------------- transfers

  function settleTransfers(): void {
    const now = opts.now();
    for (const t of transfers.values()) {
      const { afterMs } = t.outcome;
      const due = afterMs === null ? undefined : afterMs === 'window' ? t.createdAt + windowMs : t.createdAt + afterMs;
      if (t.status !== 'NEW' || due === undefined || now < due) continue;
      t.status = t.outcome.status === 'SUCCESSFUL' ? 'VAL' : 'REJ';
      if (t.outcome.reason !== undefined) t.comment = t.outcome.reason;
      void notifyTransfer(t);
    }
  }

  const deliveries = new Set<Promise<void>>();
  function notifyTransfer(t: Transfer): Promise<void> {
    const url = t.body.notify_url;
    if (url === undefined || url === '' || faults.dropCallbacks) return Promise.resolve();
    const fields = {
      transaction_id: t.id,
      client_transaction_id: t.body.client_transaction_id,
      lot: t.lot,
      amount: String(t.body.amount),
      receiver: `${t.body.prefix}${t.body.phone}`,
      operator: 'MOMO',
      treatment_status: t.status,
    };
    const delivery = notifier
      .post(url, { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams(fields).toString())
      .then((entry) => void t.notifications.push(entry));
    deliveries.add(delivery);
    void delivery.finally(() => deliveries.delete(delivery));
    return delivery;
  }

  function transferView(t: Transfer) {
    return {
      transaction_id: t.id,
      client_transaction_id: t.body.client_transaction_id,
      lot: t.lot,
      amount: Number(t.body.amount),
      receiver: `${t.body.prefix}${t.body.phone}`,
      operator: 'MOMO',
      sending_status: t.status === 'VAL' ? 'CONFIRM' : t.status === 'REJ' ? 'FAILED' : 'PENDING',
      treatment_status: t.status,
      comment: t.comment ?? null,
      validated_at: null,
    };
  }

  /** The transfer API's token, from the query: 705 when it died, 706 when it never was. */
  function authorize(query: URLSearchParams): SandboxAnswer | undefined {
    const token = query.get('token') ?? '';
    const expires = tokens.get(token);
    if (expires === undefined) return transferAnswer(TRANSFER_CODES.INVALID_TOKEN, 'INVALID_TOKEN', 'Votre token est invalide');
    if (opts.now() >= expires) return transferAnswer(TRANSFER_CODES.EXPIRED_TOKEN, 'EXPIRED_TOKEN', 'Votre token a expiré');
    return undefined;
  }

  async function login(req: IncomingMessage): Promise<SandboxAnswer> {
    const form = formFields(await readRequestBody(req, 'too large'));
    const passwordOk = opts.transferPassword === undefined ? (form.password ?? '') !== '' : safeEqual(form.password ?? '', opts.transferPassword);
    if (!keyOk(form.apikey ?? '') || !passwordOk)
      return transferAnswer(TRANSFER_CODES.INVALID_CREDENTIALS, 'INVALID_CREDENTIALS', 'Identifiant de connexion incorrect');
    const token = randomToken(opts.random, 24);
    tokens.set(token, opts.now() + TOKEN_LIFE_MS);
    tokensIssued += 1;
    return transferAnswer(TRANSFER_CODES.OPERATION_SUCCES, 'OPERATION_SUCCES', 'Token generated', { token });
  }

  function listOf<T>(text: string, check: { Check(v: unknown): v is T }): T | undefined {
    const data = formFields(text).data;
    if (data === undefined) return undefined;
    try {
      const parsed: unknown = JSON.parse(data);
      return check.Check(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  async function addContacts(req: IncomingMessage): Promise<SandboxAnswer> {
    const list = listOf<CinetPayContact[]>(await readRequestBody(req, 'too large'), checkCinetPayContacts);
    if (list === undefined)
      return transferAnswer(TRANSFER_CODES.DATA_NOT_VALID, 'DATA_NOT_VALID', 'data must be a JSON list of {prefix, phone, name, surname, email}');
    const lot = `${Math.floor(opts.now())}${randomToken(opts.random, 4)}`;
    const answered = list.map((c) => {
      const key = `${c.prefix}${c.phone}`;
      const known = contacts.has(key);
      contacts.add(key);
      return { ...c, code: known ? TRANSFER_CODES.ERROR_PHONE_ALREADY_MY_CONTACT : 0, status: known ? 'ERROR_PHONE_ALREADY_MY_CONTACT' : 'success', lot };
    });
    return transferAnswer(TRANSFER_CODES.OPERATION_SUCCES, 'OPERATION_SUCCES', 'Contacts added', [answered]);
  }

  async function sendMoney(req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const list = listOf<CinetPayTransfer[]>(await readRequestBody(req, 'too large'), checkCinetPayTransfers);
    if (list === undefined)
      return transferAnswer(
        TRANSFER_CODES.DATA_NOT_VALID,
        'DATA_NOT_VALID',
        'data must be a JSON list of {prefix, phone, amount, client_transaction_id, notify_url}',
      );
    for (const t of list) {
      const amount = Number(t.amount);
      if (!contacts.has(`${t.prefix}${t.phone}`))
        return transferAnswer(TRANSFER_CODES.ERROR_PHONE_NOT_MY_CONTACT, 'ERROR_PHONE_NOT_MY_CONTACT', `${t.prefix}${t.phone} is not one of your contacts`);
      if (amount % 5 !== 0) return transferAnswer(TRANSFER_CODES.INVALID_AMOUNT, 'INVALID_AMOUNT', 'the amount must be a multiple of 5');
      const bounds = checkAmountBounds(CINETPAY_DESCRIPTION, t.prefix === '237' ? 'XAF' : 'XOF', BigInt(amount));
      if (!bounds.ok && bounds.reason === 'below_minimum')
        return transferAnswer(TRANSFER_CODES.AMOUNT_TOO_SMALL, 'AMOUNT_TOO_SMALL', 'the amount is below the threshold');
      if (!bounds.ok && bounds.reason === 'above_maximum')
        return transferAnswer(TRANSFER_CODES.AMOUNT_TOO_LARGE, 'AMOUNT_TOO_LARGE', 'the amount is above the threshold');
      if ([...transfers.values()].some((x) => x.body.client_transaction_id === t.client_transaction_id))
        return transferAnswer(TRANSFER_CODES.CLIENT_TRANSACTION_ID_EXIST, 'CLIENT_TRANSACTION_ID_EXIST', 'Your transaction ID already exists on CinetPay');
    }
    const lot = `${Math.floor(opts.now())}${randomToken(opts.random, 4)}`;
    const made = list.map((body) => {
      const t: Transfer = {
        id: `TR${randomToken(opts.random, 9)}`,
        body,
        lot,
        createdAt: opts.now(),
        outcome: testOutcome(`${body.prefix}${body.phone}`),
        status: 'NEW',
        notifications: [],
      };
      transfers.set(t.id, t);
      return t;
    });
    settleTransfers();
    const fault = made.map((t) => t.outcome.fault).find((f) => f !== undefined);
    if (fault === 'hang') return hangs.hold(res);
    if (fault === 'answer500') return new SandboxAnswer(500, { code: '500', message: 'INTERNAL_ERROR' });
    return transferAnswer(TRANSFER_CODES.OPERATION_SUCCES, 'OPERATION_SUCCES', 'Transfers registered', [
      made.map((t) => ({ prefix: t.body.prefix, phone: t.body.phone, code: 0, status: 'success', ...transferView(t) })),
    ]);
  }

  function checkMoney(query: URLSearchParams): SandboxAnswer {
    const id = query.get('client_transaction_id');
    const found = [...transfers.values()].filter((t) => t.body.client_transaction_id === id || t.id === query.get('transaction_id'));
    if (found.length === 0) return transferAnswer(TRANSFER_CODES.NOT_FOUND, 'NOT_FOUND', 'No results for this search');
    return transferAnswer(TRANSFER_CODES.OPERATION_SUCCES, 'OPERATION_SUCCES', '', found.map(transferView));
  }

  async function api(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
    if (method === 'POST' && path === '/v2/payment') return initPayment(req, res);
    if (method === 'POST' && path === '/v2/payment/check') return checkPayment(req, res);
    if ((method === 'POST' || method === 'GET') && path === '/v1/auth/login') return login(req);
    if (path.startsWith('/v1/transfer/')) {
      const refusedToken = authorize(query);
      if (refusedToken) return refusedToken;
      if (method === 'POST' && path === '/v1/transfer/contact') return addContacts(req);
      if (method === 'POST' && path === '/v1/transfer/money/send/contact') return sendMoney(req, res);
      if (path === '/v1/transfer/check/money') return checkMoney(query);
      if (method === 'GET' && path === '/v1/transfer/check/balance')
        return transferAnswer(0, 'OPERATION_SUCCES', '', { amount: 1_000_000, inUsing: 0, available: 1_000_000 });
      return transferAnswer(708, 'NOT_ALLOWED', 'Vous n’êtes pas autorisé à visiter le lien');
    }
    return refused(404, '404', 'NOT_FOUND', `no route ${method} ${path}`);
  }

  async function handle(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<SandboxAnswer | undefined> {
    store.settle();
    settleTransfers();
    const pay = /^\/pay\/([A-Za-z0-9_-]+)$/.exec(path);
    if (pay && (method === 'GET' || method === 'POST')) return page(method, pay[1] as string, req);
    if (method === 'GET' && path === '/_sandbox/payments') return new SandboxAnswer(200, { data: sandbox.payments() });
    if (!path.startsWith('/v1/') && !path.startsWith('/v2/')) return refused(404, '404', 'NOT_FOUND', `no route ${method} ${path}`);
    if (faults.hang) return hangs.hold(res);
    if (faults.answer500) return new SandboxAnswer(500, { code: '500', message: 'INTERNAL_ERROR' });
    return api(method, path, req, res);
  }

  const sandbox: CinetPaySandbox = {
    handle,
    payments: () =>
      store.all().map((p) => ({
        transaction_id: p.extra.body.transaction_id,
        payment_token: p.id,
        amount: p.amount,
        currency: p.currency,
        state: p.state,
        ...(p.reason !== undefined ? { reason: p.reason } : {}),
        channels: p.extra.body.channels,
        notifications: p.notifications,
      })),
    transfers: () => [...transfers.values()].map((t) => ({ ...transferView(t), notifications: t.notifications })),
    act: (token, action, phoneNumber) => store.act(token, action, phoneNumber),
    faults: () => ({ ...faults }),
    setFaults(change) {
      faults = { ...faults, ...change };
      return { ...faults };
    },
    stats: () => ({ payments: store.all().length, transfers: transfers.size, contacts: contacts.size, tokensIssued }),
    expireTokens() {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    settle() {
      store.settle();
      settleTransfers();
    },
    async tick() {
      sandbox.settle();
      await store.drain();
      while (deliveries.size > 0) await Promise.allSettled([...deliveries]);
    },
    async close() {
      hangs.release();
      await store.drain();
      while (deliveries.size > 0) await Promise.allSettled([...deliveries]);
      await notifier.close();
    },
  };
  return sandbox;
}
