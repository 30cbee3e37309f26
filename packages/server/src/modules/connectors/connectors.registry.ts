import type { RunMode, SandboxConfig } from '../../config.ts';
import type { AnyConnectorDefinition } from './connectors.definition.ts';
import type { Country } from '../../platform/countries.ts';
import type { Connector, ConnectorDeps } from './connectors.types.ts';
import { type ProviderDescription, servedMethods } from './connectors.description.ts';
import { currencyOf } from '../../platform/countries.ts';
import type { Currency } from '../../platform/money.ts';
import { createProviderHealth, DEFAULT_HEALTH_RULES, type HealthRules, type ProviderHealth, type ProviderHealthView, watched } from './connectors.health.ts';
import { readProviderSetting, readProviderSettings } from './connectors.settings.ts';
import { envAccountId, sameAccount, sandboxAccountId } from './connectors.accounts.ts';
import { liveSettingsProblems } from './connectors.live.ts';
import { methodCatalogue, type PaymentMethodInfo } from './connectors.methods.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Executor } from '../../platform/db.ts';
import { completeSandboxSecrets, keepSandboxSecrets, type SandboxSecrets } from './sandbox/sandbox.secrets.ts';
import { MTN_MOMO_CONNECTOR } from './mtn-momo/index.ts';
import { ORANGE_MONEY_CONNECTOR } from './orange-money/index.ts';
import { PAWAPAY_CONNECTOR } from './pawapay/index.ts';
import { WAVE_CONNECTOR } from './wave/index.ts';
import { CINETPAY_CONNECTOR } from './cinetpay/index.ts';

/**
 * Every connector: one folder each, exporting one object (its description, its connector factory,
 * its sandbox mount), and one line here. Nothing else names a provider: everything loops over
 * this list (docs/architecture.md, "Connectors").
 */
const CONNECTORS: AnyConnectorDefinition[] = [MTN_MOMO_CONNECTOR, ORANGE_MONEY_CONNECTOR, WAVE_CONNECTOR, CINETPAY_CONNECTOR, PAWAPAY_CONNECTOR];

/**
 * Their names, kept beside the list: one array for the life of the process, so that a schema
 * built from it (the API's `provider` enum) holds every connector registered before the routes
 * are compiled.
 */
const NAMES: ProviderName[] = CONNECTORS.map((c) => c.description.name);

/**
 * The payment methods (connectors.methods.ts): the operators' own connectors and the methods the
 * aggregators serve, never an aggregator itself (docs/spec, section 15). Kept beside the list as
 * NAMES is, and refilled in place when a connector is registered.
 */
const METHODS: PaymentMethodInfo[] = methodCatalogue(CONNECTORS.map((c) => c.description));
const METHOD_NAMES: ProviderName[] = METHODS.map((m) => m.name);

function refreshMethods(): void {
  METHODS.splice(0, METHODS.length, ...methodCatalogue(CONNECTORS.map((c) => c.description)));
  METHOD_NAMES.splice(0, METHOD_NAMES.length, ...METHODS.map((m) => m.name));
}

/** A provider's registry name (`mtn_momo`): its description's `name`. */
export type ProviderName = string;

/**
 * The order in which checkout lists a country's providers when the merchant chose none: the
 * wallets its payers use most first (docs/spec/mobile-money-payments.md, "Order of the
 * providers"). Operators' methods without a connector of their own (Moov Money, Free Money,
 * T-Money, Celtiis Cash) are reached through an aggregator: a country lists them once a route
 * with an account serves them there.
 */
export const DEFAULT_PROVIDER_ORDER: Readonly<Record<Country, readonly ProviderName[]>> = {
  SN: ['wave', 'orange_money', 'free_money'],
  CM: ['mtn_momo', 'orange_money'],
  CI: ['mtn_momo', 'orange_money', 'wave', 'moov_money'],
  BJ: ['mtn_momo', 'moov_money', 'celtiis_cash'],
  BF: ['orange_money', 'moov_money'],
  ML: ['orange_money', 'moov_money'],
  TG: ['t_money', 'moov_money'],
};

/**
 * The currencies a merchant of `country` may create intents in (docs/decisions/0082): the
 * country's own, and those a route there can take: a method that one of `connectors` serves in
 * that country with currencies of its own (a card route's EUR or USD), when the account it goes
 * through takes them too (`takes`: its connector's `currencies`; a CinetPay account takes USD
 * only once its service has it, decision 0098). Mobile money moves the country's currency only,
 * whatever else its connector moves elsewhere.
 */
export function acceptedCurrencies(
  country: Country,
  connectors: readonly ProviderName[],
  takes: (connector: ProviderName) => readonly Currency[] | undefined = () => undefined,
): Currency[] {
  const own = currencyOf(country);
  const accepted = new Set<Currency>([own]);
  for (const { description } of CONNECTORS) {
    if (!connectors.includes(description.name)) continue;
    const taken = takes(description.name);
    for (const served of servedMethods(description)) {
      if (!served.countries.includes(country)) continue;
      for (const currency of served.currencies ?? [own]) if (taken === undefined || taken.includes(currency)) accepted.add(currency);
    }
  }
  return [...accepted];
}

/** Every connector's definition, in the registry's order (the order checkout and the CLI list them in). */
export function connectorDefinitions(): readonly AnyConnectorDefinition[] {
  return CONNECTORS;
}

/** Every provider's registry name, in the registry's order. */
export function providerNames(): readonly ProviderName[] {
  return NAMES;
}

/**
 * Every payment method of the catalogue (what `paymentMethod.provider` names): the operators' own
 * connectors in the registry's order, then the methods only aggregators reach. The same array for
 * the life of the process (the API's enum is built from it).
 */
