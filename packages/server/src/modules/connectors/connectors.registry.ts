import type { RunMode, SandboxConfig } from '../../config.ts';
import type { AnyConnectorDefinition } from './connectors.definition.ts';
import type { Country } from '../../platform/countries.ts';
import type { Connector, ConnectorDeps } from './connectors.types.ts';
import type { ProviderDescription } from './connectors.description.ts';
import { createProviderHealth, DEFAULT_HEALTH_RULES, type HealthRules, type ProviderHealth, type ProviderHealthView, watched } from './connectors.health.ts';
import { readProviderSetting, readProviderSettings } from './connectors.settings.ts';
import { envAccountId, sandboxAccountId } from './connectors.accounts.ts';
import { completeSandboxSecrets, keepSandboxSecrets, type SandboxSecrets } from './sandbox/sandbox.secrets.ts';
import { MTN_MOMO_CONNECTOR } from './mtn-momo/index.ts';
import { ORANGE_MONEY_CONNECTOR } from './orange-money/index.ts';
import { WAVE_CONNECTOR } from './wave/index.ts';

/**
 * Every connector: one folder each, exporting one object (its description, its connector factory,
 * its sandbox mount), and one line here. Nothing else names a provider: everything loops over
 * this list (docs/architecture.md, "Connectors").
 */
const CONNECTORS: AnyConnectorDefinition[] = [MTN_MOMO_CONNECTOR, ORANGE_MONEY_CONNECTOR, WAVE_CONNECTOR];

/**
 * Their names, kept beside the list: one array for the life of the process, so that a schema
 * built from it (the API's `provider` enum) holds every connector registered before the routes
 * are compiled.
 */
const NAMES: ProviderName[] = CONNECTORS.map((c) => c.description.name);

/** A provider's registry name (`mtn_momo`): its description's `name`. */
export type ProviderName = string;

/**
 * The order in which checkout lists a country's providers when the merchant chose none: the
 * wallets its payers use most first (docs/spec/mobile-money-payments.md, "Order of the
 * providers"). Free Money (SN) and Moov Money (CI) take their place once they have a connector.
 */
export const DEFAULT_PROVIDER_ORDER: Readonly<Record<Country, readonly ProviderName[]>> = {
  SN: ['wave', 'orange_money'],
  CM: ['mtn_momo', 'orange_money'],
  CI: ['mtn_momo', 'orange_money', 'wave'],
};

/** Every connector's definition, in the registry's order (the order checkout and the CLI list them in). */
export function connectorDefinitions(): readonly AnyConnectorDefinition[] {
  return CONNECTORS;
}

/** Every provider's registry name, in the registry's order. */
export function providerNames(): readonly ProviderName[] {
  return NAMES;
}

export function isProviderName(value: string): value is ProviderName {
  return CONNECTORS.some((c) => c.description.name === value);
}

/** A provider's description, or undefined for a name the registry does not know. */
export function descriptionOf(name: string): ProviderDescription | undefined {
  return CONNECTORS.find((c) => c.description.name === name)?.description;
}

/**
 * Adds a connector to the registry until the returned function removes it: for a test that proves
 * a connector needs nothing but its folder and this (test/fixtures/echo-connector). Refused when
 * its name or its sandbox path is already taken.
 */
export function registerConnector(definition: AnyConnectorDefinition): () => void {
  const { name } = definition.description;
  if (isProviderName(name)) throw new Error(`connector ${name} is already registered`);
  if (CONNECTORS.some((c) => c.sandbox.path === definition.sandbox.path)) throw new Error(`sandbox path "${definition.sandbox.path}" is already mounted`);
  CONNECTORS.push(definition);
  NAMES.push(name);
  return () => {
    const at = CONNECTORS.indexOf(definition);
    if (at < 0) return;
    CONNECTORS.splice(at, 1);
    NAMES.splice(at, 1);
  };
}

/** Each provider's settings by its registry name (each of its own connector's shape); a provider without settings has no connector. */
export type ConnectorSettings = Readonly<Record<ProviderName, unknown>>;

