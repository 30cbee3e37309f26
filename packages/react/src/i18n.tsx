import { CaisseError } from '@caisse/browser';
import { chooseLanguage, formatAmount, type Language, type LanguageChoice } from '@caisse/intl';
import type { ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import en from './messages/en.json' with { type: 'json' };
import fr from './messages/fr.json' with { type: 'json' };
import type { CheckoutError } from './checkoutMachine.ts';

/**
 * The texts of `<Checkout/>` and the customer's error messages, in French and English
 * (docs/spec/languages.md): ICU MessageFormat catalogues (`src/messages/{fr,en}.json`) formatted by react-intl.
 */
export type CheckoutMessageId = keyof typeof en;
export const CHECKOUT_MESSAGES: Record<Language, Record<CheckoutMessageId, string>> = { en, fr };

/**
 * Every error `code` the API can answer on the checkout's calls (the session read, sign-in, the
 * password reset, the code, the charge, the wallet and its top-ups, the mobile-money charge and
 * the failure codes of its attempts), and the few the checkout makes itself. The page shows the
 * text of the code in the customer's language, never the API's English `detail`; a code not
 * listed reads as `unexpected_error`.
 */
const ERROR_TEXTS = {
  not_found: 'error.not_found',
  session_token_invalid: 'error.session_token_invalid',
  session_token_missing: 'error.session_token_missing',
  validation_error: 'error.validation_error',
  invalid_credentials: 'error.invalid_credentials',
  login_locked: 'error.login_locked',
  customer_locked: 'error.customer_locked',
  phone_not_verified: 'error.phone_not_verified',
  phone_invalid: 'error.phone_invalid',
  cardholder_invalid: 'error.cardholder_invalid',
  password_weak: 'error.password_weak',
  otp_incorrect: 'error.otp_incorrect',
  otp_expired: 'error.otp_expired',
  otp_attempts_exceeded: 'error.otp_attempts_exceeded',
  otp_rate_limited: 'error.otp_rate_limited',
  otp_daily_limit: 'error.otp_daily_limit',
  email_missing: 'error.email_missing',
  user_mismatch: 'error.user_mismatch',
  parameter_missing: 'error.parameter_missing',
  access_token_invalid: 'error.sessionEnded',
  access_token_missing: 'error.sessionEnded',
  otp_token_invalid: 'error.otpTokenUsed',
  otp_token_missing: 'error.otpTokenUsed',
  intent_expired: 'error.intent_expired',
  intent_state_invalid: 'error.intent_state_invalid',
  merchant_frozen: 'error.merchant_frozen',
  insufficient_funds: 'error.insufficient_funds',
  attempt_in_progress: 'error.attempt_in_progress',
  amount_out_of_bounds: 'error.amount_out_of_bounds',
  amount_invalid: 'error.amount_invalid',
  currency_unsupported: 'error.currency_unsupported',
  provider_unavailable: 'error.provider_unavailable',
  provider_unsupported: 'error.provider_unsupported',
  operator_unsupported: 'error.operator_unsupported',
  provider_page_lost: 'error.provider_page_lost',
  payer_not_found: 'error.payer_not_found',
  approval_rejected: 'error.approval_rejected',
  approval_timeout: 'error.approval_timeout',
  limit_exceeded: 'error.limit_exceeded',
  customer_limit_exceeded: 'error.customer_limit_exceeded',
  rate_limited: 'error.rate_limited',
  idempotency_request_in_progress: 'error.idempotency_request_in_progress',
  internal_error: 'error.internal_error',
  unavailable: 'error.unavailable',
  // Made by the checkout itself.
  connection_error: 'error.connection_error',
  unexpected_error: 'error.unexpected_error',
  payment_failed: 'error.paymentFailed',
  topup_failed: 'error.topup_failed',
  topup_timeout: 'error.topup_timeout',
} as const satisfies Record<string, CheckoutMessageId>;
export type CheckoutErrorCode = keyof typeof ERROR_TEXTS;
export const CHECKOUT_ERROR_CODES = Object.keys(ERROR_TEXTS) as CheckoutErrorCode[];

/** The message id of an error code (`error.unexpected_error` for a code the checkout does not know). */
export function errorMessageId(code: string): CheckoutMessageId {
  return Object.hasOwn(ERROR_TEXTS, code) ? ERROR_TEXTS[code as CheckoutErrorCode] : 'error.unexpected_error';
}

/** The English text of each error code: `useCheckout()`'s `error.message`. */
export const CUSTOMER_MESSAGES: Record<string, string> = Object.fromEntries(CHECKOUT_ERROR_CODES.map((code) => [code, en[errorMessageId(code)]]));

/** The checkout's error for `code`, with its English text. */
export const customerError = (code: string): CheckoutError => ({ code, message: en[errorMessageId(code)] });

/** What a failed request means for the customer: its code and the checkout's own text for it (never the API's detail). */
export function toCheckoutError(err: unknown): CheckoutError {
  if (err instanceof CaisseError) {
    const attempts = err.raw?.attemptsRemaining;
    const operator = err.raw?.operator;
    return {
      ...customerError(err.code),
      ...(typeof attempts === 'number' ? { attemptsRemaining: attempts } : {}),
      ...(typeof operator === 'string' ? { operator } : {}),
      ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}),
      ...(err.requestId !== undefined ? { requestId: err.requestId } : {}),
    };
  }
  return customerError('unexpected_error');
}

