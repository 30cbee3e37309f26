import type { Logger } from 'pino';
import { decrypt, encrypt } from '../../platform/crypto.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { createLogger } from '../../platform/logger.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import {
  type AccountCallback,
  capabilitiesOf,
  type Connector,
  type ConnectorRegistry,
  connectorDefinitions,
  type ModeConnectors,
  platformAccountConnector,
  checkConnector,
  checkLiveSettings,
  readAccountSettings,
  servedMethods,
  watched,
} from '../connectors/index.ts';
import { type LastCheck, type ProviderAccountRow, providerAccountsRepository as repo } from './provideraccounts.repository.ts';

/**
 * Provider accounts as data (docs/spec/provider-accounts.md, decision 0075): the accounts operators
 * add, and the connector source that chooses among them and the platform's (environment, sandbox)
 * by mode and merchant country.
 */

export interface ProviderAccountInput {
  connector: string;
  mode: KeyMode;
  countries: readonly string[];
  /** Non-secret settings by their camelCase names, as typed (`--set key=value`). */
  settings?: Readonly<Record<string, string>>;
  /** A JSON object of the connector's credentials: stored sealed, never shown. */
  credentials: unknown;
}

/** Where an account comes from: added by an operator, or the platform's (read-only). */
export type AccountSource = 'operator' | 'environment' | 'sandbox';

/** An account as every reader sees it: never a credential, at most its last four characters. */
export interface ProviderAccountView {
  object: 'provider_account';
  id: string;
  connector: string;
  mode: KeyMode;
  countries: string[];
  settings: Record<string, string | number>;
  /** Each credential given, masked: `…` and at most its last four characters. */
  credentials: Record<string, string>;
  status: 'active' | 'disabled';
  capabilities: string[];
  lastCheck: LastCheck | null;
  createdAt: string | null;
  source: AccountSource;
  /** Countries of this account where another is used instead (a newer active one, or a disabled one that refuses). */
  supersededBy: { country: string; account: string }[];
  /** Where the provider must send this account's webhooks, under this server's address, when it is set in the provider's dashboard (null: given per request). */
  webhookPath: string | null;
  /** Every address the provider calls this account back at, for the operator: those to set in its dashboard, and those sent with each request. */
  callbacks: AccountCallback[];
}

export interface CheckResult {
  id: string;
  connector: string;
  mode: KeyMode;
  ok: boolean;
  at: string;
  detail: string;
}

/** What a change commits with (the console's audit entry): the account before and after. */
export type Within = (tx: Tx, before: ProviderAccountView | null, after: ProviderAccountView) => Promise<void>;

const NO_CHECK = 'no check for this connector';

/** `…` and the last four characters, only of a value long enough that they do not give it away. */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `…${value.slice(-4)}` : '…';
}

/** The addresses a connector's provider calls an account back at (its shape's `callbacks`, else its one webhook address). */
function callbacksOf(connector: string, webhookPath: string | undefined, settings: Readonly<Record<string, string | number>>): AccountCallback[] {
  const shape = definitionOf(connector)?.account;
  if (shape?.callbacks !== undefined) return [...shape.callbacks({ webhookPath, settings })];
  return webhookPath === undefined ? [] : [{ purpose: 'webhooks', path: webhookPath, url: null, setAtProvider: true }];
}

function definitionOf(connector: string) {
  return connectorDefinitions().find((d) => d.description.name === connector);
}

/** Countries a connector serves (its own, or those of the methods an aggregator reaches). */
function countriesOf(connector: string): string[] {
  const d = definitionOf(connector);
  return d === undefined ? [] : [...new Set(servedMethods(d.description).flatMap((m) => [...m.countries]))];
}

/**
 * Moves the settings a provider hands out beside the secrets (CinetPay's `siteId`) from the
 * credentials object to the settings; given in both with different values, refused.
 */
function settingsFromCredentials(
  names: readonly string[],
  credentials: unknown,
  settings: Readonly<Record<string, string>>,
): { credentials: unknown; settings: Readonly<Record<string, string>> } {
  if (names.length === 0 || typeof credentials !== 'object' || credentials === null || Array.isArray(credentials)) return { credentials, settings };
  const secrets: Record<string, unknown> = { ...(credentials as Record<string, unknown>) };
  const open: Record<string, string> = { ...settings };
  for (const name of names) {
    const value = secrets[name];
    if (value === undefined) continue;
    delete secrets[name];
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new ApiError('validation_error', `The credential ${name} is a string`, { param: `credentials.${name}` });
    const text = String(value).trim();
    if (open[name] !== undefined && open[name].trim() !== text)
      throw new ApiError('provider_settings_invalid', `Setting ${name} is given twice, with two values (in the settings and the credentials)`, {
        param: `settings.${name}`,
      });
    open[name] = text;
  }
  return { credentials: secrets, settings: open };
}

