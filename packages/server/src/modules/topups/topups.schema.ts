import { type Static, Type } from 'typebox';
import { PHONE_AS_WRITTEN } from '../../platform/phone.ts';

const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339, UTC, with milliseconds' });

export const CreateTopupBody = Type.Object(
  {
    amount: Type.String({ 'x-code': 'amount_invalid', description: 'Decimal string in major units of the currency ("5000" XAF).' }),
    currency: Type.String({ description: 'ISO 4217: XAF, XOF, EUR or USD.' }),
    provider: Type.String({ maxLength: 32, description: 'The mobile-money provider, by its registry name (`GET /payment-methods/settings`).' }),
    phoneNumber: Type.String({
      maxLength: 32,
      'x-code': 'phone_invalid',
      description: `The mobile-money number that pays. ${PHONE_AS_WRITTEN}`,
    }),
  },
  { additionalProperties: false },
);
export type CreateTopupBody = Static<typeof CreateTopupBody>;

export const Topup = Type.Object({
  id: Type.String({ description: '`top_…`' }),
  object: Type.Literal('topup'),
  amount: Type.String(),
  currency: Type.String(),
  provider: Type.String(),
  connector: Type.String({
    description:
      "How Caisse reached the provider: the operator's own API (the same name as `provider`) or an aggregator serving many operators, as the route chose.",
  }),
  providerAccount: Type.String({
    description:
      "The provider account (`pac_…`) the request was made with: `pac_sandbox_<connector>` in test mode, `pac_env_<connector>_<hash>` for the environment's settings.",
  }),
  phoneNumber: Type.String(),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCEEDED'), Type.Literal('FAILED')], {
    description:
      'PENDING until the provider says: SUCCEEDED (the wallet is credited, once) or FAILED (with `failureReason`). Timed out after 15 minutes: FAILED.',
  }),
  failureReason: Type.Union([Type.String(), Type.Null()], { description: "The provider's reason (e.g. APPROVAL_REJECTED), or TIMEOUT" }),
  livemode: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  completedAt: Type.Union([Timestamp, Type.Null()]),
});
export type Topup = Static<typeof Topup>;

export const TopupIdParams = Type.Object({ id: Type.String({ maxLength: 64, description: '`top_…`' }) });

export const TopupList = Type.Object({ object: Type.Literal('list'), data: Type.Array(Topup), hasMore: Type.Boolean() });
export const ListTopupsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
