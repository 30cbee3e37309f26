// The users module: end users, registration, /auth/web and access tokens.
export { createUsersService, type UsersService } from './users.service.ts';
export { TOKEN_VERSION_TTL_MS } from './users.versions.ts';
export { assertPasswordPolicy, maskPhoneNumber } from './users.policy.ts';
export { default as usersRoutes } from './users.routes.ts';
export { usersDashboardRoutes } from './users.dashboard.ts';
export { createCustomerLimits, type CustomerLimits } from './users.limits.ts';
