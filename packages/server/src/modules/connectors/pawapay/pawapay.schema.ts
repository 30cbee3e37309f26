import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The part of pawaPay's Merchant API v2 we speak, written from its published OpenAPI document
 * (docs.pawapay.io/v2/api-reference/openapi_v2.yaml) in our own words: the bodies we send (the
 * sandbox checks them) and the answers we read (the connector checks them, and a test checks the
 * sandbox's against them). Amounts are decimal strings in major units ("5000"); ids are our UUIDs;
 * countries are ISO 3166 alpha-3 (`CMR`); phone numbers are digits with the country code, no `+`.
 */

const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
/** No leading zero unless below one; at most two decimals (pawaPay's rule). */
export const PawapayAmount = Type.String({ pattern: '^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,2})?$', minLength: 1, maxLength: 23 });
const Currency = Type.String({ pattern: '^[A-Z]{3}$' });
const Country3 = Type.String({ pattern: '^[A-Z]{3}$' });
const Msisdn = Type.String({ pattern: '^[1-9][0-9]{6,14}$' });
const Provider = Type.String({ pattern: '^[A-Z0-9_]{2,40}$' });
const Timestamp = Type.String({ minLength: 10, maxLength: 40 });

const AccountDetails = Type.Object({ phoneNumber: Msisdn, provider: Provider }, { additionalProperties: false });
const Party = Type.Object({ type: Type.Literal('MMO'), accountDetails: AccountDetails }, { additionalProperties: false });
const Metadata = Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 10 });

export const FailureReason = Type.Object({ failureCode: Type.String({ minLength: 1 }), failureMessage: Type.Optional(Type.String()) });
export type FailureReason = Static<typeof FailureReason>;

