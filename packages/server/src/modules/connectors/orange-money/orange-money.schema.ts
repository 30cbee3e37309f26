import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The Orange Money Web Payment subset we speak (Orange Developer, "Orange Money Web Payment"), as
 * TypeBox schemas: the connector checks every answer with them and the sandbox every request, so
 * the two cannot drift apart. Paths are relative to the API host (https://api.orange.com):
 * `/oauth/v3/token`, `/orange-money-webpay/{country}/v1/webpayment`, `…/transactionstatus`.
 */

/**
 * POST /oauth/v3/token (form `grant_type=client_credentials`, Basic client_id:client_secret) → 200.
 * Orange's examples show `expires_in` both as a number and as a numeric string: both are read.
 */
export const OrangeTokenAnswer = Type.Object({
  token_type: Type.String(),
  access_token: Type.String({ minLength: 1, maxLength: 8192 }),
  expires_in: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[1-9][0-9]{0,9}$' })]),
});
export type OrangeTokenAnswer = Static<typeof OrangeTokenAnswer>;

const HttpUrl = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 512 });

/**
 * POST …/webpayment. `amount` is a JSON integer in major units (Orange's currencies here, XOF, XAF
 * and the dev environment's OUV, have no minor unit). `order_id` is ours and unique per merchant;
 * `reference` is the merchant name shown on Orange's page.
 */
export const OrangeWebPaymentBody = Type.Object({
  merchant_key: Type.String({ minLength: 1, maxLength: 64 }),
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  order_id: Type.String({ minLength: 1, maxLength: 64 }),
  amount: Type.Integer({ minimum: 1 }),
  return_url: HttpUrl,
  cancel_url: HttpUrl,
  notif_url: HttpUrl,
  lang: Type.Union([Type.Literal('fr'), Type.Literal('en')]),
  reference: Type.String({ minLength: 1, maxLength: 30 }),
});
export type OrangeWebPaymentBody = Static<typeof OrangeWebPaymentBody>;

/** → 201 `{status: 201, message: "OK", pay_token, payment_url, notif_token}`. */
export const OrangeWebPaymentAnswer = Type.Object({
  status: Type.Optional(Type.Integer()),
  message: Type.Optional(Type.String()),
  pay_token: Type.String({ minLength: 1, maxLength: 256 }),
  payment_url: Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 }),
  notif_token: Type.String({ minLength: 1, maxLength: 256 }),
});
export type OrangeWebPaymentAnswer = Static<typeof OrangeWebPaymentAnswer>;

/** POST …/transactionstatus: the three fields that identify one payment at Orange. */
export const OrangeStatusBody = Type.Object({
  order_id: Type.String({ minLength: 1, maxLength: 64 }),
  amount: Type.Integer({ minimum: 1 }),
  pay_token: Type.String({ minLength: 1, maxLength: 256 }),
});
export type OrangeStatusBody = Static<typeof OrangeStatusBody>;

export const OrangeStatus = Type.Union([
  Type.Literal('INITIATED'),
  Type.Literal('PENDING'),
  Type.Literal('SUCCESS'),
  Type.Literal('FAILED'),
  Type.Literal('EXPIRED'),
]);
export type OrangeStatus = Static<typeof OrangeStatus>;

/** → 201 `{status, order_id, txnid?}`; `txnid` is Orange's transaction id once paid. */
export const OrangeStatusAnswer = Type.Object({
  status: OrangeStatus,
  order_id: Type.String(),
  txnid: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type OrangeStatusAnswer = Static<typeof OrangeStatusAnswer>;

/** The notification Orange POSTs to `notif_url`: the outcome and the `notif_token` of the payment. */
export const OrangeNotification = Type.Object({
  status: Type.String(),
  notif_token: Type.String(),
  txnid: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type OrangeNotification = Static<typeof OrangeNotification>;

/** Error answers: `{code, message, description}` from the API and its gateway. */
export const OrangeErrorBody = Type.Object({
  code: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  message: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

export const checkOrangeToken = Compile(OrangeTokenAnswer);
export const checkWebPaymentBody = Compile(OrangeWebPaymentBody);
export const checkWebPaymentAnswer = Compile(OrangeWebPaymentAnswer);
export const checkOrangeStatusBody = Compile(OrangeStatusBody);
export const checkOrangeStatusAnswer = Compile(OrangeStatusAnswer);
export const checkOrangeNotification = Compile(OrangeNotification);
export const checkOrangeError = Compile(OrangeErrorBody);
