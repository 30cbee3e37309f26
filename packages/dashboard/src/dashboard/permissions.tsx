import { createContext, type ReactNode, useContext } from 'react';

/**
 * What the signed-in user's role may do (the session's `permissions`, from the server's
 * dashboard.roles.ts). The page hides what the role cannot use; the server refuses it anyway.
 */
export type Permission =
  | 'account'
  | 'payments:read'
  | 'payments:write'
  | 'customers:read'
  | 'customers:contact'
  | 'balance:read'
  | 'payouts:read'
  | 'payouts:write'
  | 'keys:read'
  | 'keys:write'
  | 'webhooks:read'
  | 'webhooks:write'
  | 'events:read'
  | 'testdata:write'
  | 'team:read'
  | 'team:write'
  | 'audit:read'
  | 'settings:read'
  | 'settings:write';

const PermissionsContext = createContext<readonly string[]>([]);

export function PermissionsProvider({ permissions, children }: { permissions: readonly string[]; children: ReactNode }) {
  return <PermissionsContext.Provider value={permissions}>{children}</PermissionsContext.Provider>;
}

/** `can('keys:write')`: whether the signed-in user's role has this permission. */
export function useCan(): (permission: Permission) => boolean {
  const permissions = useContext(PermissionsContext);
  return (permission) => permissions.includes(permission);
}
