import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
import { idempotentAnswer } from '../../platform/http/idempotency.ts';
import { IntentIdParams, PublicIntent } from '../intents/index.ts';
import { requestedLanguages } from '../../platform/i18n.ts';
import { ChargeBody, ChargeHeaders, ProcessingIntent, RecordedRefundBody, Refund, RefundBody } from './charges.schema.ts';
import { refundStatusCode } from './charges.service.ts';

const idempotencyNote =
  'Send an `Idempotency-Key` header to make a retry safe: the same key and body within 24 hours replays this answer (`Idempotent-Replayed: true`), a 402 included.';

function sessionToken(request: FastifyRequest): string | undefined {
  const value = request.headers['x-session-token'];
  const token = Array.isArray(value) ? value[0] : value;
  return token === undefined || token.trim() === '' ? undefined : token.trim();
}

function otpToken(request: FastifyRequest): string | undefined {
  const value = request.headers['x-otp-token'];
  const token = Array.isArray(value) ? value[0] : value;
  return token === undefined || token.trim() === '' ? undefined : token.trim();
}

/** charge (docs/spec/endpoints.md, docs/spec/otp-and-charge.md) and refunds (docs/spec/payment-intents.md). */
export default async function chargesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const charges = app.services.charges;
  const attempts = app.services.attempts;

  app.post(
    '/charge',
    {
      config: { auth: 'user', idempotency: 'with-transaction', payerSession: true, refusedWhenFrozen: true },
      // A credential like the others: checked before the body (and before an Idempotency-Key is claimed).
      onRequest: async (request) => {
        if (request.user === null) return; // the session-token charge (mobile money): no OTP
        if (otpToken(request) === undefined) {
          throw new ApiError('otp_token_missing', 'Send the authorizationToken from POST /otp/verify in the x-otp-token header', { param: 'x-otp-token' });
        }
      },
      schema: {
        tags: ['payments'],
        summary: "Pay a payment intent from the user's wallet (charge)",
        description: [
          "Pays the PENDING intent `intentionId` from the signed-in user's wallet with the single-use `authorizationToken` of verifyOtp in `x-otp-token`. In one database transaction: the intent is locked, its state and expiry checked, the token spent, the amount moved in the ledger from the user's wallet to the merchant's balance (intent's currency and mode), the intent moved to SUCCEEDED and `payment.completed` written. Two charges of one intent at once: exactly one succeeds, money moves once.",
          'The answer is the intent in its public shape (as `GET /gateway/sessions/{sessionToken}`: no metadata, no session token), since the browser calls this with the API key. Fulfil orders on the `payment.completed` webhook, not on this answer.',
          "Not enough in the wallet: 402 `insufficient_funds` (with `intentStatus` and `attempts`), the token spent. Above the customer's single-payment cap (an e-money limit set by the platform operator): 403 `customer_limit_exceeded` with `limit: \"payment\"` and `value`, nothing taken. When the payer is the customer who started paying the intent (the first sent a code bound to it), the attempt counts against the intent: `attempts` + 1, `lastError` set, `payment.failed` written, and that customer's third declined attempt moves it to FAILED. Any other customer's decline leaves the intent as it was. Verify a new code to try again.",
          "Errors: `otp_token_missing` (401), `otp_token_invalid` (401: unknown, expired after 10 minutes, already used, issued to another user, bound to another intent, or of another mode — a refused token is not spent), `user_mismatch` (403: a `userId` that is not the access token's), `payment_method_not_allowed` (403: the platform operator does not allow the wallet for you), `payment_method_unsupported` (400: your payment-method settings leave the wallet out in this mode), `not_found` (404: unknown intent, or another merchant's or mode's), `intent_expired` (409), `attempt_in_progress` (409: a mobile-money attempt of the intent is waiting for the provider), `intent_state_invalid` (409: CANCELED, SUCCEEDED, FAILED or refunded). None of them moves money.",
          "**Direct mobile money**: with `paymentMethod: {type: \"mobile_money\", provider, phoneNumber}` and the intent's session token in `x-session-token` (API key only: no user token, no OTP: the operator's PIN authenticates the payer), the answer is **202**: the intent PROCESSING with `nextAction` (`approve_on_phone` with the message in the payer's language, or `redirect`), `paymentMethod` and `attempts` (the list of its mobile-money attempts). The attempt and its provider reference commit before the provider is called; the provider's own status decides it once (a callback is only confirmed by a status read; a poller asks about every PENDING attempt). SUCCEEDED: `payment.completed`, the money from the provider's clearing account to your pending balance (net) and the fee. FAILED (`failureCode`: `payer_not_found`, `insufficient_funds`, `approval_rejected`, `approval_timeout`, `provider_unavailable`, `provider_page_lost`, `amount_out_of_bounds`): the intent PENDING again (FAILED after 5 attempts, EXPIRED when past `expiresAt`, which also writes `payment.expired`) and `payment.failed`. An intent with an attempt in flight does not expire until the provider answers. Errors: `session_token_missing`, `session_token_invalid` (401), `provider_unsupported` (also a provider this intent is not offered: left out by your settings in this mode, or not serving your country), `payment_method_not_allowed` (403: the platform operator's cap), `phone_invalid` (not a mobile number of the merchant's country, or of its own with `+`/`00`; or not served by the provider), `currency_unsupported` (a currency the provider does not move), `amount_out_of_bounds` (400), `attempt_in_progress`, `intent_state_invalid`, `intent_expired` (409), `rate_limited` (429 with Retry-After: 3 prompts per number per 10 minutes and 20 per day, 10 charges per intent per hour; a charge refused before any prompt is sent does not count toward the number's limits), `provider_unavailable` (503: the provider is unavailable; such a refusal sends no prompt and counts toward neither limit).",
          idempotencyNote,
        ].join('\n\n'),
        security: [
          { apiKey: [], accessToken: [] },
          { apiKey: [], sessionToken: [] },
        ],
        headers: ChargeHeaders,
        body: ChargeBody,
        response: { 200: PublicIntent, 202: ProcessingIntent },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.paymentMethod !== undefined) {
        const started = await attempts.start(
          request.merchant,
          sessionToken(request),
          { intentId: body.intentionId, paymentMethod: body.paymentMethod },
          {
            languages: requestedLanguages(request.headers['accept-language']),
            answer: idempotentAnswer(request),
          },
        );
        return reply.code(202).send(started);
      }
      if (request.user === null)
        throw new ApiError('access_token_missing', 'Send the user access token in Authorization: Bearer <token>, or a paymentMethod with the x-session-token');
      return charges.charge(request.merchant, request.user, body, otpToken(request) as string, idempotentAnswer(request));
    },
  );

  app.post(
    '/gateway/:id/refunds',
    {
      config: { auth: 'sk', access: 'refunds:write' },
      schema: {
        tags: ['payment intents'],
        summary: 'Refund a payment, whole or in part',
        description: [
          "Moves `amount` (default: all that is left) back from the merchant's balance to the wallet that paid, in the intent's currency and mode, in one transaction under the intent's row lock: the intent becomes PARTIALLY_REFUNDED or REFUNDED, its `amountRefunded` grows and `payment.refunded` is written. Several refunds may follow one another until the whole amount is back; concurrent refunds never exceed it.",
          "The merchant's balance may go below zero for a refund (the customer's money comes first); it is the merchant's debt to the platform.",
          "A payment made directly with mobile money is refunded to the payer's number through the provider (its refund operation, or a transfer): 202 with the refund `PENDING`, its money held out of the merchant's balance; then `SUCCEEDED` (the intent changes and `payment.refunded` is written, with the refund in `data.refund`) or `FAILED` (`refund.failed`, the money back in the merchant's balance). Refunds still pending count against what is left. A provider that can neither refund nor transfer: 409 `refund_unsupported`.",
          'Errors: `refund_exceeds_amount` (422, with `amountRefundable`), `amount_invalid`, `intent_state_invalid` (409: the intent was not paid, or is REFUNDED already), `refund_unsupported` (409), `provider_unavailable` (503), `not_found`.',
          idempotencyNote,
        ].join('\n\n'),
        security: [{ apiKey: [], secretKey: [] }],
        params: IntentIdParams,
        body: RefundBody,
        response: { 201: Refund, 202: Refund },
      },
    },
    async (request, reply) => {
      const refund = await charges.refund(request.merchant, request.params.id, request.body, idempotentAnswer(request));
      return reply.code(refundStatusCode(refund)).send(refund);
    },
  );

  app.post(
    '/gateway/:id/refunds/recorded',
    {
      config: { auth: 'sk', access: 'refunds:write' },
      schema: {
        tags: ['payment intents'],
        summary: 'Record a refund made outside Caisse',
        description: [
          "For a payment its provider cannot refund (where `POST /gateway/{id}/refunds` answers 409 `refund_unsupported`): records that you paid the payer back another way (`method`: `cash`, `bank_transfer`, `mobile_money` sent by hand, `other`; your `reference`), so that the payment's history agrees with your books. It moves **no money** in Caisse: no ledger transfer, your balance and the fee stay as they are.",
          "In one transaction under the intent's row lock: the intent becomes PARTIALLY_REFUNDED or REFUNDED, its `amountRefunded` grows and `payment.refunded` is written with the refund in `data.refund` (`recorded: true`, `recordedOutside: {method, reference}`). 201 with the refund, `SUCCEEDED`. It is listed with the payment's other refunds and counted in the exports' refunded amount.",
          'Errors: `refund_exceeds_amount` (422, with `amountRefundable`), `amount_invalid`, `validation_error` (an unknown `method`), `intent_state_invalid` (409: not paid, or REFUNDED already), `refund_supported` (409: Caisse can make this refund itself — a wallet payment, or a provider that can refund this amount: use `POST /gateway/{id}/refunds`), `refund_in_progress` (409: a refund through the provider is still pending), `not_found`.',
          idempotencyNote,
        ].join('\n\n'),
        security: [{ apiKey: [], secretKey: [] }],
        params: IntentIdParams,
        body: RecordedRefundBody,
        response: { 201: Refund },
      },
    },
    async (request, reply) => {
      const refund = await app.services.recordedRefunds.record(request.merchant, request.params.id, request.body, idempotentAnswer(request));
      return reply.code(201).send(refund);
    },
  );
}
