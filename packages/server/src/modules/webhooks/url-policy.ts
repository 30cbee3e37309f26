import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.ts';
import { ApiError } from '../../platform/errors.ts';
import type { KeyMode } from '../../platform/tenancy.ts';

/**
 * Where webhooks may go (docs/spec/webhooks.md: no SSRF into private networks). An IPv4 address must be
 * global unicast. An IPv6 address must be global unicast (2000::/3) outside the IETF protocol
 * block (2001::/23: Teredo, benchmarking, ORCHID…) and the documentation prefixes; the forms that
 * carry an IPv4 address (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged
 * by that IPv4 address, and the deprecated IPv4-compatible ::/96 and the local NAT64 prefix
 * 64:ff9b:1::/48 are refused. Loopback is allowed for test-mode endpoints when configured
 * (`CAISSE_WEBHOOK_ALLOW_LOOPBACK`, on by default in development mode), but never on the
 * gateway's own ports. The one rule serves registration and every delivery.
 */
export interface AddressPolicy {
  /** Live mode: https only, no loopback. */
  live: boolean;
  allowLoopback: boolean;
  /** Ports this gateway listens on: refused on loopback, so an endpoint cannot call the gateway itself. */
  gatewayPorts?: readonly number[];
}

/** The policy of an endpoint of `mode` under this configuration. */
export function addressPolicy(config: Pick<Config, 'port' | 'webhooks' | 'hardening'>, mode: KeyMode): AddressPolicy {
  const metricsPort = config.hardening.metrics.port;
  return {
    live: mode === 'live',
    allowLoopback: config.webhooks.allowLoopback,
    gatewayPorts: metricsPort === undefined ? [config.port] : [config.port, metricsPort],
  };
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

const cidr = (range: string) => ipaddr.IPv6.parseCIDR(range);
const GLOBAL_UNICAST = cidr('2000::/3');
/** Inside 2000::/3 but not for us: IETF protocol assignments, documentation (RFC 3849, RFC 9637). */
const SPECIAL_IN_GLOBAL: [string, [ipaddr.IPv6, number]][] = [
  ['IETF special-purpose', cidr('2001::/23')],
  ['documentation', cidr('2001:db8::/32')],
  ['documentation', cidr('3fff::/20')],
];
const IPV4_COMPATIBLE = cidr('::/96');
const NAT64 = cidr('64:ff9b::/96');
const SIX_TO_FOUR = cidr('2002::/16');

function ipv4Of(bytes: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes);
}

/** Why an IPv4 address is refused, or null. */
function ipv4Refusal(ip: ipaddr.IPv4, shown: string, policy: AddressPolicy): string | null {
  const range = ip.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback && !policy.live) return null;
  return `${shown} is a ${range} address, not a public one`;
}

/** Why an IPv6 address is refused, or null. */
function ipv6Refusal(ip: ipaddr.IPv6, shown: string, policy: AddressPolicy): string | null {
  const range = ip.range();
  if (range === 'loopback') return policy.allowLoopback && !policy.live ? null : `${shown} is a loopback address, not a public one`;
  // Forms that carry an IPv4 address lead to it: judge that one.
  const bytes = ip.toByteArray();
  const embedded = ip.isIPv4MappedAddress()
    ? ip.toIPv4Address()
    : ip.match(NAT64)
      ? ipv4Of(bytes.slice(12, 16))
      : ip.match(SIX_TO_FOUR)
        ? ipv4Of(bytes.slice(2, 6))
        : undefined;
  if (embedded) {
    const inner = ipv4Refusal(embedded, embedded.toString(), { ...policy, allowLoopback: ip.isIPv4MappedAddress() && policy.allowLoopback });
    return inner === null ? null : `${shown} embeds ${inner}`;
  }
  if (ip.match(IPV4_COMPATIBLE)) return `${shown} is an IPv4-compatible address (deprecated), not a public one`;
  if (!ip.match(GLOBAL_UNICAST)) return `${shown} is a ${range === 'unicast' ? 'non-global' : range} address, not a public one`;
  // The last match is the most specific: 2001:db8::/32 sits inside 2001::/23.
  const special = SPECIAL_IN_GLOBAL.filter(([, block]) => ip.match(block)).at(-1);
  return special ? `${shown} is a ${special[0]} address, not a public one` : null;
}

/**
 * The address as the system will connect to it. IPv6 goes through the WHATWG URL serialiser
 * first (hex groups only): ipaddr.js reads `::a.b.c.d` as IPv4-mapped, where the system connects
 * to the IPv4-compatible ::a.b.c.d. A zone id (`fe80::1%eth0`) does not parse: refused.
 */
function parseIp(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    const family = isIP(address);
    if (family === 4) return ipaddr.IPv4.parse(address);
    if (family === 6) return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    /* not an address we connect to */
  }
  return undefined;
}

/** Why an address is refused, or null when it may be called. */
export function addressRefusal(address: string, policy: AddressPolicy): string | null {
  const ip = parseIp(address);
  if (!ip) return `${address} is not an IP address`;
  return ip.kind() === 'ipv4' ? ipv4Refusal(ip as ipaddr.IPv4, address, policy) : ipv6Refusal(ip as ipaddr.IPv6, address, policy);
}

/** Is this (allowed) address a loopback one? Answers from such a target are never stored. */
export function isLoopbackAddress(address: string): boolean {
  const ip = parseIp(address);
  if (!ip) return false;
  const v4 = ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
  return v4.range() === 'loopback';
}

/** The port a URL connects to. */
export function portOf(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/** A loopback target on one of the gateway's own ports: the gateway would call itself. */
function ownPortRefusal(url: URL, policy: AddressPolicy): string | null {
  const port = portOf(url);
  return policy.gatewayPorts?.includes(port) ? `port ${port} on loopback is this gateway's own` : null;
}

/** Why connecting to `address` for `url` is refused: the address, or a loopback address on the gateway's port. */
function targetRefusal(url: URL, address: string, policy: AddressPolicy): string | null {
  return addressRefusal(address, policy) ?? (isLoopbackAddress(address) ? ownPortRefusal(url, policy) : null);
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
    const refusal = targetRefusal(url, host, policy);
    if (refusal) throw invalid(`The URL's host ${refusal}`);
  } else if (isLoopbackName(host)) {
    if (policy.live || !policy.allowLoopback) throw invalid(`The URL's host ${host} is a loopback name, not a public one`);
    const refusal = ownPortRefusal(url, policy);
    if (refusal) throw invalid(`The URL's ${refusal}`);
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
    const refusal = targetRefusal(url, a.address, policy);
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
    const refusal = targetRefusal(url, a.address, policy);
    if (refusal) throw new Error(`refused to connect: ${host} resolves to ${refusal}`);
  }
  return addresses[0] as ResolvedAddress;
}
