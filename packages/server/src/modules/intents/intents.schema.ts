import { type Static, type TSchema, Type } from 'typebox';
import { CURRENCIES } from '../../platform/money.ts';
import type { Metadata as MetadataMap } from './intents.repository.ts';
import { MAX_RETURN_URL_LENGTH } from './intents.return-url.ts';
import { INTENT_STATUSES } from './intents.state.ts';
import { MAX_WAIT_SECONDS } from './intents.waiters.ts';
import { eventSchema } from '../events/index.ts';

export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_LENGTH = 40;
export const MAX_METADATA_VALUE_LENGTH = 500;
export const MAX_DESCRIPTION_LENGTH = 1000;
export const MIN_EXPIRES_IN = 300;
export const MAX_EXPIRES_IN = 86_400;

const metadataInvalid = { 'x-code': 'metadata_invalid' } as const;

/**
 * Metadata (docs/spec/payment-intents.md): up to 50 keys of at most 40 characters; values are strings of at most
 * 500 characters, numbers or booleans; no nesting, no null. Every failure is `metadata_invalid`.
 */
export const Metadata = Type.Unsafe<MetadataMap>({
  type: 'object',
  description: `Your key/value pairs: up to ${MAX_METADATA_KEYS} keys of 1–${MAX_METADATA_KEY_LENGTH} characters; values are strings (≤ ${MAX_METADATA_VALUE_LENGTH} characters), numbers or booleans, never objects, arrays or null. Returned unchanged on the intent and inside every event.`,
  maxProperties: MAX_METADATA_KEYS,
  propertyNames: { type: 'string', minLength: 1, maxLength: MAX_METADATA_KEY_LENGTH, ...metadataInvalid },
  additionalProperties: {
    anyOf: [
      { type: 'string', maxLength: MAX_METADATA_VALUE_LENGTH, ...metadataInvalid },
      { type: 'number', ...metadataInvalid },
      { type: 'boolean', ...metadataInvalid },
    ],
    ...metadataInvalid,
  },
  ...metadataInvalid,
});

const Amount = Type.String({
  description:
    'Decimal string in major units, with at most the currency\'s number of decimals: "5000" XAF (XAF and XOF have none), "12.50" EUR. Positive, plain digits (no sign, exponent or spaces), at most 999 999 999 999 minor units.',
  examples: ['5000'],
});

const Currency = Type.String({ description: `ISO 4217 code, upper case: one of ${Object.keys(CURRENCIES).join(', ')}.`, examples: ['XAF'] });

const Status = Type.Enum(INTENT_STATUSES, {
  description:
    'PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED, PARTIALLY_REFUNDED or REFUNDED. A PENDING intent past expiresAt reads as EXPIRED at once.',
});

const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339, UTC, with milliseconds' });

