import { createHmac } from 'node:crypto';
import { safeEqual } from '../../../platform/crypto.ts';
import { CURRENCIES, type Currency } from '../../../platform/money.ts';
import { NOTIFICATION_FIELDS } from './cinetpay.schema.ts';

/**
 * What the connector and the sandbox agree on about CinetPay (docs/decisions/0081-cinetpay.md):
 * the notification's x-token, the characters CinetPay refuses, its codes, and how a number is
 * split into CinetPay's `prefix` and `phone`.
 */

/**
 * The x-token of a notification: hex HMAC-SHA256, under the account's secret key, of the
 * documented form fields concatenated in their documented order (a missing field counts as empty).
 */
export function notificationToken(secretKey: string, fields: Readonly<Record<string, string | undefined>>): string {
  const data = NOTIFICATION_FIELDS.map((name) => fields[name] ?? '').join('');
  return createHmac('sha256', secretKey).update(data).digest('hex');
}

/** Whether `token` (the x-token header) is the one these fields make, in constant time. */
export function verifyNotificationToken(secretKey: string, fields: Readonly<Record<string, string | undefined>>, token: string): boolean {
  return safeEqual(token.trim().toLowerCase(), notificationToken(secretKey, fields));
}

/**
 * CinetPay asks for none of `# / $ _ &` in a description ("for better operation"); its page also
 * breaks on markup. Our transaction ids (UUIDs) never hold them; the sandbox refuses both.
 */