/** POST /v2/deposits. `preAuthorisationCode`: the code the payer made, for an operator whose authType is PREAUTH. */
export const DepositBody = Type.Object(
  {
    depositId: Uuid,
    amount: Type.String({ minLength: 1, maxLength: 23 }),
    currency: Currency,
    payer: Party,
    preAuthorisationCode: Type.Optional(Type.String({ minLength: 1, maxLength: 36 })),
    clientReferenceId: Type.Optional(Type.String({ minLength: 1, maxLength: 36 })),
    customerMessage: Type.Optional(Type.String()),
    successfulUrl: Type.Optional(Type.String({ maxLength: 2048 })),
    failedUrl: Type.Optional(Type.String({ maxLength: 2048 })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type DepositBody = Static<typeof DepositBody>;

/** POST /v2/payouts. */
export const PayoutBody = Type.Object(
  {
    payoutId: Uuid,
    amount: Type.String({ minLength: 1, maxLength: 23 }),
    currency: Currency,
    recipient: Party,
    clientReferenceId: Type.Optional(Type.String({ minLength: 1, maxLength: 36 })),
    customerMessage: Type.Optional(Type.String()),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type PayoutBody = Static<typeof PayoutBody>;

/** POST /v2/refunds: the whole deposit (or what is left of it) without an amount, or a part of it. */
export const RefundBody = Type.Object(
  {
    refundId: Uuid,
    depositId: Uuid,
    amount: Type.Optional(Type.String({ minLength: 1, maxLength: 23 })),
    currency: Type.Optional(Currency),
    clientReferenceId: Type.Optional(Type.String({ minLength: 1, maxLength: 36 })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBody>;

/** POST /v2/predict-provider. */
export const PredictBody = Type.Object({ phoneNumber: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });

/** What each initiation answers (200 for all three statuses; 400/401/403 carry a failureReason). */
function initiation<K extends string>(idField: K) {
  return Type.Object({
    [idField]: Uuid,
    status: Type.Union([Type.Literal('ACCEPTED'), Type.Literal('REJECTED'), Type.Literal('DUPLICATE_IGNORED')]),
    created: Type.Optional(Timestamp),
    nextStep: Type.Optional(Type.String()),
    failureReason: Type.Optional(FailureReason),
  } as Record<K | 'status' | 'created' | 'nextStep' | 'failureReason', TSchema>);
}
export const DepositInitiation = initiation('depositId');
export const PayoutInitiation = initiation('payoutId');
export const RefundInitiation = initiation('refundId');
export interface Initiation {
  status: 'ACCEPTED' | 'REJECTED' | 'DUPLICATE_IGNORED';
  created?: string;
  nextStep?: string;
  failureReason?: FailureReason;
}

/** A payment's status as pawaPay holds it (ENQUEUED: a payout or refund held while the operator is down). */
export const PaymentStatus = Type.Union([
  Type.Literal('ACCEPTED'),
  Type.Literal('SUBMITTED'),
  Type.Literal('ENQUEUED'),
  Type.Literal('PROCESSING'),
  Type.Literal('IN_RECONCILIATION'),
  Type.Literal('COMPLETED'),
  Type.Literal('FAILED'),
]);
export type PaymentStatus = Static<typeof PaymentStatus>;

const paymentFields = {
  status: PaymentStatus,
  amount: PawapayAmount,
  currency: Currency,
  country: Type.Optional(Country3),
  customerMessage: Type.Optional(Type.String()),
  clientReferenceId: Type.Optional(Type.String()),
  created: Type.Optional(Timestamp),
  providerTransactionId: Type.Optional(Type.String()),
  failureReason: Type.Optional(FailureReason),
  metadata: Type.Optional(Type.Unknown()),
};

/** A deposit, as its status read's `data` and its callback carry it. */
export const Deposit = Type.Object({
  depositId: Uuid,
  ...paymentFields,
  payer: Party,
  nextStep: Type.Optional(Type.String()),
  authorizationUrl: Type.Optional(Type.String()),
});
export type Deposit = Static<typeof Deposit>;
export const Payout = Type.Object({ payoutId: Uuid, ...paymentFields, recipient: Party });
export type Payout = Static<typeof Payout>;
export const Refund = Type.Object({ refundId: Uuid, depositId: Type.Optional(Uuid), ...paymentFields, recipient: Type.Optional(Party) });
export type Refund = Static<typeof Refund>;

/** GET /v2/{deposits|payouts|refunds}/{id}: FOUND with the payment, or NOT_FOUND (pawaPay never saw the id). */
function statusRead<T extends TSchema>(data: T) {
  return Type.Union([Type.Object({ status: Type.Literal('FOUND'), data }), Type.Object({ status: Type.Literal('NOT_FOUND') })]);
}
export const DepositStatus = statusRead(Deposit);
export const PayoutStatus = statusRead(Payout);
export const RefundStatus = statusRead(Refund);

const OperationStatus = Type.Union([Type.Literal('OPERATIONAL'), Type.Literal('DELAYED'), Type.Literal('CLOSED')]);
const AuthType = Type.Union([Type.Literal('PROVIDER_AUTH'), Type.Literal('PREAUTH'), Type.Literal('REDIRECT_AUTH')]);
const OperationConf = Type.Object({
  minAmount: PawapayAmount,
  maxAmount: PawapayAmount,
  decimalsInAmount: Type.Union([Type.Literal('NONE'), Type.Literal('TWO_PLACES')]),
  status: Type.Optional(OperationStatus),
  authType: Type.Optional(AuthType),
});
const OperationTypes = Type.Object({
  DEPOSIT: Type.Optional(OperationConf),
  PAYOUT: Type.Optional(OperationConf),
  REFUND: Type.Optional(OperationConf),
});

/** GET /v2/active-conf: the account's countries, operators, currencies and, per operation, limits and authorisation. */
export const ActiveConf = Type.Object({
  companyName: Type.String(),
  signatureConfiguration: Type.Optional(Type.Object({ signedRequestsOnly: Type.Optional(Type.Boolean()), signedCallbacks: Type.Optional(Type.Boolean()) })),
  countries: Type.Array(
    Type.Object({
      country: Country3,
      prefix: Type.String({ pattern: '^[0-9]{1,4}$' }),
      displayName: Type.Optional(Type.Record(Type.String(), Type.String())),
      providers: Type.Array(
        Type.Object({
          provider: Provider,
          displayName: Type.Optional(Type.String()),
          nameDisplayedToCustomer: Type.Optional(Type.String()),
          currencies: Type.Array(Type.Object({ currency: Currency, displayName: Type.Optional(Type.String()), operationTypes: OperationTypes })),
        }),
      ),
    }),
  ),
});
export type ActiveConf = Static<typeof ActiveConf>;

/** GET /v2/availability: each operator's state per operation. */
export const Availability = Type.Array(
  Type.Object({
    country: Country3,
    providers: Type.Array(
      Type.Object({
        provider: Provider,
        operationTypes: Type.Object({
          DEPOSIT: Type.Optional(OperationStatus),
          PAYOUT: Type.Optional(OperationStatus),
          REFUND: Type.Optional(OperationStatus),
        }),
      }),
    ),
  }),
);
export type Availability = Static<typeof Availability>;

/** POST /v2/predict-provider's answer: the number cleaned up, its country and likely operator. */
export const Prediction = Type.Object({ country: Country3, provider: Provider, phoneNumber: Msisdn });
export type Prediction = Static<typeof Prediction>;

/** GET /v2/public-key/http: the keys pawaPay signs callbacks with. */
export const PublicKeys = Type.Array(Type.Object({ id: Type.String({ minLength: 1 }), key: Type.String({ minLength: 1 }) }));
export type PublicKeys = Static<typeof PublicKeys>;

/** A refusal outside initiation (401, 403, 400 on a read): at least its failureReason. */
export const ErrorAnswer = Type.Object({ failureReason: FailureReason });

export const checkDepositBody = Compile(DepositBody);
export const checkPayoutBody = Compile(PayoutBody);
export const checkRefundBody = Compile(RefundBody);
export const checkPredictBody = Compile(PredictBody);
export const checkDepositInitiation = Compile(DepositInitiation);
export const checkPayoutInitiation = Compile(PayoutInitiation);
export const checkRefundInitiation = Compile(RefundInitiation);
export const checkDepositStatus = Compile(DepositStatus);
export const checkPayoutStatus = Compile(PayoutStatus);
export const checkRefundStatus = Compile(RefundStatus);
export const checkDeposit = Compile(Deposit);
export const checkPayout = Compile(Payout);
export const checkRefund = Compile(Refund);
export const checkActiveConf = Compile(ActiveConf);
export const checkAvailability = Compile(Availability);
export const checkPrediction = Compile(Prediction);
export const checkPublicKeys = Compile(PublicKeys);
export const checkErrorAnswer = Compile(ErrorAnswer);
