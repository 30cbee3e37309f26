import { type Static, Type } from 'typebox';
import { OTP_RULES } from '../../platform/codes.ts';

const Timestamp = (description: string) => Type.String({ format: 'date-time', description: `RFC 3339, UTC, with milliseconds. ${description}` });
const UserId = Type.String({ maxLength: 64, description: 'The user id (`usr_…`): must be the `sub` of the access token (else 403 `user_mismatch`).' });

export const InitOtpBody = Type.Object(
  {
    userId: UserId,
    channel: Type.Union([Type.Literal('sms'), Type.Literal('email')], {
      description: "`sms` to the user's verified phone, `email` to the e-mail address on file.",
    }),
    intentionId: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'Dynamic linking: the PENDING intent the code is for. The message names its amount, currency and merchant, and the authorization from verifyOtp pays that intent only (`pi_…`, of the same merchant and mode). Required in live mode (400 `parameter_missing` without it). Test mode still accepts a code without it, whose authorization pays any one intent of the merchant and mode.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type InitOtpBody = Static<typeof InitOtpBody>;

export const OtpChallenge = Type.Object({
  object: Type.Literal('otp_challenge'),
  userId: Type.String(),
  channel: Type.Union([Type.Literal('sms'), Type.Literal('email')]),
  destination: Type.String({ description: 'Where the code went, masked: `+237•••••••89`, `a•••@example.cm`.' }),
  intentionId: Type.Union([Type.String(), Type.Null()], { description: 'The intent the code is bound to, or null.' }),
  expiresAt: Timestamp(`When the code stops working (${OTP_RULES.codeTtlMs / 60_000} minutes after the send).`),
  resendAvailableAt: Timestamp('The earliest moment another initOtp will send a code (one per 30 s, 5 per 15 min).'),
});
export type OtpChallenge = Static<typeof OtpChallenge>;

export const VerifyOtpBody = Type.Object(
  {
    userId: UserId,
    otp: Type.String({ minLength: 1, maxLength: 64, description: 'The 6-digit code the user received.' }),
  },
  { additionalProperties: false },
);
export type VerifyOtpBody = Static<typeof VerifyOtpBody>;

export const OtpAuthorization = Type.Object({
  object: Type.Literal('otp_authorization'),
  authorizationToken: Type.String({
    description: 'Opaque (`otp_…`), single use: send it as `x-otp-token` on `POST /charge`. Keep it in memory only; Caisse stores only its SHA-256.',
  }),
  expiresAt: Timestamp(`${OTP_RULES.authorizationTtlMs / 60_000} minutes after the verification.`),
  userId: Type.String(),
  intentionId: Type.Union([Type.String(), Type.Null()], {
    description: 'The intent the token may pay (dynamic linking), or null (test mode only): any one intent of this merchant and mode.',
  }),
});
export type OtpAuthorization = Static<typeof OtpAuthorization>;
