import type { Country } from './countries.ts';

/**
 * The shared vocabulary of who is acting, declared once. Every module and the HTTP layer speak
 * these words; none of them is owned by a module, so `platform/` never imports one.
 */
import { merchantNotApproved } from './errors.ts';

/** The mode of an API key, and so of everything it sees: test and live never mix. */
export type KeyMode = 'test' | 'live';
export const KEY_MODES: readonly KeyMode[] = ['test', 'live'];

/** A merchant in one mode: the scope of every object (intents, events, endpoints, balances). */
export interface Scope {
  merchantId: string;
  mode: KeyMode;
}

/** A scope acting with its merchant's pinned API version (the version its events are written in). */
export interface Caller extends Scope {
  pinnedVersion: string;
}

/**
 * What a restricted key (`rk_…`) may touch: one access level per resource
 * (docs/decisions/0026-restricted-keys-and-two-factor.md). A secret key (`sk_…`) may do everything.
 */
export const API_RESOURCES = ['payments', 'refunds', 'payouts', 'customers', 'balance', 'webhooks', 'events', 'payment_links'] as const;
export type ApiResource = (typeof API_RESOURCES)[number];
export const ACCESS_LEVELS = ['none', 'read', 'write'] as const;
/** `write` includes `read`. */
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
/** A restricted key's permissions: a resource it does not name is `none`. */
export type KeyPermissions = Partial<Record<ApiResource, AccessLevel>>;
/** What a secret-key route needs of a restricted key, declared on the route: `config.access`. */
export type RouteAccess = `${ApiResource}:${'read' | 'write'}`;

/** Whether these permissions (undefined: a secret key's, every one) allow `access`. */
export function allows(permissions: KeyPermissions | undefined, access: RouteAccess): boolean {
  if (permissions === undefined) return true;
  const colon = access.indexOf(':');
  const held = permissions[access.slice(0, colon) as ApiResource];
  return held === 'write' || (held === 'read' && access.endsWith(':read'));
}

/** Who is calling the API once the keys are checked (the `x-api-key`, and the secret key if asked). */
export interface MerchantContext extends Caller {
  apiKeyId: string;
  /** The secret key's or the restricted key's id. */
  secretKeyId: string | undefined;
  /** A restricted key's permissions; undefined for a secret key (every permission) or no key. */
  permissions?: KeyPermissions;
  allowedOrigins: string[];
  /** The merchant's name, as messages to its customers name it. */
  merchantName: string;
  /** The merchant's default language for its customers' messages. */
  merchantLanguage?: string;
  /** The merchant's country: a phone number typed without its country code is read in it. */
  merchantCountry: Country;
  /** The merchant's default validity of a new intent, in seconds. */
  intentExpiresIn: number;
  /** The merchant's own fee schedule, where it has one (else the configured default applies). */
  fees?: { bps: number | null; fixedMinor: Record<string, number | string> | null };
  /** The merchant's own settlement delay in days, where it has one (else the configured default). */
  settlementDelayDays?: number | null;
  /** The merchant's rolling reserve (a share of each charge's net held for some days), when set. */
  reserve?: ReserveTerms | null;
  /** Frozen by an operator: routes that start new money movements refuse it (403 merchant_frozen). */
  frozen?: boolean;
  /** Approved for live mode by an operator: false refuses every live call (403 merchant_not_approved). */
  approved: boolean;
}

/**
 * The one rule of live mode (docs/decisions/0062-live-mode-gated-by-approval.md): a merchant has
 * it only once an operator approved it (self sign-up; the CLI's merchants are approved at
 * creation). Whatever resolves a mode asks this: the API's keys (auth.ts), the dashboard's
 * `/dashboard/api/{mode}/…` routes, intent creation (so a payment link or any later path cannot
 * make a live intent), payouts and their schedules, the hosted checkout page. Test mode is always open.
 */
export function liveModeOpen(merchant: { approved: boolean }, mode: KeyMode): boolean {
  return mode === 'test' || merchant.approved;
}

/** 403 `merchant_not_approved` where `liveModeOpen` says no. */
export function assertModeOpen(merchant: { approved: boolean }, mode: KeyMode): void {
  if (!liveModeOpen(merchant, mode)) throw merchantNotApproved();
}

/** A rolling reserve: `bps` of each charge's net (1 % = 100) held for `days` days. */
export interface ReserveTerms {
  bps: number;
  days: number;
}

/** The end user a user route acts for, once their access token is checked. */
export interface UserContext {
  userId: string;
}

/** Checks API keys (the merchants module provides it; the HTTP layer only knows this shape). */
export interface Authenticator {
  authenticate(apiKey: string | undefined, secretKey: string | undefined, requireSecret: boolean): Promise<MerchantContext>;
  /** The same answer from cached keys alone, or undefined when `authenticate` must be asked (a miss, a failure, a write due). */
  authenticateCached?(apiKey: string | undefined, secretKey: string | undefined, requireSecret: boolean): MerchantContext | undefined;
}

/** Verifies a user's access token for a merchant context (the users module provides it). */
export type AccessTokenVerifier = (token: string, merchant: MerchantContext) => Promise<UserContext>;

/** The scope alone, from any richer context (so a stored row never carries more than it names). */
export function scopeOf(context: Scope): Scope {
  return { merchantId: context.merchantId, mode: context.mode };
}
