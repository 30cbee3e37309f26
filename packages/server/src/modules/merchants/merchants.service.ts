import { ApiError, merchantFrozen, merchantNotApproved } from '../../platform/errors.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { normalizeOrigin } from '../../platform/http/cors.ts';
import { hashPassword } from '../../platform/passwords.ts';
import {
  ACCESS_LEVELS,
  type AccessLevel,
  API_RESOURCES,
  type ApiResource,
  type KeyMode,
  type KeyPermissions,
  type MerchantContext,
  type ReserveTerms,
} from '../../platform/tenancy.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Language } from '../../platform/i18n.ts';
import type { Country } from '../../platform/countries.ts';
import { type ApiKeyRow, type InvitationRow, type KeyKind, type KeyWithMerchant, merchantsRepository as repo, type TeamRole } from './merchants.repository.ts';
import { accountsRepository as accounts } from './accounts.repository.ts';

export const MAX_ROLL_GRACE_SECONDS = 7 * 24 * 3600;
/** An invitation link works for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** Invitation tokens: `inv_` + 32 random bytes (256 bits) in base62 (the logs mask the prefix). */
const INVITATION_TOKEN_SHAPE = /^inv_[0-9A-Za-z]{40,50}$/;

export interface MemberView {
  id: string;
  object: 'dashboard_user';
  email: string;
  role: TeamRole;
  createdAt: string;
}

