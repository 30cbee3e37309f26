/**
 * Team roles of a merchant's dashboard users and what each may do. The server checks a route's
 * permission on every call (the page only hides what the role cannot use); the rules are in
 * docs/decisions.md, "Dashboard team roles".
 */
export const ROLES = ['owner', 'developer', 'analyst', 'support'] as const;
export type Role = (typeof ROLES)[number];

/** What a dashboard API route needs, declared on the route (`config.permission`). */
export const PERMISSIONS = [
  /** The user's own account: session, language, password, two-factor, own sessions. Every role. */
  'account',
  'payments:read',
  /** Cancel, refund, payment links. */
  'payments:write',
  'customers:read',
  'balance:read',
  'payouts:read',
  'payouts:write',
  'keys:read',
  'keys:write',
  'webhooks:read',
  /** Add, change, delete endpoints, reveal and roll secrets, resend events. */
  'webhooks:write',
  'events:read',
  /** Test-mode messages and test users. */
  'testdata:write',
  'team:read',
  'team:write',
  'audit:read',
  /** The merchant's country and payment methods. */
  'settings:read',
  'settings:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const everyone: readonly Role[] = ROLES;
const GRANTS: Record<Permission, readonly Role[]> = {
  account: everyone,
  'payments:read': everyone,
  'payments:write': ['owner', 'support'],
  'customers:read': everyone,
  'balance:read': ['owner', 'developer', 'analyst'],
  'payouts:read': ['owner', 'analyst'],
  'payouts:write': ['owner'],
  'keys:read': ['owner', 'developer', 'analyst'],
  'keys:write': ['owner', 'developer'],
  'webhooks:read': ['owner', 'developer', 'analyst'],
  'webhooks:write': ['owner', 'developer'],
  'events:read': ['owner', 'developer', 'analyst', 'support'],
  'testdata:write': ['owner', 'developer'],
  'team:read': everyone,
  'team:write': ['owner'],
  'audit:read': ['owner', 'analyst'],
  'settings:read': ['owner', 'developer', 'analyst'],
  'settings:write': ['owner'],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[permission].includes(role);
}

/** Every permission of a role: the session answers it so the page shows only what works. */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSIONS.filter((p) => can(role, p));
}
