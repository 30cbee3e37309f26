// The onboarding module: merchant sign-up, e-mail verification, the business profile and its review.
export { createOnboardingService, type OnboardingService } from './onboarding.service.ts';
export { ApproveBody, BusinessProfile, RejectBody, SubmittedProfileList } from './onboarding.schema.ts';
export { onboardingDashboardRoutes } from './onboarding.dashboard.ts';
