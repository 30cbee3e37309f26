/**
 * Phone numbers as people write them (platform/phone.ts): read in the merchant's country unless
 * they carry their own, E.164 out, libphonenumber's mobile metadata deciding what is valid.
 */
import { describe, expect, it } from 'vitest';
import { providerDescriptions, servedMethods } from '../src/modules/connectors/index.ts';
import { COUNTRIES, COUNTRY_CODES, type Country } from '../src/platform/countries.ts';
import { ApiError } from '../src/platform/errors.ts';
import { parsePhoneNumber, tryParsePhoneNumber } from '../src/platform/phone.ts';

function refusal(value: string, country: string | undefined, param?: string): ApiError {
  try {
    parsePhoneNumber(value, country, param);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error(`${value} was accepted`);
}

describe('parsePhoneNumber', () => {
  it.each([
    ['670000001', 'CM', '+237670000001'],
    ['6 70 00 00 01', 'CM', '+237670000001'],
    ['6.70.00.00.01', 'CM', '+237670000001'],
    ['670-000-001', 'CM', '+237670000001'],
    ['(+237) 670 000 001', 'CM', '+237670000001'],
    ['+237670000001', 'SN', '+237670000001'],
    ['00237 670000001', 'SN', '+237670000001'],
    ['77 123 45 67', 'SN', '+221771234567'],
    ['07 01 02 03 04', 'CI', '+2250701020304'],
    // West Africa's other countries (Benin in 10 digits since 30 November 2024).
    ['01 97 12 34 56', 'BJ', '+2290197123456'],
    ['70 12 34 56', 'BF', '+22670123456'],
    ['65 01 23 45', 'ML', '+22365012345'],
    ['90 11 23 45', 'TG', '+22890112345'],
  ])('%s in %s is %s', (typed, country, e164) => {
    expect(parsePhoneNumber(typed, country)).toBe(e164);
  });

  it.each([
    ['a landline', '2 22 12 34 56', 'CM'],
    ['too short', '6700000', 'CM'],
    ['too long', '6700000011', 'CM'],
    ["another country's national number", '77 123 45 67', 'CM'],
    ['a trunk zero Cameroon does not use', '0670000001', 'CM'],
    ['letters', '67000000a', 'CM'],
    ['an empty string', '', 'CM'],
    ['a lone plus', '+', 'CM'],
    ['a plus inside the number', '670+000001', 'CM'],
  ])('%s is phone_invalid, saying what the country expects', (_why, typed, country) => {
    const err = refusal(typed, country, 'destination.phoneNumber');
    expect(err).toMatchObject({ code: 'phone_invalid', status: 400, options: { param: 'destination.phoneNumber' } });
    expect(err.detail).toBe(
      'destination.phoneNumber is not a valid Cameroon mobile number: expected a number such as 6 71 23 45 67 (spaces, dots and dashes allowed), or one with its country code such as +237 6 71 23 45 67',
    );
    expect(err.options.extra).toEqual({ country: 'CM', example: '+237 6 71 23 45 67' });
  });

  it("a number with its own prefix is judged in its own country, and without a merchant's country the prefix is required", () => {
    expect(refusal('+221 67 000 00 01', 'CM').detail).toContain('not a valid Senegal mobile number');
    expect(refusal('670000001', undefined).detail).toBe('phoneNumber is not a valid mobile number: send it with its country code, e.g. +237 6 71 23 45 67');
    expect(parsePhoneNumber('+237 670 000 001', undefined)).toBe('+237670000001');
    expect(tryParsePhoneNumber('670000001', undefined)).toBeUndefined();
    expect(tryParsePhoneNumber('670000001', 'CM')).toBe('+237670000001');
  });

  it("every sandbox test number of every provider is valid in its provider's countries", () => {
    // An aggregator's countries are those of the methods it serves.
    const numbers = providerDescriptions().flatMap((p) =>
      p.testNumbers.map((t) => ({
        provider: p.name,
        number: t.phoneNumber,
        countries: [...p.countries, ...servedMethods(p).flatMap((s) => s.countries)] as string[],
      })),
    );
    expect(numbers.length).toBeGreaterThanOrEqual(30);
    for (const { provider, number, countries } of numbers) {
      expect(parsePhoneNumber(number, undefined), `${provider} ${number}`).toBe(number);
      // Typed without its country code by a payer of that country: the same number.
      const country = COUNTRY_CODES.find((c) => number.startsWith(`+${COUNTRIES[c].callingCode}`));
      expect(country && countries.includes(country), number).toBe(true);
      const national = number.slice(1 + COUNTRIES[country as Country].callingCode.length);
      expect(parsePhoneNumber(national, country), `${national} in ${country}`).toBe(number);
    }
  });
});
