import * as jose from 'jose';
import { DAY, MINUTE, SECOND } from '../../platform/clock.ts';
import { decrypt, encrypt, sha256 } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { KeyMode, MerchantContext, UserContext } from '../../platform/tenancy.ts';
import { type SigningKeyRow, usersRepository as repo } from './users.repository.ts';

/** Access tokens live 15 minutes (docs/spec/keys-and-modes.md). */
export const ACCESS_TOKEN_TTL_MS = 15 * MINUTE;
/** A signing key signs for at most this long; then a new one is made on the next use. */
export const SIGNING_KEY_MAX_AGE_MS = 30 * DAY;
/** Retired keys stay published this much longer than the last token they signed could live. */
const PUBLISH_MARGIN_MS = 5 * MINUTE;
/** How long a process trusts its cached view of the keys before reading them again. */
const CACHE_MS = 60 * SECOND;
/** An unknown `kid` makes the process re-read the keys, at most this often (forged kids cost nothing). */
const UNKNOWN_KID_RELOAD_MS = 5 * SECOND;
/** Tokens whose signature this process has checked, remembered until they expire (at most this many). */
const VERIFIED_MAX = 50_000;

export const TOKEN_ISSUER = 'caisse';
/** RFC 9068 header type for JWT access tokens. */
const TOKEN_TYPE = 'at+jwt';
const ALG = 'EdDSA';

export interface AccessTokenSubject {
  userId: string;
  merchantId: string;
  mode: KeyMode;
  roles: string[];
  /** The customer's token version now: a password reset or change raises it, voiding older tokens. */
  version: number;
}

/**
 * The customer's token version now, or undefined when the customer no longer exists (merged):
 * read on every use, so a reset in any process voids older tokens in every process at once.
 */
export type CurrentTokenVersion = (userId: string) => Promise<number | undefined>;

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/** An Ed25519 public key as published in the JWKS. */
export interface PublicJwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
  alg: string;
  use: string;
}

interface LoadedKey {
  kid: string;
  jwk: PublicJwk;
  publicKey: CryptoKey;
  row: SigningKeyRow;
}

/**
 * User access tokens: Ed25519 JWTs with a `kid` header, signed by the newest signing key. Keys are
 * made on first use (and again when the current one is 30 days old, or on `rotate()`), stored with
 * the private half encrypted under the master key, and published at /.well-known/jwks.json while
 * any token they signed may still be alive.
 */
function invalid(): ApiError {
  return new ApiError('access_token_invalid', 'The access token is not valid or has expired; sign in again with POST /auth/web');
}

