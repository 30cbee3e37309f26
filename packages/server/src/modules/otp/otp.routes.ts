import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { OTP_RULES } from '../../platform/codes.ts';
import { idempotentAnswer } from '../../platform/http/idempotency.ts';
import { requestedLanguages } from '../../platform/i18n.ts';
import { InitOtpBody, OtpAuthorization, OtpChallenge, VerifyOtpBody } from './otp.schema.ts';

const tags = ['payments'];
const userSecurity = [{ apiKey: [], accessToken: [] }];

/** initOtp and verifyOtp (docs/spec/endpoints.md, docs/spec/otp-and-charge.md): the user's second factor before a charge. */
export default async function otpRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const otp = app.services.otp;

  app.post(
    '/otp/init',
    {
      config: { auth: 'user', idempotency: 'with-transaction' },
      schema: {
        tags,
        summary: 'Send a one-time code to the user (initOtp)',
        description: [
          'Sends a 6-digit code by SMS to the user\'s verified phone (`channel: "sms"`) or by e-mail to the address on file (`"email"`). In test mode the message lands in `GET /test/messages`, never on a phone. Calling it again sends a fresh code and voids the previous one (resend).',
          'With `intentionId` (a PENDING intent of the same merchant and mode) the message names the amount, the currency and the merchant, and the authorization that verifyOtp gives pays that intent only (dynamic linking). The first customer sent a code for an intent is the one whose declined charges count against it (`POST /charge`).',
          "The message is in the customer's saved language (`PATCH /users/me`), else the request's `Accept-Language` (French or English), else the merchant's default, else French; the amount is written for that locale (`5 000 FCFA`, `FCFA 5,000`).",
          'Live mode requires `intentionId` (400 `parameter_missing`): an unbound authorization could pay any intent of any amount. Test mode keeps accepting a code without it, for scripts that pay whatever intent comes next: its authorization pays any one intent of the merchant and mode, and its declined charges leave the intent untouched.',
          'The code lives 5 minutes and allows 5 wrong tries. Sends are limited per user: one per 30 seconds and 5 per 15 minutes (429 `otp_rate_limited` with `Retry-After`); `resendAvailableAt` says when the next send is allowed.',
          "Errors: `parameter_missing` (400: live mode without `intentionId`), `user_mismatch` (403: the access token is another user's), `phone_not_verified` (403), `email_missing` (422: channel email, no e-mail on file), `not_found` (the user or the intent), `intent_expired` / `intent_state_invalid` (409: the intent can no longer be paid), `attempt_in_progress` (409: a mobile-money attempt of the intent is waiting for the provider), `otp_rate_limited` (429), `otp_daily_limit` (429 with `Retry-After`: 20 wrong codes today for this customer, whatever the merchant; nothing is sent until 00:00 UTC), `unavailable` (503: the SMS or e-mail provider refused; no code was stored, try again).",
        ].join('\n\n'),
        security: userSecurity,
        body: InitOtpBody,
        response: { 200: OtpChallenge },
      },
    },
    async (request) =>
      otp.init(request.merchant, request.user, request.body, requestedLanguages(request.headers['accept-language']), idempotentAnswer(request)),
  );

  app.post(
    '/otp/verify',
    {
      config: { auth: 'user', idempotency: 'with-transaction' },
      schema: {
        tags,
        summary: 'Exchange the code for an authorization token (verifyOtp)',
        description: [
          "Checks the code against the user's live code (the newest one sent, compared in constant time) and answers `authorizationToken`: opaque, single use, valid 10 minutes, bound to the user and — when the code was sent with `intentionId` — to that intent. Send it as `x-otp-token` on `POST /charge`; keep it in memory only.",
          'A wrong code is 400 `otp_incorrect` with `attemptsRemaining` (and nothing more); after 5 wrong codes, 429 `otp_attempts_exceeded` (with `Retry-After`: when a new code may be sent) until initOtp sends a new one. When the user has no live code (none sent, expired after 5 minutes, or already exchanged) the answer is also 400 `otp_incorrect`, with `attemptsRemaining: 0`: ask for a new code.',
          `A customer gets ${OTP_RULES.maxWrongCodesPerDay} wrong codes per UTC day across every merchant: the one that reaches it, and every verification after it that day (the right code included), is 429 \`otp_daily_limit\` with \`Retry-After\` until 00:00 UTC, and the customer is told by SMS (in their language, else the request's \`Accept-Language\`, else the merchant's default) to change their password if it was not them.`,
          'Errors also: `user_mismatch` (403).',
        ].join('\n\n'),
        security: userSecurity,
        body: VerifyOtpBody,
        response: { 200: OtpAuthorization },
      },
    },
    async (request) =>
      otp.verify(request.merchant, request.user, request.body, idempotentAnswer(request), requestedLanguages(request.headers['accept-language'])),
  );
}
