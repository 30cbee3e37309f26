// The OTP module: codes, authorization tokens and their single use by a charge.
export {
  assertSameUser,
  AUTHORIZATION_TOKEN_PREFIX,
  createOtpService,
  dailyLimitMessage,
  otpMessage,
  type OtpService,
  type PayerContacts,
  type Spending,
} from './otp.service.ts';
export { InitOtpBody, OtpAuthorization, OtpChallenge, VerifyOtpBody } from './otp.schema.ts';
export { default as otpRoutes } from './otp.routes.ts';
