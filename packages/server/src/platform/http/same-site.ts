import type { FastifyRequest } from 'fastify';

/**
 * Whether a browser made this request for another site: `Sec-Fetch-Site: cross-site` (every
 * current browser sends it), or an `Origin` whose host is not this server's. With SameSite=Strict
 * cookies, a line of defence against cross-site request forgery for the server's own pages.
 * `Origin: null` counts as foreign, except for HTML forms (`nullOrigin: 'form'`): our pages send
 * `Referrer-Policy: no-referrer`, under which a browser posts a form with `Origin: null`, and
 * `Sec-Fetch-Site` then tells.
 */
export function isCrossSite(request: FastifyRequest, opts: { nullOrigin?: 'foreign' | 'form' } = {}): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  if (origin === 'null' && opts.nullOrigin === 'form') return false;
  try {
    const from = new URL(origin);
    const self = new URL(`${from.protocol}//${request.headers.host ?? ''}`);
    const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
    return from.hostname !== self.hostname || port(from) !== port(self);
  } catch {
    return true;
  }
}
