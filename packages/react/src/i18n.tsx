import { chooseLanguage, formatAmount, type Language, type LanguageChoice } from '@caisse/intl';
import type { ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import en from './messages/en.json' with { type: 'json' };
import fr from './messages/fr.json' with { type: 'json' };
import type { CheckoutError } from './useCheckout.ts';

/**
 * The texts of `<Checkout/>` and the customer's error messages, in French and English
 * (docs/spec/languages.md): ICU MessageFormat catalogues (`src/messages/{fr,en}.json`) formatted by react-intl.
 */
export type CheckoutMessageId = keyof typeof en;
export const CHECKOUT_MESSAGES: Record<Language, Record<CheckoutMessageId, string>> = { en, fr };

/** The errors a customer can act on, and their texts (others show the API's English detail). */
const ERROR_TEXTS: Record<string, CheckoutMessageId> = {
  invalid_credentials: 'error.invalid_credentials',
  login_locked: 'error.login_locked',
  phone_not_verified: 'error.phone_not_verified',
  phone_invalid: 'error.phone_invalid',
  password_weak: 'error.password_weak',
  otp_incorrect: 'error.otp_incorrect',
  otp_expired: 'error.otp_expired',
  otp_attempts_exceeded: 'error.otp_attempts_exceeded',
  otp_rate_limited: 'error.otp_rate_limited',
  otp_daily_limit: 'error.otp_daily_limit',
  insufficient_funds: 'error.insufficient_funds',
  topup_failed: 'error.topup_failed',
  topup_timeout: 'error.topup_timeout',
  limit_exceeded: 'error.limit_exceeded',
  provider_unavailable: 'error.provider_unavailable',
  intent_expired: 'error.intent_expired',
  connection_error: 'error.connection_error',
  access_token_invalid: 'error.sessionEnded',
  access_token_missing: 'error.sessionEnded',
  otp_token_invalid: 'error.otpTokenUsed',
  otp_token_missing: 'error.otpTokenUsed',
  payment_failed: 'error.paymentFailed',
};

/** The English text of each error a customer can act on: `useCheckout()`'s `error.message`. */
export const CUSTOMER_MESSAGES: Record<string, string> = Object.fromEntries(Object.entries(ERROR_TEXTS).map(([code, id]) => [code, en[id]]));

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
  const topUpFailure = (code: string, reason: string | undefined) => {
    if (code === 'topup_timeout') return t('error.topup_timeout');
    if (reason === 'APPROVAL_REJECTED') return t('error.topUpDeclined');
    if (reason === 'TIMEOUT') return t('error.topUpNotApproved');
    return reason ? t('error.topUpRefused', { reason }) : t('error.topUpRefusedNoReason');
  };
  return {
    locale: intl.locale,
    t,
    /** An amount of the API (decimal string, major units) as the locale writes it. */
    amount: (value: { amount: string; currency: string }) => formatAmount(value.amount, value.currency, intl.locale),
    /** What the customer reads for an error: its text by code (else the API's detail), then the tries left and the wait. */
    error(error: CheckoutError | undefined): string {
      if (!error) return '';
      if (error.code === 'topup_failed' || error.code === 'topup_timeout') return topUpFailure(error.code, error.failureReason);
      const id = ERROR_TEXTS[error.code];
      const parts = [id ? t(id) : error.message];
      if (error.attemptsRemaining !== undefined) parts.push(t('error.triesLeft', { count: error.attemptsRemaining }));
      if (error.retryAfter !== undefined) parts.push(wait(error.retryAfter));
      return parts.join(' ');
    },
  };
}
