import type { FastifyContextConfig, FastifyError, FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.ts';
import type { Clock } from '../clock.ts';
import { ApiError } from '../errors.ts';
import { redactText } from '../logger.ts';
import type { AccessTokenVerifier, Authenticator, RouteAccess } from '../tenancy.ts';
import { type AuthKind, registerAuth } from './auth.ts';
import { assertBodyLength, registerJsonParser } from './body-limits.ts';
import { registerCors } from './cors.ts';
import { sendProblem } from './errors.ts';
import { httpsCheck } from './https.ts';
import { registerRateLimits, type WindowCounters } from './rate-limit.ts';
import { applySecurityHeaders, cspKindOf, securityHeaders } from './security-headers.ts';
import { LATEST_API_VERSION } from '../versioning.ts';

/** A route as registered: its method, its path pattern and who may call it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  readonly auth: AuthKind;
  /** The route's config as declared (e.g. a dashboard route's `permission`). */
  readonly config: FastifyContextConfig;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app (HEAD and OPTIONS aside), for the suites that run against all of them. */
    registeredRoutes: RegisteredRoute[];
  }
}

export interface SecurityOptions {
  config: Config;
  clock: Clock;
  bodyLimit: number;
  /** Rate-limit counters to use instead of those the config chooses (tests). */
  counters?: WindowCounters;
  /** Checks API keys (the merchants service). */
  merchants: Authenticator;
  /** Verifies users' access tokens, asked at request time (undefined: refused). */
  verifyAccessToken: () => AccessTokenVerifier | undefined;
}

/** What the request hooks decide per route, once: its auth kind (undefined: no route), pattern and security headers. */
interface RoutePlan {
  kind: AuthKind | undefined;
  access: RouteAccess | undefined;
  url: string | undefined;
  headers: Readonly<Record<string, string>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The route's plan, set by the first request hook for the route-level one. */
    routePlan: RoutePlan | null;
  }
}

/** A step's outcome when it has answered the request itself: the hook chain stops there. */
const ANSWERED = Symbol('answered');

/**
 * A step as a callback-style hook: a step that threw or finished synchronously ends the hook at
 * once (no promise, no turn of the event loop); one that returned a promise, when it settles.
 */
function callbackHook(step: (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined | typeof ANSWERED): onRequestHookHandler {
  return (request, reply, done) => {
    let outcome: Promise<void> | undefined | typeof ANSWERED;
    try {
      outcome = step(request, reply);
    } catch (err) {
      done(err as FastifyError);
      return;
    }
    if (outcome === ANSWERED) return;
    if (outcome) outcome.then(() => done(), done);
    else done();
  };
}

/**
 * The request rules of docs/spec/request-rules.md and authentication, in the order they must run, in two
 * synchronous hooks (issue 23: each async hook cost a promise and a turn of Fastify's hook runner
 * on every request):
 *
 * 1. app-level onRequest: the request id and security headers first (so every refusal carries
 *    them), then HTTPS, the declared body length, the CORS checks that need no key (a preflight is
 *    answered here), and authentication (`registerAuth`);
 * 2. route-level onRequest, after the route's own and its plugin's hooks (the charge's OTP token,
 *    the dashboard's session): the key's allowed origins, then the rate limits.
 *
 * A step that must wait (a key not in the cache, an access token, Redis counters) returns a promise
 * and the hook ends when it settles; the common request awaits nothing.
 */
export async function registerSecurity(app: FastifyInstance, opts: SecurityOptions): Promise<void> {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      // Read when asked: later onRoute hooks (auth's, for /docs) may still set the route's auth.
      routes.push({
        method,
        url: route.url,
        get auth() {
          return route.config?.auth ?? 'pk';
        },
        get config() {
          return (route.config ?? {}) as FastifyContextConfig;
        },
      });
    }
  });

  const https = httpsCheck(app, opts.config);
  registerJsonParser(app);
  const cors = registerCors(app);
  const { limit, authFailures } = await registerRateLimits(app, { config: opts.config, clock: opts.clock, counters: opts.counters });
  const authenticate = registerAuth(app, opts.merchants, opts.verifyAccessToken, authFailures);
  const { bodyLimit } = opts;

  // Plans by the route's config object, which Fastify keeps for the route's life; read at the
  // first request, when every onRoute hook has had its say.
  const plans = new WeakMap<object, RoutePlan>();
  const NO_CONFIG: FastifyContextConfig = {};
  function planOf(request: FastifyRequest): RoutePlan {
    const known = request.routePlan;
    if (known) return known;
    const { url, config = NO_CONFIG } = request.routeOptions;
    let plan = plans.get(config);
    if (!plan) {
      plan = { kind: url === undefined ? undefined : (config.auth ?? 'pk'), access: config.access, url, headers: securityHeaders(cspKindOf(url, config.csp)) };
      plans.set(config, plan);
    }
    request.routePlan = plan;
    return plan;
  }

  app.decorateRequest('routePlan', null);
  app.addHook(
    'onRequest',
    callbackHook((request, reply) => {
      const plan = planOf(request);
      reply.header('request-id', request.id);
      // Until a key names its merchant's pinned version, an answer is in the latest one.
      reply.header('pay-version', LATEST_API_VERSION);
      reply.headers(plan.headers);
      https?.(request, plan.url);
      // A route may take more (the dashboard's document upload sets its own bodyLimit).
      assertBodyLength(request, Math.max(bodyLimit, request.routeOptions.bodyLimit ?? 0));
      if (cors.beforeAuth(request, reply, plan.kind)) return ANSWERED; // a preflight
      return authenticate(request, reply, plan.kind, plan.access);
    }),
  );

  const afterAuth = callbackHook((request, reply) => {
    const plan = planOf(request);
    if (plan.kind !== undefined) cors.afterAuth(request, reply, plan.kind);
    return limit(request, reply, plan.url);
  });
  // Route-level: Fastify runs it after the app-level and plugin-level hooks and the route's own.
  app.addHook('onRoute', (route) => {
    const existing = route.onRequest;
    route.onRequest = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), afterAuth];
  });

  // Error bodies never carry a secret or a phone number, even one echoed from the request.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (typeof payload !== 'string') return done(null, payload);
    const type = String(reply.getHeader('content-type') ?? '');
    done(null, type.startsWith('application/problem+json') ? redactText(payload) : payload);
  });
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (bad percent-encoding) or a path
 * parameter longer than the router allows. No hook has run for these, so this answers with the
 * request id and security headers itself.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('request-id', request.id);
  reply.header('pay-version', LATEST_API_VERSION);
  applySecurityHeaders(request, reply);
  const apiError =
    err.code === 'FST_ERR_BAD_URL'
      ? new ApiError('validation_error', 'The URL is not valid percent-encoding', { param: 'path' })
      : new ApiError('not_found', 'No such object');
  sendProblem(reply, request, apiError);
}
