import { Type } from 'typebox';
import { FilterInstant } from '../../platform/http/dashboard-api.ts';
import { MethodField } from '../methods/index.ts';
import { Payout } from '../payouts/index.ts';
import { OPERATOR_AUDIT_ACTIONS, OPERATOR_PERMISSIONS, OPERATOR_ROLES } from './operators.roles.ts';

/** Schemas of the operator console's API (/operator/api). */

const Timestamp = Type.String({ format: 'date-time' });
const Role = Type.Enum(OPERATOR_ROLES, { description: "The operator's role (operators.roles.ts)" });
const Mode = Type.Union([Type.Literal('test'), Type.Literal('live')]);
const Totp = Type.String({ minLength: 1, maxLength: 16, description: 'The current 6-digit code of the authenticator app (each code once).' });
const Reason = Type.String({ minLength: 1, maxLength: 500, description: 'Why: kept in the operator audit log.' });

export const OperatorLoginBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    code: Type.Optional({
      ...Totp,
      description: 'Required once the operator has enrolled TOTP; without TOTP yet, leave it out: the session then only enrols.',
    }),
  },
  { additionalProperties: false },
);

export const OperatorSession = Type.Object({
  object: Type.Literal('operator_session'),
  email: Type.String(),
  role: Role,
  permissions: Type.Array(Type.Enum(OPERATOR_PERMISSIONS), { description: 'What the session may do: only `account` until TOTP is enrolled' }),
  totpEnrolmentRequired: Type.Boolean({
    description:
      'True until the operator enrols an authenticator app (POST /operator/api/totp, then /totp/confirm): every other route answers 403 `totp_required`.',
  }),
  csrfToken: Type.String({ description: 'Send it back as `x-csrf-token` on every POST of /operator/api.' }),
  expiresAt: { ...Timestamp, description: 'When the session ends if left idle (15 minutes; 8 hours at most after sign-in).' },
});

export const OperatorTotpEnrolment = Type.Object({
  object: Type.Literal('operator_totp_enrolment'),
  secret: Type.String({ description: 'Base32, shown this once' }),
  uri: Type.String({ description: 'The otpauth:// URI an authenticator app reads' }),
  qrCode: Type.String({ description: 'The URI as a QR code: an SVG `data:` URL for an <img>.' }),
});

export const ConfirmTotpBody = Type.Object({ code: Totp }, { additionalProperties: false });
export const EmptyBody = Type.Optional(Type.Object({}, { additionalProperties: false }));

export const Operator = Type.Object({
  id: Type.String(),
  object: Type.Literal('operator'),
  email: Type.String(),
  role: Role,
  totpEnabled: Type.Boolean(),
  createdAt: Timestamp,
});
export const OperatorList = Type.Object({ object: Type.Literal('list'), data: Type.Array(Operator) });
export const InviteOperatorBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), role: Role }, { additionalProperties: false });
export const InvitedOperator = Type.Object({
  ...Operator.properties,
  password: Type.String({ description: 'Shown this once: hand it to the operator, who enrols TOTP at the first sign-in.' }),
});

export const MerchantsQuery = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: 200, description: 'A merchant id, or part of a name or e-mail address' })) },
  { additionalProperties: false },
);
export const MerchantSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  country: Type.String(),
  frozen: Type.Boolean(),
  createdAt: Timestamp,
});
export const MerchantSummaryList = Type.Object({ object: Type.Literal('list'), data: Type.Array(MerchantSummary) });

export const MerchantIdParams = Type.Object({ id: Type.String({ pattern: '^mch_[0-9A-Za-z]+$', maxLength: 64 }) });

