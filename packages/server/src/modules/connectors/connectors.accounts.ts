import { createHash } from 'node:crypto';
import type { ProviderDescription } from './connectors.description.ts';

/**
 * Provider accounts (docs/spec): what Caisse uses to call one connector in one mode.
 * Until accounts can be added, each connector has one per mode: in test mode the implicit account
 * on Caisse's sandbox, in live mode the one its environment variables make. Every provider
 * request records the account it was made with, so a request is only ever read back with the
 * settings that made it (docs/decisions/0066-provider-accounts-on-requests.md).
 */

/** Test mode's implicit account of a connector on Caisse's sandbox. */
export function sandboxAccountId(connector: string): string {
  return `pac_sandbox_${connector}`;
}

/**
 * The account rows made before accounts were recorded are given (migration 0073): they were made
 * with whatever settings the environment held, so the environment's account of today reads them,
 * as it did before.
 */
export function legacyEnvAccountId(connector: string): string {
  return `pac_env_${connector}`;
}

/**
 * The id of the account a set of environment variables makes: a short stable hash of the
 * non-secret settings and of a digest of the credentials (never the credentials themselves), so
 * any change of either is another account.
 */
export function envAccountId(description: Pick<ProviderDescription, 'name' | 'settings'>, connectorSettings: object): string {
  const settings = connectorSettings as Readonly<Record<string, unknown>>;
  const secret = new Set(description.settings.filter((s) => s.secret && s.key !== undefined).map((s) => s.key as string));
  const keys = Object.keys(settings)
    .filter((k) => settings[k] !== undefined)
    .sort();
  const open = keys.filter((k) => !secret.has(k)).map((k) => [k, settings[k]]);
  const credentials = createHash('sha256')
    .update(JSON.stringify(keys.filter((k) => secret.has(k)).map((k) => [k, settings[k]])))
    .digest('hex');
  const hash = createHash('sha256')
    .update(JSON.stringify({ connector: description.name, settings: open, credentials }))
    .digest('hex')
    .slice(0, 12);
  return `pac_env_${description.name}_${hash}`;
}

/** Whether a request made with `recorded` may be read with the account `current` of its connector. */
export function sameAccount(recorded: string | null | undefined, current: string | undefined, connector: string): boolean {
  if (current === undefined) return false;
  if (recorded === null || recorded === undefined) return true;
  return recorded === current || (recorded === legacyEnvAccountId(connector) && current.startsWith(`${recorded}_`));
}
