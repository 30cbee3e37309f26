// The OTP module: codes, authorization tokens and their single use by a charge.
export { assertSameUser, createOtpService, type OtpService } from './otp.service.ts';
export { default as otpRoutes } from './otp.routes.ts';
