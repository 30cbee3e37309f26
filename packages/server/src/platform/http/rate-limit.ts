import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Clock } from '../clock.ts';
import { ApiError } from '../errors.ts';

/**
 * Rate limits (docs/spec/request-rules.md), counted in fixed windows of the injected clock:
 *
 * - per API key: `CAISSE_RATE_LIMIT_LIVE` (100) requests per second for a live key,
 *   `CAISSE_RATE_LIMIT_TEST` (25) for a test key, over every route the key opens. The key is the
 *   API key's id, known once authentication has run (the limits run in the route-level onRequest
 *   hook, after the app-level one that authenticates); a request whose key is refused is not
 *   counted here (it never reaches a route), but for its address (the last limit below).
 * - per client IP on login, registration and payment-link visits (`IP_LIMITED_ROUTES`): `CAISSE_RATE_LIMIT_IP` (20)
 *   requests per minute per route. On routes opened with an API key, live mode only: test mode is
 *   left to the per-key limit (its users are fake and it never sends a real message). The
 *   dashboard's sign-in takes no API key and is always limited. Logins are also limited per phone
 *   number by the users module, and dashboard sign-ins per e-mail by the dashboard module.
 * - per client address, failed authentications (an API key or secret key refused, which costs a
 *   key lookup): `CAISSE_RATE_LIMIT_AUTH_FAILURES` (60) a minute; then the address's requests that
 *   need credentials are 429 `rate_limited` without a lookup until the window ends (see
 *   `AuthFailureGuard`).
 *
 * Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
 * (seconds until the window ends), the separate-header form of the IETF httpapi draft, and the
 * same figures as its later one-field form (`RateLimit: limit=…, remaining=…, reset=…` with
 * `RateLimit-Policy: <limit>;w=<window seconds>`); where two
 * limits apply, the one with fewer requests left. Over a limit: 429 `rate_limited` with
 * `Retry-After`.
 *
 * Counters live in Redis when REDIS_URL is set (shared by every process; keys
 * `<CAISSE_REDIS_PREFIX>rl:<limit>:<window>` expire on their own), in memory otherwise. When Redis
 * cannot be reached the limits fail open to this process's memory: each process counts on its
 * own (N processes let up to N times a limit through) until Redis answers again; the failure is
 * logged at most once a minute and counted in `caisse_rate_limit_store_errors_total`.
 */

/**
 * The client's address as limits count it: `request.ip` (through trusted proxies), an IPv6
 * address reduced to its /64 (one subscriber's allocation), an IPv4-mapped one to its IPv4.
 */
export function clientAddress(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

/** Routes limited per client IP, by method and path as registered, whichever module owns them. */
export const IP_LIMITED_ROUTES: ReadonlySet<string> = new Set([
  'POST /auth/web',
  'POST /users',
  'POST /users/verify-phone',
  'POST /users/verify-phone/resend',
  'POST /dashboard/api/login',
  // A sign-up sends an e-mail and a verification link is a token to guess: both limited per address.
  'POST /dashboard/api/sign-up',
  'POST /dashboard/api/sign-up/verify',
  'POST /dashboard/api/sign-up/resend',
  'POST /operator/api/login',
  // Each visit of a payment link creates an intent: limited per address like a sign-in.
  'GET /pay/:linkId',
]);

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;

/** A count of hits in the window of `clock.now()`, and the milliseconds until that window ends. */
export interface WindowCounters {
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** The same, answered at once, by counters that need no I/O (memory): the request hooks then await nothing. */
  hitNow?(key: string, windowMs: number): { count: number; resetMs: number };
  close(): Promise<void>;
}

function windowOf(clock: Clock, windowMs: number) {
  const now = clock.now().getTime();
  const index = Math.floor(now / windowMs);
  return { index, resetMs: (index + 1) * windowMs - now };
}

/** In-process counters: one process only. Old windows are dropped as the map grows. */
export function memoryCounters(clock: Clock, maxEntries = 100_000): WindowCounters {
  const counts = new Map<string, { index: number; windowMs: number; count: number }>();
  function prune() {
    const now = clock.now().getTime();
    for (const [key, entry] of counts) {
      if (Math.floor(now / entry.windowMs) !== entry.index) counts.delete(key);
    }
    // Still full of live windows: forget the oldest entries rather than grow without bound.
    for (const key of counts.keys()) {
      if (counts.size < maxEntries) break;
      counts.delete(key);
    }
  }
  function hitNow(key: string, windowMs: number) {
    const { index, resetMs } = windowOf(clock, windowMs);
    let entry = counts.get(key);
    if (!entry || entry.index !== index) {
      if (counts.size >= maxEntries) prune();
      entry = { index, windowMs, count: 0 };
      counts.set(key, entry);
    }
    entry.count++;
    return { count: entry.count, resetMs };
  }
  return {
    hitNow,
    async hit(key, windowMs) {
      return hitNow(key, windowMs);
    },
    async close() {
      counts.clear();
    },
  };
}

/** Counters in Redis, shared by every process that uses the same Redis and prefix. */
export function redisCounters(redis: Redis, clock: Clock, prefix: string): WindowCounters {
  return {
    async hit(key, windowMs) {
      const { index, resetMs } = windowOf(clock, windowMs);
      const redisKey = `${prefix}rl:${key}:${index}`;
      const results = await redis
        .multi()
        .incr(redisKey)
        .pexpire(redisKey, windowMs + 5 * SECOND_MS)
        .exec();
      const [err, count] = results?.[0] ?? [new Error('redis transaction aborted'), 0];
      if (err) throw err;
      return { count: Number(count), resetMs };
    },
    async close() {
      if (redis.status === 'ready') await redis.quit();
      else redis.disconnect();
    },
  };
}

/**
 * Counters that fall back to `fallback` for each hit `primary` fails (Redis down): the limits
 * still hold, per process, rather than none at all or every request refused.
 */
export function failoverCounters(primary: WindowCounters, fallback: WindowCounters, onError: (err: Error) => void): WindowCounters {
  return {
    async hit(key, windowMs) {
      try {
        return await primary.hit(key, windowMs);
      } catch (err) {
        onError(err as Error);
        return fallback.hit(key, windowMs);
      }
    },
    async close() {
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}

/** Connects to REDIS_URL; an unreachable Redis is logged and retried in the background. */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
  });
  redis.on('error', () => {
    /* reported where a command fails */
  });
  try {
    await redis.connect();
  } catch (err) {
    log.error({ err }, 'rate limits: Redis is unreachable; each process counts on its own until it answers');
  }
  return redis;
}

