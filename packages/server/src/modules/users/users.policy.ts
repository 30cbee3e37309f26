import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { ApiError } from '../../platform/errors.ts';
import { parsePhoneNumber } from '../../platform/phone.ts';

/**
 * A customer's phone number as E.164: read in `country` (the merchant of the request) when it has
 * no `+` or `00` prefix, or 400 `phone_invalid` when libphonenumber does not know it as a mobile
 * number. Undefined `country` (no merchant in the request): the prefix is required.
 */
export function assertPhoneNumber(value: string, country: string | undefined, param = 'phoneNumber'): string {
  return parsePhoneNumber(value, country, param);
}

/**
 * A phone number as a log may keep it: the country code and the last two digits, the rest
 * starred (+237*******01). Enough to tell two lookups apart, not enough to call the customer.
 */
export function maskPhoneNumber(value: string): string {
  const country = parsePhoneNumberFromString(value)?.countryCallingCode ?? '';
  const digits = value.replace(/\D/g, '');
  const rest = digits.slice(country.length);
  if (rest.length <= 2) return `+${country}${'*'.repeat(rest.length)}`;
  return `+${country}${'*'.repeat(rest.length - 2)}${rest.slice(-2)}`;
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Passwords that top every breach list, compared lower-cased. */
const COMMON = new Set([
  'password',
  'password1',
  'password12',
  'password123',
  'password1234',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'motdepasse',
  'motdepasse1',
  'motdepasse123',
  'azertyuiop',
  'azerty123',
  'azerty1234',
  'qwertyuiop',
  'qwerty123',
  'qwerty1234',
  '1q2w3e4r',
  '1q2w3e4r5t',
  '1qaz2wsx',
  'zaq12wsx',
  'iloveyou',
  'iloveyou1',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'welcome123',
  'letmein1',
  'letmein123',
  'trustno1',
  'superman',
  'starwars',
  'whatever',
  'abc12345',
  'abcd1234',
  'admin123',
  'changeme',
  'secret123',
  'cameroun',
  'cameroon',
]);

function isSequence(password: string): boolean {
  const codes = [...password].map((c) => c.charCodeAt(0));
  const step = (codes[1] ?? 0) - (codes[0] ?? 0);
  return (step === 1 || step === -1 || step === 0) && codes.every((c, i) => i === 0 || c - (codes[i - 1] as number) === step);
}

/**
 * NIST SP 800-63B style: a minimum length, no composition rules, and a refusal of passwords that
 * are known, trivial or made of the user's own phone number.
 */
export function assertPasswordPolicy(password: string, phoneNumber: string | null, param = 'password'): void {
  const weak = (why: string) => new ApiError('password_weak', why, { param });
  if ([...password].length < PASSWORD_MIN_LENGTH) throw weak(`The password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  if ([...password].length > PASSWORD_MAX_LENGTH) throw weak(`The password must have at most ${PASSWORD_MAX_LENGTH} characters`);
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) throw weak('This password is among the most common ones; choose another');
  if (isSequence(password)) throw weak('The password must not be one repeated character or a simple sequence');
  // A dashboard user has no phone number: the phone rule does not apply.
  if (phoneNumber === null) return;
  const digits = phoneNumber.replace(/^\+/, '');
  const national = digits.slice(-9);
  const onlyDigits = password.replace(/[^0-9]/g, '');
  if (onlyDigits.length >= 8 && (digits.includes(onlyDigits) || onlyDigits.includes(national))) {
    throw weak('The password must not be made of the phone number');
  }
}
