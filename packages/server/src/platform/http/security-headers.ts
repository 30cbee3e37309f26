import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Which Content-Security-Policy a route answers with: `api` (JSON, nothing may load: the
 * default) or `page` (an HTML page of this server: its own scripts, styles and images only).
 */
export type CspKind = 'api' | 'page';

declare module 'fastify' {
  interface FastifyContextConfig {
    csp?: CspKind;
  }
}

/** Routes under these prefixes are HTML pages unless they say otherwise (`config: { csp }`). */
export const PAGE_PREFIXES = ['/docs', '/dashboard', '/checkout'] as const;

const ONE_YEAR_SECONDS = 365 * 24 * 3600;

const common: HelmetOptions = {
  strictTransportSecurity: { maxAge: ONE_YEAR_SECONDS, includeSubDomains: true },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
};

/** A JSON API loads nothing and is framed by nobody (OWASP REST security cheat sheet). */
const apiHeaders = helmet({
  ...common,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
  },
});

/**
 * The pages (/docs, the dashboard, the hosted checkout) load their own scripts and styles. Inline
 * styles are allowed (Swagger UI and React set style attributes); inline scripts are not. No
 * `upgrade-insecure-requests`: development serves these pages over plain HTTP on loopback.
 */
const pageHeaders = helmet({
  ...common,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      imgSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
    },
  },
});

export function cspKindOf(url: string | undefined, configured: CspKind | undefined): CspKind {
  if (configured) return configured;
  if (url === undefined) return 'api';
  return PAGE_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`)) ? 'page' : 'api';
}

/**
 * The headers a helmet middleware sets, read once at startup: ours depend on nothing of the
 * request, so each answer gets a precomputed object instead of running helmet per request.
 */
function headersOf(middleware: ReturnType<typeof helmet>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return Object.freeze(headers);
}

/** API answers are also `no-store`: they carry payment data that no cache should keep. */
const HEADERS: Readonly<Record<CspKind, Readonly<Record<string, string>>>> = {
  api: Object.freeze({ ...headersOf(apiHeaders), 'cache-control': 'no-store' }),
  page: headersOf(pageHeaders),
};

/** HSTS, CSP and the other security headers of an answer of this kind. */
export function securityHeaders(kind: CspKind): Readonly<Record<string, string>> {
  return HEADERS[kind];
}

/** Sets the security headers of the request's route on a reply (the request hooks use a per-route copy). */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const { url, config } = request.routeOptions;
  reply.headers(securityHeaders(cspKindOf(url, config?.csp)));
}
