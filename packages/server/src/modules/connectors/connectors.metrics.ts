import { Counter, Gauge, type Registry } from 'prom-client';
import { PROVIDER_OUTCOMES } from './connectors.health.ts';
import { type ConnectorSource, healthViews } from './connectors.registry.ts';

/**
 * The provider accounts' health on /metrics, read from the health windows when scraped:
 * `caisse_provider_calls_total{mode, provider, account, outcome}` (success, timeout, server_error,
 * unknown) and `caisse_provider_available{mode, provider, account}` (1 or 0); `provider` is the
 * payment method (operator) the account was called for, `account` the provider account (`pac_…`).
 */
export function registerProviderMetrics(registry: Registry, source: ConnectorSource): void {
  new Counter({
    name: 'caisse_provider_calls_total',
    help: 'Calls to mobile-money providers by mode, provider and outcome (success: the provider answered; timeout, server_error, unknown: it did not usefully)',
    labelNames: ['mode', 'provider', 'account', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const v of healthViews(source)) {
        for (const outcome of PROVIDER_OUTCOMES) this.inc({ mode: v.mode, provider: v.method, account: v.account, outcome }, v.outcomes[outcome]);
      }
    },
  });
  new Gauge({
    name: 'caisse_provider_available',
    help: 'Whether new charges go to the provider account for the provider (0 while its recent calls mostly failed)',
    labelNames: ['mode', 'provider', 'account'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const v of healthViews(source)) this.set({ mode: v.mode, provider: v.method, account: v.account }, v.available ? 1 : 0);
    },
  });
}
