// The onboarding module: merchant sign-up, e-mail verification, the business profile and its review.
export * from './onboarding.service.ts';
export * from './onboarding.schema.ts';
export { DOCUMENT_BODY_LIMIT } from './onboarding.documents.ts';
export type { ProfileDetails, ProfileState } from './onboarding.repository.ts';
export { onboardingDashboardRoutes } from './onboarding.dashboard.ts';