const MethodsAllowance = Type.Object({
  wallet: Type.Boolean(),
  providers: Type.Union([Type.Array(MethodField), Type.Null()], { description: 'The methods allowed (`card` among them); null: every method' }),
});
const FixedFees = Type.Union([Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])), Type.Null()]);
export const OperatorMerchant = Type.Object({
  object: Type.Literal('operator_merchant'),
  id: Type.String(),
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  country: Type.String(),
  language: Type.String(),
  fees: Type.Object({ bps: Type.Union([Type.Integer(), Type.Null()]), fixedMinor: FixedFees }, { description: 'Null: the configured default applies' }),
  settlementDelayDays: Type.Union([Type.Integer(), Type.Null()]),
  reserve: Type.Union([Type.Object({ bps: Type.Integer(), days: Type.Integer() }), Type.Null()]),
  keys: Type.Object({ test: Type.Integer(), live: Type.Integer() }, { description: 'Usable API keys per mode' }),
  frozen: Type.Union([Type.Object({ at: Timestamp, reason: Type.String() }), Type.Null()]),
  methods: Type.Object(
    { test: MethodsAllowance, live: MethodsAllowance },
    { description: 'The payment methods the platform allows this merchant per mode; the merchant chooses within them' },
  ),
  createdAt: Timestamp,
  balances: Type.Array(
    Type.Object({
      mode: Mode,
      kind: Type.Union([Type.Literal('merchant_pending'), Type.Literal('merchant_balance'), Type.Literal('merchant_reserve')]),
      currency: Type.String(),
      amount: Type.String(),
    }),
  ),
});

const MinorDigits = Type.String({ pattern: '^[0-9]{1,18}$', description: 'An amount in minor units' });

export const MerchantTermsBody = Type.Object(
  {
    fees: Type.Optional(
      Type.Union(
        [
          Type.Object(
            {
              bps: Type.Integer({ minimum: 0, maximum: 10_000, description: 'The percentage in basis points (150: 1.5 %)' }),
              fixedMinor: Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), MinorDigits, { description: 'A fixed part per currency, in minor units' }),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        { description: 'Null: the configured default' },
      ),
    ),
    settlementDelayDays: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 365 }), Type.Null()], { description: 'Null: the configured default' })),
    reserve: Type.Optional(
      Type.Union(
        [
          Type.Object(
            { bps: Type.Integer({ minimum: 1, maximum: 10_000 }), days: Type.Integer({ minimum: 1, maximum: 365 }) },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        { description: 'A rolling reserve: a share of each payment held some days; null: off' },
      ),
    ),
    reason: Reason,
  },
  { additionalProperties: false },
);

export const MerchantMethodsBody = Type.Object(
  {
    mode: Mode,
    wallet: Type.Boolean({ description: "Whether the merchant may offer its customers' Caisse wallets" }),
    providers: Type.Union([Type.Array(MethodField, { maxItems: 20, uniqueItems: true }), Type.Null()], {
      description: 'The methods it may offer: mobile-money providers and `card`; null: all',
    }),
    reason: Reason,
  },
  { additionalProperties: false },
);

const MethodChoice = Type.Object({
  method: MethodField,
  name: Type.String({ description: 'The brand (`Moov Money`, `Visa / Mastercard` for `card`), the same in every language' }),
  servesCountry: Type.Boolean({ description: "Some connector takes its payments in the merchant's country (false: listed because the cap names it)" }),
  configured: Type.Boolean({ description: 'This mode has a provider account that reaches it there (its own connector or an aggregator)' }),
});
export const MerchantMethodChoices = Type.Object({
  object: Type.Literal('merchant_method_choices'),
  country: Type.String(),
  test: Type.Array(MethodChoice),
  live: Type.Array(MethodChoice),
});

export const FreezeBody = Type.Object({ reason: Reason }, { additionalProperties: false });

export const OperatorMoney = Type.Object({
  object: Type.Literal('operator_money'),
  totals: Type.Array(
    Type.Object({
      kind: Type.String({
        description:
          'The ledger account kind: user_wallet, merchant_pending, merchant_balance, merchant_reserve, payout_transit, provider_clearing, platform_revenue, external',
      }),
      mode: Mode,
      currency: Type.String(),
      amount: Type.String({ description: 'In the currency’s major units' }),
      minor: Type.String({ description: 'In minor units' }),
      accounts: Type.Integer(),
    }),
  ),
});

