import { AUDIT_ACTIONS, FilterInstant } from '../../platform/http/dashboard-api.ts';
import { type Static, type TOptional, Type } from 'typebox';
import { API_RESOURCES, type ApiResource } from '../../platform/tenancy.ts';
import { Intent, Refund } from '../intents/index.ts';
import { Topup } from '../topups/index.ts';
import { INTENT_STATUSES } from '../intents/index.ts';
import { Delivery, Event } from '../webhooks/index.ts';

/** Schemas of the dashboard's own API (/dashboard/api), used by the dashboard web app only. */

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

const Language = Type.Union([Type.Literal('fr'), Type.Literal('en')]);

export const Session = Type.Object({
  object: Type.Literal('dashboard_session'),
  email: Type.String(),
  language: Type.Union([Language, Type.Null()], {
    description:
      "The signed-in user's own language (the dashboard's language switch); null: none chosen, so the browser's languages, then the merchant's default, then French decide.",
  }),
  merchant: Type.Object({ id: Type.String(), name: Type.String(), language: { ...Language, description: "The merchant's default language" } }),
  role: Type.Union([Type.Literal('owner'), Type.Literal('developer'), Type.Literal('analyst'), Type.Literal('support')], {
    description: "The signed-in user's team role",
  }),
  permissions: Type.Array(Type.String(), { description: 'What the role may do (dashboard.roles.ts): the page shows only what works' }),
  csrfToken: Type.String({ description: 'Send it back as `x-csrf-token` on every POST, PATCH and DELETE of /dashboard/api.' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the session ends if left idle (30 minutes; 12 hours at most after sign-in).' }),
  totpEnabled: Type.Boolean({ description: 'Two-factor sign-in is on. Without it, every live-mode route answers 403 `totp_required` (owners must enrol).' }),
});

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
  refunds: Type.Array(Refund, { description: 'Its refunds, oldest first: to the wallet, and to mobile money (a late payment returned to the payer included)' }),
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

const KeyKindSchema = Type.Union([Type.Literal('publishable'), Type.Literal('secret'), Type.Literal('restricted')], {
  description: 'publishable (pk_…, for browsers), secret (sk_…, for your server: everything) or restricted (rk_…, for your server: only its permissions)',
});
const Access = Type.Union([Type.Literal('none'), Type.Literal('read'), Type.Literal('write')], { description: 'write includes read' });
/** A restricted key's permissions: one access per API resource (a resource not named: none). */
export const KeyPermissions = Type.Object(
  Object.fromEntries(API_RESOURCES.map((r) => [r, Type.Optional(Access)])) as Record<ApiResource, TOptional<typeof Access>>,
  { additionalProperties: false, description: 'Access per API resource: none, read or write' },
);
const TotpCode = Type.String({
  minLength: 1,
  maxLength: 20,
  description:
    "A fresh code of the member's authenticator app: required for live secret and restricted keys (403 `totp_code_required` without it; a code already used is 401 `totp_code_reused`)",
});

export const ApiKey = Type.Object({
  id: Type.String(),
  object: Type.Literal('api_key'),
  kind: KeyKindSchema,
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  name: Type.String(),
  display: Type.String({ description: 'The start and the end of the key, to recognise it' }),
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  expiresAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
  allowedOrigins: Type.Array(Type.String()),
  permissions: Type.Union([KeyPermissions, Type.Null()], {
    description: "A restricted key's permissions; null for publishable and secret keys (a secret key may do everything)",
  }),
});
export const CreatedApiKey = Type.Object({ ...ApiKey.properties, secret: Type.String({ description: 'The whole key: shown this once, never stored' }) });
export const ApiKeyList = Type.Object({ data: Type.Array(ApiKey), hasMore: Type.Boolean() });
export const RolledApiKey = Type.Object({ old: ApiKey, new: CreatedApiKey });

const Origins = Type.Array(Type.String({ maxLength: 300 }), { maxItems: 50, description: 'Browser origins allowed to use an API key (none: any)' });

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    kind: KeyKindSchema,
    allowedOrigins: Type.Optional(Origins),
    permissions: Type.Optional(KeyPermissions),
    code: Type.Optional(TotpCode),
  },
  { additionalProperties: false },
);

export const RollKeyBody = Type.Object(
  {
    graceSeconds: Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600, description: 'How long the old key keeps working (0: stops now; at most 7 days)' }),
    code: Type.Optional(TotpCode),
  },
  { additionalProperties: false },
);

export const OriginsBody = Type.Object({ allowedOrigins: Origins }, { additionalProperties: false });

export const EmptyBody = Type.Object({}, { additionalProperties: false });

// ---- team ---------------------------------------------------------------------------------------

const RoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('developer'), Type.Literal('analyst'), Type.Literal('support')], {
  description: 'owner (everything), developer (keys, webhooks, events, test data; no payouts), analyst (read only), support (payments and refunds; no keys)',
});

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const TokenParams = Type.Object({ token: Type.String({ maxLength: 200, description: 'The token of the invitation link (`inv_…`)' }) });

export const Member = Type.Object({
  id: Type.String({ description: '`du_…`' }),
  object: Type.Literal('dashboard_user'),
  email: Type.String(),
  role: RoleSchema,
  createdAt: Timestamp,
});

export const Invitation = Type.Object({
  id: Type.String({ description: '`dinv_…`' }),
  object: Type.Literal('dashboard_invitation'),
  email: Type.String(),
  role: RoleSchema,
  invitedBy: Type.String({ description: 'The e-mail of the member who sent it' }),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});

export const Team = Type.Object({
  object: Type.Literal('dashboard_team'),
  members: Type.Array(Member, { description: 'Oldest first' }),
  invitations: Type.Array(Invitation, { description: 'Pending invitations (not used, revoked or expired), newest first' }),
});

export const InviteBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254, description: 'Who to invite: an address without a dashboard account' }), role: RoleSchema },
  { additionalProperties: false },
);

export const RoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });

export const InvitationPreview = Type.Object({
  object: Type.Literal('dashboard_invitation_preview'),
  email: Type.String(),
  role: RoleSchema,
  merchant: Type.Object({ name: Type.String() }),
  expiresAt: Timestamp,
});

export const AcceptInvitationBody = Type.Object(
  {
    password: Type.String({ minLength: 1, maxLength: 1024, description: 'At least 8 characters; very common passwords are refused (400 `password_weak`).' }),
    language: Type.Optional(Type.Union([Language, Type.Null()], { description: 'The dashboard language the new member chose' })),
  },
  { additionalProperties: false },
);

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