export interface ConnectorRegistry {
  /** The connector of this provider, or undefined when the name is unknown or not configured. */
  get(provider: string): Connector | undefined;
  /** The providers that have a connector here. */
  providers(): ProviderName[];
  /** The provider account (`pac_…`) this registry's connector of a provider calls with (connectors.accounts.ts). */
  account(provider: string): string | undefined;
  /** Each provider account's recent outcomes per method (absent: not watched, every account counts as available). */
  health?: ProviderHealth;
  close(): Promise<void>;
}

/**
 * With `health`, every call of every connector reports its outcome to it. `accounts`: whose
 * accounts these settings are: the environment's (an id derived from them) or the sandbox's.
 */
export function createConnectorRegistry(
  settings: ConnectorSettings,
  deps: ConnectorDeps,
  health?: ProviderHealth,
  accounts: 'env' | 'sandbox' = 'env',
): ConnectorRegistry {
  const connectors = new Map<ProviderName, Connector>();
  const accountIds = new Map<ProviderName, string>();
  for (const definition of CONNECTORS) {
    const { name } = definition.description;
    const own = settings[name];
    if (own === undefined) continue;
    // A connector's settings are always an object of its description's fields (connectors.settings.ts, its sandbox mount).
    const account = accounts === 'sandbox' ? sandboxAccountId(name) : envAccountId(definition.description, own as object);
    accountIds.set(name, account);
    const connector = definition.create(own, deps);
    connectors.set(name, health ? watched(connector, health, account) : connector);
  }
  return {
    get: (provider) => connectors.get(provider),
    providers: () => [...connectors.keys()],
    account: (provider) => accountIds.get(provider),
    ...(health ? { health } : {}),
    close: async () => {
      await Promise.all([...connectors.values()].map((c) => c.close()));
    },
  };
}

/** What the live providers' settings are read from. */
export interface ProvidersConfig {
  mode: RunMode;
  /** CAISSE_DATA_DIR: where the sandbox's secrets are kept (`sandboxSecrets`), whatever the database. */
  dataDir?: string;
  /** This server's port: the sandbox's callbacks come to it on loopback unless told otherwise. */
  port?: number;
  sandbox: SandboxConfig;
  providerEnv?: Readonly<Record<string, string>>;
  /** CAISSE_PROVIDER_HEALTH_WINDOW_MS and CAISSE_PROVIDER_COOLDOWN_MS (the defaults' otherwise). */
  providerHealth?: Pick<HealthRules, 'windowMs' | 'coolDownMs'>;
}

/**
 * The live providers configured in the environment (none of them: an empty registry): each
 * provider's settings come from its description's variables (`readProviderSettings`, ConfigError
 * when they are incomplete or malformed).
 */
export function connectorSettings(config: Pick<ProvidersConfig, 'mode' | 'providerEnv'>): ConnectorSettings {
  const settings: Record<ProviderName, unknown> = {};
  for (const { description } of CONNECTORS) {
    // The description's fields are its connector's settings (connectors.settings.ts checks their kinds).
    const values = readProviderSettings(description, config.providerEnv ?? {}, config.mode);
    if (values !== undefined) settings[description.name] = values;
  }
  return settings;
}

/**
 * Test mode's sandbox from the configuration: its URL (CAISSE_SANDBOX_URL) and this server's
 * callbacks base its notifications go to (CAISSE_SANDBOX_CALLBACK_URL; by default this server's
 * own port on loopback).
 */
export function sandboxTarget(config: ProvidersConfig): { url: string | undefined; callbacksUrl: string } {
  return { url: config.sandbox.url, callbacksUrl: config.sandbox.callbacksUrl ?? `http://127.0.0.1:${config.port ?? 8080}/callbacks` };
}