export const CreateIntentBody = Type.Object(
  {
    amount: Type.String({ ...Amount, 'x-code': 'amount_invalid' }),
    currency: Currency,
    description: Type.Optional(Type.String({ maxLength: MAX_DESCRIPTION_LENGTH, description: `Free text, at most ${MAX_DESCRIPTION_LENGTH} characters.` })),
    metadata: Type.Optional(Metadata),
    expiresIn: Type.Optional(
      Type.Integer({
        minimum: MIN_EXPIRES_IN,
        maximum: MAX_EXPIRES_IN,
        description: `Validity in seconds (${MIN_EXPIRES_IN}–${MAX_EXPIRES_IN}). Default: the merchant's setting (30 minutes unless changed).`,
      }),
    ),
    returnUrl: Type.Optional(
      Type.String({
        maxLength: MAX_RETURN_URL_LENGTH,
        'x-code': 'return_url_invalid',
        description:
          'Where the hosted checkout sends the payer after the outcome, and where redirect providers come back to: an absolute https URL (plain http only to localhost or 127.0.0.1 in test mode). Otherwise 400 `return_url_invalid`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateIntentBody = Static<typeof CreateIntentBody>;

const LastError = Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()], {
  description: 'Why the last charge attempt failed, or null.',
});

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** One attempt to pay the intent directly with mobile money. */
export const PaymentAttempt = Type.Object({
  id: Type.String({ description: '`att_…`' }),
  object: Type.Literal('payment_attempt'),
  provider: Type.String(),
  connector: Type.String({
    description:
      "How Caisse reached the provider: the operator's own API (the same name as `provider`) or an aggregator serving many operators, as the route chose.",
  }),
  providerAccount: Type.String({
    description:
      "The provider account (`pac_…`) the request was made with: `pac_sandbox_<connector>` in test mode, `pac_env_<connector>_<hash>` for the environment's settings.",
  }),
  phoneNumber: Type.String({ description: "The payer's number, masked." }),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCEEDED'), Type.Literal('FAILED')]),
  failureCode: Nullable(
    Type.String({
      description:
        "`payer_not_found`, `insufficient_funds`, `approval_rejected`, `approval_timeout`, `provider_unavailable`, `provider_page_lost`, `amount_out_of_bounds`, `pre_authorisation_code_invalid`, `pre_authorisation_code_expired`, `pre_authorisation_code_required` (the operator refused the payer's one-time code, it had expired, or it was lost in a restart: the payer makes a new one)",
    }),
  ),
  providerReference: Nullable(Type.String({ description: "The provider's transaction id, once paid" })),
  fee: Nullable(Type.String()),
  net: Nullable(Type.String()),
  late: Type.Boolean({ description: 'Paid after the intent could no longer take it: returned to the payer (late_payment)' }),
  createdAt: Timestamp,
  completedAt: Nullable(Timestamp),
});
export type PaymentAttempt = Static<typeof PaymentAttempt>;

/** What the payer does next while an attempt waits for the provider. */
export const NextAction = Type.Union([
  Type.Object({
    type: Type.Literal('approve_on_phone'),
    provider: Type.String(),
    phoneNumber: Type.String(),
    expiresAt: Timestamp,
    message: Type.String({ description: "What the payer does, in the payer's language" }),
    ussd: Nullable(Type.String({ description: "The provider's USSD code, to dial when no prompt appears" })),
  }),
  Type.Object({ type: Type.Literal('redirect'), url: Type.String() }),
]);
export type NextAction = Static<typeof NextAction>;

/** The method of the intent's latest direct attempt. */
export const DirectPaymentMethod = Type.Object({
  type: Type.Union([Type.Literal('mobile_money'), Type.Literal('card')], {
    description: "`card`: paid on the card route's page (`provider` is then `card` and `phoneNumber` the card holder's)",
  }),
  provider: Type.String(),
  phoneNumber: Type.String({ description: 'masked' }),
});

/** What an intent paid directly with mobile money shows besides the common fields. */
export interface DirectPayment {
  attempts: PaymentAttempt[];
  paymentMethod: Static<typeof DirectPaymentMethod>;
  nextAction: NextAction | null;
}

/** The fields every reader sees, the client with only the API key included. */
const publicFields = {
  id: Type.String({ description: 'pi_…' }),
  object: Type.Literal('payment_intent'),
  amount: Amount,
  currency: Currency,
  description: Type.Union([Type.String(), Type.Null()]),
  status: Status,
  expiresAt: Timestamp,
  createdAt: Timestamp,
  updatedAt: Type.String({ format: 'date-time', description: 'Last change of the intent. For an expired intent: its expiresAt, the moment it expired.' }),
  livemode: Type.Boolean(),
  amountRefunded: Type.String({ description: 'Refunded so far, in major units like amount.' }),
  lastError: LastError,
  attempts: Type.Union(
    [
      Type.Integer({
        description:
          "Paid (or being paid) through the wallet only: the charge attempts that count against the intent (at most 3 declines): those of the customer who started paying it, the first sent a code bound to it. Other customers' declines are answered 402 and leave the intent as it was.",
      }),
      Type.Array(PaymentAttempt, { description: 'Once the intent had a direct mobile-money attempt: its attempts, oldest first.' }),
    ],
    { description: 'A count for an intent paid through the wallet only; the list of attempts once one was made directly with mobile money.' },
  ),
};

/**
 * Optional and last: events recorded before they existed are read back byte for byte through
 * this schema, and the serialiser writes optional fields after the required ones.
 */
const returnUrlField = {
  returnUrl: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'Where the checkout sends the payer after the outcome (given on creation), or null.' }),
  ),
  paymentMethod: Type.Optional(
    Type.Object(DirectPaymentMethod.properties, {
      description: 'Once the intent had a direct mobile-money attempt: the method of the latest one (number masked).',
    }),
  ),
  nextAction: Type.Optional(
    Type.Union([NextAction, Type.Null()], { description: 'With paymentMethod: while an attempt waits for the provider, what the payer does; null otherwise.' }),
  ),
};

/** The intent as the client sees it with the API key alone: no metadata, no session token. */
export const PublicIntent = Type.Object({ ...publicFields, ...returnUrlField });
export type PublicIntent = Static<typeof PublicIntent>;

/** The intent read by its session token, with what a checkout needs to pick its language. */
export const SessionIntent = Type.Object({
  ...publicFields,
  ...returnUrlField,
  merchantLanguage: Type.Optional(
    Type.Union([Type.Literal('fr'), Type.Literal('en')], {
      description:
        "The merchant's default language: a checkout speaks it when the customer has not signed in with a saved language and the browser asks for neither French nor English.",
    }),
  ),
});

/** The intent as the merchant sees it (secret key), and as events carry it. */
export const Intent = Type.Object({
  ...publicFields,
  metadata: Metadata,
  fee: Type.Union([Type.String(), Type.Null()], {
    description: "The platform's fee, in major units, once paid (null before): the merchant's fee schedule applied to the amount, half up to the minor unit",
  }),
  net: Type.Union([Type.String(), Type.Null()], { description: 'What the merchant receives of the amount once paid: amount − fee (null before)' }),
  ...returnUrlField,
});
export type Intent = Static<typeof Intent>;

