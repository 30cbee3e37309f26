import type { RunMode, SandboxConfig } from '../../config.ts';
import type { Connector, ConnectorDeps } from './connectors.types.ts';
import type { ProviderDescription } from './connectors.description.ts';
import { createMtnMomoConnector, type MtnMomoSettings } from './mtn-momo.connector.ts';
import { MTN_MOMO_DESCRIPTION } from './mtn-momo.description.ts';
import { createOrangeMoneyConnector } from './orange-money/orange-money.connector.ts';
import { ORANGE_MONEY_DESCRIPTION } from './orange-money/orange-money.description.ts';
import { createWaveConnector } from './wave/wave.connector.ts';
import { WAVE_DESCRIPTION } from './wave/wave.description.ts';
import { createProviderHealth, DEFAULT_HEALTH_RULES, type HealthRules, type ProviderHealth, type ProviderHealthView, watched } from './connectors.health.ts';
import { readProviderSetting, readProviderSettings } from './connectors.settings.ts';
import { SANDBOX_PATHS } from './sandbox/sandbox.ts';
import { newSandboxSecrets, type SandboxSecrets, sandboxSecrets } from './sandbox/sandbox.secrets.ts';

/**
 * Every provider by its registry name, with the function that builds its connector from its own
 * settings. A provider is one folder plus one line here; its description declares its
 * environment variables (docs/architecture.md, "Connectors").
 */
const PROVIDERS = {
  mtn_momo: createMtnMomoConnector,
  orange_money: createOrangeMoneyConnector,
  wave: createWaveConnector,
} satisfies Record<string, (settings: never, deps: ConnectorDeps) => Connector>;

export type ProviderName = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

/** Each provider's description (docs/spec/providers.md), beside its connector above: one entry per provider, checked by the type. */
export const PROVIDER_DESCRIPTIONS: { readonly [P in ProviderName]: ProviderDescription } = {
  mtn_momo: MTN_MOMO_DESCRIPTION,
  orange_money: ORANGE_MONEY_DESCRIPTION,
  wave: WAVE_DESCRIPTION,
};

/** Each provider's settings; a provider without settings has no connector. */
export type ConnectorSettings = { [P in ProviderName]?: Parameters<(typeof PROVIDERS)[P]>[0] };

export function isProviderName(value: string): value is ProviderName {
  return Object.hasOwn(PROVIDERS, value);
}

export interface ConnectorRegistry {
  /** The connector of this provider, or undefined when the name is unknown or not configured. */
  get(provider: string): Connector | undefined;
  /** The providers that have a connector here. */
  providers(): ProviderName[];
  /** Each provider's recent outcomes (absent: not watched, every provider counts as available). */
  health?: ProviderHealth;
  close(): Promise<void>;
}

