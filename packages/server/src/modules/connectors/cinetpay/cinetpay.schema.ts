import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The CinetPay subset we speak (docs.cinetpay.com: payment API v2, transfer API v1), as TypeBox
 * schemas shared by the connector (answers) and the sandbox (requests), so the two cannot drift
 * apart. Two hosts: the payment API (https://api-checkout.cinetpay.com: `/v2/payment`,
 * `/v2/payment/check`, JSON) and the transfer API (https://client.cinetpay.com: `/v1/auth/login`,
 * `/v1/transfer/contact`, `/v1/transfer/money/send/contact`, `/v1/transfer/check/money`,
 * form-encoded with the token in the query). CinetPay's `code` is a string ("00", "201", "627")
 * in the payment API and a number or a string (0, "701") in the transfer API.
 */

const HttpUrl = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 });
const Code = Type.Union([Type.String({ maxLength: 16 }), Type.Integer()]);

/** POST /v2/payment. `amount` is a JSON integer in francs, a multiple of 5. */
export const CinetPayPaymentBody = Type.Object({
  apikey: Type.String({ minLength: 1, maxLength: 256 }),
  site_id: Type.String({ minLength: 1, maxLength: 64 }),
  transaction_id: Type.String({ minLength: 1, maxLength: 64 }),
  amount: Type.Integer({ minimum: 0 }),
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  description: Type.String({ minLength: 1, maxLength: 255 }),
  notify_url: HttpUrl,
  return_url: HttpUrl,
  channels: Type.Union([Type.Literal('ALL'), Type.Literal('MOBILE_MONEY'), Type.Literal('CREDIT_CARD'), Type.Literal('WALLET')]),
  lang: Type.Optional(Type.Union([Type.Literal('fr'), Type.Literal('en')])),
  metadata: Type.Optional(Type.String({ maxLength: 255 })),
  customer_phone_number: Type.Optional(Type.String({ maxLength: 20 })),
  lock_phone_number: Type.Optional(Type.Boolean()),
  customer_id: Type.Optional(Type.String({ maxLength: 64 })),
  customer_name: Type.Optional(Type.String({ maxLength: 100 })),
  customer_surname: Type.Optional(Type.String({ maxLength: 100 })),
  customer_email: Type.Optional(Type.String({ maxLength: 254 })),
  customer_address: Type.Optional(Type.String({ maxLength: 255 })),
  customer_city: Type.Optional(Type.String({ maxLength: 100 })),
  customer_country: Type.Optional(Type.String({ maxLength: 2 })),
  customer_state: Type.Optional(Type.String({ maxLength: 100 })),
  customer_zip_code: Type.Optional(Type.String({ maxLength: 16 })),
});
export type CinetPayPaymentBody = Static<typeof CinetPayPaymentBody>;