export const LedgerVerification = Type.Object({
  object: Type.Literal('ledger_verification'),
  ok: Type.Boolean(),
  accounts: Type.Integer(),
  transfers: Type.Integer(),
  postings: Type.Integer(),
  differences: Type.Array(Type.Object({ type: Type.String(), id: Type.String(), detail: Type.String() })),
});

export const OperatorAuditQuery = Type.Object(
  {
    targetId: Type.Optional(Type.String({ maxLength: 64, description: 'Only the entries about this merchant or operator' })),
    startingAfter: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  },
  { additionalProperties: false },
);
export const OperatorAuditList = Type.Object({
  object: Type.Literal('list'),
  hasMore: Type.Boolean(),
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      object: Type.Literal('operator_audit_entry'),
      action: Type.Enum(OPERATOR_AUDIT_ACTIONS),
      actor: Type.Object({ id: Type.Union([Type.String(), Type.Null()]), email: Type.String() }),
      targetType: Type.Union([Type.String(), Type.Null()]),
      targetId: Type.Union([Type.String(), Type.Null()]),
      before: Type.Unknown(),
      after: Type.Unknown(),
      reason: Type.Union([Type.String(), Type.Null()]),
      createdAt: Timestamp,
    }),
  ),
});

const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' });
export const PayoutThreshold = Type.Object({
  object: Type.Literal('payout_review_threshold'),
  livemode: Type.Boolean(),
  currency: Type.String(),
  amount: Type.String({ description: 'A payout above it (in major units) waits in REVIEW' }),
  setBy: Type.Object({ id: Type.String(), email: Type.String() }, { description: 'The operator who set it: the one who may not review what it holds' }),
  setAt: Timestamp,
});
export const PayoutThresholdList = Type.Object({ object: Type.Literal('list'), data: Type.Array(PayoutThreshold) });
export const SetPayoutThresholdBody = Type.Object(
  {
    mode: Mode,
    currency: Currency,
    amount: Type.Union([Type.String({ maxLength: 32 }), Type.Null()], {
      'x-code': 'amount_invalid',
      description: 'Decimal string in major units ("500000" XAF); null removes the threshold (no payout is held)',
    }),
  },
  { additionalProperties: false },
);
export const PayoutIdParams = Type.Object({ id: Type.String({ pattern: '^po_[0-9A-Za-z]+$', maxLength: 64 }) });
export const ReviewPayoutBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });
export const RejectPayoutBody = Type.Object({ reason: Reason }, { additionalProperties: false });
export const PayoutsInReview = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      ...Payout.properties,
      merchantId: Type.String(),
      thresholdSetBy: Type.Union([Type.String(), Type.Null()], { description: 'The operator id who set the threshold it went over' }),
    }),
  ),
});

const LimitAmount = Type.Union([Type.String({ maxLength: 32 }), Type.Null()], { description: 'Major units; null: no cap' });
const LimitNames = {
  balance: LimitAmount,
  topup_day: LimitAmount,
  topup_month: LimitAmount,
  payment: LimitAmount,
};
export const CustomerLimitsSchema = Type.Object({
  object: Type.Literal('customer_limits'),
  livemode: Type.Boolean(),
  tier: Type.Integer({ description: '0: a verified phone number' }),
  currency: Type.String(),
  limits: Type.Object(LimitNames, {
    description: 'balance: the wallet at most; topup_day, topup_month: top-ups since 00:00 UTC and since the 1st (UTC); payment: one wallet payment at most',
  }),
  updatedBy: Type.String(),
  updatedAt: Timestamp,
});
export const CustomerLimitsList = Type.Object({ object: Type.Literal('list'), data: Type.Array(CustomerLimitsSchema) });
export const SetCustomerLimitsBody = Type.Object(
  {
    mode: Mode,
    tier: Type.Integer({ minimum: 0, maximum: 9 }),
    currency: Currency,
    limits: Type.Object(
      {
        balance: Type.Optional(LimitAmount),
        topup_day: Type.Optional(LimitAmount),
        topup_month: Type.Optional(LimitAmount),
        payment: Type.Optional(LimitAmount),
      },
      { additionalProperties: false, description: 'Every cap of the tier and currency; one left out is no cap' },
    ),
  },
  { additionalProperties: false },
);

