// The users module: end users, registration, /auth/web and access tokens.
export * from './users.service.ts';
export * from './users.schema.ts';
export { assertPasswordPolicy, assertPhoneNumber, maskPhoneNumber, PASSWORD_MAX_LENGTH } from './users.policy.ts';
export { default as usersRoutes } from './users.routes.ts';
export { usersDashboardRoutes } from './users.dashboard.ts';
export {
  createCustomerLimits,
  CUSTOMER_LIMITS,
  type CustomerLimitName,
  type CustomerLimits,
  type CustomerLimitsView,
  type TopUpUsage,
} from './users.limits.ts';
