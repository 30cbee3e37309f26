// The onboarding module: merchant sign-up, e-mail verification, the business profile and its review.
export {
  createOnboardingService,
  type OnboardingService,
  RESEND_PER_ADDRESS,
  RESEND_PER_EMAIL,
  type ReviewState,
  SIGNUP_PER_EMAIL,
  type SignUpAnswer,
  TAX_NUMBER_NAMES,
  VERIFICATION_TTL_MS,
} from './onboarding.service.ts';
export {
  ApproveBody,
  BusinessProfile,
  EmailVerified,
  ProfileDetailsBody,
  RejectBody,
  ResendVerificationBody,
  ShortNameBody,
  SignUpBody,
  SignUpRequested,
  SubmittedProfileList,
  VerificationResent,
  VerifyEmailBody,
} from './onboarding.schema.ts';
export { DOCUMENT_BODY_LIMIT } from './onboarding.documents.ts';
export type { ProfileDetails, ProfileState } from './onboarding.repository.ts';
export { onboardingDashboardRoutes } from './onboarding.dashboard.ts';