/** The answer to creation: the only time the session token is ever shown. */
export const CreatedIntent = Type.Object({
  ...Intent.properties,
  sessionToken: Type.String({
    description:
      "ps_…: the intent id's 26 characters then 256 random bits (treat it as opaque). Hand it to the browser: it retrieves the intent and drives the checkout. Shown in this answer only — Caisse keeps only its SHA-256, so no later read can return it.",
  }),
});
export type CreatedIntent = Static<typeof CreatedIntent>;

export const IntentList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Intent),
  hasMore: Type.Boolean(),
});
export type IntentList = Static<typeof IntentList>;

export const ListIntentsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1–100 (default 20).' })),
    startingAfter: Type.Optional(
      Type.String({ pattern: '^pi_[0-9a-z]{26}$', description: 'The last id of the previous page: the next page starts after it.' }),
    ),
    status: Type.Optional(Status),
  },
  { additionalProperties: false },
);
export type ListIntentsQuery = Static<typeof ListIntentsQuery>;

export const IntentIdParams = Type.Object({ id: Type.String({ description: 'pi_…' }) });
/** The long-poll of the client's read (decision 0083). */
export const SessionIntentQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Enum(INTENT_STATUSES, { description: 'The status the client already has: with `wait`, the answer waits while the intent still reads it.' }),
    ),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WAIT_SECONDS,
        description: `Seconds to hold the answer (0–${MAX_WAIT_SECONDS}) while the intent reads \`status\`; without \`status\`, or 0, the answer comes at once.`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type SessionIntentQuery = Static<typeof SessionIntentQuery>;

export const SessionTokenParams = Type.Object({ sessionToken: Type.String({ description: 'ps_…, from the creation answer' }) });

/** A refund: immediate for a wallet payment, through the provider for a direct mobile-money one. */
export const Refund = Type.Object({
  id: Type.String({ description: '`re_…`' }),
  object: Type.Literal('refund'),
  amount: Type.String({ description: 'Refunded by this refund, in major units ("2000" XAF).' }),
  currency: Type.String({ description: "The intent's currency." }),
  intentId: Type.String({ description: 'The refunded payment intent (`pi_…`).' }),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCEEDED'), Type.Literal('FAILED')], {
    description:
      "A wallet payment's refund is immediate: `SUCCEEDED` (201), the money is back in the wallet when the answer arrives. A direct mobile-money payment's goes back to the payer's number through the provider: `PENDING`, then `SUCCEEDED` (`payment.refunded`) or `FAILED` (`refund.failed`, the money back in the merchant's balance).",
  }),
  reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Your reason, or `late_payment` for a payment that arrived when the intent could no longer take it, returned automatically.',
  }),
  connector: Type.Optional(Type.String({ description: "A refund to mobile money: the payment's own connector. Absent from a wallet payment's." })),
  providerAccount: Type.Optional(
    Type.String({ description: "A refund to mobile money: the payment's own provider account (`pac_…`). Absent from a wallet payment's." }),
  ),
  createdAt: Timestamp,
  failureCode: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: "A refund to mobile money that FAILED: the provider's reason in lower case (`payee_not_found`); null otherwise.",
    }),
  ),
  recorded: Type.Optional(
    Type.Boolean({
      description:
        'Present and `true` on a refund made outside Caisse and recorded by the merchant (`POST /gateway/{id}/refunds/recorded`): it moved no money in Caisse.',
    }),
  ),
  recordedOutside: Type.Optional(
    Type.Object(
      {
        method: Type.Union([Type.Literal('cash'), Type.Literal('bank_transfer'), Type.Literal('mobile_money'), Type.Literal('other')], {
          description: 'How the merchant paid the payer back.',
        }),
        reference: Type.Union([Type.String(), Type.Null()], { description: "The merchant's reference of that payment (a receipt, a transfer id), or null." }),
      },
      { description: 'A recorded refund only: how it was made.' },
    ),
  ),
});
export type Refund = Static<typeof Refund>;

/**
 * The events about an intent (every `payment.*` type): the envelope around the intent as the
 * merchant reads it, and for a direct mobile-money payment the attempt the event is about.
 */
export const PaymentEvent = eventSchema(
  Type.Object({
    paymentIntent: Intent,
    attempt: Type.Optional({ ...PaymentAttempt, description: 'A direct mobile-money payment: the attempt that started, succeeded or failed' }),
    refund: Type.Optional({
      ...Refund,
      description:
        'A refund of a direct mobile-money payment: the one that succeeded (`payment.refunded`) or failed (`refund.failed`); or a refund made outside Caisse and recorded by the merchant (`payment.refunded`, `recorded: true`)',
    }),
  }),
);
export type PaymentEvent = Static<typeof PaymentEvent>;
