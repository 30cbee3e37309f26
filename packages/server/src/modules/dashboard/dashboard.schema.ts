import { AUDIT_ACTIONS, FilterInstant } from '../../platform/http/dashboard-api.ts';
import { type Static, Type } from 'typebox';
import { Intent, Refund } from '../intents/index.ts';
import { Topup } from '../topups/index.ts';
import { INTENT_STATUSES } from '../intents/index.ts';
import { Delivery, Event } from '../webhooks/index.ts';

/** Schemas of the dashboard's own API (/dashboard/api), used by the dashboard web app only. */

const Timestamp = Type.String({ format: 'date-time' });

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

const Language = Type.Union([Type.Literal('fr'), Type.Literal('en')]);

export { Session } from '../../platform/http/dashboard-api.ts';

export const SessionPatch = Type.Object(
  { language: Type.Union([Language, Type.Null()], { description: "fr or en; null goes back to the browser's languages" }) },
  { additionalProperties: false },
);

export { ModeIdParams, ModeParams } from '../../platform/http/dashboard-api.ts';

export const PaymentsQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    startingAfter: Type.Optional(Type.String({ pattern: '^pi_[0-9a-z]{26}$' })),
    status: Type.Optional(Type.Union(INTENT_STATUSES.map((s) => Type.Literal(s)))),
    createdGte: Type.Optional(FilterInstant('Created at or after this instant')),
    createdLt: Type.Optional(FilterInstant('Created before this instant')),
  },
  { additionalProperties: false },
);
export type PaymentsQuery = Static<typeof PaymentsQuery>;

/** The list's filters without its paging: what the CSV export takes. */
export const PaymentsExportQuery = Type.Object(
  { status: PaymentsQuery.properties.status, createdGte: PaymentsQuery.properties.createdGte, createdLt: PaymentsQuery.properties.createdLt },
  { additionalProperties: false },
);

export const SearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "A payment id (pi_…), a metadata value (an order reference), an amount in major units (5000, 12.50), or the last 4 digits or more of a customer's phone number",
    }),
  },
  { additionalProperties: false },
);
export const SearchResults = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Intent, { description: 'At most 20, newest first' }),
  hasMore: Type.Boolean(),
});

export const OverviewQuery = Type.Object(
  {
    period: Type.Union([Type.Literal('today'), Type.Literal('7d'), Type.Literal('30d')], {
      default: 'today',
      description: 'today (UTC, hourly series) or the last 7 or 30 UTC days including today (daily series)',
    }),
  },
  { additionalProperties: false },
);

const Money = Type.Object({ currency: Type.String(), amount: Type.String({ description: 'Decimal string in major units, as every amount of the API' }) });
const OverviewFigures = Type.Object({
  volume: Type.Array(Money, { description: 'Sum of the successful payments, per currency (refunds not deducted)' }),
  payments: Type.Integer({ description: 'Successful payments' }),
  attempts: Type.Integer({ description: 'Charge attempts, succeeded or declined' }),
  successRate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'payments / attempts; null without attempts' }),
  newCustomers: Type.Integer({ description: 'Customers whose first successful payment to the merchant falls in the period' }),
});
export const Overview = Type.Object({
  object: Type.Literal('dashboard_overview'),
  period: Type.String(),
  interval: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
  from: Timestamp,
  to: Timestamp,
  previousFrom: Timestamp,
  previousTo: Timestamp,
  current: OverviewFigures,
  previous: OverviewFigures,
  series: Type.Array(Type.Intersect([Type.Object({ start: Timestamp }), OverviewFigures]), {
    description: 'One bucket per hour (today) or UTC day, oldest first, up to the current one',
  }),
});

export const PaymentList = Type.Object({ object: Type.Literal('list'), data: Type.Array(Intent), hasMore: Type.Boolean() });

const CustomerRef = Type.Object({ id: Type.String({ description: '`usr_…`' }), phoneNumber: Type.String({ description: 'Masked: the last digits only' }) });

export const PaymentDetail = Type.Object({
  object: Type.Literal('dashboard_payment'),
  payment: Intent,
  events: Type.Array(Event, { description: "The payment's events, oldest first" }),
  deliveries: Type.Array(Delivery, { description: 'Every webhook delivery of those events, newest first' }),
  customer: Type.Union([CustomerRef, Type.Null()], { description: 'The customer who last tried to pay it, if any' }),
  refunds: Type.Array(Refund, {
    description:
      'Its refunds, oldest first: to the wallet, to mobile money (a late payment returned to the payer included), and those recorded as made outside Caisse',
  }),
  refundRecordable: Type.Boolean({
    description: 'Whether its provider cannot refund what is left, so a refund made outside Caisse may be recorded (POST …/recorded-refund)',
  }),
});

export const Customer = Type.Object({
  ...CustomerRef.properties,
  createdAt: Type.String({ format: 'date-time' }),
  firstPaymentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastPaymentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  payments: Type.Integer({ description: 'Succeeded payments to this merchant' }),
  volume: Type.Array(Type.Object({ currency: Type.String(), amount: Type.String() }), { description: 'What they paid this merchant, per currency' }),
});
export const CustomerList = Type.Object({ object: Type.Literal('list'), data: Type.Array(Customer), hasMore: Type.Boolean() });
export const CustomerDetail = Type.Object({
  object: Type.Literal('dashboard_customer'),
  customer: Customer,
  payments: Type.Array(
    Type.Object({
      id: Type.String({ description: '`ch_…`' }),
      intentId: Type.String(),
      amount: Type.String(),
      currency: Type.String(),
      status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]),
      failureCode: Type.Union([Type.String(), Type.Null()]),
      createdAt: Type.String({ format: 'date-time' }),
    }),
    { description: "The customer's payment attempts at this merchant, newest first (at most 50)" },
  ),
  topups: Type.Array(Topup, { description: "Top-ups the customer started through this merchant's checkout, newest first (at most 50)" }),
});
export const CustomersQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const EmptyBody = Type.Object({}, { additionalProperties: false });

// ---- audit log ----------------------------------------------------------------------------------

export const AuditEntry = Type.Object({
  id: Type.String({ description: '`aud_…`' }),
  object: Type.Literal('audit_entry'),
  action: Type.Enum(AUDIT_ACTIONS, { description: '`key.created`, `webhook_endpoint.updated`, `payment.refunded`, `member.removed`…' }),
  actor: Type.Object({ id: Type.Union([Type.String(), Type.Null()]), email: Type.String() }),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live'), Type.Null()], { description: 'The mode it was done in; null for team changes' }),
  targetId: Type.Union([Type.String(), Type.Null()], { description: 'What it was done to (a key, an endpoint, a payment, a member…)' }),
  details: Type.Record(Type.String(), Type.Unknown(), { description: 'A few facts of the action (never a secret)' }),
  createdAt: Timestamp,
});
export const AuditList = Type.Object({ object: Type.Literal('list'), data: Type.Array(AuditEntry), hasMore: Type.Boolean() });
export const AuditQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    startingAfter: Type.Optional(Type.String({ pattern: '^aud_[0-9a-z]{26}$', description: 'The last entry id of the previous page' })),
    action: Type.Optional(Type.Enum(AUDIT_ACTIONS, { description: 'Only entries of this action' })),
  },
  { additionalProperties: false },
);