export function createProviderAccounts(deps: Deps, opts: { platform: ModeConnectors; logger?: Logger }) {
  const { db, clock, config, ids } = deps;
  const platform = opts.platform;
  const connectorDeps = { clock, logger: opts.logger ?? createLogger({ level: 'silent' }), callbackKey: config.masterKey };
  /** Connectors built from accounts, by id: an account never changes but for its status, so one per process. */
  const built = new Map<string, Promise<Connector | undefined>>();

  function checkCredentials(connector: string, credentials: unknown): Record<string, string> {
    const shape = definitionOf(connector)?.account;
    if (shape === undefined) throw new ApiError('provider_unsupported', `No provider account can be added for ${connector}`, { param: 'connector' });
    if (typeof credentials !== 'object' || credentials === null || Array.isArray(credentials)) {
      throw new ApiError('validation_error', 'The credentials are a JSON object', { param: 'credentials' });
    }
    const given = credentials as Record<string, unknown>;
    const names = shape.credentials.map((c) => c.name);
    const out: Record<string, string> = {};
    for (const name of Object.keys(given)) {
      if (!names.includes(name))
        throw new ApiError('validation_error', `${connector} takes no credential "${name}" (it takes ${names.join(', ')})`, { param: `credentials.${name}` });
    }
    for (const spec of shape.credentials) {
      const value = given[spec.name];
      if (value === undefined || value === null || value === '') {
        if (spec.required) throw new ApiError('validation_error', `The credential ${spec.name} is required`, { param: `credentials.${spec.name}` });
        continue;
      }
      // Never the value in the message: it may be a secret.
      if (typeof value !== 'string') throw new ApiError('validation_error', `The credential ${spec.name} is a string`, { param: `credentials.${spec.name}` });
      const longest = spec.maxLength ?? 256;
      const ok =
        spec.kind === 'uuid'
          ? /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
          : value.length <= longest && /^[\x21-\x7e]+$/.test(value);
      if (!ok) {
        throw new ApiError(
          'validation_error',
          spec.kind === 'uuid'
            ? `The credential ${spec.name} must be a UUID`
            : `The credential ${spec.name} must be printable ASCII without spaces (at most ${longest} characters)`,
          { param: `credentials.${spec.name}` },
        );
      }
      out[spec.name] = value;
    }
    return out;
  }

  function build(row: Pick<ProviderAccountRow, 'id' | 'connector' | 'mode' | 'settings' | 'credentials'>): Promise<Connector | undefined> {
    const known = built.get(row.id);
    if (known) return known;
    const making = (async () => {
      const definition = definitionOf(row.connector);
      if (definition?.account === undefined) return undefined;
      const credentials = JSON.parse(decrypt(config.masterKey, Buffer.from(row.credentials))) as Record<string, string>;
      const connector = definition.create(definition.account.build(row.settings, credentials), connectorDeps);
      const health = platform.forMode(row.mode).health;
      // Health is per account: this one's outage greys only its own methods.
      return health ? watched(connector, health, row.id) : connector;
    })();
    built.set(row.id, making);
    // A failure (the master key changed) is not kept: the next request tries again.
    making.catch(() => built.delete(row.id));
    return making;
  }

  async function byAccount(account: string, executor: Executor = db): Promise<Connector | undefined> {
    if (account.startsWith('pac_env_') || account.startsWith('pac_sandbox_')) return platformAccountConnector(platform, account);
    const known = built.get(account);
    if (known) return known;
    const row = await repo.find(executor, account);
    return row === undefined ? undefined : build(row);
  }

  /**
   * A merchant's connectors: read from the table on each call (a new attempt or payout, a methods
   * list), so that an account added or disabled in any process counts at once; the connectors
   * themselves are built once per account.
   */
  async function forMerchant(mode: KeyMode, country: string, executor: Executor = db): Promise<ConnectorRegistry> {
    const rows = await repo.forCountry(executor, mode, country);
    const chosen = new Map<string, { id: string; connector: Connector }>();
    const disabled = new Map<string, string>();
    for (const name of new Set(rows.map((r) => r.connector))) {
      const active = rows.find((r) => r.connector === name && r.status === 'active');
      if (active === undefined) {
        disabled.set(name, (rows.find((r) => r.connector === name) as { id: string }).id);
        continue;
      }
      const connector = await byAccount(active.id, executor);
      if (connector) chosen.set(name, { id: active.id, connector });
    }
    const base = platform.forMode(mode);
    return {
      // The platform's registry is read at call time: what replaces its connectors (tests) counts.
      get: (p) => chosen.get(p)?.connector ?? (disabled.has(p) ? undefined : base.get(p)),
      providers: () =>
        connectorDefinitions()
          .map((d) => d.description.name)
          .filter((p) => chosen.has(p) || (!disabled.has(p) && base.get(p) !== undefined)),
      account: (p) => chosen.get(p)?.id ?? (disabled.has(p) ? undefined : base.account(p)),
      ...(base.health ? { health: base.health } : {}),
      disabledAccount: (p) => (chosen.has(p) ? undefined : disabled.get(p)),
      close: async () => {},
    };
  }

  function view(row: ProviderAccountRow, supersededBy: ProviderAccountView['supersededBy']): ProviderAccountView {
    return {
      object: 'provider_account',
      id: row.id,
      connector: row.connector,
      mode: row.mode,
      countries: [...row.countries],
      settings: { ...row.settings },
      credentials: { ...row.credentials_hint },
      status: row.status,
      capabilities: [...row.capabilities],
      lastCheck: row.last_check,
      createdAt: row.created_at.toISOString(),
      source: 'operator',
      supersededBy,
      webhookPath: definitionOf(row.connector)?.account?.webhook ? `/callbacks/${row.connector}/${row.id}` : null,
      callbacks: callbacksOf(row.connector, definitionOf(row.connector)?.account?.webhook ? `/callbacks/${row.connector}/${row.id}` : undefined, row.settings),
    };
  }

  /** The platform's accounts this process has: the environment's in live mode, the sandbox's in test mode. */
  function platformViews(): ProviderAccountView[] {
    return (['live', 'test'] as const).flatMap((mode) => {
      const registry = platform.forMode(mode);
      return registry.providers().flatMap((p): ProviderAccountView[] => {
        const id = registry.account(p);
        const d = definitionOf(p);
        if (id === undefined || d === undefined) return [];
        return [
          {
            object: 'provider_account',
            id,
            connector: p,
            mode,
            countries: countriesOf(p),
            settings: {},
            credentials: {},
            status: 'active',
            capabilities: Object.entries(capabilitiesOf(d.description, registry.get(p)))
              .filter(([, on]) => on)
              .map(([c]) => c),
            lastCheck: null,
            createdAt: null,
            source: mode === 'live' ? 'environment' : 'sandbox',
            supersededBy: [],
            // The platform's account keeps its address of before accounts existed.
            webhookPath: d.account?.webhook ? `/callbacks/${p}` : null,
            callbacks: callbacksOf(p, d.account?.webhook ? `/callbacks/${p}` : undefined, {}),
          },
        ];
      });
    });
  }

  /** Every account, operators' newest first then the platform's, each saying where another is used instead. */
  async function list(): Promise<ProviderAccountView[]> {
    const rows = await repo.list(db);
    // Which account a (connector, mode, country) uses: the newest active, else the newest disabled (which refuses), else the platform's.
    const used = (connector: string, mode: KeyMode, country: string): string | undefined => {
      const serving = rows.filter((r) => r.connector === connector && r.mode === mode && r.countries.includes(country));
      return (serving.find((r) => r.status === 'active') ?? serving[0])?.id;
    };
    const superseded = (a: { id: string; connector: string; mode: KeyMode; countries: readonly string[] }) =>
      a.countries.flatMap((country) => {
        const account = used(a.connector, a.mode, country);
        return account === undefined || account === a.id ? [] : [{ country, account }];
      });
    return [...rows.map((r) => view(r, r.status === 'active' ? superseded(r) : [])), ...platformViews().map((v) => ({ ...v, supersededBy: superseded(v) }))];
  }

  async function find(id: string): Promise<ProviderAccountView> {
    const found = (await list()).find((a) => a.id === id);
    if (!found) throw new ApiError('not_found', `No provider account ${id} (npx caisse provider-accounts list shows them)`, { param: 'id' });
    return found;
  }

  async function add(input: ProviderAccountInput, within?: Within): Promise<ProviderAccountView> {
    const definition = definitionOf(input.connector);
    if (definition === undefined) {
      const names = connectorDefinitions().map((d) => d.description.name);
      throw new ApiError('provider_unsupported', `Unknown connector "${input.connector}"; connectors: ${names.join(', ')}`, { param: 'connector' });
    }
    if (input.mode !== 'test' && input.mode !== 'live') throw new ApiError('validation_error', 'The mode is test or live', { param: 'mode' });
    const served = countriesOf(input.connector);
    const countries = [...new Set(input.countries.map((c) => c.trim().toUpperCase()))];
    if (countries.length === 0) throw new ApiError('validation_error', 'Name at least one country', { param: 'countries' });
    const foreign = countries.find((c) => !served.includes(c));
    if (foreign !== undefined) {
      throw new ApiError('validation_error', `${input.connector} does not serve ${foreign} (it serves ${served.join(', ')})`, { param: 'countries' });
    }
    const shape = definition.account as NonNullable<typeof definition.account>;
    const given = settingsFromCredentials(shape.settingsAmongCredentials ?? [], input.credentials, input.settings ?? {});
    const credentials = checkCredentials(input.connector, given.credentials);
    const read = readAccountSettings(definition.description, shape.settings, given.settings, config.mode);
    if (!read.ok) throw new ApiError('provider_settings_invalid', `Setting ${read.key} ${read.message}`, { param: `settings.${read.key}` });
    // A live account holding a sandbox value would fail its first real payment, or worse "settle" test money.
    // Credentials are merged in: a live account holding the sandbox's token or key is refused too (never quoted).
    const [problem] = checkLiveSettings(
      input.connector,
      { ...read.values, ...credentials },
      { mode: input.mode, countries, production: config.mode === 'production' },
    );
    if (problem !== undefined) {
      const credential = problem.setting in credentials;
      throw new ApiError('provider_settings_invalid', `${credential ? 'Credential' : 'Setting'} ${problem.setting} ${problem.message}`, {
        param: `${credential ? 'credentials' : 'settings'}.${problem.setting}`,
      });
    }
    // Built once to know what it can do (an MTN account without a disbursement key only collects); never called.
    const probe = definition.create(shape.build(read.values, credentials), connectorDeps);
    const capabilities = Object.entries(capabilitiesOf(definition.description, probe))
      .filter(([, on]) => on)
      .map(([c]) => c);
    await probe.close();
    const id = ids('providerAccount');
    const hint = Object.fromEntries(Object.entries(credentials).map(([k, v]) => [k, maskSecret(v)]));
    await db.transaction().execute(async (tx) => {
      await repo.insert(tx, {
        id,
        connector: input.connector,
        mode: input.mode,
        countries,
        settings: JSON.stringify(read.values),
        credentials: encrypt(config.masterKey, JSON.stringify(credentials), deps.random),
        credentials_hint: JSON.stringify(hint),
        capabilities,
        status: 'active',
        created_at: clock.now(),
        disabled_at: null,
      });
      if (within) {
        const row = (await repo.find(tx, id)) as ProviderAccountRow;
        await within(tx, null, view(row, []));
      }
    });
    return find(id);
  }

  /** No new request goes through it from now on, in every process; those in flight finish through it. */
  async function disable(id: string, within?: Within): Promise<ProviderAccountView> {
    if (id.startsWith('pac_env_') || id.startsWith('pac_sandbox_')) {
      throw new ApiError('validation_error', `${id} is the platform's account (its environment variables or the sandbox): it cannot be disabled here`, {
        param: 'id',
      });
    }
    await db.transaction().execute(async (tx) => {
      const before = await repo.find(tx, id, { forUpdate: true });
      if (!before) throw new ApiError('not_found', `No provider account ${id} (npx caisse provider-accounts list shows them)`, { param: 'id' });
      if (before.status === 'disabled') return;
      await repo.disable(tx, id, clock.now());
      if (within) await within(tx, view(before, []), view((await repo.find(tx, id)) as ProviderAccountRow, []));
    });
    return find(id);
  }

  /**
   * Checks accounts with the connector's own harmless call (`check`, when it has one) and records
   * the answer on the operators' accounts. `id`: that one; otherwise every active account, of
   * `mode` if given.
   */
  async function check(target: { id?: string; mode?: KeyMode } = {}, within?: (tx: Tx, result: CheckResult) => Promise<void>): Promise<CheckResult[]> {
    const all = await list();
    const chosen =
      target.id !== undefined ? [await find(target.id)] : all.filter((a) => a.status === 'active' && (target.mode === undefined || a.mode === target.mode));
    const results: CheckResult[] = [];
    for (const account of chosen) {
      const connector = await byAccount(account.id);
      let answer: { ok: boolean; detail: string };
      if (connector === undefined) answer = { ok: false, detail: 'this account is not configured in this process' };
      else if (connector.check === undefined) answer = { ok: false, detail: NO_CHECK };
      else answer = await checkConnector(connector);
      const result: CheckResult = {
        id: account.id,
        connector: account.connector,
        mode: account.mode,
        ok: answer.ok,
        at: clock.now().toISOString(),
        detail: answer.detail,
      };
      if (account.source === 'operator') {
        await db.transaction().execute(async (tx) => {
          await repo.setLastCheck(tx, account.id, { ok: result.ok, at: result.at, detail: result.detail });
          await within?.(tx, result);
        });
      }
      results.push(result);
    }
    return results;
  }

  const source: ModeConnectors = {
    forMode: (mode) => platform.forMode(mode),
    forMerchant,
    byAccount,
    async close() {
      const connectors = await Promise.all([...built.values()]);
      built.clear();
      await Promise.all([...connectors.map((c) => c?.close()), platform.close()]);
    },
  };

  return { add, list, find, disable, check, source };
}

export type ProviderAccountsService = ReturnType<typeof createProviderAccounts>;