export interface InvitationView {
  id: string;
  object: 'dashboard_invitation';
  email: string;
  role: TeamRole;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

function memberView(u: { id: string; email: string; role: TeamRole; created_at: Date }): MemberView {
  return { id: u.id, object: 'dashboard_user', email: u.email, role: u.role, createdAt: u.created_at.toISOString() };
}

export function invitationView(i: InvitationRow): InvitationView {
  return {
    id: i.id,
    object: 'dashboard_invitation',
    email: i.email,
    role: i.role,
    invitedBy: i.invited_by_email,
    createdAt: i.created_at.toISOString(),
    expiresAt: i.expires_at.toISOString(),
  };
}

/**
 * How long a process trusts an API key row it read, without reading it again. A revocation, roll
 * or change of origins drops the key from the cache of the process that made it at once, and from
 * every other process's as soon as PostgreSQL delivers the broadcast (milliseconds); this TTL
 * bounds the staleness only when that broadcast is lost (the LISTEN connection down).
 */
export const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX = 10_000;
/** A key's last use is written at most this often. */
const TOUCH_EVERY_MS = 60_000;
const PUBLISHABLE_KEY = /^pk_(test|live)_[0-9A-Za-z]+$/;
/** Where a secret key goes (Authorization: Bearer), a restricted key goes too. */
const SECRET_KEY = /^[sr]k_(test|live)_[0-9A-Za-z]+$/;

/**
 * A restricted key's permissions as given (an object, or `payments:read,balance:read` from the
 * CLI), checked and written out for every resource (`none` where not named). At least one
 * resource must be readable: a key that can do nothing is a mistake.
 */
export function restrictedPermissions(input: KeyPermissions | string | undefined): Record<ApiResource, AccessLevel> {
  const param = 'permissions';
  let given: Record<string, unknown>;
  if (typeof input === 'string') {
    // No prototype: `__proto__:read` is an unknown resource like any other.
    given = Object.create(null) as Record<string, unknown>;
    for (const part of input
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [resource, level, extra] = part.split(':');
      if (level === undefined || extra !== undefined) throw new ApiError('validation_error', `"${part}" is not resource:level, e.g. payments:read`, { param });
      given[resource as string] = level;
    }
  } else {
    given = input ?? {};
  }
  const out = Object.fromEntries(API_RESOURCES.map((r) => [r, 'none'])) as Record<ApiResource, AccessLevel>;
  for (const [resource, level] of Object.entries(given)) {
    if (!(API_RESOURCES as readonly string[]).includes(resource)) {
      throw new ApiError('validation_error', `Unknown resource "${resource}": one of ${API_RESOURCES.join(', ')}`, { param });
    }
    if (!(ACCESS_LEVELS as readonly unknown[]).includes(level))
      throw new ApiError('validation_error', `The access to ${resource} must be none, read or write`, { param });
    out[resource as ApiResource] = level as AccessLevel;
  }
  if (API_RESOURCES.every((r) => out[r] === 'none')) {
    throw new ApiError('validation_error', 'A restricted key needs at least one permission (read or write on a resource)', { param });
  }
  return out;
}

/** What a key may do, as the audit log and the key list name it: every resource for a secret key. */
export function permissionsOfKey(kind: KeyKind, permissions: KeyPermissions | null): KeyPermissions | null {
  if (kind === 'restricted') return permissions;
  if (kind === 'secret') return Object.fromEntries(API_RESOURCES.map((r) => [r, 'write'])) as KeyPermissions;
  return null;
}

/**
 * API keys by the SHA-256 of the key (the cache never holds a key itself), with their merchant's
 * pinned version: the lookup every request of the API begins with. Unknown keys are not cached.
 */
function createKeyCache(deps: Pick<Deps, 'db' | 'clock' | 'wakeups'>) {
  const entries = new Map<string, { row: KeyWithMerchant; until: number }>();
  const loading = new Map<string, Promise<KeyWithMerchant | undefined>>();
  const cache = {
    /** The cached row while it is fresh, without a lookup (the synchronous path of authentication). */
    peek(hash: Buffer): KeyWithMerchant | undefined {
      const hit = entries.get(hash.toString('hex'));
      return hit && hit.until > deps.clock.now().getTime() ? hit.row : undefined;
    },
    async find(hash: Buffer): Promise<KeyWithMerchant | undefined> {
      const key = hash.toString('hex');
      const now = deps.clock.now().getTime();
      const hit = entries.get(key);
      if (hit && hit.until > now) return hit.row;
      let pending = loading.get(key);
      if (!pending) {
        pending = repo.findKeyByHash(deps.db, hash).finally(() => loading.delete(key));
        loading.set(key, pending);
      }
      const row = await pending;
      entries.delete(key);
      if (row) {
        if (entries.size >= KEY_CACHE_MAX) entries.delete(entries.keys().next().value as string);
        entries.set(key, { row, until: now + KEY_CACHE_TTL_MS });
      }
      return row;
    },
    forget(keyId: string): void {
      for (const [key, entry] of entries) if (entry.row.id === keyId) entries.delete(key);
    },
    clear(): void {
      entries.clear();
    },
  };
  deps.wakeups?.subscribe('api_keys', (message) => ('reset' in message || message.payload === '' ? cache.clear() : cache.forget(message.payload)));
  return cache;
}

export interface KeyView {
  id: string;
  object: 'api_key';
  kind: KeyKind;
  mode: KeyMode;
  name: string;
  display: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  /** Browser origins allowed to use this API key; empty: any origin. */
  allowedOrigins: string[];
  /** A restricted key's access per resource; null for publishable and secret keys (a secret key may do everything). */
  permissions: KeyPermissions | null;
}

export interface CreatedKey extends KeyView {
  /** The whole key: shown this once, never stored. */
  secret: string;
}

export function keyView(k: ApiKeyRow): KeyView {
  return {
    id: k.id,
    object: 'api_key',
    kind: k.kind,
    mode: k.mode,
    name: k.name,
    display: k.display,
    createdAt: k.created_at.toISOString(),
    lastUsedAt: k.last_used_at?.toISOString() ?? null,
    expiresAt: k.expires_at?.toISOString() ?? null,
    revokedAt: k.revoked_at?.toISOString() ?? null,
    allowedOrigins: k.allowed_origins,
    permissions: k.permissions,
  };
}

/** At most this many origins per key. */
export const MAX_ALLOWED_ORIGINS = 50;

/**
 * The browser origins an API key may be used from, each `https://host[:port]` (or `http://` for
 * development) without a path, normalised to lower case and without duplicates. Secret keys take
 * none: browsers never hold them.
 */
export function allowedOriginsFor(kind: KeyKind, origins: readonly string[]): string[] {
  if (origins.length === 0) return [];
  if (kind !== 'publishable') {
    throw new ApiError('validation_error', 'Only API keys (pk_…) take allowed origins: secret keys never reach a browser', { param: 'allowedOrigins' });
  }
  if (origins.length > MAX_ALLOWED_ORIGINS) {
    throw new ApiError('validation_error', `At most ${MAX_ALLOWED_ORIGINS} allowed origins per key`, { param: 'allowedOrigins' });
  }
  const normalized = origins.map((raw) => {
    const origin = normalizeOrigin(raw.trim());
    const url = origin === undefined ? undefined : new URL(raw.trim());
    if (origin === undefined || !url || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '') {
      throw new ApiError('validation_error', `"${raw}" is not an origin: write scheme://host[:port], e.g. https://shop.example`, {
        param: 'allowedOrigins',
      });
    }
    return origin;
  });
  return [...new Set(normalized)];
}

const KEY_PREFIXES: Record<KeyKind, string> = { publishable: 'pk', secret: 'sk', restricted: 'rk' };

/** The reserve as stored (both columns or neither) as terms, or null when off. */
function reserveTerms(bps: number | null, days: number | null): ReserveTerms | null {
  return bps === null || days === null ? null : { bps, days };
}

function keyPrefix(kind: KeyKind, mode: KeyMode): string {
  return `${KEY_PREFIXES[kind]}_${mode}_`;
}

/** A merchant in the operator console's list. */
export interface MerchantSummary {
  id: string;
  name: string;
  email: string | null;
  country: Country;
  frozen: boolean;
  createdAt: string;
}

/** A merchant's page in the operator console (balances come from the ledger). */
export interface MerchantProfile {
  id: string;
  name: string;
  email: string | null;
  country: Country;
  language: Language;
  fees: { bps: number | null; fixedMinor: Record<string, number | string> | null };
  settlementDelayDays: number | null;
  reserve: ReserveTerms | null;
  /** Usable keys (not revoked, not past a roll's grace) per mode. */
  keys: { test: number; live: number };
  frozen: { at: string; reason: string } | null;
  createdAt: string;
}

/** Whether a merchant is frozen, as the operator audit log records it before and after. */
export type FreezeState = { frozen: false } | { frozen: true; frozenAt: string; reason: string };

export function createMerchantsService(deps: Deps) {
  const { db, clock, random, ids } = deps;
  const keys = createKeyCache(deps);

  /** Whether an operator froze the merchant (what runs without an API key asks: the payout scheduler). */
  async function isFrozen(merchantId: string, executor: Executor = db): Promise<boolean> {
    const row = await repo.findMerchant(executor, merchantId);
    return row?.frozen_at != null;
  }

  /** After a change of a key: no process may go on using what it cached of it. */
  async function changed(keyId: string): Promise<void> {
    keys.forget(keyId);
    await deps.wakeups?.broadcast('api_keys', keyId);
  }

  async function createKey(
    merchantId: string,
    input: { kind: KeyKind; mode: KeyMode; name: string; allowedOrigins?: string[]; permissions?: KeyPermissions | string },
    executor = db,
  ): Promise<CreatedKey> {
    if (input.mode === 'live') {
      const merchant = await repo.findMerchant(executor, merchantId);
      if (merchant && merchant.approved_at === null) throw merchantNotApproved();
    }
    if (input.kind !== 'restricted' && input.permissions !== undefined) {
      throw new ApiError('validation_error', 'Only restricted keys (rk_…) take permissions: a secret key may do everything', { param: 'permissions' });
    }
    const permissions = input.kind === 'restricted' ? JSON.stringify(restrictedPermissions(input.permissions)) : null;
    // 24 random bytes = 192 bits, above the specification's 128.
    const secret = keyPrefix(input.kind, input.mode) + randomToken(random, 24);
    const row = await repo.insertKey(executor, {
      id: ids('apiKey'),
      merchant_id: merchantId,
      kind: input.kind,
      mode: input.mode,
      name: input.name,
      key_hash: sha256(secret),
      display: `${secret.slice(0, 12)}…${secret.slice(-4)}`,
      allowed_origins: allowedOriginsFor(input.kind, input.allowedOrigins ?? []),
      permissions,
      created_at: clock.now(),
    });
    return { ...keyView(row), secret };
  }

  async function ownedKey(merchantId: string, keyId: string): Promise<ApiKeyRow> {
    const key = await repo.findKey(db, keyId);
    if (!key || key.merchant_id !== merchantId) throw new ApiError('not_found', `No API key ${keyId}`);
    return key;
  }

  /**
   * The invitation of a link's token, if it can still be accepted: else 404
   * `invitation_not_found` (unknown), 410 `invitation_used`, `invitation_revoked` or
   * `invitation_expired`. With `lock`, the row stays locked for the caller's transaction.
   */
  async function openInvitation(token: string, executor: Executor = db, lock = false): Promise<InvitationRow & { merchant_name: string }> {
    const row = INVITATION_TOKEN_SHAPE.test(token) ? await repo.findInvitationByHash(executor, sha256(token), lock) : undefined;
    if (!row) throw new ApiError('invitation_not_found', 'This invitation link is not known: ask for a new invitation');
    if (row.accepted_at) throw new ApiError('invitation_used', 'This invitation was already used: sign in instead, or ask for a new invitation');
    if (row.revoked_at) throw new ApiError('invitation_revoked', 'This invitation was withdrawn by the team: ask for a new invitation');
    if (row.expires_at <= clock.now())
      throw new ApiError('invitation_expired', 'This invitation has expired (links work for 7 days): ask for a new invitation');
    const merchant = await repo.findMerchant(executor, row.merchant_id);
    return { ...row, merchant_name: merchant?.name ?? '' };
  }

  return {
    createKey,

    /**
     * A merchant with a test publishable key, a test secret key and a dashboard login.
     * Live keys are created on purpose, later, with `keys create --mode live`. Approved for live
     * mode at once (operators onboard the CLI's merchants offline), unless `approved` is false: a
     * merchant that signed up itself waits for an operator's review. `within` runs in the same
     * transaction.
     */
    async createMerchant(
      input: {
        name: string;
        email?: string;
        dashboardPassword?: string;
        /** The owner's password already hashed (sign-up): no password is made. */
        passwordHash?: string;
        language?: Language;
        country?: Country;
        approved?: boolean;
      },
      within?: (tx: Tx, merchantId: string) => Promise<void>,
    ) {
      const email =
        input.email ??
        `${
          input.name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-|-$/g, '') || 'merchant'
        }@caisse.local`;
      const password = input.passwordHash === undefined ? (input.dashboardPassword ?? randomToken(random, 12)) : '';
      const passwordHash = input.passwordHash ?? (await hashPassword(password));
      return db.transaction().execute(async (tx) => {
        const now = clock.now();
        const merchant = await repo.insertMerchant(tx, {
          id: ids('merchant'),
          name: input.name,
          email,
          language: input.language,
          country: input.country,
          created_at: now,
          approved_at: input.approved === false ? null : now,
        });
        const apiKey = await createKey(merchant.id, { kind: 'publishable', mode: 'test', name: 'Default test key' }, tx);
        const secretKey = await createKey(merchant.id, { kind: 'secret', mode: 'test', name: 'Default test secret key' }, tx);
        await repo.insertDashboardUser(tx, { id: ids('dashboardUser'), merchant_id: merchant.id, email, password_hash: passwordHash, created_at: now });
        await within?.(tx, merchant.id);
        return {
          merchantId: merchant.id,
          test: { apiKey: apiKey.secret, secretKey: secretKey.secret },
          dashboard: { email, password },
        };
      });
    },

    /**
     * Sets the merchant's fee schedule (`caisse merchants fees`): a percentage in basis points and
     * a fixed part per currency in minor units. Keys cached by any process pick it up within the
     * key cache's life; the broadcast drops them at once.
     */
    async setFees(merchantId: string, bps: number, fixedMinor: Record<string, bigint>): Promise<void> {
      if (!Number.isInteger(bps) || bps < 0 || bps > 10_000)
        throw new ApiError('validation_error', 'The percentage must be from 0 to 100 with at most 2 decimals', { param: 'percent' });
      const fixed = Object.fromEntries(Object.entries(fixedMinor).map(([c, v]) => [c, v.toString()]));
      if (!(await repo.setFees(db, merchantId, bps, fixed))) throw new ApiError('not_found', `No merchant ${merchantId}`);
      keys.clear();
      await deps.wakeups?.broadcast('api_keys', '');
    },

    /**
     * Sets the merchant's default language (`caisse merchants language`): its customers' messages
     * use it when they chose none and their request named none. Cached keys carry
     * it, so they are dropped as for fees.
     */
    async setLanguage(merchantId: string, language: Language): Promise<void> {
      if (!(await repo.setLanguage(db, merchantId, language))) throw new ApiError('not_found', `No merchant ${merchantId}`);
      keys.clear();
      await deps.wakeups?.broadcast('api_keys', '');
    },

    /**
     * Sets how many days a charge's net stays pending (`caisse merchants settlement`; 0: available
     * within seconds). It applies to charges made from then on.
     */
    async setSettlementDelay(merchantId: string, days: number): Promise<void> {
      if (!Number.isInteger(days) || days < 0 || days > 365)
        throw new ApiError('validation_error', 'The delay is a whole number of days from 0 to 365', { param: 'delayDays' });
      if (!(await repo.setSettlementDelay(db, merchantId, days))) throw new ApiError('not_found', `No merchant ${merchantId}`);
      keys.clear();
      await deps.wakeups?.broadcast('api_keys', '');
    },

    /**
     * Sets the merchant's rolling reserve (`caisse merchants reserve`; null: off): from then on
     * each charge holds `bps` of its net for `days` days. Holds already made keep their terms.
     */
    async setReserve(merchantId: string, reserve: ReserveTerms | null): Promise<void> {
      if (
        reserve !== null &&
        (!Number.isInteger(reserve.bps) || reserve.bps < 1 || reserve.bps > 10_000 || !Number.isInteger(reserve.days) || reserve.days < 1 || reserve.days > 365)
      ) {
        throw new ApiError('validation_error', 'The reserve is 0.01 to 100 percent, held 1 to 365 days', { param: 'reserve' });
      }
      if (!(await repo.setReserve(db, merchantId, reserve))) throw new ApiError('not_found', `No merchant ${merchantId}`);
      keys.clear();
      await deps.wakeups?.broadcast('api_keys', '');
    },

    /**
     * Sets the merchant's country (`caisse merchants country`, the dashboard's settings): from then
     * on its checkout offers that country's providers and currency. Intents already created keep
     * their currency.
     */
    async setCountry(merchantId: string, country: Country): Promise<void> {
      if (!(await repo.setCountry(db, merchantId, country))) throw new ApiError('not_found', `No merchant ${merchantId}`);
    },

    /** The dashboard user's own language (null: back to the browser's, then the merchant's). */
    setDashboardLanguage: (dashboardUserId: string, language: Language | null) => repo.setDashboardUserLanguage(db, dashboardUserId, language),

    /** How many merchants there are (`npm start` creates one on an empty database). */
    countMerchants: () => repo.countMerchants(db),

    /** The first `limit` merchants, oldest first (`caisse merchants list`, the start banner). */
    /** Merchants by id, name or e-mail (the operator console's search), newest first. */
    async searchMerchants(text: string, limit: number): Promise<MerchantSummary[]> {
      return (await repo.searchMerchants(db, text, limit)).map((m) => ({
        id: m.id,
        name: m.name,
        email: m.email,
        country: m.country,
        frozen: m.frozen_at !== null,
        createdAt: m.created_at.toISOString(),
      }));
    },

    /** What the operator console shows of a merchant; undefined when there is no such merchant. */
    async merchantProfile(merchantId: string): Promise<MerchantProfile | undefined> {
      const row = await repo.findMerchant(db, merchantId);
      if (!row) return undefined;
      const counts = await repo.countKeys(db, merchantId, clock.now());
      const keysOf = (mode: KeyMode) => Number(counts.find((c) => c.mode === mode)?.n ?? 0);
      return {
        id: row.id,
        name: row.name,
        email: row.email,
        country: row.country,
        language: row.language,
        fees: { bps: row.fee_bps, fixedMinor: row.fee_fixed },
        settlementDelayDays: row.settlement_delay_days,
        reserve: reserveTerms(row.reserve_bps, row.reserve_days),
        keys: { test: keysOf('test'), live: keysOf('live') },
        frozen: row.frozen_at === null ? null : { at: row.frozen_at.toISOString(), reason: row.frozen_reason ?? '' },
        createdAt: row.created_at.toISOString(),
      };
    },

    /**
     * Freezes a merchant (`frozen` with its reason) or unfreezes it (null). `within` runs in the
     * same transaction with the state before and after (the operator's audit entry). Every
     * process drops its cached keys at once, as for a revoked key: the next call sees it.
     */
    async setFrozen(
      merchantId: string,
      frozen: { reason: string } | null,
      within: (tx: Tx, before: FreezeState, after: FreezeState) => Promise<void>,
    ): Promise<{ before: FreezeState; after: FreezeState }> {
      const changed = await db.transaction().execute(async (tx) => {
        const now = clock.now();
        const old = await repo.setFrozen(tx, merchantId, frozen && { at: now, reason: frozen.reason });
        if (!old) throw new ApiError('not_found', `No merchant ${merchantId}`, { param: 'id' });
        const before: FreezeState =
          old.frozen_at === null ? { frozen: false } : { frozen: true, frozenAt: old.frozen_at.toISOString(), reason: old.frozen_reason ?? '' };
        const after: FreezeState = frozen === null ? { frozen: false } : { frozen: true, frozenAt: now.toISOString(), reason: frozen.reason };
        await within(tx, before, after);
        return { before, after };
      });
      keys.clear();
      await deps.wakeups?.broadcast('api_keys', '');
      return changed;
    },

    /**
     * Approves the merchant for live mode (at `at`) or withdraws it (null), in the caller's
     * transaction. Its keys' cached rows are dropped so every process sees it.
     */
    async setApproved(tx: Executor, merchantId: string, at: Date | null): Promise<void> {
      await repo.setApproved(tx, merchantId, at);
      for (const key of await repo.listKeys(tx, merchantId)) keys.forget(key.id);
    },

    /** 403 `merchant_frozen` for a frozen merchant (what reaches a service without an API key: the dashboard). */
    async assertNotFrozen(merchantId: string): Promise<void> {
      if (await isFrozen(merchantId)) throw merchantFrozen();
    },

    isFrozen,

    async listMerchants(limit = 100): Promise<{ id: string; name: string; email: string | null; createdAt: string }[]> {
      return (await repo.listMerchants(db, limit)).map((m) => ({ id: m.id, name: m.name, email: m.email, createdAt: m.created_at.toISOString() }));
    },

    /** A merchant's name, pinned API version, language, country and intents' default validity; undefined when there is no such merchant. */
    async findMerchant(merchantId: string): Promise<
      | {
          id: string;
          name: string;
          email: string | null;
          pinnedVersion: string;
          language: Language;
          country: Country;
          intentExpiresIn: number;
          frozen: boolean;
          approved: boolean;
        }
      | undefined
    > {
      const row = await repo.findMerchant(db, merchantId);
      return (
        row && {
          id: row.id,
          name: row.name,
          email: row.email,
          pinnedVersion: row.api_version,
          language: row.language,
          country: row.country,
          intentExpiresIn: row.intent_expires_in,
          frozen: row.frozen_at !== null,
          approved: row.approved_at !== null,
        }
      );
    },

    /** What settling a payment outside a request needs of a merchant: fees, settlement delay, pinned version. */
    async paymentTerms(
      merchantId: string,
      executor: Executor = db,
    ): Promise<{
      pinnedVersion: string;
      fees: { bps: number | null; fixedMinor: Record<string, number | string> | null };
      settlementDelayDays: number | null;
      reserve: ReserveTerms | null;
    }> {
      const row = await repo.findMerchant(executor, merchantId);
      if (!row) throw new Error(`no merchant ${merchantId}`);
      return {
        pinnedVersion: row.api_version,
        fees: { bps: row.fee_bps, fixedMinor: row.fee_fixed },
        settlementDelayDays: row.settlement_delay_days,
        reserve: reserveTerms(row.reserve_bps, row.reserve_days),
      };
    },

    /** The pinned API version of each of these merchants (in the caller's transaction when given). */
    pinnedVersions: (ids: readonly string[], executor: Executor = db) => repo.pinnedVersions(executor, ids),

    /** A dashboard account by e-mail (lower case), with its password hash to check and its merchant. */
    findDashboardAccountByEmail: (email: string) => repo.findDashboardUserByEmail(db, email),

    /** A dashboard account by id, with its merchant's name and pinned version (no password hash). */
    findDashboardAccount: (id: string) => repo.findDashboardUser(db, id),

    /**
     * A dashboard user's credentials (password hash, encrypted TOTP secret, recovery codes, reset
     * links): the dashboard module's account security works through these, in its transaction
     * when it passes one.
     */
    dashboardCredentials: {
      find: (id: string, executor: Executor = db) => accounts.findCredentials(executor, id),
      setPassword: (id: string, passwordHash: string, executor: Executor = db) => accounts.setPassword(executor, id, passwordHash),
      setPendingTotp: (id: string, secretEncrypted: Buffer) => accounts.setPendingTotp(db, id, secretEncrypted),
      enableTotp: (id: string, at: Date, step: number, executor: Executor = db) => accounts.enableTotp(executor, id, at, step),
      disableTotp: (id: string, executor: Executor = db) => accounts.disableTotp(executor, id),
      claimTotpStep: (id: string, step: number) => accounts.claimTotpStep(db, id, step),
      replaceRecoveryCodes: (id: string, hashes: Buffer[], executor: Executor = db) => accounts.replaceRecoveryCodes(executor, id, hashes, clock.now()),
      useRecoveryCode: (id: string, hash: Buffer) => accounts.useRecoveryCode(db, id, hash, clock.now()),
      recoveryCodesLeft: (id: string) => accounts.countRecoveryCodesLeft(db, id),
      insertReset: (row: { token_hash: Buffer; dashboard_user_id: string; created_at: Date; expires_at: Date }) =>
        accounts.insertReset(db, { ...row, used_at: null }),
      claimReset: (tokenHash: Buffer, executor: Executor = db) => accounts.claimReset(executor, tokenHash, clock.now()),
      findReset: (tokenHash: Buffer) => accounts.findReset(db, tokenHash),
      closeResets: (id: string, executor: Executor = db) => accounts.closeResets(executor, id, clock.now()),
      /** Retention: deletes up to `limit` reset links expired by `now`. */
      purgeExpiredResets: (now: Date, limit: number) => accounts.purgeExpiredResets(db, now, limit),
    },

    // ---- team: a merchant's dashboard users, their roles and invitations --------------------

    /** The members, oldest first, and the invitations still pending, newest first. */
    async listTeam(merchantId: string): Promise<{ members: MemberView[]; invitations: InvitationView[] }> {
      const members = (await repo.listDashboardUsers(db, merchantId)).map(memberView);
      const invitations = (await repo.listPendingInvitations(db, merchantId, clock.now())).map(invitationView);
      return { members, invitations };
    },

    /**
     * Invites an e-mail address to the team with a role: a new random token (returned once, for
     * the e-mail's link; only its hash is kept), valid 7 days. An address that already has a
     * dashboard account (of any merchant: sign-in is by e-mail) is 409 `already_exists`; an
     * earlier pending invitation of the same address is revoked (the newest link is the one).
     */
    async invite(
      merchantId: string,
      input: { email: string; role: TeamRole; by: { id: string; email: string } },
      executor: Executor = db,
    ): Promise<{ invitation: InvitationView; token: string }> {
      const email = input.email.trim().toLowerCase();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ApiError('validation_error', 'email must be an e-mail address', { param: 'email' });
      if (await repo.findDashboardUserByEmail(executor, email)) {
        throw new ApiError('already_exists', `${email} already has a dashboard account: a person has one account, of one merchant`, { param: 'email' });
      }
      const now = clock.now();
      await repo.revokePendingInvitationsOf(executor, merchantId, email, now);
      const token = `inv_${randomToken(random, 32)}`;
      const row = await repo.insertInvitation(executor, {
        id: ids('dashboardInvitation'),
        merchant_id: merchantId,
        email,
        role: input.role,
        token_hash: sha256(token),
        invited_by: input.by.id,
        invited_by_email: input.by.email,
        created_at: now,
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      });
      return { invitation: invitationView(row), token };
    },

    openInvitation,

    /**
     * Accepts an invitation in the caller's transaction: the dashboard user of the invitation's
     * merchant, e-mail and role, with this password hash; the invitation is used up.
     */
    async acceptInvitation(tx: Executor, token: string, input: { passwordHash: string; language: Language | null }) {
      const invitation = await openInvitation(token, tx, true);
      if (await repo.findDashboardUserByEmail(tx, invitation.email)) {
        throw new ApiError('already_exists', `${invitation.email} already has a dashboard account: sign in instead`, { param: 'token' });
      }
      const now = clock.now();
      const user = await repo.insertDashboardUser(tx, {
        id: ids('dashboardUser'),
        merchant_id: invitation.merchant_id,
        email: invitation.email,
        password_hash: input.passwordHash,
        role: invitation.role,
        language: input.language,
        created_at: now,
      });
      await repo.updateInvitation(tx, invitation.id, { accepted_at: now, accepted_user_id: user.id });
      return { user: memberView(user), invitation: invitationView(invitation), merchantId: invitation.merchant_id };
    },

    /** Revokes a pending invitation (410 `invitation_used` once accepted; revoking twice is harmless). */
    async revokeInvitation(tx: Executor, merchantId: string, id: string): Promise<InvitationView> {
      const row = await repo.findInvitation(tx, merchantId, id);
      if (!row) throw new ApiError('invitation_not_found', `No invitation ${id}`, { param: 'id' });
      if (row.accepted_at) throw new ApiError('invitation_used', 'This invitation was already accepted: remove the member instead');
      if (row.revoked_at) return invitationView(row);
      return invitationView(await repo.updateInvitation(tx, row.id, { revoked_at: clock.now() }));
    },

    /** Changes a member's role; 409 `last_owner` if that would leave the team without an owner. */
    async setMemberRole(tx: Executor, merchantId: string, userId: string, role: TeamRole): Promise<{ before: TeamRole; member: MemberView }> {
      const member = await lockedMember(tx, merchantId, userId);
      if (member.role === 'owner' && role !== 'owner') await assertAnotherOwner(tx, merchantId, userId, 'demoted');
      await repo.setDashboardUserRole(tx, userId, role);
      const after = (await repo.listDashboardUsers(tx, merchantId)).find((u) => u.id === userId) ?? { ...member, created_at: clock.now() };
      return { before: member.role, member: memberView(after) };
    },

    /** Removes a member (the caller ends their sessions in the same transaction); never the last owner. */
    async removeMember(tx: Executor, merchantId: string, userId: string): Promise<{ id: string; email: string; role: TeamRole }> {
      const member = await lockedMember(tx, merchantId, userId);
      if (member.role === 'owner') await assertAnotherOwner(tx, merchantId, userId, 'removed');
      await repo.deleteDashboardUser(tx, userId);
      return member;
    },

    /** Whether a key can still be used now (not revoked, not past its roll's grace). */
    async isKeyUsable(keyId: string): Promise<boolean> {
      const key = await repo.findKey(db, keyId);
      const now = clock.now();
      return key !== undefined && !key.revoked_at && !(key.expires_at && key.expires_at <= now);
    },

    async listKeys(merchantId: string): Promise<KeyView[]> {
      return (await repo.listKeys(db, merchantId)).map(keyView);
    },

    /**
     * Issues a replacement key (same merchant, kind, mode and name) and lets the old one work for
     * `graceSeconds` more (0 ends it now; at most 7 days).
     */
    async rollKey(merchantId: string, keyId: string, graceSeconds: number): Promise<{ old: KeyView; new: CreatedKey }> {
      if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROLL_GRACE_SECONDS) {
        throw new ApiError('validation_error', 'grace must be a whole number of seconds from 0 to 604800 (7 days)', { param: 'grace' });
      }
      const old = await ownedKey(merchantId, keyId);
      const now = clock.now();
      if (old.revoked_at || (old.expires_at && old.expires_at <= now)) {
        throw new ApiError('validation_error', 'A revoked or expired key cannot be rolled', { param: 'keyId' });
      }
      const rolled = await db.transaction().execute(async (tx) => {
        const created = await createKey(
          merchantId,
          { kind: old.kind, mode: old.mode, name: old.name, allowedOrigins: old.allowed_origins, permissions: old.permissions ?? undefined },
          tx,
        );
        const graceEnd = new Date(now.getTime() + graceSeconds * 1000);
        const expiresAt = old.expires_at && old.expires_at < graceEnd ? old.expires_at : graceEnd;
        const updated = await repo.updateKey(tx, old.id, { expires_at: expiresAt, rolled_to: created.id });
        return { old: keyView(updated ?? old), new: created };
      });
      await changed(old.id);
      return rolled;
    },

    /** Replaces the browser origins an API key may be used from (empty: any origin). */
    async setAllowedOrigins(merchantId: string, keyId: string, origins: string[]): Promise<KeyView> {
      const key = await ownedKey(merchantId, keyId);
      const updated = await repo.updateKey(db, key.id, { allowed_origins: allowedOriginsFor(key.kind, origins) });
      await changed(key.id);
      return keyView(updated ?? key);
    },

    async revokeKey(merchantId: string, keyId: string): Promise<KeyView> {
      const key = await ownedKey(merchantId, keyId);
      if (key.revoked_at) return keyView(key);
      const updated = await repo.updateKey(db, key.id, { revoked_at: clock.now() });
      await changed(key.id);
      return keyView(updated ?? key);
    },

    /**
     * Checks the x-api-key and, where asked, the secret key (docs/spec/keys-and-modes.md). Every failure has its
     * own code. Keys are looked up by hash, so no comparison depends on secret bytes.
     */
    async authenticate(apiKey: string | undefined, secretKey: string | undefined, requireSecret: boolean): Promise<MerchantContext> {
      if (!apiKey) throw new ApiError('api_key_missing', 'Send your API key in the x-api-key header');
      const now = clock.now();
      const pk = PUBLISHABLE_KEY.test(apiKey) ? await keys.find(sha256(apiKey)) : undefined;
      if (pk?.kind !== 'publishable') throw new ApiError('api_key_invalid', 'The x-api-key is not a known API key');
      if (pk.revoked_at) throw new ApiError('api_key_revoked', 'This API key was revoked; create a new one in the dashboard');
      if (pk.expires_at && pk.expires_at <= now) throw new ApiError('api_key_expired', 'This API key was rolled and its grace period has ended');
      await touch(pk, now);
      const context = contextOf(pk);
      if (!requireSecret) return context;
      if (!secretKey)
        throw new ApiError('secret_key_required', 'This operation needs your secret key in Authorization: Bearer sk_… (or a restricted key rk_…)');
      const sk = SECRET_KEY.test(secretKey) ? await keys.find(sha256(secretKey)) : undefined;
      if (sk?.kind !== 'secret' && sk?.kind !== 'restricted') throw new ApiError('secret_key_invalid', 'The bearer token is not a known secret key');
      if (sk.revoked_at) throw new ApiError('secret_key_revoked', 'This secret key was revoked');
      if (sk.expires_at && sk.expires_at <= now) throw new ApiError('secret_key_expired', 'This secret key was rolled and its grace period has ended');
      if (sk.merchant_id !== pk.merchant_id) throw new ApiError('key_merchant_mismatch', 'The API key and the secret key belong to different merchants');
      if (sk.mode !== pk.mode) throw new ApiError('key_mode_mismatch', `The API key is a ${pk.mode} key but the secret key is a ${sk.mode} key`);
      await touch(sk, now);
      return secretContext(context, sk);
    },

    /**
     * What `authenticate` answers when every key it needs is fresh in the cache, they pass every
     * check and none is due a last-use write; otherwise undefined, and the caller asks
     * `authenticate` (which also names the failure). Synchronous: the common request awaits nothing.
     */
    authenticateCached(apiKey: string | undefined, secretKey: string | undefined, requireSecret: boolean): MerchantContext | undefined {
      if (!apiKey || !PUBLISHABLE_KEY.test(apiKey)) return undefined;
      const now = clock.now();
      const pk = keys.peek(sha256(apiKey));
      if (pk?.kind !== 'publishable' || !usableWithoutWrite(pk, now)) return undefined;
      const context = contextOf(pk);
      if (!requireSecret) return context;
      if (!secretKey || !SECRET_KEY.test(secretKey)) return undefined;
      const sk = keys.peek(sha256(secretKey));
      if ((sk?.kind !== 'secret' && sk?.kind !== 'restricted') || !usableWithoutWrite(sk, now) || sk.merchant_id !== pk.merchant_id || sk.mode !== pk.mode)
        return undefined;
      return secretContext(context, sk);
    },
  };

