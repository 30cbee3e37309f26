/**
 * The operator console's roles and what each may do, as the dashboard's team roles: the server
 * checks a route's permission on every call (deny by default: a permission names the roles that
 * have it, nothing else does), and 403 `permission_denied` names the one missing. The rules are in
 * docs/decisions/0033-operator-console.md.
 */
export const OPERATOR_ROLES = ['admin', 'compliance', 'finance', 'support'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** What an operator API route needs, declared on the route (`config.operatorPermission`). */
export const OPERATOR_PERMISSIONS = [
  /** The operator's own session and two-factor enrolment. Every role. */
  'account',
  /** Invite operators and list them. */
  'operators:read',
  'operators:write',
  /** The merchants list, search and a merchant's page. */
  'merchants:read',
  /** Freeze and unfreeze a merchant. */
  'merchants:freeze',
  /** A merchant's commercial terms: fees, settlement delay, rolling reserve. */
  'merchants:terms',
  /** The payment methods a merchant may offer (wallet, providers) per mode. */
  'merchants:methods',
  /** Submitted business profiles: read them, open the identity document, approve or reject. */
  'merchants:review',
  /** The platform's money totals and the ledger check. */
  'money:read',
  'ledger:verify',
  'audit:read',
  /** Set the payout review threshold per mode and currency (decision 0041). */
  'payouts:thresholds',
  /** Payouts held in review: list them, approve or reject (never one held by a threshold one set). */
  'payouts:review',
  /** The providers panel: each provider's set-up and health, never a secret. */
  'providers:read',
  /** Provider accounts (list, add, disable, check; credentials write-only), routes, and late payments marked returned by hand. */
  'providers:manage',
  /** Customers (support): look one up, see their wallet and limits. */
  'customers:read',
  /** Lock and unlock a customer's account (a locked one cannot sign in). */
  'customers:lock',
  /** Set the customer limits per tier and currency (decision 0042). */
  'customers:limits',
  /** Send a customer the password reset code by SMS (decision 0044). */
  'customers:reset',
] as const;
export type OperatorPermission = (typeof OPERATOR_PERMISSIONS)[number];

const GRANTS: Record<OperatorPermission, readonly OperatorRole[]> = {
  account: OPERATOR_ROLES,
  'operators:read': ['admin'],
  'operators:write': ['admin'],
  'merchants:read': OPERATOR_ROLES,
  'merchants:freeze': ['admin', 'compliance'],
  'merchants:review': ['admin', 'compliance'],
  'merchants:terms': ['admin', 'finance'],
  'merchants:methods': ['admin', 'compliance'],
  'money:read': ['admin', 'finance', 'compliance'],
  'ledger:verify': ['admin', 'finance'],
  'audit:read': ['admin', 'compliance'],
  'payouts:thresholds': ['admin', 'finance'],
  'payouts:review': ['admin', 'finance'],
  'providers:read': OPERATOR_ROLES,
  'providers:manage': ['admin'],
  'customers:read': ['admin', 'compliance', 'support'],
  'customers:lock': ['admin', 'compliance', 'support'],
  'customers:limits': ['admin', 'compliance'],
  'customers:reset': ['admin', 'compliance', 'support'],
};

export function operatorCan(role: OperatorRole, permission: OperatorPermission): boolean {
  return GRANTS[permission].includes(role);
}

/** Every permission of a role: the session answers it so the console shows only what works. */
export function operatorPermissionsOf(role: OperatorRole): OperatorPermission[] {
  return OPERATOR_PERMISSIONS.filter((p) => operatorCan(role, p));
}

/** The actions the console writes to its audit log. */
export const OPERATOR_AUDIT_ACTIONS = [
  'operator.created',
  'operator.signed_in',
  'operator.totp_enabled',
  'merchant.frozen',
  'merchant.unfrozen',
  'merchant.terms_set',
  'merchant.methods_set',
  'merchant.approved',
  'merchant.rejected',
  'ledger.verified',
  'payout.threshold_set',
  'payout.approved',
  'payout.rejected',
  'customer_limits.set',
  'customer.looked_up',
  'customer.locked',
  'customer.unlocked',
  'customer.password_reset_sent',
  'provider_account.added',
  'provider_account.disabled',
  'provider_account.checked',
  'route.set',
  'late_payment.returned',
] as const;
export type OperatorAuditAction = (typeof OPERATOR_AUDIT_ACTIONS)[number];
