import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { ApiError } from '../errors.ts';
import type { AuthKind } from './auth.ts';

/**
 * CORS (docs/spec/keys-and-modes.md: "an API key may list allowed browser origins; CORS answers follow that
 * list"). Browsers may call the routes an API key alone or a user's token opens (`pk`, `user`);
 * never the secret-key routes (`sk`), nor the operations routes.
 *
 * - A preflight carries no credentials, so it is answered from the route alone: for a `pk` or
 *   `user` route, 204 allowing the asking origin; for any other route, 403 `origin_not_allowed`.
 * - The actual request is checked once its API key is known: if the key lists origins and the
 *   request's Origin is not one of them, 403 `origin_not_allowed` without CORS headers. A key that
 *   lists no origin may be used from any origin (as a publishable key is meant to be).
 * - A request with an Origin header to an `sk` route is refused before its keys are looked at.
 * - A page of this server calling its own API (same origin, e.g. the hosted checkout) is not a
 *   cross-origin request and needs no listing.
 */

const BROWSER_KINDS: ReadonlySet<AuthKind> = new Set(['pk', 'user']);

/** Request headers a browser may send. */
export const CORS_ALLOWED_HEADERS = ['x-api-key', 'authorization', 'content-type', 'pay-version', 'idempotency-key', 'x-otp-token', 'x-session-token'];
/** Response headers a browser script may read. */
export const CORS_EXPOSED_HEADERS = [
  'request-id',
  'pay-version',
  'idempotent-replayed',
  'retry-after',
  'caisse-wait',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit',
  'ratelimit-policy',
];
/** How long a browser may cache a preflight answer. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

interface RouteLike {
  config?: { auth?: AuthKind };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `scheme://host[:port]` in lower case, or undefined when the text is not an origin. */
export function normalizeOrigin(value: string): string | undefined {
  if (value === 'null') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

function sameOrigin(request: FastifyRequest, origin: string): boolean {
  return normalizeOrigin(`${request.protocol}://${request.host}`) === normalizeOrigin(origin);
}

function allowOrigin(reply: FastifyReply, origin: string) {
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS.join(', '));
}

function refuseBrowsers(): ApiError {
  return new ApiError('origin_not_allowed', 'Browsers may not call this operation: it needs the secret key, which must stay on your server');
}

/** The CORS rules as steps of the request hooks (security.ts runs them in order). */
export interface CorsSteps {
  /**
   * Before authentication: preflights, and browsers at secret-key routes. `kind` is the route's
   * (undefined: no route). True when it answered the request itself (a preflight).
   */
  beforeAuth(request: FastifyRequest, reply: FastifyReply, kind: AuthKind | undefined): boolean;
  /** After authentication: the key's list of origins. */
  afterAuth(request: FastifyRequest, reply: FastifyReply, kind: AuthKind): void;
}

export function registerCors(app: FastifyInstance): CorsSteps {
  // Each route's options by method and path, to answer a preflight for the method it announces.
  const routes = FindMyWay();
  const methodsAt = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      try {
        // The options object is read at request time: other onRoute hooks may still change it.
        routes.on(m as 'GET', route.url, () => {}, route as RouteLike);
      } catch {
        /* a second shape of one path: the first one answers */
      }
    }
  });

  function kindAt(method: string, path: string): AuthKind | undefined {
    const found = routes.find(method as 'GET', path);
    if (!found) return undefined;
    return (found.store as RouteLike).config?.auth ?? 'pk';
  }

  function browserMethodsAt(path: string): string[] {
    const cached = methodsAt.get(path);
    if (cached) return [...cached];
    const allowed = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => {
      const kind = kindAt(m, path);
      return kind !== undefined && BROWSER_KINDS.has(kind);
    });
    if (methodsAt.size < 10_000) methodsAt.set(path, new Set(allowed));
    return allowed;
  }

  return {
    beforeAuth(request, reply, kind) {
      const origin = single(request.headers.origin);
      if (origin === undefined) return false;
      const preflightMethod = single(request.headers['access-control-request-method']);
      if (request.method === 'OPTIONS' && preflightMethod !== undefined) {
        const path = request.url.split('?')[0] ?? '/';
        reply.header('vary', 'origin, access-control-request-method, access-control-request-headers');
        const asked = kindAt(preflightMethod.toUpperCase(), path);
        if (asked === undefined) throw new ApiError('not_found', `No route ${preflightMethod.toUpperCase()} ${path}`);
        if (!BROWSER_KINDS.has(asked) || normalizeOrigin(origin) === undefined) throw refuseBrowsers();
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-allow-methods', browserMethodsAt(path).join(', '));
        reply.header('access-control-allow-headers', CORS_ALLOWED_HEADERS.join(', '));
        reply.header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS));
        reply.code(204).send();
        return true;
      }
      if (kind === undefined) return false;
      if (kind === 'sk') throw refuseBrowsers();
      if (BROWSER_KINDS.has(kind) && !sameOrigin(request, origin)) {
        reply.header('vary', 'origin');
        // Allowed for now, so that an authentication error can be read by the page; narrowed to
        // the key's list once the key is known (afterAuth).
        if (normalizeOrigin(origin) !== undefined) allowOrigin(reply, origin);
      }
      return false;
    },

    afterAuth(request, reply, kind) {
      const origin = single(request.headers.origin);
      if (origin === undefined || request.merchant === null) return;
      if (!BROWSER_KINDS.has(kind) || sameOrigin(request, origin)) return;
      const allowed = request.merchant.allowedOrigins;
      const normalized = normalizeOrigin(origin);
      if (allowed.length === 0 && normalized !== undefined) return;
      if (normalized !== undefined && allowed.some((o) => normalizeOrigin(o) === normalized)) return;
      reply.removeHeader('access-control-allow-origin');
      reply.removeHeader('access-control-expose-headers');
      throw new ApiError('origin_not_allowed', `The origin ${origin} is not among the allowed origins of this API key`);
    },
  };
}
