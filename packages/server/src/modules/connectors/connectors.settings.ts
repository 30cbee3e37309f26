import { ConfigError, type RunMode } from '../../config.ts';
import type { ProviderDescription, ProviderSetting } from './connectors.description.ts';
import type { SettingProblem } from './connectors.live.ts';

/**
 * A provider's settings read from the environment by its description (each setting's variable,
 * field, kind and default), so that config.ts names no provider. All of a provider's required
 * variables or none (the optional ones alone configure nothing): a partial account is most likely a misspelt variable, and is refused at
 * start rather than silently left out.
 */
export function readProviderSettings(
  description: Pick<ProviderDescription, 'settings' | 'checkSettings'>,
  env: Readonly<Record<string, string | undefined>>,
  mode: RunMode,
  /** In production: what the connector refuses in live mode (connectors.live.ts), each problem refused naming its variable. */
  live?: (values: Record<string, string | number>) => readonly SettingProblem[],
): Record<string, string | number> | undefined {
  const keyed = description.settings.filter((s) => s.key !== undefined);
  const given = keyed.filter((s) => (env[s.env] ?? '').trim() !== '');
  // Only a required variable opens an account: a tuning knob with a default (the call time limit)
  // applies to the sandbox too, and alone configures nothing.
  if (!given.some((s) => s.required)) return undefined;
  const missing = keyed.find((s) => s.required && !given.includes(s));
  if (missing) throw new ConfigError(missing.env, `is required when ${(given[0] as ProviderSetting).env} is set`);
  const values: Record<string, string | number> = {};
  for (const s of keyed) {
    // A sandbox default never applies in production: a live account left on `sandbox` or `dev`
    // would fail its first payment, or take test money for a real one.
    const fallback = mode === 'production' && s.sandboxDefault === true ? undefined : s.default;
    const raw = env[s.env]?.trim() || fallback;
    if (raw !== undefined) values[s.key as string] = checked(s, raw, mode);
  }
  const refused = mode === 'production' ? live?.(values)[0] : undefined;
  if (refused !== undefined) throw new ConfigError(keyed.find((s) => s.key === refused.setting)?.env ?? refused.setting, refused.message);
  const problem = description.checkSettings?.(values);
  if (problem !== undefined) throw new ConfigError(keyed.find((s) => s.key === problem.key)?.env ?? problem.key, problem.message);
  return values;
}

/**
 * One setting on its own, checked, or its default: for what is read even when the provider has no
 * account here (the call bound the sandbox uses in test mode).
 */
export function readProviderSetting(
  description: Pick<ProviderDescription, 'settings'>,
  key: string,
  env: Readonly<Record<string, string | undefined>>,
  mode: RunMode,
): string | number | undefined {
  const s = description.settings.find((setting) => setting.key === key);
  const raw = s === undefined ? undefined : env[s.env]?.trim() || s.default;
  return s === undefined || raw === undefined ? undefined : checked(s, raw, mode);
}

function checked(s: ProviderSetting, raw: string, mode: RunMode): string | number {
  switch (s.kind) {
    case 'integer': {
      const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
      if (!(value >= 100 && value <= 120_000)) throw new ConfigError(s.env, `must be a whole number of milliseconds between 100 and 120000, got "${raw}"`);
      return value;
    }
    case 'url':
    case 'callback': {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ConfigError(s.env, 'is not a URL');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(s.env, `must use https:// or http://, got ${url.protocol}//`);
      if (mode === 'production' && url.protocol === 'http:') throw new ConfigError(s.env, 'must use https:// in production mode');
      // The connector appends /{kind}/{reference}/{token} to a callback base.
      if (s.kind === 'callback' && /[?#]/.test(raw)) throw new ConfigError(s.env, 'must not have a query string or a fragment');
      return raw.replace(/\/+$/, '');
    }
    case 'uuid':
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw)) throw new ConfigError(s.env, 'must be a UUID');
      return raw;
    case 'currencies': {
      // A comma list of ISO 4217 codes, kept as `XAF,USD` whatever the case and spacing typed.
      const codes = [
        ...new Set(
          raw
            .split(/[\s,]+/)
            .filter((c) => c !== '')
            .map((c) => c.toUpperCase()),
        ),
      ];
      if (codes.length === 0 || codes.some((c) => !/^[A-Z]{3}$/.test(c)))
        throw new ConfigError(s.env, `must be currency codes separated by commas (XAF,USD), got "${raw}"`);
      return codes.join(',');
    }
    case 'name':
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw)) throw new ConfigError(s.env, `must be letters, digits, "_", "." or "-" (at most 64), got "${raw}"`);
      return raw;
    default:
      // A credential, sent in a header; its value is never quoted back. Long enough for a
      // signed token (pawaPay's API tokens are JWTs of about 400 characters).
      if (!/^[\x21-\x7e]{1,2048}$/.test(raw)) throw new ConfigError(s.env, 'must be printable ASCII without spaces (at most 2048 characters)');
      return raw;
  }
}

/**
 * A provider account's settings (docs/spec/provider-accounts.md), checked as their variables are:
 * only `allowed` keys, each by its description's kind, the required ones present, the defaults
 * filled in, then the description's own check across them. A problem names the key and says why,
 * never quoting a secret.
 */
export function readAccountSettings(
  description: Pick<ProviderDescription, 'settings' | 'checkSettings'>,
  allowed: readonly string[],
  given: Readonly<Record<string, string>>,
  mode: RunMode,
): { ok: true; values: Record<string, string | number> } | { ok: false; key: string; message: string } {
  const unknown = Object.keys(given).find((k) => !allowed.includes(k));
  if (unknown !== undefined) return { ok: false, key: unknown, message: `is not a setting of this connector (settings: ${allowed.join(', ')})` };
  const values: Record<string, string | number> = {};
  for (const key of allowed) {
    const s = description.settings.find((setting) => setting.key === key);
    if (s === undefined) continue;
    const raw = given[key]?.trim() || s.default;
    if (raw === undefined) {
      if (s.required) return { ok: false, key, message: 'is required' };
      continue;
    }
    try {
      values[key] = checked(s, raw, mode);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return { ok: false, key, message: err.message.slice(`${s.env}: `.length) };
    }
  }
  const problem = description.checkSettings?.(values);
  return problem === undefined ? { ok: true, values } : { ok: false, key: problem.key, message: problem.message };
}
