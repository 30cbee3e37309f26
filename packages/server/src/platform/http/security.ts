import type { FastifyContextConfig, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Clock } from '../clock.ts';
import { ApiError } from '../errors.ts';
import { redactText } from '../logger.ts';
import type { AuthKind } from './auth.ts';
import { registerBodyLimits } from './body-limits.ts';
import { registerCors } from './cors.ts';
import { sendProblem } from './errors.ts';
import { registerHttps } from './https.ts';
import { type AuthFailureGuard, registerRateLimits, type WindowCounters } from './rate-limit.ts';
import { applySecurityHeaders, registerSecurityHeaders } from './security-headers.ts';

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
}

/**
 * The request rules of contract §6 in the order they must run. Call it before `registerAuth`:
 * security headers first (so every refusal carries them), then HTTPS, body limits and the CORS
 * checks that need no key; the key-dependent checks (the key's origins, rate limits) are
 * route-level hooks, which Fastify runs after the app-level authentication hook.
 */
export async function registerSecurity(app: FastifyInstance, opts: SecurityOptions): Promise<AuthFailureGuard> {
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

  registerSecurityHeaders(app);
  registerHttps(app, opts.config);
  registerBodyLimits(app, opts.bodyLimit);
  registerCors(app);
  const authFailures = await registerRateLimits(app, { config: opts.config, clock: opts.clock, counters: opts.counters });

  // Error bodies never carry a secret or a phone number, even one echoed from the request.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (typeof payload !== 'string') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    return type.startsWith('application/problem+json') ? redactText(payload) : payload;
  });
  return authFailures;
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (bad percent-encoding) or a path
 * parameter longer than the router allows. No hook has run for these, so this answers with the
 * request id and security headers itself.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('request-id', request.id);
  applySecurityHeaders(request, reply);
  const apiError =
    err.code === 'FST_ERR_BAD_URL'
      ? new ApiError('validation_error', 'The URL is not valid percent-encoding', { param: 'path' })
      : new ApiError('not_found', 'No such object');
  sendProblem(reply, request, apiError);
}
