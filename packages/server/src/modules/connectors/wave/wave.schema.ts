import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The Wave API subset we speak (docs.wave.com: Checkout API, Payout API, webhooks), as TypeBox
 * schemas shared by the connector (answers) and the sandbox (requests). Amounts are decimal
 * strings in major units ("5000"); XOF has no minor unit.
 */

const DecimalAmount = Type.String({ pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$', maxLength: 32 });
const HttpsUrl = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 });
const E164 = Type.String({ pattern: '^\\+[1-9][0-9]{6,14}$' });

/** POST /v1/checkout/sessions (+ Idempotency-Key). */
export const WaveCheckoutBody = Type.Object({
  amount: DecimalAmount,
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  success_url: HttpsUrl,
  error_url: HttpsUrl,
  client_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  restrict_payer_mobile: Type.Optional(E164),
  aggregated_merchant_id: Type.Optional(Type.String()),
});
export type WaveCheckoutBody = Static<typeof WaveCheckoutBody>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

/** A checkout session, as every checkout route answers it and the webhook carries it. */
export const WaveCheckoutSession = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 128 }),
  amount: DecimalAmount,
  currency: Type.String(),
  checkout_status: Type.Union([Type.Literal('open'), Type.Literal('complete'), Type.Literal('expired')]),
  payment_status: Type.Union([Type.Literal('processing'), Type.Literal('cancelled'), Type.Literal('succeeded')]),
  wave_launch_url: Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 }),
  client_reference: Nullable(Type.String()),
  transaction_id: Nullable(Type.String()),
  last_payment_error: Type.Optional(Type.Union([Type.Object({ code: Type.String(), message: Type.Optional(Type.String()) }), Type.Null()])),
  success_url: Type.Optional(Type.String()),
  error_url: Type.Optional(Type.String()),
  when_created: Type.Optional(Type.String()),
  when_expires: Type.Optional(Type.String()),
  when_completed: Nullable(Type.String()),
});
export type WaveCheckoutSession = Static<typeof WaveCheckoutSession>;

/** GET /v1/checkout/sessions/search?client_reference=… and GET /v1/payouts/search?client_reference=…. */
export const WaveSessionSearch = Type.Object({ result: Type.Array(WaveCheckoutSession) });

/** POST /v1/payout (+ idempotency-key). `payment_reason` is shown to the payee. */
export const WavePayoutBody = Type.Object({
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  receive_amount: DecimalAmount,
  mobile: E164,
  name: Type.Optional(Type.String({ maxLength: 100 })),
  client_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  payment_reason: Type.Optional(Type.String({ maxLength: 40 })),
});
export type WavePayoutBody = Static<typeof WavePayoutBody>;

export const WavePayout = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 128 }),
  currency: Type.String(),
  receive_amount: DecimalAmount,
  fee: Type.Optional(DecimalAmount),
  mobile: Type.String(),
  client_reference: Nullable(Type.String()),
  status: Type.Union([Type.Literal('processing'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('reversed')]),
  payout_error: Type.Optional(Type.Union([Type.Object({ error_code: Type.String(), error_message: Type.Optional(Type.String()) }), Type.Null()])),
  timestamp: Type.Optional(Type.String()),
});
export type WavePayout = Static<typeof WavePayout>;
export const WavePayoutSearch = Type.Object({ result: Type.Array(WavePayout) });

/** A webhook's body: `{id, type, data}`; checkout events carry the session. */
export const WaveEvent = Type.Object({
  id: Type.String(),
  type: Type.String(),
  data: Type.Object({ client_reference: Nullable(Type.String()) }),
});
export type WaveEvent = Static<typeof WaveEvent>;

/** Error answers: `{code, message}` (`request-validation-error`, `invalid-auth`, …). */
export const WaveErrorBody = Type.Object({ code: Type.Optional(Type.String()), message: Type.Optional(Type.String()) });

export const checkWaveCheckoutBody = Compile(WaveCheckoutBody);
export const checkWaveSession = Compile(WaveCheckoutSession);
export const checkWaveSessionSearch = Compile(WaveSessionSearch);
export const checkWavePayoutBody = Compile(WavePayoutBody);
export const checkWavePayout = Compile(WavePayout);
export const checkWavePayoutSearch = Compile(WavePayoutSearch);
export const checkWaveEvent = Compile(WaveEvent);
export const checkWaveError = Compile(WaveErrorBody);