/** The browser's languages, most wanted first (none outside a browser). */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/**
 * Which language a checkout speaks: the signed-in customer's saved language, else
 * `locale` (or the browser's languages), else the merchant's default when known, else French.
 */
export function checkoutLanguage(choice: { saved?: string | null; locale?: string | readonly string[]; merchantDefault?: string | null }): LanguageChoice {
  return chooseLanguage({ saved: choice.saved, requested: choice.locale ?? browserLanguages(), merchantDefault: choice.merchantDefault });
}

/**
 * Texts in `choice`'s language for what it wraps (`useCheckoutText()` reads them). `extra` adds
 * a page's own catalogue (the hosted checkout's) to the checkout's.
 */
export function CheckoutIntl({ choice, extra, children }: { choice: LanguageChoice; extra?: Record<string, string>; children: ReactNode }) {
  const messages = extra ? { ...CHECKOUT_MESSAGES[choice.language], ...extra } : CHECKOUT_MESSAGES[choice.language];
  return (
    <IntlProvider locale={choice.locale} defaultLocale={choice.language} messages={messages}>
      {children}
    </IntlProvider>
  );
}

/** The checkout's texts in the language of the nearest `<CheckoutIntl>`: sentences, amounts and error messages. */
export function useCheckoutText() {
  const intl = useIntl();
  const t = (id: CheckoutMessageId, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  /** A failed top-up in words: the provider's reason when we know it. */
  /** How long to wait, in the unit a person reads (a daily limit's Retry-After is hours, not 30 000 seconds). */
  const wait = (seconds: number) =>
    seconds >= 2 * 3600
      ? t('error.waitHours', { hours: Math.ceil(seconds / 3600) })
      : seconds >= 120
        ? t('error.waitMinutes', { minutes: Math.ceil(seconds / 60) })
        : t('error.waitSeconds', { seconds });
  const topUpFailure = ({ code, failureReason: reason, providerName: provider = '' }: CheckoutError) => {
    if (code === 'topup_timeout') return t('error.topup_timeout');
    if (reason === 'APPROVAL_REJECTED') return t('error.topUpDeclined');
    if (reason === 'TIMEOUT') return t('error.topUpNotApproved');
    return reason ? t('error.topUpRefused', { reason, provider }) : t('error.topUpRefusedNoReason', { provider });
  };
  return {
    locale: intl.locale,
    t,
    /** An amount of the API (decimal string, major units) as the locale writes it. */
    amount: (value: { amount: string; currency: string }) => formatAmount(value.amount, value.currency, intl.locale),
    /** What the customer reads for an error: its text by code (never the API's detail), then the tries left and the wait. */
    error(error: CheckoutError | undefined): string {
      if (!error) return '';
      if (error.code === 'topup_failed' || error.code === 'topup_timeout') return topUpFailure(error);
      const parts = [t(errorMessageId(error.code))];
      if (error.attemptsRemaining !== undefined) parts.push(t('error.triesLeft', { count: error.attemptsRemaining }));
      if (error.retryAfter !== undefined) parts.push(wait(error.retryAfter));
      return parts.join(' ');
    },
  };
}
