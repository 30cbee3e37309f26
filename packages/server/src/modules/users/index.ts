// The users module: end users, registration, /auth/web and access tokens.
export {
  ACCOUNT_SESSION_MS,
  type AuthResult,
  type CodeSent,
  createUsersService,
  DEFAULT_CURRENCY,
  TOKEN_VERSION_TTL_MS,
  type TopupCredited,
  type UsersService,
  userView,
  type UserView,
  VERIFICATION_MAX_ATTEMPTS,
  VERIFICATION_TTL_MS,
} from './users.service.ts';
export {
  AuthResponse,
  Balance,
  ChangePasswordBody,
  CreateTestUserBody,
  Jwks,
  ListUsersQuery,
  LoginBody,
  PasswordResetBody,
  PasswordResetConfirmBody,
  PasswordResetSent,
  PhoneNumber,
  PhoneVerification,
  RegisterBody,
  ResendVerificationBody,
  TestUser,
  UpdateMeBody,
  User,
  UserIdParams,
  UserList,
  VerifyPhoneBody,
} from './users.schema.ts';
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
