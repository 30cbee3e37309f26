import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';

/**
 * The dashboard session cookie. In production it is `__Host-caisse_session`: the browser then
 * accepts it only with Secure, Path=/ and no Domain, so no subdomain or plain-HTTP page can set or
 * overwrite it. Development serves plain HTTP on loopback, where Secure cookies are not kept, so
 * the cookie is plain `caisse_session` there. Always HttpOnly (no script reads it) and
 * SameSite=Strict (no other site's page sends it).
 */
export function sessionCookieName(production: boolean): string {
  return production ? '__Host-caisse_session' : 'caisse_session';
}

export function sessionTokenOf(request: FastifyRequest, production: boolean): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || header === '') return undefined;
  return parseCookie(header)[sessionCookieName(production)];
}

export function sessionCookie(token: string, absoluteExpiresAt: Date, now: Date, production: boolean): string {
  return stringifySetCookie(sessionCookieName(production), token, {
    httpOnly: true,
    secure: production,
    sameSite: 'strict',
    path: '/',
    maxAge: Math.max(0, Math.floor((absoluteExpiresAt.getTime() - now.getTime()) / 1000)),
  });
}

export function clearSessionCookie(production: boolean): string {
  return stringifySetCookie(sessionCookieName(production), '', { httpOnly: true, secure: production, sameSite: 'strict', path: '/', maxAge: 0 });
}