export const OperatorProvider = Type.Object({
  object: Type.Literal('operator_provider'),
  provider: Type.String({ description: 'The registry name' }),
  mode: Mode,
  name: Type.String({ description: 'The brand customers know' }),
  countries: Type.Array(Type.String()),
  currencies: Type.Array(Type.String()),
  capabilities: Type.Array(Type.String()),
  configured: Type.Boolean({ description: 'Whether this server has it set up in this mode (live: its settings given; test: a sandbox). Never a setting.' }),
  providerAccount: Type.Union([Type.String(), Type.Null()], {
    description: 'The provider account (`pac_…`) this mode calls it with; null when not set up. The health is this account’s.',
  }),
  health: Type.Object({
    available: Type.Boolean({ description: 'Whether new charges go to this account for this provider now' }),
    outcomes: Type.Record(Type.String(), Type.Integer(), { description: 'Its outcomes since this process started, by kind' }),
  }),
});
export const OperatorProviderList = Type.Object({ object: Type.Literal('list'), data: Type.Array(OperatorProvider) });

export const CustomersQuery = Type.Object({
  phone: Type.String({
    minLength: 4,
    maxLength: 20,
    description: 'The phone number with its country code (`+237…` or `00237…`; spaces, dots and dashes allowed): support serves every country',
  }),
});
export const CustomerIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const CustomerLockBody = Type.Object({ reason: Reason }, { additionalProperties: false });
export const OperatorCustomerList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      object: Type.Literal('operator_customer'),
      id: Type.String(),
      mode: Mode,
      phoneNumber: Type.String(),
      phoneVerified: Type.Boolean(),
      createdAt: Timestamp,
      locked: Type.Boolean(),
      lockedAt: Type.Union([Timestamp, Type.Null()]),
      lockedReason: Type.Union([Type.String(), Type.Null()]),
      // Every field named: what support needs and nothing more (no password hash, no token).
      balances: Type.Array(Type.Object({ currency: Type.String(), amount: Type.String({ description: 'Major units' }) })),
      movements: Type.Array(
        Type.Object({
          transferId: Type.String(),
          merchantId: Type.String({ description: 'The merchant the movement was made with' }),
          kind: Type.String({ description: 'What moved the money: topup, charge, refund, funding, …' }),
          reference: Type.Union([Type.String(), Type.Null()], { description: 'The top-up, intent or refund it belongs to' }),
          currency: Type.String(),
          amount: Type.String({ description: 'Major units, signed: positive into the wallet' }),
          createdAt: Timestamp,
        }),
        { description: 'The latest 20, newest first, across merchants' },
      ),
      limits: Type.Array(CustomerLimitsSchema),
    }),
  ),
});
export const CustomerLock = Type.Object({
  object: Type.Literal('customer_lock'),
  id: Type.String(),
  locked: Type.Boolean(),
  lockedReason: Type.Union([Type.String(), Type.Null()]),
});

export const CustomerPasswordReset = Type.Object({
  object: Type.Literal('customer_password_reset'),
  id: Type.String(),
  channel: Type.Literal('sms'),
  expiresAt: { ...Timestamp, description: 'When the code sent stops working (10 minutes)' },
});

