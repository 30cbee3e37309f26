import { formatAmount } from '../../platform/money.ts';
import { providerDescriptions } from './connectors.catalog.ts';
import { connectorSettings, type ProvidersConfig } from './connectors.registry.ts';

/** One provider as `npx caisse providers list` shows it. Secrets appear only as set or not. */
export interface ProviderReport {
  provider: string;
  name: string;
  countries: string[];
  currencies: string[];
  approval: string;
  capabilities: string[];
  limits: Record<string, { min: string; max: string }>;
  ussd: string | null;
  /** Live mode: the provider's own API, when its required settings are all given. */
  live: 'configured' | 'not configured';
  /** Test mode never calls a real provider: the sandbox, when there is one. */
  test: 'sandbox' | 'sandbox (in-process, with start)' | 'no sandbox';
  settings: { env: string; set: boolean; required: boolean; secret: boolean; description: string }[];
  /**
   * Whether the running server sends new charges to it in each mode (its health is kept in the
   * server's memory, read from its /metrics); null when the server could not be asked, or has
   * not called the provider in that mode since it started (then it counts as available).
   */
  available: { test: boolean | null; live: boolean | null };
  /** Each provider account the running server has called it with, and whether it is available for it (health is per account). */
  accounts: { mode: 'test' | 'live'; account: string; available: boolean }[];
  /**
   * The last check of its live account (`Connector.check`: a harmless authenticated call), when
   * known: run by `providers list --check`, or recorded on the account; null: not checked.
   */
  lastCheck: LastCheck | null;
}

/** A check's result and when it ran. */
export interface LastCheck {
  ok: boolean;
  at: string;
  detail: string;
}

/**
 * `mode:provider` → available (true when at least one of its accounts is), and
 * `mode:provider:account` → that account's, from the server's `caisse_provider_available` lines.
 */
export type HealthReading = ReadonlyMap<string, boolean>;

/** The providers' availability in a Prometheus text exposition (the server's /metrics). */
export function parseProviderHealth(metrics: string): HealthReading {
  const reading = new Map<string, boolean>();
  for (const m of metrics.matchAll(/^caisse_provider_available\{(?=[^}]*mode="(test|live)")(?=[^}]*provider="([a-z0-9_]+)")([^}]*)\} ([01])$/gm)) {
    const available = m[4] === '1';
    const key = `${m[1]}:${m[2]}`;
    reading.set(key, (reading.get(key) ?? false) || available);
    const account = /account="([A-Za-z0-9_]+)"/.exec(m[3] ?? '')?.[1];
    if (account !== undefined) reading.set(`${key}:${account}`, available);
  }
  return reading;
}

/** The accounts a reading has for a provider, per mode. */
function accountsOf(health: HealthReading | undefined, provider: string): ProviderReport['accounts'] {
  const out: ProviderReport['accounts'] = [];
  for (const [key, available] of health ?? []) {
    const [mode, name, account] = key.split(':');
    if (name === provider && account !== undefined && (mode === 'test' || mode === 'live')) out.push({ mode, account, available });
  }
  return out;
}

/** What each provider of the registry has here: its description, its settings and the modes it works in. */
export function providersReport(
  config: ProvidersConfig,
  env: Record<string, string | undefined>,
  health?: HealthReading,
  /** Each provider's last live check, by its registry name, where known. */
  checks?: ReadonlyMap<string, LastCheck>,
): ProviderReport[] {
  const live = connectorSettings(config);
  const sandbox = config.sandbox.url !== undefined ? 'sandbox' : config.mode === 'development' ? 'sandbox (in-process, with start)' : 'no sandbox';
  return providerDescriptions().map((d) => ({
    provider: d.name,
    name: d.displayName,
    countries: [...d.countries],
    currencies: [...d.currencies],
    approval: d.approval,
    capabilities: Object.entries(d.capabilities)
      .filter(([, on]) => on)
      .map(([c]) => c),
    limits: Object.fromEntries(
      d.currencies.flatMap((c) => {
        const b = d.limits[c];
        return b === undefined ? [] : [[c, { min: formatAmount(b.min, c), max: formatAmount(b.max, c) }]];
      }),
    ),
    ussd: d.ussd,
    live: Object.hasOwn(live, d.name) ? 'configured' : 'not configured',
    test: sandbox,
    settings: d.settings.map((s) => ({
      env: s.env,
      set: (env[s.env] ?? '').trim() !== '',
      required: s.required,
      secret: s.secret,
      description: s.description,
    })),
    available: { test: health?.get(`test:${d.name}`) ?? null, live: health?.get(`live:${d.name}`) ?? null },
    lastCheck: checks?.get(d.name) ?? null,
    accounts: accountsOf(health, d.name),
  }));
}

/**
 * The report as lines for a person. `serverReached`: whether the running server answered (its
 * /metrics); an availability it does not give is then a provider it has not called yet (`-`
 * where the mode has nothing to call: live not configured, no sandbox).
 */
export function formatProvidersReport(reports: ProviderReport[], opts: { serverReached?: boolean } = {}): string {
  const said = (available: boolean | null, usable: boolean) =>
    available !== null ? (available ? 'yes' : 'no') : !usable ? '-' : opts.serverReached === false ? 'server not reached' : 'not called yet';
  return reports
    .map((r) => {
      const limits = Object.entries(r.limits)
        .map(([c, b]) => `${b.min}–${b.max} ${c}`)
        .join(', ');
      const head = [
        `${r.provider}  ${r.name}  (${r.countries.join(', ')}; ${r.approval}; ${r.capabilities.join(', ')}; ${limits}${r.ussd ? `; ${r.ussd}` : ''})`,
        `  live: ${r.live}   test: ${r.test}   available: live ${said(r.available.live, r.live === 'configured')}, test ${said(r.available.test, r.test !== 'no sandbox')}`,
        `  check: ${r.lastCheck === null ? (r.live === 'configured' ? 'not checked (npx caisse providers list --check)' : '-') : `${r.lastCheck.ok ? 'ok' : 'FAILED'} at ${r.lastCheck.at}: ${r.lastCheck.detail}`}`,
      ];
      if (r.accounts.length > 0)
        head.push(`  accounts: ${r.accounts.map((a) => `${a.mode} ${a.account} ${a.available ? 'available' : 'unavailable'}`).join('; ')}`);
      const settings = r.settings.map((s) => `  ${s.set ? 'set    ' : 'not set'}  ${s.env}${s.required ? '' : ' (optional)'}  ${s.description}`);
      return [...head, ...settings].join('\n');
    })
    .join('\n\n');
}
