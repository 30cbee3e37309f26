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
  /** Health comes with provider monitoring; until then a configured provider is available. */
  available: boolean;
}

/** What each provider of the registry has here: its description, its settings and the modes it works in. */
export function providersReport(config: ProvidersConfig, env: Record<string, string | undefined>): ProviderReport[] {
  const live = connectorSettings(config);
  const sandbox = config.momo.sandboxUrl !== undefined ? 'sandbox' : config.mode === 'development' ? 'sandbox (in-process, with start)' : 'no sandbox';
  return providerDescriptions().map((d) => ({
    provider: d.name,
    name: d.displayName,
    countries: [...d.countries],
    currencies: [...d.currencies],
    approval: d.approval,
    capabilities: Object.entries(d.capabilities).filter(([, on]) => on).map(([c]) => c),
    limits: Object.fromEntries(d.currencies.flatMap((c) => {
      const b = d.limits[c];
      return b === undefined ? [] : [[c, { min: formatAmount(b.min, c), max: formatAmount(b.max, c) }]];
    })),
    ussd: d.ussd,
    live: Object.hasOwn(live, d.name) ? 'configured' : 'not configured',
    test: sandbox,
    settings: d.settings.map((s) => ({ env: s.env, set: (env[s.env] ?? '').trim() !== '', required: s.required, secret: s.secret, description: s.description })),
    available: true,
  }));
}

/** The report as lines for a person. */
export function formatProvidersReport(reports: ProviderReport[]): string {
  return reports
    .map((r) => {
      const limits = Object.entries(r.limits).map(([c, b]) => `${b.min}–${b.max} ${c}`).join(', ');
      const head = [
        `${r.provider}  ${r.name}  (${r.countries.join(', ')}; ${r.approval}; ${r.capabilities.join(', ')}; ${limits}${r.ussd ? `; ${r.ussd}` : ''})`,
        `  live: ${r.live}   test: ${r.test}   available: ${r.available ? 'yes' : 'no'}`,
      ];
      const settings = r.settings.map((s) => `  ${s.set ? 'set    ' : 'not set'}  ${s.env}${s.required ? '' : ' (optional)'}  ${s.description}`);
      return [...head, ...settings].join('\n');
    })
    .join('\n\n');
}
