import { type CountryCode, getExampleNumber, parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import examples from 'libphonenumber-js/mobile/examples';
import { ApiError } from './errors.ts';

/**
 * The one reading of a phone number typed by a person or sent by an API client: libphonenumber's
 * "mobile" metadata, so a number is valid only when it is a mobile number of its country (the
 * only kind that mobile money and SMS reach). A number without `+` or `00` is read in the
 * country given (the merchant's); one with its own prefix keeps its country. Spaces, dots,
 * dashes and brackets are allowed; what is stored and compared is E.164 (`+237670000001`).
 */

/** How a phone number field of the API is read, for its OpenAPI description. */
export const PHONE_AS_WRITTEN =
  "As people write it: without a country code it is read in the merchant's country (`670000001` for a Cameroonian merchant), with `+` or `00` in its own; spaces, dots and dashes allowed. It must be a mobile number of its country (libphonenumber), else 400 `phone_invalid` with `country` and `example`. Answered and stored in E.164.";

/** What a person may type: digits, the separators people write, and a `+` before the digits. */
const TYPED = /^[0-9\s.\-()/+\u00a0\u202f]+$/;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "+237 6 71 23 45 67", libphonenumber's example of a mobile number of that country. */
function exampleOf(country: string): { national: string; international: string } | undefined {
  const example = getExampleNumber(country as CountryCode, examples);
  return example ? { national: example.formatNational(), international: example.formatInternational() } : undefined;
}

/**
 * The 400 `phone_invalid` that says what was expected, with the country and its example as
 * members (`country`, `example`) for a client's own message. The number itself is not repeated:
 * problem details reach logs.
 */
function invalid(param: string, country: string | undefined): ApiError {
  const example = country === undefined ? undefined : exampleOf(country);
  if (example === undefined || country === undefined) {
    return new ApiError('phone_invalid', `${param} is not a valid mobile number: send it with its country code, e.g. +237 6 71 23 45 67`, { param });
  }
  const name = regionNames.of(country) ?? country;
  return new ApiError(
    'phone_invalid',
    `${param} is not a valid ${name} mobile number: expected a number such as ${example.national} (spaces, dots and dashes allowed), or one with its country code such as ${example.international}`,
    { param, extra: { country, example: example.international } },
  );
}

/**
 * `value` as E.164, read in `country` when it has no `+` or `00` prefix (undefined: the prefix
 * is required), or 400 `phone_invalid` (with `param`) when it is not a valid mobile number.
 */
export function parsePhoneNumber(value: string, country: string | undefined, param = 'phoneNumber'): string {
  if (!TYPED.test(value)) throw invalid(param, country);
  const compact = value.replace(/[^0-9+]/g, '');
  if (compact.lastIndexOf('+') > 0) throw invalid(param, country);
  // `00` is the international prefix of every country served: "00221 77…" is Senegal's number.
  const international = compact.startsWith('+') ? compact : compact.startsWith('00') ? `+${compact.slice(2)}` : undefined;
  if (international === undefined && country === undefined) throw invalid(param, country);
  const parsed =
    international !== undefined ? parsePhoneNumberFromString(international) : parsePhoneNumberFromString(compact, { defaultCountry: country as CountryCode });
  // A `+` number is judged in its own country: the example shown is that country's.
  if (parsed === undefined || !parsed.isValid()) throw invalid(param, parsed?.country ?? country);
  return parsed.number;
}

/** `value` as E.164 when it is a valid mobile number (read as `parsePhoneNumber` does), else undefined. */
export function tryParsePhoneNumber(value: string, country: string | undefined): string | undefined {
  try {
    return parsePhoneNumber(value, country);
  } catch {
    return undefined;
  }
}