interface LimitResult {
  max: number;
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
  windowSeconds: number;
  what: string;
}

function setHeaders(reply: FastifyReply, r: LimitResult) {
  reply.header('ratelimit-limit', String(r.max));
  reply.header('ratelimit-remaining', String(r.remaining));
  reply.header('ratelimit-reset', String(r.resetSeconds));
  // The same figures as the draft's one `RateLimit` field, for clients that read that form.
  reply.header('ratelimit', `limit=${r.max}, remaining=${r.remaining}, reset=${r.resetSeconds}`);
  reply.header('ratelimit-policy', `${r.max};w=${r.windowSeconds}`);
}

/** One limit a request counts against: its counter, window and maximum, and what the refusal names. */
interface Limit {
  key: string;
  windowMs: number;
  max: number;
  what: string;
}

/** A counted hit as the limit sees it (the arithmetic of @fastify/rate-limit's limiter, which this replaced). */
function resultOf(limit: Limit, { count, resetMs }: { count: number; resetMs: number }): LimitResult {
  return {
    max: limit.max,
    remaining: Math.max(0, limit.max - count),
    resetSeconds: Math.max(1, Math.ceil(resetMs / SECOND_MS)),
    exceeded: count > limit.max,
    windowSeconds: limit.windowMs / SECOND_MS,
    what: limit.what,
  };
}

/** The rate-limit headers of an answer, and the refusal (throws) when a limit is exceeded. */
function enforce(reply: FastifyReply, results: (LimitResult | undefined)[]): void {
  const applied = results.filter((r): r is LimitResult => r !== undefined);
  if (applied.length === 0) return;
  const over = applied.find((r) => r.exceeded);
  const shown = over ?? applied.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  setHeaders(reply, shown);
  if (over) {
    const per = over.windowSeconds === 1 ? 'second' : `${over.windowSeconds} seconds`;
    throw new ApiError('rate_limited', `Over ${over.max} requests per ${per} for ${over.what}; retry in ${over.resetSeconds} s`, {
      headers: { 'retry-after': String(over.resetSeconds) },
    });
  }
}

/**
 * The rate limits of a request, once authentication has run; `routeUrl` is its route's pattern.
 * Throws 429 `rate_limited`, or returns a promise when the counters are not in memory (Redis).
 */
export type LimitStep = (request: FastifyRequest, reply: FastifyReply, routeUrl: string | undefined) => Promise<void> | undefined;

export interface RateLimits {
  limit: LimitStep;
  authFailures: AuthFailureGuard;
}

export interface RateLimitOptions {
  config: Config;
  clock: Clock;
  /** Counters to use instead of those the config chooses (tests). */
  counters?: WindowCounters;
}

