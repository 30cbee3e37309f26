import { DASHBOARD_PERMISSIONS, type DashboardPermission } from '../../platform/http/dashboard-api.ts';
import { type AccessLevel, API_RESOURCES, type ApiResource, type KeyPermissions } from '../../platform/tenancy.ts';

/**
 * Team roles of a merchant's dashboard users and what each may do. The server checks a route's
 * permission on every call (the page only hides what the role cannot use); the rules are in
 * docs/decisions/0011-dashboard-team-roles.md.
 */
export const ROLES = ['owner', 'developer', 'analyst', 'support'] as const;
export type Role = (typeof ROLES)[number];

/** What a dashboard API route needs, declared on the route (`config.permission`): the vocabulary features share. */
export const PERMISSIONS = DASHBOARD_PERMISSIONS;
export type Permission = DashboardPermission;

const everyone: readonly Role[] = ROLES;
const GRANTS: Record<Permission, readonly Role[]> = {
  account: everyone,
  'payments:read': everyone,
  'payments:write': ['owner', 'support'],
  'customers:read': everyone,
  'customers:contact': ['owner'],
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

/**
 * What a role needs to give a key each access to an API resource
 * (docs/decisions/0026-restricted-keys-and-two-factor.md): a member creates only keys that do no more than they may. A write on a resource whose
 * only API writes are test helpers (customers, balance) needs `testdata:write`.
 */
const KEY_NEEDS: Record<ApiResource, Record<'read' | 'write', readonly Permission[]>> = {
  payments: { read: ['payments:read'], write: ['payments:write'] },
  refunds: { read: ['payments:read'], write: ['payments:write'] },
  payouts: { read: ['payouts:read'], write: ['payouts:write'] },
  customers: { read: ['customers:contact'], write: ['customers:contact', 'testdata:write'] },
  balance: { read: ['balance:read'], write: ['balance:read', 'testdata:write'] },
  webhooks: { read: ['webhooks:read'], write: ['webhooks:write'] },
  events: { read: ['events:read'], write: ['events:read', 'webhooks:write'] },
  payment_links: { read: ['payments:read'], write: ['payments:write'] },
};

/** The most a key created by this role may do, per resource. */
export function keyCeiling(role: Role): Record<ApiResource, AccessLevel> {
  const level = (r: ApiResource): AccessLevel =>
    KEY_NEEDS[r].write.every((p) => can(role, p)) ? 'write' : KEY_NEEDS[r].read.every((p) => can(role, p)) ? 'read' : 'none';
  return Object.fromEntries(API_RESOURCES.map((r) => [r, level(r)])) as Record<ApiResource, AccessLevel>;
}

const RANK: Record<AccessLevel, number> = { none: 0, read: 1, write: 2 };

/**
 * The permissions a key of this kind would have that the role lacks (empty: the role may create
 * it). A secret key does everything, so it needs every permission of the role system (owners); a
 * publishable key only starts customers' flows, which `keys:write` covers.
 */
export function keyBeyondRole(role: Role, kind: 'publishable' | 'secret' | 'restricted', permissions: KeyPermissions | null): string[] {
  if (kind === 'publishable') return [];
  if (kind === 'secret') return PERMISSIONS.filter((p) => !can(role, p));
  const ceiling = keyCeiling(role);
  return API_RESOURCES.filter((r) => RANK[permissions?.[r] ?? 'none'] > RANK[ceiling[r]]).map((r) => `${r}:${permissions?.[r] ?? 'none'}`);
}
