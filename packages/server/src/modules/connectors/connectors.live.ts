import { isIP } from 'node:net';
import type { AnyConnectorDefinition } from './connectors.definition.ts';
import type { GivenSettings, LiveContext, SettingProblem } from './connectors.types.ts';

export type { GivenSettings, LiveContext, SettingProblem } from './connectors.types.ts';

/**
 * Live refusals (docs/spec/providers.md, "Going live"): a live account must never hold a sandbox
 * value, which would either fail the first real payment or "settle" test money as a live one.
 * Each connector's definition says what is a sandbox value for it (`liveProblems`); the base URL
 * rule is the same for every connector and lives here. The accounts' API answers these as 400
 * `provider_settings_invalid` naming the setting; a production server refuses to start with
 * environment variables holding them (the setting's variable named instead).
 */

/**
 * Why a live base URL cannot be used in production, or undefined: it must be https (credentials
 * travel in its headers) and must not name a loopback, private, link-local or unspecified
 * address (a provider's production API is on the internet; such a URL is a sandbox or a mistake,
 * and would let whoever holds the account's settings reach this network's own services).
 */
export function liveUrlProblem(setting: string, raw: unknown): SettingProblem | undefined {
  if (typeof raw !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { setting, message: 'is not a URL' };
  }
  if (url.protocol !== 'https:') return { setting, message: `must use https:// in production, got ${url.protocol}//` };
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal'))
    return { setting, message: `must reach the provider's public API in production, not ${host}` };
  if (isPrivateAddress(host)) return { setting, message: `must reach the provider's public API in production, not the private or loopback address ${host}` };
  return undefined;
}

/** Whether `host` is an IP address no public API has: loopback, private, link-local, unspecified, CGNAT, unique-local. */
export function isPrivateAddress(host: string): boolean {
  const kind = isIP(host);
  if (kind === 4) return privateV4(host);
  if (kind !== 6) return false;
  const h = host.toLowerCase();
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1, which URL writes ::ffff:a00:1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) return privateV4(mapped[1] as string);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (hex) {
    const [hi, lo] = [Number.parseInt(hex[1] as string, 16), Number.parseInt(hex[2] as string, 16)];
    return privateV4(`${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`);
  }
  if (h === '::' || h === '::1') return true;
  const first = Number.parseInt(h.split(':')[0] || '0', 16);
  // fc00::/7 unique-local, fe80::/10 link-local.
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

function privateV4(host: string): boolean {
  const [a, b] = host.split('.').map(Number) as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/**
 * Why a test-mode account cannot use these settings: a base URL on the provider's production API
 * (its default, for a provider without a sandbox of its own), since test mode never calls one.
 */
function testSettingsProblems(definition: AnyConnectorDefinition, settings: GivenSettings): SettingProblem[] {
  const production = definition.productionApi;
  if (production === undefined || production.sandbox?.(settings) === true) return [];
  const problems: SettingProblem[] = [];
  for (const s of definition.description.settings) {
    const raw = s.key === undefined || s.kind !== 'url' ? undefined : settings[s.key];
    if (typeof raw !== 'string' || s.key === undefined) continue;
    let host: string;
    try {
      host = new URL(raw).hostname.toLowerCase();
    } catch {
      continue;
    }
    if (production.hosts.includes(host))
      problems.push({
        setting: s.key,
        message: `is ${definition.description.displayName}'s production API (${host}): a test-mode account never calls it; point it at a sandbox (npx caisse sandbox)`,
      });
  }
  return problems;
}

/**
 * Every reason these settings cannot be used by this connector there: in test mode, a base URL on
 * the provider's production API; in live mode the connector's own sandbox values
 * (`liveProblems`), and in production every base URL's (`liveUrlProblem`). Empty: usable.
 */
export function liveSettingsProblems(definition: AnyConnectorDefinition, settings: GivenSettings, ctx: LiveContext): SettingProblem[] {
  if (ctx.mode !== 'live') return testSettingsProblems(definition, settings);
  const problems = [...(definition.liveProblems?.(settings, ctx) ?? [])];
  if (ctx.production) {
    for (const s of definition.description.settings) {
      if (s.kind !== 'url' || s.key === undefined) continue;
      const problem = liveUrlProblem(s.key, settings[s.key]);
      if (problem !== undefined && !problems.some((p) => p.setting === problem.setting)) problems.push(problem);
    }
  }
  return problems;
}

/** A setting of a live account that is required there although the sandbox has a default for it (MTN's target environment). */
export function requiredInLive(settings: GivenSettings, setting: string, what: string): SettingProblem | undefined {
  const value = settings[setting];
  return value === undefined || value === null || value === '' ? { setting, message: `is required in live mode (${what})` } : undefined;
}
