import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../../platform/errors.ts';

/**
 * Where webhooks may go (contract §5: no SSRF into private networks). An address is allowed
 * when it is global unicast; loopback is allowed too for test-mode endpoints when configured
 * (`CAISSE_WEBHOOK_ALLOW_LOOPBACK`, on by default in development mode). Private, link-local
 * (cloud metadata), carrier-grade NAT, unspecified, multicast, reserved and the IPv6 ranges that
 * embed IPv4 addresses (NAT64, 6to4, Teredo) are refused in every mode.
 */
export interface AddressPolicy {
  /** Live mode: https only, no loopback. */
  live: boolean;
  allowLoopback: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name resolution, injected so tests can play DNS rebinding. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const all = await lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export const MAX_URL_LENGTH = 2048;

/** Why an address is refused, or null when it may be called. */
export function addressRefusal(address: string, policy: AddressPolicy): string | null {
  let range: string;
  try {
    range = ipaddr.process(address).range();
  } catch {
    return `${address} is not an IP address`;
  }
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback && !policy.live) return null;
  return `${address} is a ${range} address, not a public one`;
}

/** The bare host name of a URL: IPv6 literals lose their brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

const invalid = (detail: string) => new ApiError('url_invalid', detail, { param: 'url' });

/**
 * The checks that need no network: the URL parses, is http(s) (https only in live mode), carries
 * no credentials and no fragment, and an IP literal or a loopback name is allowed by the policy.
 */
export function parseEndpointUrl(raw: string, policy: AddressPolicy): URL {
  if (raw.length > MAX_URL_LENGTH) throw invalid(`The URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('The URL does not parse; send an absolute URL such as https://example.com/webhooks');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`The URL must use https, not ${url.protocol.replace(':', '')}`);
  if (policy.live && url.protocol !== 'https:') throw invalid('Live-mode endpoints must use https');
  if (url.username !== '' || url.password !== '') throw invalid('The URL must not carry credentials (user:password@)');
  if (url.hash !== '') throw invalid('The URL must not have a fragment (#…)');
  const host = hostOf(url);
  if (host === '') throw invalid('The URL has no host');
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw invalid(`The URL's host ${refusal}`);
  } else if (isLoopbackName(host) && (policy.live || !policy.allowLoopback)) {
    throw invalid(`The URL's host ${host} is a loopback name, not a public one`);
  }
  return url;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * At creation and update: a host name that resolves must resolve only to allowed addresses. One
 * that does not resolve (yet, or from here) is accepted: the check that counts is made again at
 * every delivery, before connecting.
 */
export async function checkEndpointHost(url: URL, policy: AddressPolicy, resolver: Resolver, timeoutMs = 2000): Promise<void> {
  const host = hostOf(url);
  if (isIP(host)) return;
  let addresses: ResolvedAddress[] | undefined;
  try {
    addresses = await withTimeout(resolver(host), timeoutMs);
  } catch {
    return;
  }
  for (const a of addresses ?? []) {
    const refusal = addressRefusal(a.address, policy);
    if (refusal) throw invalid(`The URL's host ${host} resolves to ${refusal}`);
  }
}

/**
 * At delivery: resolve, check every address, and return the one to connect to, so the
 * connection goes to the address that was checked (no DNS rebinding between check and connect).
 */
export async function resolveForDelivery(url: URL, policy: AddressPolicy, resolver: Resolver): Promise<ResolvedAddress> {
  const host = hostOf(url);
  if (policy.live && url.protocol !== 'https:') throw new Error('live-mode endpoints must use https');
  const family = isIP(host);
  const addresses: ResolvedAddress[] = family !== 0 ? [{ address: host, family: family === 6 ? 6 : 4 }] : await resolver(host);
  if (addresses.length === 0) throw new Error(`${host} does not resolve`);
  for (const a of addresses) {
    const refusal = addressRefusal(a.address, policy);
    if (refusal) throw new Error(`refused to connect: ${host} resolves to ${refusal}`);
  }
  return addresses[0] as ResolvedAddress;
}