  function contextOf(pk: KeyWithMerchant): MerchantContext {
    return {
      merchantId: pk.merchant_id,
      mode: pk.mode,
      apiKeyId: pk.id,
      secretKeyId: undefined,
      allowedOrigins: pk.allowed_origins,
      pinnedVersion: pk.merchant_api_version,
      intentExpiresIn: pk.merchant_intent_expires_in,
      merchantName: pk.merchant_name,
      merchantLanguage: pk.merchant_language,
      fees: { bps: pk.merchant_fee_bps, fixedMinor: pk.merchant_fee_fixed },
      settlementDelayDays: pk.merchant_settlement_delay_days,
      reserve: reserveTerms(pk.merchant_reserve_bps, pk.merchant_reserve_days),
      frozen: pk.merchant_frozen_at !== null,
      approved: pk.merchant_approved_at !== null,
    };
  }

  /** The context with its secret key: a restricted key's permissions come along (the routes check them). */
  function secretContext(context: MerchantContext, sk: KeyWithMerchant): MerchantContext {
    return sk.kind === 'restricted' ? { ...context, secretKeyId: sk.id, permissions: sk.permissions ?? {} } : { ...context, secretKeyId: sk.id };
  }

  /** Not revoked, not expired, and its last use recorded within the minute (so `touch` would not write). */
  function usableWithoutWrite(key: KeyWithMerchant, now: Date): boolean {
    if (key.revoked_at || (key.expires_at && key.expires_at <= now)) return false;
    return key.last_used_at !== null && now.getTime() - key.last_used_at.getTime() < TOUCH_EVERY_MS;
  }

  /** A member of the merchant, with every member's row locked until the transaction ends. */
  async function lockedMember(tx: Executor, merchantId: string, userId: string) {
    const members = await repo.lockDashboardUsers(tx, merchantId);
    const member = members.find((u) => u.id === userId);
    if (!member) throw new ApiError('not_found', `No team member ${userId}`, { param: 'id' });
    return member;
  }

  async function assertAnotherOwner(tx: Executor, merchantId: string, userId: string, what: string) {
    const owners = (await repo.lockDashboardUsers(tx, merchantId)).filter((u) => u.role === 'owner' && u.id !== userId);
    if (owners.length === 0) throw new ApiError('last_owner', `The last owner cannot be ${what}: make another member owner first`, { param: 'id' });
  }

  /** Records last use at most once a minute per key, so the hot path rarely writes. */
  async function touch(key: KeyWithMerchant, now: Date) {
    if (key.last_used_at && now.getTime() - key.last_used_at.getTime() < TOUCH_EVERY_MS) return;
    // The cached row too: the other requests of this minute need not write it again.
    key.last_used_at = now;
    await repo.touchKey(db, key.id, now);
  }
}

export type MerchantsService = ReturnType<typeof createMerchantsService>;
