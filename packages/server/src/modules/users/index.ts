// The users module: end users, registration, /auth/web and access tokens.
export { ACCOUNT_SESSION_MS } from './users.account.ts';
export { DEFAULT_CURRENCY } from './users.records.ts';
export { VERIFICATION_MAX_ATTEMPTS, VERIFICATION_TTL_MS } from './users.messages.ts';
export { createUsersService, type UsersService } from './users.service.ts';
export { TOKEN_VERSION_TTL_MS } from './users.versions.ts';
export { type AuthResult, type CodeSent, type TopupCredited, userView, type UserView } from './users.views.ts';
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
