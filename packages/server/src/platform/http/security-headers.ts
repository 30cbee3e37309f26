import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
 * Sets HSTS, CSP and the other security headers on a reply. API answers are also `no-store`:
 * they carry payment data that no cache should keep.
 */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const kind = cspKindOf(request.routeOptions.url, request.routeOptions.config?.csp);
  const set = kind === 'page' ? pageHeaders : apiHeaders;
  set(request.raw, reply.raw as ServerResponse, () => {});
  if (kind === 'api') reply.header('cache-control', 'no-store');
}

/** Every answer, errors and 404s included, carries the security headers (contract §6). */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    applySecurityHeaders(request, reply);
  });
}