export function methodProviderNames(): readonly ProviderName[] {
  return METHOD_NAMES;
}

/** Whether this is a payment method of the catalogue (never an aggregator's own name). */
export function isMethodProvider(value: string): value is ProviderName {
  return METHOD_NAMES.includes(value);
}

/** Every payment method of the catalogue with its presentation, in the order of `methodProviderNames`. */
export function paymentMethodCatalogue(): readonly PaymentMethodInfo[] {
  return METHODS;
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
  refreshMethods();
  return () => {
    const at = CONNECTORS.indexOf(definition);
    if (at < 0) return;
    CONNECTORS.splice(at, 1);
    NAMES.splice(at, 1);
    refreshMethods();
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
  /**
   * The provider account refused for new requests of this provider here (a merchant's registry
   * whose country has only disabled accounts of it): `get` answers undefined and the refusal names it.
   */
  disabledAccount?(provider: string): string | undefined;
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
  for (const definition of CONNECTORS) {
    const { description } = definition;
    // The description's fields are its connector's settings (connectors.settings.ts checks their kinds).
    // They are the live account: in production a sandbox value in them stops the start, naming its
    // variable, as adding such an account is refused (connectors.live.ts). Their countries are the
    // connector's own, not compared.
    const live = (values: Record<string, string | number>) => liveSettingsProblems(definition, values, { mode: 'live', countries: [], production: true });
    const values = readProviderSettings(description, config.providerEnv ?? {}, config.mode, live);
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

/**
 * The connectors of each mode: test mode always the sandbox, live mode the configured providers;
 * with provider accounts (modules/provideraccounts), those of a merchant's country.
 */
export interface ConnectorSource {
  /** The platform's accounts of a mode (environment in live mode, Caisse's sandbox in test mode): where nothing depends on a country. */
  forMode(mode: 'test' | 'live'): ConnectorRegistry;
  /**
   * What a new request of a merchant of `country` goes through in `mode`: per connector, the newest
   * active provider account whose countries include it; none of any status, the platform's account
   * of the mode; only disabled ones, none (`disabledAccount` says which).
   */
  forMerchant(mode: 'test' | 'live', country: string, executor?: Executor): Promise<ConnectorRegistry>;
  /**
   * The connector of one provider account, whatever its status: a request is read, called back and
   * refunded only with the account it records. Undefined: that account is not known here (its
   * environment variables changed).
   */
  byAccount(account: string, executor?: Executor): Promise<Connector | undefined>;
}

/**
 * The 503 that refuses a new request of `provider` when the registry has no connector for it: not
 * configured in this mode, or its account for the merchant's country disabled.
 */
export function providerUnavailable(registry: ConnectorRegistry, provider: string, mode: 'test' | 'live', param?: string): ApiError {
  const disabled = registry.disabledAccount?.(provider);
  if (disabled !== undefined) {
    return new ApiError('provider_unavailable', `The ${provider} provider account ${disabled} for ${mode} mode is disabled; no new request goes through it`, {
      ...(param === undefined ? {} : { param }),
      extra: { providerAccount: disabled },
    });
  }
  return new ApiError('provider_unavailable', `${provider} is not configured for ${mode} mode on this server`, param === undefined ? {} : { param });
}

/**
 * The platform account an id names (`pac_sandbox_<connector>` in test mode, the environment's
 * `pac_env_<connector>_<hash>` or a row's legacy `pac_env_<connector>` in live mode), read through
 * the registries at call time.
 */
export function platformAccountConnector(source: Pick<ConnectorSource, 'forMode'>, account: string): Connector | undefined {
  if (account.startsWith('pac_sandbox_')) {
    const test = source.forMode('test');
    const provider = account.slice('pac_sandbox_'.length);
    return test.account(provider) === account ? test.get(provider) : undefined;
  }
  if (!account.startsWith('pac_env_')) return undefined;
  const live = source.forMode('live');
  const provider = live.providers().find((p) => sameAccount(account, live.account(p), p));
  return provider === undefined ? undefined : live.get(provider);
}

/** When to ask a provider again about a request after `polls` earlier asks: 2 s, 4 s, 8 s … at most a minute apart. */
export function pollBackoffMs(polls: number): number {
  return Math.min(60_000, 2_000 * 2 ** Math.max(0, polls - 1));
}

export interface ModeConnectors extends ConnectorSource {
  close(): Promise<void>;
}

/**
 * The currencies a merchant of `country` may create intents in, in `mode`: its routes are every
 * registered connector's in test mode (each has a sandbox account), the configured ones in live
 * mode, each through the account the country's merchants use, taking what that account takes
 * (test mode's implicit sandbox account: what one without settings takes, no opt-in currency).
 */
export async function intentCurrencies(source: ConnectorSource, mode: 'test' | 'live', country: Country, executor?: Executor): Promise<Currency[]> {
  const registry = await source.forMerchant(mode, country, executor);
  return acceptedCurrencies(country, mode === 'test' ? NAMES : registry.providers(), (p) => {
    const impl = registry.get(p);
    if (impl !== undefined) return impl.currencies;
    if (registry.disabledAccount?.(p) !== undefined) return [];
    // Test mode's implicit sandbox account, not running here: what an account without settings takes.
    const description = CONNECTORS.find((d) => d.description.name === p)?.description;
    return description?.currencies.filter((c) => !(description.optInCurrencies ?? []).includes(c)) ?? [];
  });
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
  const source: ModeConnectors = {
    forMode: (mode) => (mode === 'live' ? live : test),
    // Without provider accounts every country of a mode has the platform's.
    forMerchant: async (mode) => source.forMode(mode),
    byAccount: async (account) => platformAccountConnector(source, account),
    close: async () => {
      await Promise.all([live.close(), test.close()]);
    },
  };
  return source;
}