/** Every payment API answer: `{code, message, description?, data?, api_response_id?}`. */
export const CinetPayAnswer = Type.Object({
  code: Code,
  message: Type.String({ maxLength: 256 }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
  api_response_id: Type.Optional(Type.String()),
});

/** POST /v2/payment → `201 CREATED` with the page. */
export const CinetPayPaymentAnswer = Type.Object({
  code: Code,
  message: Type.String(),
  data: Type.Object({
    payment_token: Type.String({ minLength: 1, maxLength: 512 }),
    payment_url: HttpUrl,
  }),
});
export type CinetPayPaymentAnswer = Static<typeof CinetPayPaymentAnswer>;

/** POST /v2/payment/check `{apikey, site_id, transaction_id}`. */
export const CinetPayCheckBody = Type.Object({
  apikey: Type.String({ minLength: 1, maxLength: 256 }),
  site_id: Type.String({ minLength: 1, maxLength: 64 }),
  transaction_id: Type.String({ minLength: 1, maxLength: 64 }),
});
export type CinetPayCheckBody = Static<typeof CinetPayCheckBody>;

/**
 * The check's answer about one transaction: `code` "00" (ACCEPTED), a waiting code (662, 623…) or
 * the failure's (627, 600…), and `data.status`. The amount is a decimal string in francs.
 */
export const CinetPayCheckAnswer = Type.Object({
  code: Code,
  message: Type.String(),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  data: Type.Object({
    amount: Type.String({ pattern: '^[0-9]{1,15}(\\.[0-9]+)?$' }),
    currency: Type.String(),
    status: Type.String({ maxLength: 64 }),
    payment_method: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    metadata: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    operator_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    payment_date: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
});
export type CinetPayCheckAnswer = Static<typeof CinetPayCheckAnswer>;

/**
 * The notification's form fields (POST, form-encoded, to notify_url), in the order the x-token
 * HMAC concatenates them (docs.cinetpay.com, "X-TOKEN HMAC"). Each may be missing or empty.
 */
export const NOTIFICATION_FIELDS = [
  'cpm_site_id',
  'cpm_trans_id',
  'cpm_trans_date',
  'cpm_amount',
  'cpm_currency',
  'signature',
  'payment_method',
  'cel_phone_num',
  'cpm_phone_prefixe',
  'cpm_language',
  'cpm_version',
  'cpm_payment_config',
  'cpm_page_action',
  'cpm_custom',
  'cpm_designation',
  'cpm_error_message',
] as const;

/** POST /v1/auth/login (form `apikey`, `password`) → the token (5 minutes). */
export const CinetPayLoginAnswer = Type.Object({
  code: Code,
  message: Type.String(),
  data: Type.Object({ token: Type.String({ minLength: 1, maxLength: 4096 }) }),
});

/** One contact of POST /v1/transfer/contact (form `data`: a JSON array of them). */
export const CinetPayContact = Type.Object({
  prefix: Type.String({ pattern: '^[0-9]{1,4}$' }),
  phone: Type.String({ pattern: '^[0-9]{4,14}$' }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  surname: Type.String({ minLength: 1, maxLength: 100 }),
  email: Type.Optional(Type.String({ maxLength: 254 })),
});
export const CinetPayContacts = Type.Array(CinetPayContact, { minItems: 1, maxItems: 100 });
export type CinetPayContact = Static<typeof CinetPayContact>;

/** One transfer of POST /v1/transfer/money/send/contact (form `data`: a JSON array of them). */
export const CinetPayTransfer = Type.Object({
  prefix: Type.String({ pattern: '^[0-9]{1,4}$' }),
  phone: Type.String({ pattern: '^[0-9]{4,14}$' }),
  amount: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,15}$' })]),
  client_transaction_id: Type.String({ minLength: 1, maxLength: 64 }),
  notify_url: Type.Optional(Type.String({ maxLength: 2048 })),
  payment_method: Type.Optional(Type.String({ maxLength: 32 })),
});
export const CinetPayTransfers = Type.Array(CinetPayTransfer, { minItems: 1, maxItems: 100 });
export type CinetPayTransfer = Static<typeof CinetPayTransfer>;

/**
 * A transfer as the check reads it (GET /v1/transfer/check/money?client_transaction_id=…):
 * `treatment_status` NEW (under way), VAL (paid) or REJ (refused); `amount` in francs.
 */
export const CinetPayTransferView = Type.Object({
  transaction_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  client_transaction_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  amount: Type.Union([Type.Number(), Type.String({ pattern: '^[0-9]{1,15}(\\.[0-9]+)?$' })]),
  receiver: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  operator: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  treatment_status: Type.String({ maxLength: 16 }),
  sending_status: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  comment: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type CinetPayTransferView = Static<typeof CinetPayTransferView>;

/** The transfer API's answers: `{code, message, description?, data}`; `data` is whatever the route gives. */
export const CinetPayTransferAnswer = Type.Object({
  code: Code,
  message: Type.String(),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  data: Type.Optional(Type.Unknown()),
});
export type CinetPayTransferAnswer = Static<typeof CinetPayTransferAnswer>;

export const checkCinetPayPaymentBody = Compile(CinetPayPaymentBody);
export const checkCinetPayAnswer = Compile(CinetPayAnswer);
export const checkCinetPayPaymentAnswer = Compile(CinetPayPaymentAnswer);
export const checkCinetPayCheckBody = Compile(CinetPayCheckBody);
export const checkCinetPayCheckAnswer = Compile(CinetPayCheckAnswer);
export const checkCinetPayLoginAnswer = Compile(CinetPayLoginAnswer);
export const checkCinetPayContacts = Compile(CinetPayContacts);
export const checkCinetPayTransfers = Compile(CinetPayTransfers);
export const checkCinetPayTransferView = Compile(CinetPayTransferView);
export const checkCinetPayTransferAnswer = Compile(CinetPayTransferAnswer);
