import type { Server } from 'node:net';
import type { Config } from '../../config.ts';

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);

/**
 * The base of links sent by e-mail (password reset, invitations): CAISSE_PUBLIC_URL, else the
 * address this server listens on. Never the request's Host header or Origin: a client chooses
 * those, and a reset link pointing at its host would hand it the token.
 */
export function emailLinkBase(config: Pick<Config, 'publicUrl' | 'host' | 'port' | 'security'>, server?: Pick<Server, 'address'>): string {
  if (config.publicUrl !== undefined) return config.publicUrl.replace(/\/+$/, '');
  const bound = server?.address();
  const port = bound !== null && typeof bound === 'object' ? bound.port : config.port;
  // A wildcard address is reached on this machine as localhost.
  const host = WILDCARD_HOSTS.has(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `${config.security.tls ? 'https' : 'http'}://${host}:${port}`;
}
