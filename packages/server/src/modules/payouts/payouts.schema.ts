import { type Static, Type } from 'typebox';
import { eventSchema } from '../events/index.ts';
import { PHONE_AS_WRITTEN } from '../../platform/phone.ts';

const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339, UTC, with milliseconds' });

export const Destination = Type.Object(
  {
    provider: Type.String({
      maxLength: 32,
      description:
        'The mobile-money provider that sends the money, by its registry name: one of the country whose `capabilities.disburse` is true (`GET /payment-methods/settings`); a provider that only collects is 400 `destination_unsupported`.',
    }),
    phoneNumber: Type.String({
      maxLength: 32,
      'x-code': 'phone_invalid',
      description: `The mobile-money number that receives the money. ${PHONE_AS_WRITTEN}`,
    }),
  },
  { additionalProperties: false },
);

export const CreatePayoutBody = Type.Object(
  {
    amount: Type.String({ 'x-code': 'amount_invalid', description: 'Decimal string in major units of the currency ("4925" XAF).' }),
    currency: Type.String({ description: 'ISO 4217: XAF, XOF, EUR or USD.' }),
    destination: Destination,
    description: Type.Optional(
      Type.String({
        description:
          "Shown in the statement and to the payee (as the payer message), so within the provider's message rules (see docs/spec/providers.md; 400 `description_invalid`).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreatePayoutBody = Static<typeof CreatePayoutBody>;

export const Payout = Type.Object({
  id: Type.String({ description: '`po_…`' }),
  object: Type.Literal('payout'),
  amount: Type.String(),
  currency: Type.String(),
  destination: Type.Object({ provider: Type.String(), phoneNumber: Type.String() }),
  connector: Type.String({
    description:
      "How Caisse reached the provider: the operator's own API (the same name as `destination.provider`) or an aggregator serving many operators, as the payout route chose.",
  }),
  providerAccount: Type.String({
    description:
      "The provider account (`pac_…`) the request was made with: `pac_sandbox_<connector>` in test mode, `pac_env_<connector>_<hash>` for the environment's settings.",
  }),
  description: Type.Union([Type.String(), Type.Null()]),
  method: Type.Union([Type.Literal('manual'), Type.Literal('scheduled')], { description: '`manual` (POST /payouts) or `scheduled` (the payout schedule)' }),
  status: Type.Union([Type.Literal('REVIEW'), Type.Literal('PENDING'), Type.Literal('PAID'), Type.Literal('FAILED')], {
    description:
      "REVIEW while a payout above the platform operator's threshold for its currency waits for a review: approved, it becomes PENDING; rejected, FAILED with `failureReason` REVIEW_REJECTED (the money back in `available`). PENDING until the provider says: PAID, or FAILED with `failureReason` (the money is back in `available`). While the provider cannot be reached the payout stays PENDING and is asked about again; it is never sent twice.",
  }),
  failureReason: Type.Union([Type.String(), Type.Null()], {
    description: "The provider's reason (e.g. PAYEE_NOT_FOUND), or REVIEW_REJECTED when the platform operator refused it in review",
  }),
  livemode: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  completedAt: Type.Union([Timestamp, Type.Null()]),
});
export type Payout = Static<typeof Payout>;

export const PayoutIdParams = Type.Object({ id: Type.String({ maxLength: 64, description: '`po_…`' }) });
export const PayoutList = Type.Object({ object: Type.Literal('list'), data: Type.Array(Payout), hasMore: Type.Boolean() });
export const ListPayoutsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ maxLength: 64 })),
    status: Type.Optional(Type.Union([Type.Literal('REVIEW'), Type.Literal('PENDING'), Type.Literal('PAID'), Type.Literal('FAILED')])),
  },
  { additionalProperties: false },
);
export type ListPayoutsQuery = Static<typeof ListPayoutsQuery>;

const Interval = Type.Union([Type.Literal('manual'), Type.Literal('daily'), Type.Literal('weekly')], {
  description: '`manual`: only POST /payouts; `daily`: every day at 00:00 UTC; `weekly`: every `weeklyAnchor` at 00:00 UTC',
});
export const WEEK_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const WeekDay = Type.Union(
  [
    Type.Literal('sunday'),
    Type.Literal('monday'),
    Type.Literal('tuesday'),
    Type.Literal('wednesday'),
    Type.Literal('thursday'),
    Type.Literal('friday'),
    Type.Literal('saturday'),
  ],
  { description: 'The day of a weekly payout' },
);

export const PayoutScheduleBody = Type.Object(
  {
    interval: Interval,
    weeklyAnchor: Type.Optional(WeekDay),
    destination: Type.Optional(Destination),
    minimumAmount: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.String(), {
        description: 'Per currency, the least available balance worth paying out ({"XAF": "1000"}); absent: any positive balance',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PayoutScheduleBody = Static<typeof PayoutScheduleBody>;

export const PayoutSchedule = Type.Object({
  object: Type.Literal('payout_schedule'),
  livemode: Type.Boolean(),
  interval: Interval,
  weeklyAnchor: Type.Union([Type.String(), Type.Null()]),
  destination: Type.Union([Type.Object({ provider: Type.String(), phoneNumber: Type.String() }), Type.Null()]),
  minimumAmount: Type.Record(Type.String(), Type.String()),
  nextRunAt: Type.Union([Timestamp, Type.Null()], { description: 'When the next automatic payout runs (null: manual)' }),
});
export type PayoutSchedule = Static<typeof PayoutSchedule>;

/** `payout.paid` and `payout.failed`: the envelope around the payout. */
export const PayoutEvent = eventSchema(Type.Object({ payout: Payout }));
export type PayoutEvent = Static<typeof PayoutEvent>;
