import { type Static, Type } from 'typebox';
import { CountrySchema } from '../../platform/countries.schema.ts';
import { CARD_METHOD, methodProviderNames, type ProviderName } from '../connectors/index.ts';

/**
 * A payment method's name: an enum of the catalogue (the operators' own connectors and the methods
 * aggregators reach, never an aggregator; a union in the generated types). The registry's own
 * array, not a copy: routes compiled after a connector is registered take it.
 */
export const ProviderField = Type.Unsafe<ProviderName>({
  type: 'string',
  enum: methodProviderNames() as ProviderName[],
  description: 'A payment method (`moov_money`, …): an operator whose own connector or an aggregator reaches it',
});

/** A method the merchant's settings and the operator's cap name: a provider of the catalogue, or `card` (decision 0096). */
export type MethodName = ProviderName | typeof CARD_METHOD;

/**
 * A method of the merchant's settings and the operator's cap: a provider's name, or `card` (its
 * card route's connectors reach it). A union rather than a copy of the enum: it takes connectors
 * registered later, as `ProviderField` does.
 */
export const MethodField = Type.Union([ProviderField, Type.Literal(CARD_METHOD)], {
  description: 'A payment method: a mobile-money provider of the catalogue, or `card` (paid on the card route’s provider page)',
});

/** How the payer approves, as the connector a payment would take says (pawaPay's account per operator). */
export const ApprovalField = Type.Union([Type.Literal('phone_prompt'), Type.Literal('redirect'), Type.Literal('pre_authorisation_code')], {
  description:
    "`phone_prompt`: the payer approves a request on their phone with their PIN; `redirect`: on a page of the provider; `pre_authorisation_code`: with a code the payer makes in the operator's menu beforehand",
});

export const PaymentMethodsQuery = Type.Object(
  { sessionToken: Type.String({ minLength: 1, maxLength: 200, description: "The intent's session token (ps_…)" }) },
  { additionalProperties: false },
);
export type PaymentMethodsQuery = Static<typeof PaymentMethodsQuery>;

export const WalletMethod = Type.Object({ type: Type.Literal('wallet') });

export const MobileMoneyMethod = Type.Object({
  type: Type.Literal('mobile_money'),
  provider: ProviderField,
  name: Type.String({ description: 'The brand payers know (Moov Money), the same in every language' }),
  approval: ApprovalField,
  available: Type.Boolean({ description: 'False while the provider does not answer (show it greyed)' }),
  minAmount: Type.String({
    description: "Smallest amount of one payment, in major units of the intent's currency (the bounds of the connector a payment would take)",
  }),
  maxAmount: Type.String({ description: 'Largest amount of one payment, in major units' }),
  prefixes: Type.Array(Type.String(), {
    description:
      'E.164 prefixes of the numbers this provider serves (`+23767`), longest first: the longest prefix a typed number starts with suggests the provider. Empty: any number of its countries',
  }),
  ussd: Type.Union([Type.String(), Type.Null()], { description: 'What the payer dials when the prompt does not show (`*126#`)' }),
  preAuthorisationUssd: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description:
        'With `approval: "pre_authorisation_code"` only: what the payer dials to make the code (`*144*4*6#`, then the amount and their PIN; the code comes by SMS), null when the provider documents none. The code goes in `POST /charge` as `paymentMethod.preAuthorisationCode`',
    }),
  ),
});

/**
 * Paying by card on the card route's provider page (docs/spec/card-payments.md): checkout collects
 * the card holder's details, the card itself is typed on that page only.
 */
export const CardMethod = Type.Object({
  type: Type.Literal('card'),
  name: Type.String({ description: 'The card brands the page takes (`Visa / Mastercard`), the same in every language' }),
  approval: Type.Literal('redirect', { description: "The payer types the card on the provider's page" }),
  available: Type.Boolean({ description: 'False while no connector of the card route answers (show it greyed)' }),
  minAmount: Type.String({ description: "Smallest amount of one payment, in major units of the intent's currency" }),
  maxAmount: Type.String({ description: 'Largest amount of one payment, in major units' }),
});

