import { type Static, Type } from 'typebox';
import { DirectPaymentMethod, NextAction, PaymentAttempt, PublicIntent, Refund } from '../intents/index.ts';
import { PHONE_AS_WRITTEN } from '../../platform/phone.ts';

export { Refund };

export const MAX_REFUND_REASON_LENGTH = 500;

export const MobileMoneyPaymentMethod = Type.Object(
  {
    type: Type.Literal('mobile_money'),
    provider: Type.String({ maxLength: 32, description: 'The provider, by its registry name: see `GET /payment-methods`.' }),
    phoneNumber: Type.String({
      maxLength: 32,
      'x-code': 'phone_invalid',
      description: `The payer's mobile-money number, served by that provider. ${PHONE_AS_WRITTEN}`,
    }),
    preAuthorisationCode: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 36,
        pattern: '^[0-9A-Za-z]+$',
        description:
          'The one-time code the payer made with their operator beforehand, for a method whose `approval` in `GET /payment-methods` is `pre_authorisation_code` (required there: 400 `pre_authorisation_code_required`; ignored elsewhere). Sent to the provider once, never stored.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** One of the card holder's details: not blank, at most `max` characters; refused as `cardholder_invalid` on its own field. */
const holderText = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', 'x-code': 'cardholder_invalid', description });

/**
 * Who pays by card, as the card route's provider requires them (docs/spec/card-payments.md). Never a
 * card number: the payer types it on the provider's page, which Caisse never sees.
 */
export const Cardholder = Type.Object(
  {
    name: holderText(100, "The card holder's first name"),
    surname: holderText(100, "The card holder's last name"),
    email: Type.String({ maxLength: 254, format: 'email', 'x-code': 'cardholder_invalid', description: "The card holder's e-mail address" }),
    phoneNumber: Type.String({ minLength: 1, maxLength: 32, 'x-code': 'phone_invalid', description: `The card holder's phone number. ${PHONE_AS_WRITTEN}` }),
    address: holderText(200, "The card holder's street address"),
    city: holderText(100, "The card holder's city"),
    country: Type.String({ pattern: '^[A-Z]{2}$', 'x-code': 'cardholder_invalid', description: "The card holder's country (ISO 3166 alpha-2, `CI`)" }),
    state: Type.Optional(holderText(100, "The card holder's state or region (default: the country's code)")),
    zipCode: holderText(20, "The card holder's postal code"),
  },
  { additionalProperties: false, 'x-code': 'cardholder_invalid' },
);
export type Cardholder = Static<typeof Cardholder>;

export const CardPaymentMethod = Type.Object(
  {
    type: Type.Literal('card'),
    cardholder: Cardholder,
  },
  { additionalProperties: false, 'x-code': 'cardholder_invalid' },
);

/** Tagged by `type`: a refused field is told by the member its `type` names (platform/http/validation.ts). */
export const PaymentMethod = Type.Union([MobileMoneyPaymentMethod, CardPaymentMethod]);

export const ChargeBody = Type.Object(
  {
    intentionId: Type.String({ maxLength: 64, description: "The payment intent to pay (`pi_…`), of the API key's merchant and mode." }),
    paymentMethod: Type.Optional(PaymentMethod),
    userId: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          "Optional: the paying user (`usr_…`). When sent it must be the `sub` of the access token (else 403 `user_mismatch`); the payer is always the access token's user.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChargeBody = Static<typeof ChargeBody>;

/**
 * A charge with a mobile-money method (docs/spec/mobile-money-payments.md) or a card
 * (docs/spec/card-payments.md), as the route passes it on: the body's `intentionId` is `intentId`.
 */
export interface DirectCharge {
  intentId: string;
  paymentMethod: Static<typeof PaymentMethod>;
}

export const ChargeHeaders = Type.Object({
  'x-session-token': Type.Optional(
    Type.String({ description: "With `paymentMethod`: the intent's session token (`ps_…`) instead of a user token and OTP token." }),
  ),
  'x-otp-token': Type.Optional(
    Type.String({ description: 'The `authorizationToken` from `POST /otp/verify` (single use). Missing: 401 `otp_token_missing`.' }),
  ),
});

export const RefundBody = Type.Object(
  {
    amount: Type.Optional(
      Type.String({
        'x-code': 'amount_invalid',
        description: "Decimal string in major units of the intent's currency, at most what is left to refund. Default: all that is left.",
        examples: ['2000'],
      }),
    ),
    reason: Type.Optional(
      Type.String({ maxLength: MAX_REFUND_REASON_LENGTH, description: `Free text for your records, at most ${MAX_REFUND_REASON_LENGTH} characters.` }),
    ),
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBody>;

export const MAX_RECORDED_REFERENCE_LENGTH = 200;

export const RecordedRefundBody = Type.Object(
  {
    amount: RefundBody.properties.amount,
    method: Type.Union([Type.Literal('cash'), Type.Literal('bank_transfer'), Type.Literal('mobile_money'), Type.Literal('other')], {
      'x-code': 'validation_error',
      description: 'How you paid the payer back: `cash`, `bank_transfer`, `mobile_money` (sent by hand, outside Caisse) or `other`.',
    }),
    reference: Type.Optional(
      Type.String({
        maxLength: MAX_RECORDED_REFERENCE_LENGTH,
        description: `Your reference of that payment (a receipt number, a transfer id), at most ${MAX_RECORDED_REFERENCE_LENGTH} characters.`,
      }),
    ),
    reason: RefundBody.properties.reason,
  },
  { additionalProperties: false },
);
export type RecordedRefundBody = Static<typeof RecordedRefundBody>;

/** The answer to a mobile-money charge: the public intent with its attempts and what the payer does next. */
export const ProcessingIntent = Type.Object({
  ...PublicIntent.properties,
  attempts: Type.Array(PaymentAttempt, { description: "The intent's mobile-money attempts, oldest first" }),
  paymentMethod: Type.Union([DirectPaymentMethod, Type.Null()]),
  nextAction: Type.Union([NextAction, Type.Null()]),
});
export type ProcessingIntent = Static<typeof ProcessingIntent>;