/** With `health`, every call of every connector reports its outcome to it. */
export function createConnectorRegistry(settings: ConnectorSettings, deps: ConnectorDeps, health?: ProviderHealth): ConnectorRegistry {
  const connectors = new Map<ProviderName, Connector>();
  for (const name of PROVIDER_NAMES) {
    const own = settings[name];
    // Each name's settings are its own connector's (ConnectorSettings); TypeScript cannot follow the name through the loop.
    const create = PROVIDERS[name] as (settings: NonNullable<typeof own>, deps: ConnectorDeps) => Connector;
    if (own !== undefined) connectors.set(name, health ? watched(create(own, deps), health) : create(own, deps));
  }
  return {
    get: (provider) => (isProviderName(provider) ? connectors.get(provider) : undefined),
    providers: () => [...connectors.keys()],
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
  const settings: ConnectorSettings = {};
  for (const name of PROVIDER_NAMES) {
    const values = readProviderSettings(PROVIDER_DESCRIPTIONS[name], config.providerEnv ?? {}, config.mode);
    // The description's fields are its connector's settings (connectors.settings.ts checks their kinds).
    if (values !== undefined) (settings as Record<string, unknown>)[name] = values;
  }
  return settings;
}

/**
 * Test mode's sandbox from the configuration: its URL (CAISSE_MOMO_SANDBOX_URL), where it sends
 * MoMo's callbacks (the others go beside them) and the bound on each call (CAISSE_MOMO_TIMEOUT_MS,
 * read even without an MTN account, as before there were descriptions).
 */
export function sandboxTarget(config: ProvidersConfig): { url: string | undefined; callbackUrl: string; timeoutMs: number | undefined } {
  const timeout = readProviderSetting(MTN_MOMO_DESCRIPTION, 'timeoutMs', config.providerEnv ?? {}, config.mode);
  return {
    url: config.sandbox.url,
    callbackUrl: config.sandbox.callbackUrl ?? `http://127.0.0.1:${config.port ?? 8080}/callbacks/mtn_momo`,
    timeoutMs: typeof timeout === 'number' ? timeout : undefined,
  };
}

/**
 * Settings that point every provider at Caisse's sandbox (`caisse sandbox`, or the one `start`
 * runs in development): MTN MoMo at its root, Orange Money and Wave under their own paths. The
 * sandbox takes any credentials unless it was started with some, and lists its requests, which
 * MTN cannot (`listRequests`, for reconciliation). `callbackUrl` is MoMo's; the others' callbacks
 * go beside it (`…/callbacks/orange_money`, and Wave's webhooks, set on the sandbox, to
 * `…/callbacks/wave`).
 */
export function sandboxSettings(sandboxUrl: string, opts: { callbackUrl?: string; timeoutMs?: number; secrets?: SandboxSecrets } = {}): ConnectorSettings {
  const root = sandboxUrl.replace(/\/+$/, '');
  const momo: MtnMomoSettings = {
    baseUrl: root,
    targetEnvironment: 'sandbox',
    apiUser: '00000000-0000-4000-8000-000000000000',
    apiKey: 'sandbox',
    collectionKey: 'sandbox',
    disbursementKey: 'sandbox',
    callbackUrl: opts.callbackUrl,
    timeoutMs: opts.timeoutMs,
    sandboxListing: true,
  };
  const callbacks = opts.callbackUrl === undefined ? undefined : callbacksBase(opts.callbackUrl);
  return {
    mtn_momo: momo,
    orange_money: {
      baseUrl: root + SANDBOX_PATHS.orange_money,
      environment: 'dev',
      clientId: 'sandbox',
      clientSecret: 'sandbox',
      merchantKey: 'sandbox',
      callbackUrl: `${callbacks ?? 'http://127.0.0.1/callbacks'}/orange_money`,
      timeoutMs: opts.timeoutMs,
    },
    // Without the sandbox's secrets, one nobody holds: Wave's webhooks are then refused, never trusted.
    wave: {
      baseUrl: root + SANDBOX_PATHS.wave,
      apiKey: 'wave_sandbox_key',
      webhookSecret: (opts.secrets ?? newSandboxSecrets()).waveWebhookSecret,
      timeoutMs: opts.timeoutMs,
    },
  };
}

/** This server's callback base (`…/callbacks`) from one provider's callback URL (`…/callbacks/mtn_momo`). */
export function callbacksBase(providerCallbackUrl: string): string {
  return providerCallbackUrl.replace(/\/+$/, '').replace(/\/[^/]*$/, '');
}

/** The connectors of each mode: live mode the configured providers, test mode only the sandbox. */
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

/** Each mode's providers' health, for the metrics and `providers list` (modes without a watched registry are left out). */
export function healthViews(source: ConnectorSource): (ProviderHealthView & { mode: 'test' | 'live' })[] {
  return (['test', 'live'] as const).flatMap((mode) => (source.forMode(mode).health?.views() ?? []).map((v) => ({ ...v, mode })));
}

/**
 * Live mode: the providers configured in the environment (each description's variables). Test
 * mode never calls a real provider: the sandbox at `sandboxUrl` (CAISSE_MOMO_SANDBOX_URL, or the
 * one `start` runs in development), or none (test top-ups then answer 503 provider_unavailable).
 */
export function createModeConnectors(
  config: ProvidersConfig,
  deps: ConnectorDeps,
  opts: { sandboxUrl?: string; sandboxCallbackUrl?: string; sandboxSecrets?: SandboxSecrets; healthRules?: HealthRules } = {},
): ModeConnectors {
  const rules = opts.healthRules ?? { ...DEFAULT_HEALTH_RULES, ...config.providerHealth };
  const live = createConnectorRegistry(connectorSettings(config), deps, createProviderHealth(deps.clock, rules));
  const target = sandboxTarget(config);
  const sandboxUrl = opts.sandboxUrl ?? target.url;
  const test = createConnectorRegistry(
    sandboxUrl === undefined
      ? {}
      : sandboxSettings(sandboxUrl, {
          callbackUrl: opts.sandboxCallbackUrl ?? target.callbackUrl,
          timeoutMs: target.timeoutMs,
          secrets: opts.sandboxSecrets ?? (config.dataDir === undefined ? undefined : sandboxSecrets(config.dataDir)),
        }),
    deps,
    createProviderHealth(deps.clock, rules),
  );
  return {
    forMode: (mode) => (mode === 'live' ? live : test),
    close: async () => {
      await Promise.all([live.close(), test.close()]);
    },
  };
}
