import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomToken } from '../../../platform/crypto.ts';
import { type Currency, formatAmount } from '../../../platform/money.ts';
import { checkAmountBounds } from '../connectors.description.ts';
import { type NotificationLog, type RedirectPayment, RedirectPayments } from '../sandbox/redirect-payments.ts';
import { formFields, readRequestBody, SandboxAnswer } from '../sandbox/sandbox.http.ts';
import { testOutcome } from '../sandbox/test-numbers.ts';
import { CINETPAY_DESCRIPTION } from './cinetpay.description.ts';
import { type CinetPayPageLanguage, cinetPayPage, PAGE_OPERATORS } from './cinetpay.page.ts';
import { minorOfCinetPay, MOBILE_MONEY_CURRENCIES, notificationToken, PAYMENT_CODES, REFUSED_CHARACTERS } from './cinetpay.rules.ts';
import { bodyFields, cinetPayDate, failureCode, refused } from './cinetpay.sandbox.answers.ts';
import type { CinetPaySandboxParts, CinetPaySandboxPayment, Extra } from './cinetpay.sandbox.types.ts';
import { type CinetPayPaymentBody, checkCinetPayCheckBody, checkCinetPayPaymentBody } from './cinetpay.schema.ts';

/**
 * The CinetPay sandbox's payments: initialisation (`/v2/payment`), the check (`/v2/payment/check`),
 * the payment page (`/pay/{token}`) and the notification a final payment sends.
 */
export function cinetPayPayments(ctx: CinetPaySandboxParts & { siteOk: (siteId: string) => boolean }) {
  const { opts, windowMs, hangs, notifier, keyOk, siteOk } = ctx;
  const log = opts.log ?? (() => {});
  /** transaction_id → payment token (the store's id). */
  const byTransaction = new Map<string, string>();

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
    if (ctx.faults().dropCallbacks) return { at, error: 'dropped' };
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
    const currency = CINETPAY_DESCRIPTION.currencies.find((c) => c === b.currency);
    if (currency === undefined) throw refused(400, PAYMENT_CODES.ERROR_CURRENCY_NOTVALID, 'ERROR_CURRENCY_NOTVALID', `currency ${b.currency} is not valid`);
    // A whole number of the currency's unit (dollars too), a multiple of 5.
    if (b.amount % 5 !== 0) throw refused(400, PAYMENT_CODES.MINIMUM_REQUIRED_FIELDS, 'MINIMUM_REQUIRED_FIELDS', 'amount must be a multiple of 5');
    const bounds = checkAmountBounds(CINETPAY_DESCRIPTION, currency, minorOfCinetPay(b.amount, currency));
    const major = (minor: bigint | undefined) => (minor === undefined ? '' : formatAmount(minor, currency).replace(/\.00$/, ''));
    if (!bounds.ok && bounds.reason === 'below_minimum')
      throw refused(400, PAYMENT_CODES.ERROR_AMOUNT_TOO_LOW, 'ERROR_AMOUNT_TOO_LOW', `amount must be at least ${major(bounds.bounds?.min)}`);
    if (!bounds.ok && bounds.reason === 'above_maximum')
      throw refused(400, PAYMENT_CODES.ERROR_AMOUNT_TOO_HIGH, 'ERROR_AMOUNT_TOO_HIGH', `amount must be at most ${major(bounds.bounds?.max)}`);
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
    // The page lists the operators of the countries of the payment's currency: none of ours for USD.
    const mobile = (currency: string) => MOBILE_MONEY_CURRENCIES.includes(currency as Currency);
    const view =
      p === undefined
        ? undefined
        : { mobile: !p.extra.card && mobile(p.currency), card: p.extra.card || p.extra.body.channels === 'ALL', merchant: p.extra.body.description };
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
      if (!view?.mobile) return new SandboxAnswer(400, cinetPayPage(p, view, lang, { path, error: 'currency' }));
      p.extra.paymentMethod = PAGE_OPERATORS.find((o) => o.code === form.operator)?.code ?? 'OM';
    }
    const done = store.act(token, action, form.phoneNumber?.trim() || undefined);
    if (done.ok) return new SandboxAnswer(303, undefined, { location: done.location });
    if (done.reason === 'number') return new SandboxAnswer(400, cinetPayPage(p, view, lang, { path, error: 'number' }));
    return new SandboxAnswer(done.reason === 'unknown' ? 404 : 409, cinetPayPage(p, view, lang, { path }));
  }

  return {
    store,
    initPayment,
    checkPayment,
    page,
    /** Every payment, as `GET /_sandbox/payments` lists it. */
    list: (): CinetPaySandboxPayment[] =>
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
  };
}
