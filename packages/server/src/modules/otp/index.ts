// The OTP module: codes, authorization tokens and their single use by a charge.
export * from './otp.service.ts';
export * from './otp.schema.ts';
export { default as otpRoutes } from './otp.routes.ts';
