import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The MTN MoMo Open API subset we speak (Collection v1_0 requesttopay, Disbursement v1_0
 * transfer), as TypeBox schemas: the connector validates every answer with them, and the sandbox
 * validates every request with them, so the two cannot drift apart.
 */

/** Amounts are decimal strings in major units ("5000", "12.50"), never JSON numbers. */
const DecimalAmount = Type.String({ pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$', maxLength: 32 });

/** POST /{product}/token/ → 200. MTN sends `token_type: "access_token"`; any type is taken. */
export const MomoTokenAnswer = Type.Object({
  access_token: Type.String({ minLength: 1, maxLength: 8192 }),
  token_type: Type.String(),
  expires_in: Type.Integer({ minimum: 1 }),
});
export type MomoTokenAnswer = Static<typeof MomoTokenAnswer>;

export const MomoParty = Type.Object({
  partyIdType: Type.Literal('MSISDN'),
  partyId: Type.String({ pattern: '^[0-9]{5,15}$' }),
});
export type MomoParty = Static<typeof MomoParty>;

/** MTN refuses an empty message, one over 160 characters, and `&`, `'`, `<`, `>` (docs/spec/providers.md). */
export const MOMO_NOTE_MAX = 160;
const Note = Type.String({ minLength: 1, maxLength: MOMO_NOTE_MAX, pattern: "^[^&'<>]*$" });
/** What requesttopay and transfer bodies share; one names the payer, the other the payee. */
const paymentFields = {
  amount: DecimalAmount,
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  externalId: Type.String({ minLength: 1, maxLength: 64 }),
  payerMessage: Note,
  payeeNote: Note,
};

/** POST /collection/v1_0/requesttopay. */
export const MomoRequestToPayBody = Type.Object({ ...paymentFields, payer: MomoParty });
/** POST /disbursement/v1_0/transfer. */
export const MomoTransferBody = Type.Object({ ...paymentFields, payee: MomoParty });
export type MomoPaymentBody = Static<typeof MomoRequestToPayBody> | Static<typeof MomoTransferBody>;

/**
 * GET …/requesttopay/{referenceId} and …/transfer/{referenceId} → 200; the callback body has the
 * same shape. Extra members are allowed (MTN adds some per market); a status outside the three
 * known ones is not (it would be a state we do not understand, so it is not a result either).
 * `reason` is a code string in v1_0 answers; older answers sent `{code, message}`: both are read.
 */
export const MomoStatusAnswer = Type.Object({
  amount: DecimalAmount,
  currency: Type.String(),
  externalId: Type.Optional(Type.String()),
  payer: Type.Optional(Type.Object({ partyIdType: Type.String(), partyId: Type.String() })),
  payee: Type.Optional(Type.Object({ partyIdType: Type.String(), partyId: Type.String() })),
  payerMessage: Type.Optional(Type.String()),
  payeeNote: Type.Optional(Type.String()),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCESSFUL'), Type.Literal('FAILED')]),
  reason: Type.Optional(Type.Union([Type.String(), Type.Object({ code: Type.String(), message: Type.Optional(Type.String()) })])),
  financialTransactionId: Type.Optional(Type.String()),
});
export type MomoStatusAnswer = Static<typeof MomoStatusAnswer>;

/** Error answers: `{code, message}` from the API, `{statusCode, message}` from its gateway. */
export const MomoErrorBody = Type.Object({
  code: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  message: Type.Optional(Type.String()),
});

/** GET /{product}/v1_0/account/balance → 200: the account's balance, read by `check` (its amount is never kept). */
export const MomoBalanceAnswer = Type.Object({
  availableBalance: DecimalAmount,
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
});

export const checkTokenAnswer = Compile(MomoTokenAnswer);
export const checkBalanceAnswer = Compile(MomoBalanceAnswer);
export const checkStatusAnswer = Compile(MomoStatusAnswer);
export const checkErrorBody = Compile(MomoErrorBody);
export const checkRequestToPayBody = Compile(MomoRequestToPayBody);
export const checkTransferBody = Compile(MomoTransferBody);

/**
 * Not MTN's: `GET /_sandbox/requests` of Caisse's MoMo sandbox (mtn-momo.sandbox.ts), which the
 * connector reads to list requests when it talks to that sandbox (MTN's API has no listing).
 * Only the members the listing needs; the sandbox sends more.
 */
export const SandboxListing = Type.Object({
  data: Type.Array(
    Type.Object({
      referenceId: Type.String(),
      kind: Type.Union([Type.Literal('collection'), Type.Literal('disbursement')]),
      amount: DecimalAmount,
      currency: Type.String(),
      externalId: Type.String(),
      status: Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCESSFUL'), Type.Literal('FAILED')]),
      createdAt: Type.String(),
    }),
  ),
});
export const checkSandboxListing = Compile(SandboxListing);
