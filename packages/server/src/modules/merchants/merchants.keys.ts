import { ApiError } from '../../platform/errors.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { normalizeOrigin } from '../../platform/http/cors.ts';
import {
  ACCESS_LEVELS,
  type AccessLevel,
  API_RESOURCES,
  type ApiResource,
  assertModeOpen,
  type KeyMode,
  type KeyPermissions,
  type MerchantContext,
  type ReserveTerms,
} from '../../platform/tenancy.ts';
import { type ApiKeyRow, type KeyKind, type KeyWithMerchant, merchantsRepository as repo } from './merchants.repository.ts';

export const MAX_ROLL_GRACE_SECONDS = 7 * 24 * 3600;
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
export function reserveTerms(bps: number | null, days: number | null): ReserveTerms | null {
  return bps === null || days === null ? null : { bps, days };
}

/** Why a known key is refused: clients branch on the code, integrators read the reason. */
type KeyRefusal = 'revoked' | 'expired' | 'other_merchant' | 'other_mode';
function keyRefused(code: 'api_key_invalid' | 'secret_key_invalid' | 'secret_key_required', reason: KeyRefusal, detail: string): ApiError {
  return new ApiError(code, detail, { extra: { reason } });
}

function keyPrefix(kind: KeyKind, mode: KeyMode): string {
  return `${KEY_PREFIXES[kind]}_${mode}_`;
}

/**
 * A merchant's API keys: creating, rolling, revoking them, and checking the keys of each API
 * request through a per-process cache that every change drops (here and, by broadcast, in every
 * other process).
 */
export function createKeysService(deps: Deps) {
  const { db, clock, random, ids } = deps;
  const keys = createKeyCache(deps);

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
      if (merchant) assertModeOpen({ approved: merchant.approved_at !== null }, input.mode);
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

  /** After a change of a merchant's terms that cached keys carry (fees, language…): every process reads them again. */
  async function dropCachedKeys(): Promise<void> {
    keys.clear();
    await deps.wakeups?.broadcast('api_keys', '');
  }

  return {
    dropCachedKeys,
    /** Forgets one key in this process's cache (the caller broadcasts, or its transaction will). */
    forgetCachedKey: (keyId: string) => keys.forget(keyId),
    createKey,

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
     * Checks the x-api-key and, where asked, the secret key (docs/spec/keys-and-modes.md). A known
     * key that may not be used answers the code of the key it stands for, with a `reason` that says
     * why (keyRefused). Keys are looked up by hash, so no comparison depends on secret bytes.
     */
    async authenticate(apiKey: string | undefined, secretKey: string | undefined, requireSecret: boolean): Promise<MerchantContext> {
      if (!apiKey) throw new ApiError('api_key_missing', 'Send your API key in the x-api-key header');
      const now = clock.now();
      const pk = PUBLISHABLE_KEY.test(apiKey) ? await keys.find(sha256(apiKey)) : undefined;
      if (pk?.kind !== 'publishable') throw new ApiError('api_key_invalid', 'The x-api-key is not a known API key');
      if (pk.revoked_at) throw keyRefused('api_key_invalid', 'revoked', 'This API key was revoked; create a new one in the dashboard');
      if (pk.expires_at && pk.expires_at <= now)
        throw keyRefused('api_key_invalid', 'expired', 'This API key was rolled and its grace period has ended; use the key that replaced it');
      await touch(pk, now);
      const context = contextOf(pk);
      if (!requireSecret) return context;
      if (!secretKey)
        throw new ApiError('secret_key_required', 'This operation needs your secret key in Authorization: Bearer sk_… (or a restricted key rk_…)');
      const sk = SECRET_KEY.test(secretKey) ? await keys.find(sha256(secretKey)) : undefined;
      if (sk?.kind !== 'secret' && sk?.kind !== 'restricted') throw new ApiError('secret_key_invalid', 'The bearer token is not a known secret key');
      if (sk.revoked_at) throw keyRefused('secret_key_invalid', 'revoked', 'This secret key was revoked; create a new one in the dashboard');
      if (sk.expires_at && sk.expires_at <= now)
        throw keyRefused('secret_key_invalid', 'expired', 'This secret key was rolled and its grace period has ended; use the key that replaced it');
      if (sk.merchant_id !== pk.merchant_id)
        throw keyRefused(
          'secret_key_required',
          'other_merchant',
          "This operation needs a secret key of the API key's merchant; this one belongs to another merchant",
        );
      if (sk.mode !== pk.mode)
        throw keyRefused(
          'secret_key_required',
          'other_mode',
          `This operation needs a ${pk.mode} secret key, as the API key is a ${pk.mode} key; this one is a ${sk.mode} key`,
        );
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
      merchantCountry: pk.merchant_country,
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

  /** Records last use at most once a minute per key, so the hot path rarely writes. */
  async function touch(key: KeyWithMerchant, now: Date) {
    if (key.last_used_at && now.getTime() - key.last_used_at.getTime() < TOUCH_EVERY_MS) return;
    // The cached row too: the other requests of this minute need not write it again.
    key.last_used_at = now;
    await repo.touchKey(db, key.id, now);
  }
}
