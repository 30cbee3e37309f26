import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { ApiError } from '../errors.ts';

/** PEM certificate chain and private key, read from CAISSE_TLS_CERT_FILE / CAISSE_TLS_KEY_FILE. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** The configured certificate and key, or undefined when the server speaks plain HTTP. */
export function readTlsFiles(config: Config): TlsFiles | undefined {
  const tls = config.security.tls;
  if (!tls) return undefined;
  return { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) };
}

/**
 * Options for the Fastify factory: which proxies to believe (their X-Forwarded-For gives
 * `request.ip`, their X-Forwarded-Proto gives `request.protocol`), and TLS when the server
 * terminates it itself. The `https` member is typed away on purpose: with it Fastify builds an
 * `https.Server`, which the rest of the app uses through the same interface as the HTTP one.
 */
export function serverOptions(config: Config, tls: TlsFiles | undefined): { trustProxy: string[] | false } {
  const trustProxy = config.security.trustedProxies.length > 0 ? config.security.trustedProxies : false;
  return tls ? ({ trustProxy, https: { cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' } } as { trustProxy: string[] | false }) : { trustProxy };
}

/**
 * Health, readiness and metrics may be asked over plain HTTP from the machine itself (a local
 * probe or scraper), even in production: they take no credentials and carry no payment data.
 */
export const PLAIN_HTTP_OPERATIONS = new Set(['/healthz', '/readyz', '/metrics']);

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** A request made on this machine: from loopback, and not relayed by a local reverse proxy for someone else. */
export function isLocalRequest(request: FastifyRequest): boolean {
  const forwarded = request.headers['x-forwarded-for'] ?? request.headers.forwarded ?? request.headers['x-forwarded-proto'];
  return forwarded === undefined && isLoopback(request.socket?.remoteAddress);
}

function isLocalProbe(request: FastifyRequest, routeUrl: string | undefined): boolean {
  return routeUrl !== undefined && PLAIN_HTTP_OPERATIONS.has(routeUrl) && isLocalRequest(request);
}

/** Refuses a request (throws) that the HTTPS rule does not let through; `routeUrl` is its route's pattern. */
export type HttpsCheck = (request: FastifyRequest, routeUrl: string | undefined) => void;

/**
 * docs/spec/request-rules.md: in production mode a request that did not arrive over TLS (this server's own, or a
 * trusted proxy's that says `X-Forwarded-Proto: https`) is refused with 403 `https_required`.
 * Development mode accepts plain HTTP: no check at all (undefined).
 */
export function httpsCheck(app: FastifyInstance, config: Config): HttpsCheck | undefined {
  if (config.mode !== 'production') return undefined;
  if (!config.security.tls && config.security.trustedProxies.length === 0) {
    app.log.warn(
      'production mode without CAISSE_TLS_CERT_FILE/CAISSE_TLS_KEY_FILE or CAISSE_TRUSTED_PROXIES: every request but local health checks will be refused with https_required',
    );
  }
  return (request, routeUrl) => {
    if (request.protocol === 'https' || isLocalProbe(request, routeUrl)) return;
    throw new ApiError('https_required', 'This server accepts only HTTPS requests: use https:// (plain HTTP is refused in production mode)');
  };
}
