import type { ProviderDescription, ServedMethod } from '../connectors.description.ts';
import { testNumbers } from '../connectors.testnumbers.ts';
import { PAWAPAY_PROVIDERS } from './pawapay.providers.ts';
import { parsePinnedKeys } from './pawapay.signature.ts';

/** pawaPay's `customerMessage`: 4 to 22 characters, letters, digits and spaces. */
export const CUSTOMER_MESSAGE = { minLength: 4, maxLength: 22, pattern: /^[A-Za-z0-9 ]{4,22}$/ };

/** Each of our methods pawaPay reaches, in the countries its provider list has it. */
function served(): ServedMethod[] {
  const byMethod = new Map<string, string[]>();
  for (const p of PAWAPAY_PROVIDERS) byMethod.set(p.method, [...new Set([...(byMethod.get(p.method) ?? []), p.country])]);
  return [...byMethod].map(([method, countries]) => ({ method, countries }));
}

/**
 * `pawapay` as the registry, the CLI and the routes see it: an aggregator, never a payment method
 * itself (`serves` lists the operators it reaches). Most operators prompt on the phone; Orange in
 * Burkina Faso takes a code the payer types in checkout, Wave a page of its own (the account's
 * active configuration says which, per operator). Bounds are pawaPay's default limits per payment
 * for these countries; an account's own limits come from its active configuration.
 */
export const PAWAPAY_DESCRIPTION: ProviderDescription = {
  name: 'pawapay',
  displayName: 'pawaPay',
  // Never a method itself: the countries are its methods' (`serves`), so no checkout lists it by name.
  countries: [],
  currencies: ['XAF', 'XOF'],
  approval: 'phone_prompt',
  limits: { XAF: { min: 100n, max: 2_000_000n }, XOF: { min: 100n, max: 2_000_000n } },
  ussd: null,
  network: null,
  capabilities: { collect: true, disburse: true, refund: true },
  statusByReference: true,
  // customerMessage: 4 to 22 letters, digits and spaces; the rest of printable ASCII is refused.
  messages: { minLength: 4, maxLength: 22, forbidden: '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~' },
  settings: [
    {
      env: 'CAISSE_PAWAPAY_BASE_URL',
      key: 'baseUrl',
      kind: 'url',
      default: 'https://api.pawapay.io',
      required: false,
      secret: false,
      description: 'Merchant API base URL (https://api.pawapay.io; sandbox https://api.sandbox.pawapay.io)',
    },
    {
      env: 'CAISSE_PAWAPAY_API_TOKEN',
      key: 'apiToken',
      kind: 'credential',
      required: true,
      secret: true,
      description: "API token made in pawaPay's dashboard (sent as a bearer token)",
    },
    {
      env: 'CAISSE_PAWAPAY_CALLBACK_SIGNATURES',
      key: 'callbackSignatures',
      kind: 'name',
      default: 'off',
      required: false,
      secret: false,
      description: '`required` when the account signs its callbacks (RFC 9421): unsigned ones are then refused; `off` (default)',
    },
    {
      env: 'CAISSE_PAWAPAY_PUBLIC_KEYS',
      key: 'publicKeys',
      kind: 'credential',
      required: false,
      secret: false,
      description:
        "pawaPay's public keys that sign callbacks, pinned: keyid:base64 of each key's DER, comma-separated (unset: read from pawaPay's API, GET /v2/public-key/http)",
    },
    { env: 'CAISSE_PAWAPAY_TIMEOUT_MS', key: 'timeoutMs', kind: 'integer', required: false, secret: false, description: 'Bound on each call, in ms (10000)' },
  ],
  checkSettings(values) {
    const signatures = values.callbackSignatures;
    if (signatures !== undefined && signatures !== 'off' && signatures !== 'required')
      return { key: 'callbackSignatures', message: 'must be "off" or "required"' };
    if (values.publicKeys !== undefined) {
      // Keys only check signatures: pinned while unsigned callbacks are taken, they would protect nothing.
      if (signatures !== 'required') return { key: 'publicKeys', message: 'are only used with callbackSignatures=required (the account signs its callbacks)' };
      const pinned = parsePinnedKeys(String(values.publicKeys));
      if (!pinned.ok) return { key: 'publicKeys', message: pinned.message };
    }
    return undefined;
  },
  testNumbers: testNumbers('+237670000'),
  serves: served(),
};