/**
 * Settings that point every connector at its mount of Caisse's sandbox (`caisse sandbox`, or the
 * one `start` runs in development), each made by its own definition: the sandbox takes any
 * credentials unless it was started with some. Each connector's call bound is its own variable's
 * (its description's `timeoutMs` setting) unless `timeoutMs` is given for all (tests). A
 * connector whose sandbox declares secrets gets its own of `secrets` (the sandbox's); without
 * them, ones nobody holds: its notifications are then refused, never trusted.
 */
export function sandboxSettings(
  sandboxUrl: string,
  opts: { callbacksUrl?: string; timeoutMs?: number; env?: Readonly<Record<string, string>>; mode?: RunMode; secrets?: SandboxSecrets } = {},
): ConnectorSettings {
  const root = sandboxUrl.replace(/\/+$/, '');
  const callbacksUrl = opts.callbacksUrl?.replace(/\/+$/, '');
  const secrets = completeSandboxSecrets(opts.secrets ?? {}, CONNECTORS);
  const settings: Record<ProviderName, unknown> = {};
  for (const { description, sandbox } of CONNECTORS) {
    const own = readProviderSetting(description, 'timeoutMs', opts.env ?? {}, opts.mode ?? 'development');
    const timeoutMs = opts.timeoutMs ?? (typeof own === 'number' ? own : undefined);
    settings[description.name] = sandbox.settings({ baseUrl: root + sandbox.path, callbacksUrl, timeoutMs, secrets: secrets[description.name] ?? {} });
  }
  return settings;
}

/** The connectors of each mode: test mode always the sandbox, live mode the configured providers. */
export interface ConnectorSource {
  forMode(mode: 'test' | 'live'): ConnectorRegistry;
}

/** When to ask a provider again about a request after `polls` earlier asks: 2 s, 4 s, 8 s … at most a minute apart. */
export function pollBackoffMs(polls: number): number {
  return Math.min(60_000, 2_000 * 2 ** Math.max(0, polls - 1));
}

export interface ModeConnectors {
  forMode(mode: 'test' | 'live'): ConnectorRegistry;
  close(): Promise<void>;
}

/** Each mode's provider accounts' health per method, for the metrics and `providers list` (modes without a watched registry are left out). */
export function healthViews(source: ConnectorSource): (ProviderHealthView & { mode: 'test' | 'live' })[] {
  return (['test', 'live'] as const).flatMap((mode) => (source.forMode(mode).health?.views() ?? []).map((v) => ({ ...v, mode })));
}

/**
 * Live mode: the providers configured in the environment (each description's variables). Test
 * mode never calls a real provider: the sandbox at `sandboxUrl` (CAISSE_SANDBOX_URL, or the
 * one `start` runs in development), or none (test top-ups then answer 503 provider_unavailable).
 */
export function createModeConnectors(
  config: ProvidersConfig,
  deps: ConnectorDeps,
  opts: { sandboxUrl?: string; sandboxCallbacksUrl?: string; sandboxSecrets?: SandboxSecrets; healthRules?: HealthRules } = {},
): ModeConnectors {
  const rules = opts.healthRules ?? { ...DEFAULT_HEALTH_RULES, ...config.providerHealth };
  const live = createConnectorRegistry(connectorSettings(config), deps, createProviderHealth(deps.clock, rules));
  const target = sandboxTarget(config);
  const sandboxUrl = opts.sandboxUrl ?? target.url;
  const test = createConnectorRegistry(
    sandboxUrl === undefined
      ? {}
      : sandboxSettings(sandboxUrl, {
          callbacksUrl: opts.sandboxCallbacksUrl ?? target.callbacksUrl,
          env: config.providerEnv,
          mode: config.mode,
          secrets: opts.sandboxSecrets ?? (config.dataDir === undefined ? undefined : keepSandboxSecrets(config.dataDir, CONNECTORS)),
        }),
    deps,
    createProviderHealth(deps.clock, rules),
    'sandbox',
  );
  return {
    forMode: (mode) => (mode === 'live' ? live : test),
    close: async () => {
      await Promise.all([live.close(), test.close()]);
    },
  };
}
