import { COUNTRY_CODES } from '../../platform/countries.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Currency, formatAmount } from '../../platform/money.ts';
import { KEY_MODES, type KeyMode } from '../../platform/tenancy.ts';
import {
  capabilitiesOf,
  checkAmountBounds,
  type Connector,
  type ConnectorRegistry,
  type ConnectorSource,
  connectorServes,
  connectorsServing,
  describeProvider,
  isProviderName,
  lacksOf,
  methodsServed,
  type ProviderDescription,
  providerNames,
  providerUnavailable,
  refreshLacks,
  sandboxAccountId,
  servedCurrencies,
  servedMethods,
} from '../connectors/index.ts';
import { type RouteKey, type RouteKind, type RouteRow, routesRepository as repo } from './routes.repository.ts';

/** One route as `routes list` and the console show it. */
export interface RouteView {
  object: 'route';
  mode: KeyMode;
  country: string;
  kind: RouteKind;
  method: string;
  /** What a new attempt (or payout) tries, in order: the override, else the default. */
  connectors: string[];
  /** The default: the operator's own connector, then aggregators, among those with an account. */
  defaultConnectors: string[];
  /** Whether an operator set this route (false: the default applies). */
  overridden: boolean;
  updatedBy: string | null;
  updatedAt: string | null;
}

/** The connector a new request goes through, with the account it is made with. */
export interface RouteChoice {
  connector: string;
  account: string;
  description: ProviderDescription;
  impl: Connector;
}

const KINDS: readonly RouteKind[] = ['payment', 'payout'];

/** A route as one request read it: its connectors in order, and the registry of the merchants' country. */
export interface RouteRead {
  registry: ConnectorRegistry;
  route: string[];
}

/**
 * Routes (docs/spec/routes.md, decision 0077): for each mode, country and payment method, the
 * ordered connectors a new attempt (or a payout to that method) goes through. The default needs
 * no row; an operator's override is one row of `payment_routes`.
 */
