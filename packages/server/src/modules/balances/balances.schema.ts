import { type Static, Type } from 'typebox';

const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339, UTC, with milliseconds' });
const Money = Type.Object({
  currency: Type.String({ description: 'ISO 4217 code' }),
  amount: Type.String({ description: 'Decimal string in major units ("5000" XAF, "12.50" EUR); may be negative (see `available`)' }),
});

export const MerchantBalance = Type.Object({
  object: Type.Literal('balance'),
  livemode: Type.Boolean(),
  available: Type.Array(Money, {
    description:
      'What may be paid out now, per currency. It can be negative: a refund after a payout takes it below zero, and then no payout runs until it is positive again.',
  }),
  pending: Type.Array(Money, { description: "Charges' net not yet settled, per currency: available after the merchant's settlement delay" }),
  reserved: Type.Array(Money, {
    description:
      "The rolling reserve, per currency (when the operator set one for the merchant): a share of each charge's net held for some days, then released to `available`. Refunds that `available` cannot cover draw on it. Not part of available + pending.",
  }),
  balances: Type.Array(
    Type.Object({
      currency: Type.String(),
      available: Type.String(),
      pending: Type.String(),
      reserved: Type.String(),
      nextReleaseOn: Type.Union([Timestamp, Type.Null()], { description: 'When the next part of the reserve is released (null: nothing held)' }),
    }),
    { description: 'The same figures, one entry per currency: `{currency, available, pending, reserved, nextReleaseOn}`' },
  ),
});
export type MerchantBalance = Static<typeof MerchantBalance>;

export const BalanceTransactionTypeSchema = Type.Union(
  [
    Type.Literal('charge'),
    Type.Literal('refund'),
    Type.Literal('fee'),
    Type.Literal('payout'),
    Type.Literal('payout_reversal'),
    Type.Literal('refund_reversal'),
    Type.Literal('late_payment'),
    Type.Literal('adjustment'),
    Type.Literal('reserve'),
    Type.Literal('reserve_release'),
  ],
  {
    description:
      "`charge` (a payment, gross), `fee` (the platform fee of a charge, negative; positive when a refund returns part of it), `refund` (a mobile-money refund leaves the balance when it is asked for), `payout`, `payout_reversal` (a failed payout coming back), `refund_reversal` (a failed mobile-money refund coming back), `late_payment` (a payment that arrived when the intent could no longer take it, returned to the payer: amount 0, never part of the balance), `adjustment`, `reserve` (the rolling reserve's share of a charge, negative: held until the date in its description), `reserve_release` (reserve money coming back to available: on its date, or drawn by a refund)",
  },
);

export const BalanceTransaction = Type.Object({
  id: Type.String({ description: '`btx_…`' }),
  object: Type.Literal('balance_transaction'),
  type: BalanceTransactionTypeSchema,
  amount: Type.String({ description: "Signed decimal string in major units: what this adds to (or takes from) the merchant's money" }),
  currency: Type.String(),
  balanceAfter: Type.String({ description: "The merchant's money in this currency (available + pending) right after this transaction" }),
  source: Type.Union([Type.String(), Type.Null()], { description: 'What caused it: `pi_…` (charge, fee), `re_…` (refund), `po_…` (payout)' }),
  description: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('available')], { description: 'Whether the amount is still pending or already available' }),
  availableOn: Timestamp,
  createdAt: Timestamp,
});
export type BalanceTransaction = Static<typeof BalanceTransaction>;

export const BalanceTransactionList = Type.Object({ object: Type.Literal('list'), data: Type.Array(BalanceTransaction), hasMore: Type.Boolean() });

const DateOrTime = Type.String({
  maxLength: 40,
  'x-code': 'validation_error',
  description: 'A date (`2026-11-23`, UTC) or an RFC 3339 time. `from` is inclusive; `to` is exclusive for a time and includes the whole day for a date.',
});

export const PeriodQuery = {
  from: Type.Optional(DateOrTime),
  to: Type.Optional(DateOrTime),
  type: Type.Optional(BalanceTransactionTypeSchema),
  currency: Type.Optional(Type.String({ maxLength: 3 })),
};

export const ListBalanceTransactionsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ maxLength: 64 })),
    ...PeriodQuery,
  },
  { additionalProperties: false },
);
export type ListBalanceTransactionsQuery = Static<typeof ListBalanceTransactionsQuery>;

export const ExportBalanceTransactionsQuery = Type.Object(PeriodQuery, { additionalProperties: false });
export type ExportBalanceTransactionsQuery = Static<typeof ExportBalanceTransactionsQuery>;
