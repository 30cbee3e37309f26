import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';

/**
 * A browser session cookie (the merchant dashboard's, the operator console's), each under its
 * own name so neither session is ever sent as the other. In production the name has the
 * `__Host-` prefix: the browser then accepts it only with Secure, Path=/ and no Domain, so no
 * subdomain or plain-HTTP page can set or overwrite it. Development serves plain HTTP on
 * loopback, where Secure cookies are not kept, so the plain name is used there. Always HttpOnly
 * (no script reads it) and SameSite=Strict (no other site's page sends it).
 */
export function sessionCookies(baseName: string, production: boolean) {
  const name = production ? `__Host-${baseName}` : baseName;
  const attributes = { httpOnly: true, secure: production, sameSite: 'strict' as const, path: '/' };
  return {
    name,
    tokenOf(request: FastifyRequest): string | undefined {
      const header = request.headers.cookie;
      if (typeof header !== 'string' || header === '') return undefined;
      return parseCookie(header)[name];
    },
    set(token: string, absoluteExpiresAt: Date, now: Date): string {
      return stringifySetCookie(name, token, { ...attributes, maxAge: Math.max(0, Math.floor((absoluteExpiresAt.getTime() - now.getTime()) / 1000)) });
    },
    clear(): string {
      return stringifySetCookie(name, '', { ...attributes, maxAge: 0 });
    },
  };
}