export function createRoutesService(deps: Deps, c: { connectors: ConnectorSource }) {
  const { db, clock } = deps;

  /**
   * The one place routes read the connector source: the registry of a mode, for merchants of a
   * country. Accounts per merchant country (`forMerchant(mode, country)`) plug in here alone.
   */
  function registryFor(mode: KeyMode, _country: string): ConnectorRegistry {
    return c.connectors.forMode(mode);
  }

  /** The account a new request through `connector` is made with for this country, or undefined (none). */
  function accountOf(mode: KeyMode, country: string, connector: string, registry = registryFor(mode, country)): string | undefined {
    if (registry.get(connector) !== undefined) return registry.account(connector);
    // Test mode: every connector has its implicit sandbox account, wherever this process runs.
    return mode === 'test' && isProviderName(connector) ? sandboxAccountId(connector) : undefined;
  }

  /**
   * Whether a route's connector answers now, from its recent outcomes: the one call to health, so
   * that health per account and operator replaces it here alone.
   */
  function routeAvailable(mode: KeyMode, country: string, connector: string, method: string, registry = registryFor(mode, country)): boolean {
    // Health is per provider account and method: another account's outage greys nothing here.
    const account = accountOf(mode, country, connector, registry);
    return account === undefined || (registry.health?.available(account, method) ?? true);
  }

  /** After a cool-down, lets one new charge through as the probe (connectors.health.ts). */
  function admit(mode: KeyMode, country: string, connector: string, method: string, account?: string): boolean {
    const registry = registryFor(mode, country);
    const through = account ?? accountOf(mode, country, connector, registry);
    return through === undefined || (registry.health?.admit(through, method) ?? true);
  }

  /**
   * Whether a connector can carry a route: collect for payments, disburse for payouts, less what
   * its account lacks, for the route's operator too (pawaPay's active configuration, as last read).
   */
  function capable(key: Pick<RouteKey, 'kind' | 'method' | 'country'>, description: ProviderDescription, impl?: Connector): boolean {
    const can = capabilitiesOf(description, impl, { method: key.method, country: key.country });
    return key.kind === 'payment' ? can.collect : can.disburse;
  }

  /**
   * The default route: the operator's own connector, then aggregators, among connectors with an
   * account for the merchants' country (`registry`: theirs, operators' accounts included) that can carry it.
   */
  function defaults(key: RouteKey, registry: ConnectorRegistry = registryFor(key.mode, key.country)): string[] {
    return connectorsServing(key.method, key.country).filter((name) => {
      const description = describeProvider(name);
      const impl = registry.get(name);
      return description !== undefined && accountOf(key.mode, key.country, name, registry) !== undefined && capable(key, description, impl);
    });
  }

  /**
   * The route's connectors in order: the override, else the default over the country's accounts (a
   * live account added by an operator counts). `registry`: the country's, when the caller read it.
   */
  async function connectorsOf(key: RouteKey, executor: Executor = db, registry?: ConnectorRegistry): Promise<string[]> {
    return (await repo.find(executor, key))?.connectors ?? defaults(key, registry ?? (await c.connectors.forMerchant(key.mode, key.country, executor)));
  }

  /**
   * Every method's route of one mode, country and kind, with the country's registry: two reads
   * (the accounts, the overrides) for a whole offer instead of two per method.
   */
  async function routesOf(
    where: { mode: KeyMode; country: string; kind: RouteKind },
    methods: readonly string[],
  ): Promise<{ registry: ConnectorRegistry; routes: Map<string, string[]> }> {
    const registry = await c.connectors.forMerchant(where.mode, where.country);
    // What each account enables per operator, read again where stale: never inside a transaction.
    await refreshLacks(registry);
    const rows = await repo.forCountry(db, where.mode, where.country, where.kind);
    const overrides = new Map(rows.map((r) => [r.method, r.connectors]));
    const routes = new Map(methods.map((method) => [method, overrides.get(method) ?? defaults({ ...where, method }, registry)]));
    return { registry, routes };
  }

  /**
   * The route's connectors and the country's accounts, read once for a new request that asks
   * both `availability` and `choose`.
   */
  async function readRoute(key: RouteKey, executor: Executor = db): Promise<RouteRead> {
    const registry = await c.connectors.forMerchant(key.mode, key.country, executor);
    return { registry, route: await connectorsOf(key, executor, registry) };
  }

  async function view(key: RouteKey, row: RouteRow | undefined, executor: Executor = db, registry?: ConnectorRegistry): Promise<RouteView> {
    const fallback = defaults(key, registry ?? (await c.connectors.forMerchant(key.mode, key.country, executor)));
    return {
      object: 'route',
      ...key,
      connectors: row?.connectors ?? fallback,
      defaultConnectors: fallback,
      overridden: row !== undefined,
      updatedBy: row?.updated_by ?? null,
      updatedAt: row?.updated_at.toISOString() ?? null,
    };
  }

  /** The kinds of route a method has in a country: payouts only where some connector may disburse to it. */
  function kindsOf(method: string, country: string): RouteKind[] {
    const serving = connectorsServing(method, country).map(describeProvider);
    return KINDS.filter((kind) => kind === 'payment' || serving.some((d) => d?.capabilities.disburse));
  }

  /** Why a route is refused (400 route_invalid), or undefined when every connector may carry it. */
  function refusal(key: RouteKey, connectors: readonly string[] | null): ApiError | undefined {
    if (!KEY_MODES.includes(key.mode)) return new ApiError('route_invalid', `Unknown mode "${String(key.mode)}": test or live`, { param: 'mode' });
    if (!/^[A-Z]{2}$/.test(key.country))
      return new ApiError('route_invalid', `"${key.country}" is not a country code (two capital letters, e.g. CM)`, { param: 'country' });
    if (connectors === null) return undefined;
    if (connectors.length === 0) return new ApiError('route_invalid', 'Name at least one connector', { param: 'connectors' });
    if (new Set(connectors).size !== connectors.length) return new ApiError('route_invalid', 'A connector appears twice in the route', { param: 'connectors' });
    for (const [i, name] of connectors.entries()) {
      const description = describeProvider(name);
      if (!isProviderName(name) || description === undefined)
        return new ApiError('route_invalid', `Unknown connector "${name}"; known: ${providerNames().join(', ')}`, { param: `connectors[${i}]` });
      if (!connectorServes(description, key.method, key.country)) {
        const served = servedMethods(description)
          .filter((s) => s.countries.includes(key.country))
          .map((s) => s.method);
        return new ApiError(
          'route_invalid',
          `${name} does not serve ${key.method} in ${key.country}; there it serves ${served.length > 0 ? served.join(', ') : 'nothing'}`,
          { param: `connectors[${i}]` },
        );
      }
      if (key.kind === 'payout' && !description.capabilities.disburse)
        return new ApiError('route_invalid', `${name} cannot send money out: it cannot carry a payout route`, { param: `connectors[${i}]` });
    }
    return undefined;
  }

  return {
    registryFor,
    accountOf,
    routeAvailable,
    admit,
    defaults,
    connectorsOf,
    routesOf,
    /**
     * The route of a new request, read outside any transaction: what its accounts enable per
     * operator (pawaPay's active configuration) is read again here where stale, for `choose`.
     */
    async read(key: RouteKey): Promise<RouteRead> {
      const read = await readRoute(key);
      await refreshLacks(read.registry, read.route);
      return read;
    },

    /** Every route: each mode, country and method some connector serves, and every override; `mode` keeps one mode's. */
    async list(filter: { mode?: KeyMode } = {}): Promise<RouteView[]> {
      const rows = await repo.all(db);
      const keyOf = (k: RouteKey) => `${k.mode}|${k.country}|${k.kind}|${k.method}`;
      const stored = new Map(rows.map((r) => [keyOf(r), r]));
      const keys: RouteKey[] = [];
      for (const mode of KEY_MODES) {
        if (filter.mode !== undefined && mode !== filter.mode) continue;
        for (const country of COUNTRY_CODES)
          for (const method of methodsServed(country)) for (const kind of kindsOf(method, country)) keys.push({ mode, country, kind, method });
      }
      const listed = new Set(keys.map(keyOf));
      for (const r of rows) if (!listed.has(keyOf(r)) && (filter.mode === undefined || r.mode === filter.mode)) keys.push(r);
      // One read of the accounts per mode and country, not per route.
      const registries = new Map<string, ConnectorRegistry>();
      const views: RouteView[] = [];
      for (const k of keys) {
        const where = `${k.mode}|${k.country}`;
        const registry = registries.get(where) ?? (await c.connectors.forMerchant(k.mode, k.country));
        registries.set(where, registry);
        views.push(await view({ mode: k.mode, country: k.country, kind: k.kind, method: k.method }, stored.get(keyOf(k)), db, registry));
      }
      return views;
    },

    /** One route as it stands. */
    async get(key: RouteKey): Promise<RouteView> {
      return view(key, await repo.find(db, key));
    },

    /**
     * Sets a route (null: back to the default), refused with 400 route_invalid for an unknown
     * connector or one that does not serve the method in that country. `audit` runs in its
     * transaction with the route before and after.
     */
    async set(
      key: RouteKey,
      connectors: readonly string[] | null,
      actor: string,
      audit?: (tx: Tx, before: RouteView, after: RouteView) => Promise<void>,
    ): Promise<RouteView> {
      const refused = refusal(key, connectors);
      if (refused) throw refused;
      return db.transaction().execute(async (tx) => {
        const before = await view(key, await repo.find(tx, key), tx);
        if (connectors === null) await repo.remove(tx, key);
        else await repo.upsert(tx, { ...key, connectors: [...connectors], updated_by: actor, updated_at: clock.now() });
        const after = await view(key, await repo.find(tx, key), tx);
        await audit?.(tx, before, after);
        return after;
      });
    },

    /**
     * Whether a new request could take the route now: `ok` when some connector of it has an
     * account and answers, `down` when those with an account do not answer, `none` when none has one.
     */
    async availability(key: RouteKey, read?: RouteRead): Promise<'ok' | 'down' | 'none'> {
      // The merchants' country chooses the provider accounts (docs/spec/provider-accounts.md): read per new request.
      const { registry, route } = read ?? (await readRoute(key));
      const usable = route.filter((name) => {
        const description = describeProvider(name);
        const impl = registry.get(name);
        return description !== undefined && accountOf(key.mode, key.country, name, registry) !== undefined && capable(key, description, impl);
      });
      if (usable.length === 0) {
        // Only a disabled account covers it: say so, naming the account.
        const disabled = route.find((name) => registry.disabledAccount?.(name) !== undefined);
        if (disabled !== undefined) throw providerUnavailable(registry, disabled, key.mode, 'paymentMethod.provider');
        return 'none';
      }
      return usable.some((name) => routeAvailable(key.mode, key.country, name, key.method, registry)) ? 'ok' : 'down';
    },

    /**
     * The connector a new request takes: the first of the route, from the one after `after` (the
     * connector of the payer's last failed attempt: the retry takes the next route, around to the
     * first), that has an account here, answers, and can move `amount` of `currency`. Refused
     * with 503 provider_unavailable when none has an account or none answers, 400
     * amount_out_of_bounds (or currency_unsupported) when those that answer cannot move it.
     */
    async choose(
      key: RouteKey,
      movement: { currency: Currency; amount: bigint; after?: string; health?: boolean },
      param = 'paymentMethod.provider',
      /** The caller's transaction when it holds one (one connection on the embedded database). */
      executor: Executor = db,
      /** The route as this request read it already (`read`). */
      read?: RouteRead,
    ): Promise<RouteChoice> {
      const { registry, route } = read ?? (await readRoute(key, executor));
      const from = movement.after === undefined ? 0 : route.indexOf(movement.after) + 1;
      const order = [...route.slice(from), ...route.slice(0, from)];
      const named = describeProvider(key.method)?.displayName ?? key.method;
      let configured = false;
      let outOfBounds: ApiError | undefined;
      let lacking: string | undefined;
      for (const name of order) {
        const description = describeProvider(name);
        const impl = registry.get(name);
        const account = accountOf(key.mode, key.country, name, registry);
        if (description === undefined || impl === undefined || account === undefined) continue;
        if (!capable(key, description, impl)) {
          // An account that cannot for this operator (pawaPay's configuration): said if no route is left.
          lacking ??= lacksOf(impl, key.kind === 'payment' ? 'collect' : 'disburse', { method: key.method, country: key.country });
          continue;
        }
        configured = true;
        // Money out is not refused for an outage: it waits with its provider (payouts pass `health: false`).
        if (movement.health !== false && !routeAvailable(key.mode, key.country, name, key.method, registry)) continue;
        const bounds = checkAmountBounds(description, movement.currency, movement.amount);
        const takesCurrency = impl.currencies === undefined || impl.currencies.includes(movement.currency);
        // An aggregator moves for this method what its `serves` says (CinetPay: USD by card, not by mobile money).
        const served = servedCurrencies(description, key.method, key.country);
        const servesCurrency = served === undefined || served.includes(movement.currency);
        if (bounds.ok && takesCurrency && servesCurrency) return { connector: name, account, description, impl };
        outOfBounds ??=
          !takesCurrency || !servesCurrency || (!bounds.ok && bounds.reason === 'currency_unsupported')
            ? new ApiError(
                'currency_unsupported',
                !servesCurrency
                  ? `${named} does not move ${movement.currency} in ${key.country}; it takes ${served?.join(', ') || 'no currency'} there`
                  : takesCurrency
                    ? `${named} does not move ${movement.currency}; it takes ${Object.keys(description.limits).join(', ')}`
                    : `${named} as configured on this server does not move ${movement.currency}; it takes ${impl.currencies?.join(', ') || 'no currency'}`,
                { param: 'currency' },
              )
            : new ApiError(
                'amount_out_of_bounds',
                `${named} does not take ${formatAmount(movement.amount, movement.currency)} ${movement.currency}${
                  !bounds.ok && bounds.bounds
                    ? ` (${formatAmount(bounds.bounds.min, movement.currency)}–${formatAmount(bounds.bounds.max, movement.currency)} ${movement.currency})`
                    : ''
                }`,
                { param: 'amount' },
              );
      }
      if (outOfBounds) throw outOfBounds;
      const disabled = order.find((name) => registry.disabledAccount?.(name) !== undefined);
      if (!configured && disabled !== undefined) throw providerUnavailable(registry, disabled, key.mode, param);
      if (!configured && lacking !== undefined && key.kind === 'payout')
        throw new ApiError('destination_unsupported', `${key.method} cannot receive payouts in ${key.country}: ${lacking}`, { param });
      if (!configured && lacking !== undefined)
        throw new ApiError('provider_unavailable', `${named} cannot be paid in ${key.country} through this server's accounts: ${lacking}`, { param });
      if (!configured)
        throw new ApiError('provider_unavailable', `${key.method} is not configured for ${key.mode} mode in ${key.country} on this server`, { param });
      throw new ApiError('provider_unavailable', `${named} is not answering at the moment; try again in a few minutes or use another method`, { param });
    },
  };
}

export type RoutesService = ReturnType<typeof createRoutesService>;
