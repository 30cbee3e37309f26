import type { Clock } from '../../platform/clock.ts';

/** A token from a provider's token endpoint, or why there is none (`refused`: the credentials were). */
export type TokenResult = { ok: true; token: string; fresh: boolean } | { ok: false; refused: boolean; reason: string };

/** What one call to the token endpoint gave: the token and its life in seconds. */
export type TokenFetch = { ok: true; token: string; expiresInSeconds: number } | { ok: false; refused: boolean; reason: string };

/**
 * A token is renewed this long before the provider says it expires (at most a tenth of its life),
 * so a call never leaves with a token that dies on the way or while the provider's clock runs ahead.
 */
const RENEW_BEFORE_MS = 60_000;

/**
 * One cached OAuth-style access token: fetched on first use, shared by concurrent callers (one
 * token request at a time), renewed before it expires, dropped when the provider refuses it.
 */
export class TokenCache {
  #cached: { token: string; renewAt: number } | undefined;
  #fetching: Promise<TokenResult> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly fetchToken: () => Promise<TokenFetch>,
  ) {}

  get(): Promise<TokenResult> {
    const cached = this.#cached;
    if (cached !== undefined && this.clock.now().getTime() < cached.renewAt) return Promise.resolve({ ok: true, token: cached.token, fresh: false });
    this.#fetching ??= this.#fetch().finally(() => {
      this.#fetching = undefined;
    });
    return this.#fetching;
  }

  /** Forgets `token` (the provider refused it) unless a newer one replaced it already. */
  drop(token: string): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  async #fetch(): Promise<TokenResult> {
    // The token's life is counted from before the call: never longer than the provider's.
    const issuedAt = this.clock.now().getTime();
    const got = await this.fetchToken();
    if (!got.ok) return got;
    const life = got.expiresInSeconds * 1000;
    this.#cached = { token: got.token, renewAt: issuedAt + life - Math.min(RENEW_BEFORE_MS, life / 10) };
    return { ok: true, token: got.token, fresh: true };
  }
}