export const FeesQuery = Type.Object(
  {
    mode: Type.Optional(Mode),
    currency: Type.Optional(Currency),
    from: Type.Optional(FilterInstant('From this instant (default: 30 days before `to`)')),
    to: Type.Optional(FilterInstant('Before this instant (default: the end of today, UTC)')),
  },
  { additionalProperties: false },
);
const FeeDay = Type.Object({
  day: Type.String({ format: 'date', description: 'The UTC day' }),
  mode: Mode,
  currency: Type.String(),
  merchantId: Type.String(),
  amount: Type.String({ description: 'In the currency’s major units: fees less fees given back by refunds' }),
  minor: Type.String({ description: 'In minor units' }),
  transfers: Type.Integer({ description: 'Ledger transfers that moved fee revenue that day' }),
});
export const OperatorFees = Type.Object({
  object: Type.Literal('operator_fees'),
  from: Timestamp,
  to: Timestamp,
  data: Type.Array(FeeDay, { description: 'Per UTC day, mode, currency and merchant, oldest day first' }),
  totals: Type.Array(Type.Object({ mode: Mode, currency: Type.String(), amount: Type.String(), minor: Type.String() }), {
    description: 'The period’s sum per mode and currency',
  }),
});

export const ReconciliationRunList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      provider: Type.String({ description: 'The registry name' }),
      mode: Mode,
      from: Timestamp,
      to: Timestamp,
      result: Type.Union([Type.Literal('agreed'), Type.Literal('mismatched'), Type.Literal('unverified')]),
      agreed: Type.Integer(),
      mismatches: Type.Integer(),
      inFlight: Type.Integer(),
      unverified: Type.Integer(),
      generatedAt: Timestamp,
    }),
    { description: 'The newest reconciliation of each provider and mode' },
  ),
});

// ---- routes and late payments to return by hand (decision 0077) ----------------------------------

const RouteKind = Type.Union([Type.Literal('payment'), Type.Literal('payout')]);
const CountryCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166 alpha-2 (CM)' });
const Name = Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9_]+$' });

export const OperatorRoute = Type.Object({
  object: Type.Literal('route'),
  mode: Mode,
  country: Type.String(),
  kind: RouteKind,
  method: Type.String({ description: 'The payment method (operator) the payer chooses' }),
  connectors: Type.Array(Type.String(), { description: 'What a new attempt (or payout) tries, in order' }),
  defaultConnectors: Type.Array(Type.String(), { description: "The operator's own connector, then aggregators, among those with an account" }),
  overridden: Type.Boolean({ description: 'Whether an operator set it (false: the default applies)' }),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.Union([Timestamp, Type.Null()]),
});
export const OperatorRouteList = Type.Object({ object: Type.Literal('list'), data: Type.Array(OperatorRoute) });
export const RoutesQuery = Type.Object({ mode: Type.Optional(Mode) }, { additionalProperties: false });
export const SetRouteBody = Type.Object(
  {
    mode: Mode,
    country: CountryCode,
    kind: Type.Optional(RouteKind),
    method: Name,
    connectors: Type.Union([Type.Array(Name, { minItems: 1, maxItems: 10 }), Type.Null()], {
      description: 'In the order they are tried; null: back to the default',
    }),
  },
  { additionalProperties: false },
);

export const ManualReturn = Type.Object({
  id: Type.String(),
  object: Type.Literal('manual_return'),
  merchantId: Type.String(),
  mode: Mode,
  intentId: Type.String(),
  attemptId: Type.String(),
  connector: Type.String(),
  providerAccount: Type.String(),
  phoneNumber: Type.String({ description: 'Where to send the money back' }),
  amount: Type.String({ description: 'Major units' }),
  currency: Type.String(),
  status: Type.Union([Type.Literal('TO_RETURN'), Type.Literal('RETURNED')]),
  note: Type.Union([Type.String(), Type.Null()]),
  returnedBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  returnedAt: Type.Union([Timestamp, Type.Null()]),
});
export const ManualReturnList = Type.Object({ object: Type.Literal('list'), data: Type.Array(ManualReturn) });
export const ManualReturnsQuery = Type.Object(
  { status: Type.Optional(Type.Union([Type.Literal('TO_RETURN'), Type.Literal('RETURNED')])) },
  { additionalProperties: false },
);
export const ManualReturnParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const MarkReturnedBody = Type.Object({ note: Reason }, { additionalProperties: false });
