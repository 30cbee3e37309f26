import rateLimit, { type FastifyRateLimitStore, normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Clock } from '../clock.ts';
import { ApiError } from '../errors.ts';

/**
 * Rate limits (contract §6), counted in fixed windows of the injected clock:
 *
 * - per API key: `CAISSE_RATE_LIMIT_LIVE` (100) requests per second for a live key,
 *   `CAISSE_RATE_LIMIT_TEST` (25) for a test key, over every route the key opens. The key is the
 *   API key's id, known once authentication has run (this hook is a route-level onRequest hook, so
 *   it runs after the app-level authentication hook); a request whose key is refused is not
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
 * (seconds until the window ends), the separate-header form of the IETF httpapi draft; where two
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
  // Each visit of a payment link creates an intent: limited per address like a sign-in.
  'GET /pay/:linkId',
]);

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;

/** A count of hits in the window of `clock.now()`, and the milliseconds until that window ends. */
export interface WindowCounters {
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
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
  return {
    async hit(key, windowMs) {
      const { index, resetMs } = windowOf(clock, windowMs);
      let entry = counts.get(key);
      if (!entry || entry.index !== index) {
        if (counts.size >= maxEntries) prune();
        entry = { index, windowMs, count: 0 };
        counts.set(key, entry);
      }
      entry.count++;
      return { count: entry.count, resetMs };
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
      const results = await redis.multi().incr(redisKey).pexpire(redisKey, windowMs + 5 * SECOND_MS).exec();
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

/** The @fastify/rate-limit store contract over WindowCounters. Keys name their limit themselves. */
function storeClass(counters: WindowCounters, onError: (err: Error) => void) {
  return class ClockWindowStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      counters.hit(key, timeWindow).then(
        ({ count, resetMs }) => callback(null, { current: count, ttl: resetMs }),
        (err: Error) => {
          onError(err);
          callback(err);
        },
      );
    }
    child() {
      return this;
    }
  };
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
      throw new ApiError('rate_limited', `Over ${max} failed authentications per minute from this address; retry in ${seconds} s`, { headers: { 'retry-after': seconds } });
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

export async function registerRateLimits(app: FastifyInstance, { config, clock, counters: given }: RateLimitOptions): Promise<AuthFailureGuard> {
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

  await app.register(rateLimit, { global: false, store: storeClass(chosen, onError) });

  const perKey = app.createRateLimit({
    timeWindow: SECOND_MS,
    keyGenerator: (request) => `key:${request.merchant.apiKeyId}`,
    max: (request) => (request.merchant.mode === 'live' ? limits.live : limits.test),
  });
  const perIp = app.createRateLimit({
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `ip:${request.method}${request.routeOptions.url}:${clientAddress(request)}`,
    max: limits.ipPerMinute,
  });

  async function check(request: FastifyRequest, limiter: typeof perKey, what: string): Promise<LimitResult | undefined> {
    let r: Awaited<ReturnType<typeof limiter>>;
    try {
      r = await limiter(request);
    } catch {
      return undefined; // the store failed (logged by onError): let the request through, unlabelled
    }
    if (r.isAllowed) return undefined;
    return {
      max: r.max,
      remaining: r.remaining,
      resetSeconds: Math.max(1, r.ttlInSeconds),
      exceeded: r.isExceeded,
      windowSeconds: r.timeWindow / SECOND_MS,
      what,
    };
  }

  const limitHook: onRequestAsyncHookHandler = async (request, reply) => {
    const merchant = request.merchant;
    const ipLimited = IP_LIMITED_ROUTES.has(`${request.method} ${request.routeOptions.url}`);
    if (!merchant && !ipLimited) return;
    const results = merchant ? [await check(request, perKey, 'this API key')] : [];
    // With an API key: live mode only. Without one (the dashboard's sign-in): always.
    if (ipLimited && (!merchant || merchant.mode === 'live')) {
      results.push(await check(request, perIp, 'this address on this operation'));
    }
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
  };

  // A route-level hook: it runs after the app-level hooks, authentication included.
  app.addHook('onRoute', (route) => {
    const existing = route.onRequest;
    route.onRequest = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), limitHook];
  });

  return authFailureGuard(chosen, clock, config.hardening.authFailuresPerMinute, app.metrics.authFailuresRefused);
}
