import { type Static, Type } from 'typebox';

export const MAX_REFUND_REASON_LENGTH = 500;

export const ChargeBody = Type.Object(
  {
    intentionId: Type.String({ maxLength: 64, description: 'The payment intent to pay (`pi_…`), of the API key\'s merchant and mode.' }),
    userId: Type.Optional(Type.String({ maxLength: 64, description: 'Optional: the paying user (`usr_…`). When sent it must be the `sub` of the access token (else 403 `user_mismatch`); the payer is always the access token\'s user.' })),
  },
  { additionalProperties: false },
);
export type ChargeBody = Static<typeof ChargeBody>;

export const ChargeHeaders = Type.Object({
  'x-otp-token': Type.Optional(Type.String({ description: 'The `authorizationToken` from `POST /otp/verify` (single use). Missing: 401 `otp_token_missing`.' })),
});

export const RefundBody = Type.Object(
  {
    amount: Type.Optional(
      Type.String({
        'x-code': 'amount_invalid',
        description: 'Decimal string in major units of the intent\'s currency, at most what is left to refund. Default: all that is left.',
        examples: ['2000'],
      }),
    ),
    reason: Type.Optional(Type.String({ maxLength: MAX_REFUND_REASON_LENGTH, description: `Free text for your records, at most ${MAX_REFUND_REASON_LENGTH} characters.` })),
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBody>;

export const Refund = Type.Object({
  id: Type.String({ description: '`re_…`' }),
  object: Type.Literal('refund'),
  amount: Type.String({ description: 'Refunded by this refund, in major units ("2000" XAF).' }),
  currency: Type.String({ description: 'The intent\'s currency.' }),
  intentId: Type.String({ description: 'The refunded payment intent (`pi_…`).' }),
  status: Type.Literal('succeeded', { description: 'Refunds are immediate: the money is back in the wallet when this answer arrives.' }),
  reason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time', description: 'RFC 3339, UTC, with milliseconds' }),
});
export type Refund = Static<typeof Refund>;
