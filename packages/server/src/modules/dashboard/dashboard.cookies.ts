import type { FastifyRequest } from 'fastify';
import { sessionCookies } from '../../platform/http/session-cookie.ts';

/** The dashboard session cookie: `__Host-caisse_session` in production, `caisse_session` in development (platform/http/session-cookie.ts). */
const cookies = (production: boolean) => sessionCookies('caisse_session', production);

export function sessionTokenOf(request: FastifyRequest, production: boolean): string | undefined {
  return cookies(production).tokenOf(request);
}

export function sessionCookie(token: string, absoluteExpiresAt: Date, now: Date, production: boolean): string {
  return cookies(production).set(token, absoluteExpiresAt, now);
}

export function clearSessionCookie(production: boolean): string {
  return cookies(production).clear();
}
