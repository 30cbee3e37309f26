import { isIP } from 'node:net';
import { ApiError } from '../../platform/errors.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

export const MAX_RETURN_URL_LENGTH = 2000;

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * A `returnUrl` as given on intent creation (docs/spec/mobile-money-payments.md), or 400 `return_url_invalid`: an
 * absolute https URL without credentials; plain http only to loopback in test mode (a shop on
 * the developer's machine). The payer's browser goes there, so anything else would send them
 * over an unencrypted link or to a page that could read the user name and password in the URL.
 */
export function checkReturnUrl(value: string, mode: KeyMode): string {
  const invalid = (why: string) => new ApiError('return_url_invalid', `returnUrl ${why}`, { param: 'returnUrl' });
  if (value.length > MAX_RETURN_URL_LENGTH) throw invalid(`is longer than ${MAX_RETURN_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('is not an absolute URL');
  }
  if (url.username !== '' || url.password !== '') throw invalid('must not hold a user name or password');
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'http:' && mode === 'test' && isLoopback(url.hostname)) return url.href;
  throw invalid(mode === 'test' ? 'must use https (http only to localhost or 127.0.0.1 in test mode)' : 'must use https');
}