export function createTokenService(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'random'>, currentVersion: CurrentTokenVersion) {
  const { db, clock, config } = deps;
  let published = new Map<string, LoadedKey>();
  let signer: { kid: string; privateKey: CryptoKey; createdAt: Date } | undefined;
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | undefined;
  /**
   * Tokens already verified, by the SHA-256 of the token: a browser sends the same token with
   * every request for 15 minutes, and its Ed25519 signature needs checking once. What a token
   * says cannot change; its expiry, audience and mode are checked again on every use.
   */
  const verified = new Map<string, { userId: string; audience: string; mode: unknown; version: unknown; expiresAt: number }>();

  const now = () => clock.now().getTime();
  const publishedSince = () => new Date(now() - ACCESS_TOKEN_TTL_MS - PUBLISH_MARGIN_MS);

  async function importRow(row: SigningKeyRow): Promise<LoadedKey> {
    const jwk = row.public_jwk as unknown as PublicJwk;
    const publicKey = (await jose.importJWK(jwk, ALG)) as CryptoKey;
    return { kid: row.kid, jwk, publicKey, row };
  }

  async function reload(): Promise<void> {
    const rows = await repo.publishedSigningKeys(db, publishedSince());
    const next = new Map<string, LoadedKey>();
    for (const row of rows) next.set(row.kid, published.get(row.kid) ?? (await importRow(row)));
    published = next;
    const active = rows.find((r) => r.retired_at === null);
    if (!active) signer = undefined;
    else if (signer?.kid !== active.kid) {
      const pem = decrypt(config.masterKey, active.private_key_enc);
      signer = { kid: active.kid, privateKey: (await jose.importPKCS8(pem, ALG)) as CryptoKey, createdAt: active.created_at };
    }
    loadedAt = now();
  }

  /** One reload at a time; callers arriving meanwhile wait for it. */
  function load(): Promise<void> {
    loading ??= reload().finally(() => {
      loading = undefined;
    });
    return loading;
  }

  /** Makes a new signing key and retires the others, under a lock shared by every process. */
  async function rotate(opts: { onlyIfStale?: boolean } = {}): Promise<string> {
    const { publicKey, privateKey } = await jose.generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
    const jwk = await jose.exportJWK(publicKey);
    const kid = await jose.calculateJwkThumbprint(jwk);
    const pem = await jose.exportPKCS8(privateKey);
    const made = await db.transaction().execute(async (tx) => {
      await repo.lockSigningKeys(tx);
      const at = clock.now();
      if (opts.onlyIfStale) {
        const current = (await repo.publishedSigningKeys(tx, at)).find((r) => r.retired_at === null);
        // Another process made a fresh key while we waited for the lock: use it.
        if (current && at.getTime() - current.created_at.getTime() < SIGNING_KEY_MAX_AGE_MS) return current.kid;
      }
      await repo.retireSigningKeys(tx, at);
      await repo.insertSigningKey(tx, {
        kid,
        public_jwk: { ...jwk, kid, alg: ALG, use: 'sig' },
        private_key_enc: encrypt(config.masterKey, pem, deps.random),
        created_at: at,
        retired_at: null,
      });
      return kid;
    });
    // A reload already in flight may have read the keys before this commit: read them again.
    await reload();
    return made;
  }

  async function activeSigner() {
    if (now() - loadedAt > CACHE_MS) await load();
    if (!signer || now() - signer.createdAt.getTime() >= SIGNING_KEY_MAX_AGE_MS) await rotate({ onlyIfStale: true });
    if (!signer) throw new Error('no signing key after rotation');
    return signer;
  }

  return {
    rotate: () => rotate(),

    async sign(subject: AccessTokenSubject): Promise<IssuedToken> {
      const key = await activeSigner();
      const issuedAt = clock.now();
      const expiresAt = new Date(issuedAt.getTime() + ACCESS_TOKEN_TTL_MS);
      const token = await new jose.SignJWT({ mode: subject.mode, roles: subject.roles, ver: subject.version })
        .setProtectedHeader({ alg: ALG, kid: key.kid, typ: TOKEN_TYPE })
        .setIssuer(TOKEN_ISSUER)
        .setSubject(subject.userId)
        .setAudience(subject.merchantId)
        .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .setJti(jose.base64url.encode(deps.random(16)))
        .sign(key.privateKey);
      return { token, expiresAt };
    },

    /**
     * Checks a token for the merchant and mode of the API key it came with. Every failure (bad
     * signature, unknown key, other algorithm, expired, other merchant or mode) is one answer.
     */
    async verify(token: string, merchant: MerchantContext): Promise<UserContext> {
      const digest = sha256(token).toString('base64');
      const known = verified.get(digest);
      if (known && known.expiresAt > now() && known.audience === merchant.merchantId && known.mode === merchant.mode) {
        if (known.version === (await currentVersion(known.userId))) return { userId: known.userId };
        throw invalid();
      }
      if (now() - loadedAt > CACHE_MS) await load();
      const keyFor: jose.JWTVerifyGetKey = async (header) => {
        if (typeof header.kid !== 'string') throw new Error('no kid');
        if (!published.has(header.kid) && now() - loadedAt > UNKNOWN_KID_RELOAD_MS) await load();
        const key = published.get(header.kid);
        if (!key) throw new Error('unknown kid');
        return key.publicKey;
      };
      let payload: jose.JWTPayload;
      try {
        ({ payload } = await jose.jwtVerify(token, keyFor, {
          algorithms: [ALG],
          issuer: TOKEN_ISSUER,
          audience: merchant.merchantId,
          typ: TOKEN_TYPE,
          currentDate: clock.now(),
          requiredClaims: ['sub', 'exp', 'iat'],
        }));
      } catch {
        throw new ApiError('access_token_invalid', 'The access token is not valid or has expired; sign in again with POST /auth/web');
      }
      if (payload.mode !== merchant.mode || typeof payload.sub !== 'string') {
        throw new ApiError('access_token_invalid', `The access token was not issued for ${merchant.mode} mode of this merchant`);
      }
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
      // Tokens from before versions existed carry none: they count as version 0.
      const version = payload.ver ?? 0;
      verified.set(digest, { userId: payload.sub, audience: merchant.merchantId, mode: payload.mode, version, expiresAt: (payload.exp as number) * 1000 });
      if (version !== (await currentVersion(payload.sub))) throw invalid();
      return { userId: payload.sub };
    },

    /** The public keys that may have signed a live token (RFC 7517 JWK Set). */
    async jwks(): Promise<{ keys: PublicJwk[] }> {
      await activeSigner();
      if (now() - loadedAt > CACHE_MS) await load();
      const since = publishedSince().getTime();
      const keys = [...published.values()].filter((k) => k.row.retired_at === null || k.row.retired_at.getTime() > since).map((k) => k.jwk);
      return { keys };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