export const REFUSED_CHARACTERS = /[#/$_&<>"\\]/;

/** The codes of CinetPay's payment API we read or answer (docs.cinetpay.com, "Code table"). */
export const PAYMENT_CODES = {
  SUCCES: '00',
  CREATED: '201',
  PAYMENT_FAILED: '600',
  INSUFFICIENT_BALANCE: '602',
  MINIMUM_REQUIRED_FIELDS: '608',
  AUTH_NOT_FOUND: '609',
  ERROR_CURRENCY_NOTVALID: '612',
  ERROR_SITE_ID_NOTVALID: '613',
  ERROR_DOUBLE_PAYEMNT: '620',
  WAITING_CUSTOMER_TO_VALIDATE: '623',
  UNKNOWN_ERROR: '624',
  ABONNEMENT_OR_TRANSACTIONS_EXPIRED: '625',
  TRANSACTION_CANCEL: '627',
  ERROR_PHONE_NUMBER_NOT_FOUND: '635',
  ERROR_AMOUNT_TOO_LOW: '641',
  ERROR_AMOUNT_TOO_HIGH: '642',
  WAITING_CUSTOMER_PAYMENT: '662',
  WAITING_CUSTOMER_OTP_CODE: '663',
} as const;

/**
 * A failed transaction's code, read as our reason (the test-number table's words where one
 * fits): the sandbox answers these for 103–106, and CinetPay itself for the same failures.
 */
export const FAILURE_REASONS: Readonly<Record<string, string>> = {
  [PAYMENT_CODES.ERROR_PHONE_NUMBER_NOT_FOUND]: 'PAYER_NOT_FOUND',
  [PAYMENT_CODES.INSUFFICIENT_BALANCE]: 'NOT_ENOUGH_FUNDS',
  [PAYMENT_CODES.TRANSACTION_CANCEL]: 'APPROVAL_REJECTED',
  [PAYMENT_CODES.ABONNEMENT_OR_TRANSACTIONS_EXPIRED]: 'EXPIRED',
  [PAYMENT_CODES.PAYMENT_FAILED]: 'FAILED',
};

/** The codes of the transfer API we read or answer (docs.cinetpay.com, "Annexes: Code API"). */
export const TRANSFER_CODES = {
  OPERATION_SUCCES: 0,
  INSUFFICIENT_BALANCE: 602,
  INVALID_CREDENTIALS: 701,
  EXPIRED_TOKEN: 705,
  INVALID_TOKEN: 706,
  DATA_NOT_VALID: 716,
  AMOUNT_TOO_SMALL: 719,
  AMOUNT_TOO_LARGE: 720,
  NOT_FOUND: 723,
  ERROR_PHONE_NOT_MY_CONTACT: 724,
  ERROR_PHONE_ALREADY_MY_CONTACT: 726,
  INVALID_AMOUNT: 801,
  INVALID_PHONE: 802,
  CLIENT_TRANSACTION_ID_EXIST: 805,
} as const;

/**
 * Calling codes of the countries CinetPay serves for Caisse, with the currency its transfers
 * there move (the transfer API takes no currency: the number's country decides). Plain strings:
 * the platform's country list grows separately.
 */
export const CALLING_CODES: Readonly<Record<string, { country: string; currency: 'XAF' | 'XOF' }>> = {
  '237': { country: 'CM', currency: 'XAF' },
  '221': { country: 'SN', currency: 'XOF' },
  '225': { country: 'CI', currency: 'XOF' },
  '229': { country: 'BJ', currency: 'XOF' },
  '226': { country: 'BF', currency: 'XOF' },
  '223': { country: 'ML', currency: 'XOF' },
  '228': { country: 'TG', currency: 'XOF' },
};

/** An E.164 number as CinetPay's `prefix` (calling code) and `phone` (the national number), or undefined outside its countries. */
export function splitNumber(e164: string): { prefix: string; phone: string; currency: 'XAF' | 'XOF' } | undefined {
  const digits = e164.replace(/^\+/, '');
  if (!/^[0-9]{8,15}$/.test(digits)) return undefined;
  const prefix = digits.slice(0, 3);
  const known = CALLING_CODES[prefix];
  if (known === undefined || digits.length - 3 < 6) return undefined;
  return { prefix, phone: digits.slice(3), currency: known.currency };
}

/**
 * The currencies CinetPay's page lists operators in for the countries Caisse sells in: the page
 * shows the countries of the payment's currency, so a USD payment there can only be by card.
 */
export const MOBILE_MONEY_CURRENCIES: readonly Currency[] = ['XAF', 'XOF'];

/** Every currency CinetPay's payment initialisation documents (`currency`). */
const DOCUMENTED_CURRENCIES = ['XOF', 'XAF', 'CDF', 'GNF', 'USD'];

/**
 * The currencies a card takes beside the countries' own, as CinetPay enables them per service
 * (docs/decisions/0098-usd-by-card-through-cinetpay.md): the account's `cardCurrencies`, a comma
 * list. A service always takes its country's francs; USD only once CinetPay has enabled it, so
 * it is never assumed.
 */
export function cardCurrenciesOf(setting: string | undefined): Currency[] {
  const listed = (setting ?? '').split(',').filter((c): c is Currency => c === 'USD');
  return [...MOBILE_MONEY_CURRENCIES, ...new Set(listed)];
}

/** Why `cardCurrencies` cannot be kept, or undefined. */
export function cardCurrenciesProblem(setting: string): string | undefined {
  const listed = setting.split(',');
  const unknown = listed.find((c) => !DOCUMENTED_CURRENCIES.includes(c));
  if (unknown !== undefined) return `names ${unknown}, a currency CinetPay does not take (it documents ${DOCUMENTED_CURRENCIES.join(', ')})`;
  // The DR Congo's and Guinea's currencies: CinetPay takes them there, not in Caisse's countries.
  const elsewhere = listed.find((c) => !MOBILE_MONEY_CURRENCIES.includes(c as Currency) && c !== 'USD');
  if (elsewhere !== undefined) return `names ${elsewhere}, which CinetPay takes in no country Caisse serves (by card: the country's francs and USD)`;
  return undefined;
}

/**
 * Our minor units as CinetPay's `amount`, a whole number of the currency's unit (500 cents → 5
 * dollars); undefined when not whole. The description's step (5 francs, 500 cents) keeps every
 * amount sent whole and a multiple of 5.
 */
export function cinetPayAmount(minor: bigint, currency: Currency): number | undefined {
  const scale = 10n ** BigInt(CURRENCIES[currency]);
  return minor % scale === 0n ? Number(minor / scale) : undefined;
}

/** CinetPay's whole `amount` back in our minor units. */
export function minorOfCinetPay(amount: number, currency: Currency): bigint {
  return BigInt(amount) * 10n ** BigInt(CURRENCIES[currency]);
}

/** A code as CinetPay writes it (string or number), compared as text. */
export function codeText(code: string | number): string {
  return String(code);
}