/**
 * Failed authentications per client address (issue 20): every unknown but well-formed key costs a
 * key lookup. `failed` counts one; once an address reaches the limit within the minute, `check`
 * refuses its requests (429 `rate_limited`) before any lookup until the window ends. The refusal
 * is remembered in this process (no store round trip on the hot path); other processes learn it
 * at their address's next failure.
 */
export interface AuthFailureGuard {
  check(request: FastifyRequest): void;
  failed(request: FastifyRequest): Promise<void>;
}

function authFailureGuard(counters: WindowCounters, clock: Clock, max: number, refused: { inc(): void }, maxEntries = 100_000): AuthFailureGuard {
  const blockedUntil = new Map<string, number>();
  return {
    check(request) {
      const address = clientAddress(request);
      const until = blockedUntil.get(address);
      if (until === undefined) return;
      const now = clock.now().getTime();
      if (until <= now) {
        blockedUntil.delete(address);
        return;
      }
      refused.inc();
      const seconds = String(Math.max(1, Math.ceil((until - now) / SECOND_MS)));
      throw new ApiError('rate_limited', `Over ${max} failed authentications per minute from this address; retry in ${seconds} s`, {
        headers: { 'retry-after': seconds },
      });
    },
    async failed(request) {
      const address = clientAddress(request);
      const { count, resetMs } = await counters.hit(`authfail:${address}`, MINUTE_MS);
      if (count < max) return;
      if (blockedUntil.size >= maxEntries) {
        const now = clock.now().getTime();
        for (const [a, until] of blockedUntil) if (until <= now) blockedUntil.delete(a);
        if (blockedUntil.size >= maxEntries) blockedUntil.clear();
      }
      blockedUntil.set(address, clock.now().getTime() + resetMs);
    },
  };
}

export async function registerRateLimits(app: FastifyInstance, { config, clock, counters: given }: RateLimitOptions): Promise<RateLimits> {
  const limits = config.security.rateLimit;

  // A failing store is logged at most once a minute, not once a request, and counted every time.
  let lastErrorLog = Number.NEGATIVE_INFINITY;
  const onError = (err: Error) => {
    app.metrics.rateLimitStoreErrors.inc();
    const now = clock.now().getTime();
    if (now - lastErrorLog < MINUTE_MS) return;
    lastErrorLog = now;
    app.log.error({ err }, 'rate limits: the counter store failed; counting in this process until it answers');
  };

  let counters = given;
  if (!counters) {
    counters = config.redisUrl
      ? failoverCounters(redisCounters(await connectRedis(config.redisUrl, app.log), clock, config.security.redisPrefix), memoryCounters(clock), onError)
      : memoryCounters(clock);
  }
  const chosen = counters;
  app.addHook('onClose', async () => chosen.close());

  function limitsOf(request: FastifyRequest, routeUrl: string | undefined): Limit[] {
    const merchant = request.merchant;
    const ipLimited = IP_LIMITED_ROUTES.has(`${request.method} ${routeUrl}`);
    if (!merchant && !ipLimited) return [];
    const applied: Limit[] = merchant
      ? [{ key: `key:${merchant.apiKeyId}`, windowMs: SECOND_MS, max: merchant.mode === 'live' ? limits.live : limits.test, what: 'this API key' }]
      : [];
    // With an API key: live mode only. Without one (the dashboard's sign-in): always.
    if (ipLimited && (!merchant || merchant.mode === 'live')) {
      applied.push({
        key: `ip:${request.method}${routeUrl}:${clientAddress(request)}`,
        windowMs: MINUTE_MS,
        max: limits.ipPerMinute,
        what: 'this address on this operation',
      });
    }
    return applied;
  }

  async function counted(limit: Limit): Promise<LimitResult | undefined> {
    try {
      return resultOf(limit, await chosen.hit(limit.key, limit.windowMs));
    } catch (err) {
      onError(err as Error);
      return undefined; // the store failed: let the request through, unlabelled
    }
  }

  const hitNow = chosen.hitNow?.bind(chosen);
  const limit: LimitStep = (request, reply, routeUrl) => {
    const applied = limitsOf(request, routeUrl);
    if (applied.length === 0) return undefined;
    if (hitNow) {
      enforce(
        reply,
        applied.map((l) => resultOf(l, hitNow(l.key, l.windowMs))),
      );
      return undefined;
    }
    return (async () => {
      const results: (LimitResult | undefined)[] = [];
      for (const l of applied) results.push(await counted(l));
      enforce(reply, results);
    })();
  };

  return { limit, authFailures: authFailureGuard(chosen, clock, config.hardening.authFailuresPerMinute, app.metrics.authFailuresRefused) };
}