export const PaymentMethod = Type.Union([WalletMethod, MobileMoneyMethod, CardMethod]);
export type PaymentMethod = Static<typeof PaymentMethod>;

export const PaymentMethodList = Type.Object({ data: Type.Array(PaymentMethod) });
export type PaymentMethodList = Static<typeof PaymentMethodList>;

export const PaymentMethodSettingsBody = Type.Object(
  {
    wallet: Type.Optional(Type.Boolean({ description: 'Offer the Caisse wallet' })),
    providers: Type.Optional(
      Type.Union([Type.Array(MethodField, { maxItems: 20, uniqueItems: true }), Type.Null()], {
        description:
          'The methods offered, exactly these: mobile-money providers and `card`; `null`: back to the default (every configured provider that serves your country, and card where a card route serves it)',
      }),
    ),
    order: Type.Optional(
      Type.Union([Type.Array(ProviderField, { maxItems: 20, uniqueItems: true }), Type.Null()], {
        description:
          "The order in which checkout lists the providers (the first is preselected): these first, in this order, then the others in your country's default order; `null`: back to the default order (the wallets most used in your country first: docs/spec/mobile-money-payments.md). Does not change which providers are offered. Mobile-money providers only: checkout offers `card` as a choice of its own, after them",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PaymentMethodSettingsBody = Static<typeof PaymentMethodSettingsBody>;

export const ProviderSettingView = Type.Object({
  provider: MethodField,
  name: Type.String({ description: 'The brand, the same in every language (`Visa / Mastercard` for `card`)' }),
  capabilities: Type.Object(
    { collect: Type.Boolean(), disburse: Type.Boolean(), refund: Type.Boolean() },
    {
      description:
        "What the provider does through this mode's account: take payments, send payouts, give refunds back (a payout to one that cannot disburse is 400 `destination_unsupported`; an account without a disbursement key collects only; through an aggregator, what its account enables for this method's operator in the merchant's country, as the aggregator's own configuration says)",
    },
  ),
  approval: ApprovalField,
  enabled: Type.Boolean({ description: 'Chosen by the merchant (or by the default)' }),
  configured: Type.Boolean({ description: 'This mode has a connector for it (test mode: the sandbox)' }),
  servesCountry: Type.Boolean({ description: "It takes payments in the merchant's country and currency" }),
  allowed: Type.Boolean({ description: 'Allowed for this merchant by the platform operator: one not allowed is never offered' }),
  offered: Type.Boolean({ description: 'What checkout shows: allowed, enabled, configured and serving the country' }),
  available: Type.Boolean({
    description:
      'False while its recent calls in this mode mostly time out or fail: checkout shows it greyed and charges are refused (503) until it answers again',
  }),
});

export const PaymentMethodSettings = Type.Object({
  object: Type.Literal('payment_method_settings'),
  livemode: Type.Boolean(),
  country: CountrySchema,
  currency: Type.String({ description: "The currency of the merchant's country (XAF in CM, XOF in SN and CI)" }),
  wallet: Type.Boolean({ description: "Whether checkout offers the customers' Caisse wallets (chosen by the merchant, within what the operator allows)" }),
  walletAllowed: Type.Boolean({ description: 'Whether the platform operator allows the wallet for this merchant' }),
  /** Whether the providers are the merchant's own choice or the default. */
  providersDefault: Type.Boolean({ description: 'True: the default (every configured provider that serves the country)' }),
  orderDefault: Type.Boolean({ description: "True: checkout lists the providers in the country's default order" }),
  order: Type.Array(ProviderField, {
    description: 'Every provider of the registry in the order checkout lists those it offers (the first offered is preselected)',
  }),
  providers: Type.Array(ProviderSettingView, {
    description: "Every provider of the registry, then `card` where the merchant's country has a card route, with what this merchant and mode make of each",
  }),
});
export type PaymentMethodSettings = Static<typeof PaymentMethodSettings>;

/** The providers alone, for any member of the dashboard: their brands and what they can do here. */
export const ProviderList = Type.Object({
  country: CountrySchema,
  currency: Type.String(),
  data: Type.Array(ProviderSettingView, { description: 'Every provider of the registry, in its order' }),
});
export type ProviderList = Static<typeof ProviderList>;
