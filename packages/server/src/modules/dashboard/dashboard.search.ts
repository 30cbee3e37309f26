import { ApiError } from '../../platform/errors.ts';
import type { Country } from '../../platform/countries.ts';
import { tryParsePhoneNumber } from '../../platform/phone.ts';
import { type Caller, scopeOf } from '../../platform/tenancy.ts';
import type { ChargesService } from '../charges/index.ts';
import type { IntentsService } from '../intents/index.ts';
import type { UsersService } from '../users/index.ts';

/** Search results shown at most (the box is for finding one payment, not for listing). */
const SEARCH_LIMIT = 20;
/** The fewest last digits of a phone number the search looks customers up by (fewer match too many). */
export const PHONE_SEARCH_MIN_DIGITS = 4;
/** Customers whose phone ends with the digits, looked at most (their newest payments are the results). */
const PHONE_SEARCH_CUSTOMERS = 50;

/** The header's search, across the intents, the customers and who paid what. */
export function createDashboardSearch(services: {
  intents: Pick<IntentsService, 'search'>;
  charges: Pick<ChargesService, 'intentsOfPayers'>;
  users: Pick<UsersService, 'findByPhoneSuffix'>;
}) {
  const { intents, charges, users } = services;
  return {
    /**
     * The header's search box: payments by id, metadata value or amount, and, for 4 digits or more
     * (spaces, dots, dashes and a leading + allowed), the payments of the merchant's customers whose
     * phone number ends with them (20 at most). A whole number as people write it ("6 70 00 00 01",
     * "00237…") is read in the merchant's country first. Fewer digits are searched as an amount or a
     * metadata value only.
     */
    async search(scope: Caller & { merchantCountry: Country }, q: string) {
      const text = q.trim();
      if (text === '') throw new ApiError('validation_error', 'Type something to search for', { param: 'q', errors: [{ param: 'q', message: 'blank' }] });
      const whole = tryParsePhoneNumber(text, scope.merchantCountry);
      const digits = whole?.slice(1) ?? text.replace(/[\s\u00a0.-]/g, '').replace(/^\+/, '');
      let paidBy: string[] = [];
      if (/^\d+$/.test(digits) && digits.length >= PHONE_SEARCH_MIN_DIGITS) {
        const customers = await users.findByPhoneSuffix(scope, digits, PHONE_SEARCH_CUSTOMERS);
        paidBy = await charges.intentsOfPayers(scopeOf(scope), customers, SEARCH_LIMIT + 1);
      }
      const found = await intents.search(scope, text, SEARCH_LIMIT + 1, paidBy);
      return { object: 'list' as const, data: found.slice(0, SEARCH_LIMIT), hasMore: found.length > SEARCH_LIMIT };
    },
  };
}
