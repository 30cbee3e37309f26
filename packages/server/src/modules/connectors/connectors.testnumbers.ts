import type { TestNumber } from './connectors.description.ts';

/**
 * The sandbox's test numbers (docs/spec/providers.md): the same for every provider, decided by the
 * number's last three digits whatever its country prefix.
 */
export const TEST_NUMBER_OUTCOMES: Readonly<Record<string, string>> = {
  '000': 'SUCCESSFUL after about 1 s (as any number not listed here)',
  '101': 'SUCCESSFUL after 10 s',
  '102': 'stays PENDING (never answered)',
  '103': 'FAILED PAYER_NOT_FOUND',
  '104': 'FAILED NOT_ENOUGH_FUNDS',
  '105': 'FAILED APPROVAL_REJECTED (payer declined)',
  '106': 'FAILED EXPIRED after the approval window (5 min; 5 s with --fast)',
  '107': 'the provider answers 500 to the request, then SUCCESSFUL on a status read',
  '108': 'the provider hangs on the request, then SUCCESSFUL on a status read',
  '109': 'SUCCESSFUL, and the callback is sent twice, the second time after the status read',
};

/** The table written out for one provider: `base` is an E.164 number without its last three digits (`+237677000`). */
export function testNumbers(base: string): TestNumber[] {
  return Object.entries(TEST_NUMBER_OUTCOMES).map(([suffix, outcome]) => ({ phoneNumber: `${base}${suffix}`, outcome }));
}
